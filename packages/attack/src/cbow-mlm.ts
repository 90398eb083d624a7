import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DEFAULT_SEPARATOR, XtrustError, rng, tokenize } from '@xtrust/core';
import { OnnxGraphBuilder, ONNX_FLOAT, ONNX_INT64 } from '@xtrust/models';
import type { MaskedWordModel } from './mlm.js';
import { isSingleToken } from './text.js';

export interface CbowOptions {
  /** Vector size. Default 64. */
  dim?: number;
  /** Context words on each side. Default 2. */
  window?: number;
  /** Passes over the texts. Default 3. */
  epochs?: number;
  /** Negative samples per position (unigram^0.75). Default 5. */
  negatives?: number;
  /** Words seen fewer times are left out. Default 3. */
  minCount?: number;
  /** At most this many words (the most frequent). Default 20,000. */
  maxVocab?: number;
  /** Start learning rate, decayed linearly to 1e-4 of it. Default 0.05. */
  learningRate?: number;
  seed?: number;
  /** Recorded as the model's provenance (e.g. "Brown + SpamAssassin training bodies"). */
  corpus?: string;
}

const SPECIAL = ['[PAD]', '[UNK]', '[MASK]'] as const;
const OFFSET = SPECIAL.length;

/**
 * A masked-word model trained by xtrust: continuous bag of words (Mikolov et al. 2013, CBOW with negative
 * sampling), which is exactly a masked-word predictor — p(w_t | the ±`window` words around t). Small and
 * real: it predicts fillers from context, unlike embedding neighbours. Masked and unknown context words
 * contribute nothing. `exportFillMask(dir)` writes it in Hugging Face fill-mask layout (tokenizer.json with
 * [MASK], config.json, onnx/model.onnx with input_ids/attention_mask → logits [batch, sequence, vocab]), so
 * `HfMaskedWordModel.load(dir)` runs the same model through @huggingface/transformers.
 */
export class CbowMaskedWordModel implements MaskedWordModel {
  readonly name: string;
  private readonly index: Map<string, number>;

  constructor(
    readonly words: readonly string[],
    readonly dim: number,
    readonly window: number,
    /** V×dim context (input) vectors. */
    readonly input: Float32Array,
    /** V×dim output vectors. */
    readonly output: Float32Array,
    readonly corpus = 'unspecified corpus',
  ) {
    this.index = new Map(words.map((w, i) => [w, i]));
    this.name = `cbow-mlm (${words.length} words, d=${dim}, window ±${window}; ${corpus})`;
  }

  /** Fillers for each masked position of one text, best first (one scoring pass over the vocabulary per mask). */
  async fill(
    words: readonly string[],
    _separators: readonly string[],
    masked: readonly number[],
    topK: number,
  ): Promise<string[][]> {
    const V = this.words.length;
    const d = this.dim;
    const maskedSet = new Set(masked);
    const ids = words.map((w, i) => (maskedSet.has(i) ? -1 : (this.index.get(w.toLowerCase()) ?? -1)));
    return masked.map((m) => {
      const h = new Float64Array(d);
      for (let j = Math.max(0, m - this.window); j <= Math.min(words.length - 1, m + this.window); j++) {
        if (j === m || ids[j] < 0) continue;
        for (let k = 0; k < d; k++) h[k] += this.input[ids[j] * d + k];
      }
      const scores = new Float64Array(V);
      for (let v = 0; v < V; v++) {
        let s = 0;
        for (let k = 0; k < d; k++) s += h[k] * this.output[v * d + k];
        scores[v] = s;
      }
      const order = Array.from({ length: V }, (_, v) => v).sort((a, b) => scores[b] - scores[a] || a - b);
      const own = words[m].toLowerCase();
      const out: string[] = [];
      for (const v of order) {
        if (out.length >= topK) break;
        const w = this.words[v];
        if (w !== own && isSingleToken(w)) out.push(w);
      }
      return out;
    });
  }

  /**
   * Pseudo-perplexity of each text (Salazar et al. 2020, masked-LM scoring): exp of the mean over its words of
   * −log p(w_t | the ±window words around t), the softmax taken over the whole vocabulary. A word outside the
   * vocabulary gets the uniform probability 1/V. This is a fluency score from a masked-word model, not GPT-2's
   * left-to-right perplexity of 002 Eq. 1; a text without words gets 1.
   */
  async pseudoPerplexity(texts: readonly string[]): Promise<Float64Array> {
    const V = this.words.length;
    const d = this.dim;
    const out = new Float64Array(texts.length);
    const scores = new Float64Array(V);
    const h = new Float64Array(d);
    texts.forEach((text, n) => {
      const ids = tokenize(text, { lowercase: true }).map((t) => this.index.get(t.text) ?? -1);
      let nll = 0;
      ids.forEach((id, t) => {
        if (id < 0) {
          nll += Math.log(V);
          return;
        }
        h.fill(0);
        for (let j = Math.max(0, t - this.window); j <= Math.min(ids.length - 1, t + this.window); j++) {
          if (j === t || ids[j] < 0) continue;
          for (let k = 0; k < d; k++) h[k] += this.input[ids[j] * d + k];
        }
        let max = -Infinity;
        for (let v = 0; v < V; v++) {
          let s = 0;
          for (let k = 0; k < d; k++) s += h[k] * this.output[v * d + k];
          scores[v] = s;
          if (s > max) max = s;
        }
        let z = 0;
        for (let v = 0; v < V; v++) z += Math.exp(scores[v] - max);
        nll -= scores[id] - max - Math.log(z);
      });
      out[n] = ids.length === 0 ? 1 : Math.exp(nll / ids.length);
    });
    return out;
  }

  /** Saves the model as `cbow.json` (words, sizes, corpus) and `cbow.bin` (input then output vectors, little-endian Float32). */
  async save(dir: string): Promise<void> {
    await mkdir(dir, { recursive: true });
    const buf = Buffer.alloc((this.input.length + this.output.length) * 4);
    this.input.forEach((x, i) => buf.writeFloatLE(x, i * 4));
    this.output.forEach((x, i) => buf.writeFloatLE(x, (this.input.length + i) * 4));
    await writeFile(join(dir, 'cbow.bin'), buf);
    await writeFile(
      join(dir, 'cbow.json'),
      JSON.stringify({
        format: 'xtrust-cbow-mlm',
        version: 1,
        dim: this.dim,
        window: this.window,
        corpus: this.corpus,
        words: this.words,
      }),
    );
  }

  /** Loads a model written by `save`; FILE_NOT_FOUND or PARSE_ERROR name the file. */
  static async load(dir: string): Promise<CbowMaskedWordModel> {
    const meta = join(dir, 'cbow.json');
    const bin = join(dir, 'cbow.bin');
    for (const f of [meta, bin])
      if (!existsSync(f))
        throw new XtrustError(
          'FILE_NOT_FOUND',
          `${f}: no such file (a CBOW masked-word model folder holds cbow.json and cbow.bin)`,
          { file: f },
        );
    let m: { format?: string; dim: number; window: number; corpus: string; words: string[] };
    try {
      m = JSON.parse(await readFile(meta, 'utf8'));
    } catch (e) {
      throw new XtrustError(
        'PARSE_ERROR',
        `${meta}: not valid JSON (${(e as Error).message})`,
        { file: meta },
        { cause: e },
      );
    }
    if (m.format !== 'xtrust-cbow-mlm')
      throw new XtrustError('INCOMPATIBLE', `${meta}: not a CBOW masked-word model (format ${String(m.format)})`, {
        file: meta,
      });
    const b = await readFile(bin);
    const n = m.words.length * m.dim;
    if (b.length !== 8 * n)
      throw new XtrustError(
        'DIMENSION_MISMATCH',
        `${bin}: ${b.length} bytes; expected ${8 * n} for ${m.words.length} words × ${m.dim} × 2`,
        { file: bin },
      );
    const input = new Float32Array(n);
    const output = new Float32Array(n);
    for (let i = 0; i < n; i++) {
      input[i] = b.readFloatLE(i * 4);
      output[i] = b.readFloatLE((n + i) * 4);
    }
    return new CbowMaskedWordModel(m.words, m.dim, m.window, input, output, m.corpus);
  }

  /** Writes the model in Hugging Face fill-mask layout (see the class comment). */
  async exportFillMask(dir: string): Promise<void> {
    const V = this.words.length + OFFSET;
    const d = this.dim;
    const w = this.window;
    // input table with zero rows for [PAD], [UNK], [MASK]: they add nothing to a context
    const E = new Float32Array(V * d);
    E.set(this.input, OFFSET * d);
    // output matrix d×V; special tokens get a very low score so they are never proposed
    const W = new Float32Array(d * V);
    for (let v = 0; v < this.words.length; v++)
      for (let k = 0; k < d; k++) W[k * V + OFFSET + v] = this.output[v * d + k];
    const bias = new Float32Array(V);
    for (let s = 0; s < OFFSET; s++) bias[s] = -1e4;
    // depthwise convolution over positions: the sum of the ±w neighbours, the position itself left out
    const K = new Float32Array(d * (2 * w + 1));
    for (let c = 0; c < d; c++) for (let t = 0; t <= 2 * w; t++) K[c * (2 * w + 1) + t] = t === w ? 0 : 1;
    const g = new OnnxGraphBuilder('xtrust-cbow-mlm');
    g.input('input_ids', ONNX_INT64, ['batch', 'sequence']);
    g.input('attention_mask', ONNX_INT64, ['batch', 'sequence']);
    g.floats('E', [V, d], E);
    g.floats('W', [d, V], W);
    g.floats('bias', [V], bias);
    g.floats('K', [d, 1, 2 * w + 1], K);
    g.int64s('axis2', [1], [2]);
    g.node('Cast', ['attention_mask'], { to: { int: ONNX_FLOAT } }, 'mask_f');
    g.node('Gather', ['E', 'input_ids'], { axis: { int: 0 } }, 'vectors'); // [B, T, d]
    g.node('Unsqueeze', ['mask_f', 'axis2'], {}, 'mask3'); // [B, T, 1]
    g.node('Mul', ['vectors', 'mask3'], {}, 'kept');
    g.node('Transpose', ['kept'], { perm: { ints: [0, 2, 1] } }, 'channels'); // [B, d, T]
    g.node(
      'Conv',
      ['channels', 'K'],
      { group: { int: d }, kernel_shape: { ints: [2 * w + 1] }, pads: { ints: [w, w] } },
      'context',
    );
    g.node('Transpose', ['context'], { perm: { ints: [0, 2, 1] } }, 'h'); // [B, T, d]
    g.node('MatMul', ['h', 'W'], {}, 'scores');
    g.node('Add', ['scores', 'bias'], {}, 'logits');
    g.output('logits', ONNX_FLOAT, ['batch', 'sequence', V]);
    await mkdir(join(dir, 'onnx'), { recursive: true });
    await writeFile(join(dir, 'onnx', 'model.onnx'), g.toBytes(17, this.name));
    const added = SPECIAL.map((content, id) => ({
      id,
      content,
      single_word: false,
      lstrip: false,
      rstrip: false,
      normalized: false,
      special: true,
    }));
    const vocab: Record<string, number> = {};
    SPECIAL.forEach((s, i) => (vocab[s] = i));
    this.words.forEach((x, i) => (vocab[x] = i + OFFSET));
    await writeFile(
      join(dir, 'tokenizer.json'),
      JSON.stringify({
        version: '1.0',
        truncation: null,
        padding: null,
        added_tokens: added,
        normalizer: { type: 'Lowercase' },
        pre_tokenizer: {
          type: 'Split',
          pattern: { Regex: DEFAULT_SEPARATOR.source },
          behavior: 'Removed',
          invert: false,
        },
        post_processor: null,
        decoder: { type: 'WordPiece', prefix: '##', cleanup: false },
        model: { type: 'WordLevel', vocab, unk_token: '[UNK]' },
      }),
    );
    await writeFile(
      join(dir, 'tokenizer_config.json'),
      JSON.stringify({
        tokenizer_class: 'PreTrainedTokenizerFast',
        unk_token: '[UNK]',
        pad_token: '[PAD]',
        mask_token: '[MASK]',
        model_max_length: 1_000_000,
        do_lower_case: true,
      }),
    );
    await writeFile(
      join(dir, 'config.json'),
      JSON.stringify({
        model_type: 'bert',
        architectures: ['BertForMaskedLM'],
        vocab_size: V,
        xtrust: { kind: 'cbow-mlm', window: w, dim: d, corpus: this.corpus },
      }),
    );
  }
}

/**
 * Trains a CBOW masked-word model on texts (lower-cased core tokens), seeded. A few million tokens take
 * seconds. Throws INVALID_ARGUMENT when the texts leave fewer than two words in the vocabulary.
 */
export function trainMaskedWordModel(texts: readonly string[], options: CbowOptions = {}): CbowMaskedWordModel {
  const d = options.dim ?? 64;
  const w = options.window ?? 2;
  const epochs = options.epochs ?? 3;
  const negatives = options.negatives ?? 5;
  const lr0 = options.learningRate ?? 0.05;
  const r = rng(options.seed ?? 0);
  const counts = new Map<string, number>();
  const docs = texts.map((t) => tokenize(t, { lowercase: true }).map((x) => x.text));
  for (const doc of docs) for (const x of doc) counts.set(x, (counts.get(x) ?? 0) + 1);
  const vocab = [...counts]
    .filter(([, c]) => c >= (options.minCount ?? 3))
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, options.maxVocab ?? 20_000);
  if (vocab.length < 2)
    throw new XtrustError(
      'INVALID_ARGUMENT',
      `trainMaskedWordModel: only ${vocab.length} words occur ${options.minCount ?? 3} times or more; give more text`,
      { argument: 'texts' },
    );
  const words = vocab.map(([x]) => x);
  const id = new Map(words.map((x, i) => [x, i]));
  const V = words.length;
  // unigram^0.75 table for negative sampling
  const table = new Int32Array(1 << 20);
  const pow = vocab.map(([, c]) => c ** 0.75);
  const total = pow.reduce((a, b) => a + b, 0);
  for (let i = 0, v = 0, acc = pow[0] / total; i < table.length; i++) {
    table[i] = v;
    if (i / table.length > acc && v < V - 1) acc += pow[++v] / total;
  }
  const input = new Float32Array(V * d).map(() => (r.float() - 0.5) / d);
  const output = new Float32Array(V * d);
  const seqs = docs.map((doc) => Int32Array.from(doc, (x) => id.get(x) ?? -1));
  const steps = epochs * seqs.reduce((s, q) => s + q.length, 0);
  let step = 0;
  const h = new Float32Array(d);
  const e = new Float32Array(d);
  for (let ep = 0; ep < epochs; ep++) {
    for (const q of seqs) {
      for (let t = 0; t < q.length; t++, step++) {
        const target = q[t];
        if (target < 0) continue;
        const lr = Math.max(lr0 * 1e-4, lr0 * (1 - step / steps));
        h.fill(0);
        e.fill(0);
        let n = 0;
        for (let j = Math.max(0, t - w); j <= Math.min(q.length - 1, t + w); j++) {
          if (j === t || q[j] < 0) continue;
          n++;
          for (let k = 0; k < d; k++) h[k] += input[q[j] * d + k];
        }
        if (n === 0) continue;
        for (let k = 0; k < d; k++) h[k] /= n;
        for (let s = 0; s <= negatives; s++) {
          const o = s === 0 ? target : table[r.int(table.length)];
          if (s > 0 && o === target) continue;
          let z = 0;
          for (let k = 0; k < d; k++) z += h[k] * output[o * d + k];
          const g = ((s === 0 ? 1 : 0) - 1 / (1 + Math.exp(-z))) * lr;
          for (let k = 0; k < d; k++) {
            e[k] += g * output[o * d + k];
            output[o * d + k] += g * h[k];
          }
        }
        for (let j = Math.max(0, t - w); j <= Math.min(q.length - 1, t + w); j++) {
          if (j === t || q[j] < 0) continue;
          for (let k = 0; k < d; k++) input[q[j] * d + k] += e[k];
        }
      }
    }
  }
  return new CbowMaskedWordModel(words, d, w, input, output, options.corpus);
}
