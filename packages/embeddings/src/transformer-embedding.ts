import { existsSync, readFileSync, statSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
// Types only: the library (and onnxruntime) is imported when a model is loaded, so importing
// @xtrust/embeddings stays cheap for users who never touch a transformer.
import type { PreTrainedModel, PreTrainedTokenizer, Tensor } from '@huggingface/transformers';

type TensorCtor = new (type: 'int64', data: BigInt64Array, dims: number[]) => Tensor;
import {
  hiddenSizeOf,
  tokenize,
  XtrustError,
  type SentenceEncoder,
  type Token,
  type WordEmbedding,
} from '@xtrust/core';
import { checkWords } from './words.js';

export interface TransformerEmbeddingOptions {
  /** Allow a Hugging Face hub id (downloads). Default false: only a local folder in HF layout loads. */
  allowRemote?: boolean;
  /** Weights variant transformers.js loads (`fp32` = onnx/model.onnx). Default `fp32`. */
  dtype?: 'fp32' | 'fp16' | 'q8' | 'int8' | 'uint8' | 'q4' | 'bnb4' | 'q4f16';
  /** The graph output holding token states. Default `last_hidden_state`. */
  output?: string;
  /** L2-normalise sentence embeddings (MiniLM / sentence-transformers practice). Default true. */
  normalize?: boolean;
  /** Texts per model call. Default 32. */
  batchSize?: number;
  /** Longest input in tokens, special tokens included (default: the tokenizer's model_max_length, capped at 512). */
  maxLength?: number;
  /** Name of the embedding (default `transformer:<folder name or id>`). */
  name?: string;
}

/** The contextual vectors of one sentence's words. */
export interface ContextualWords {
  /** The sentence's words (core's `tokenize`, offsets into the sentence). */
  readonly words: readonly Token[];
  /** words.length × dim: each word's vector, the mean of its sub-word pieces' states. */
  readonly vectors: Float32Array;
  /** 0 for a word with no piece inside the model's input (truncated, or only unknown pieces): its row is NaN. */
  readonly known: Uint8Array;
}

/**
 * Embeddings from a transformer encoder run by @huggingface/transformers (ONNX Runtime, CPU), from a
 * local folder in Hugging Face layout (config.json, tokenizer.json, onnx/model.onnx) or, with
 * `allowRemote`, a hub id:
 * - `encode(texts)`: mean-pooled sentence embeddings over the attention mask (MiniLM /
 *   sentence-transformers, Reimers & Gurevych 2019), L2-normalised by default;
 * - `contextual(sentences)`: each word's vector in its sentence, the mean of its sub-word states
 *   (BERT-style, Devlin et al. 2019; the "BERT score" of 000 §6.4 compares such vectors);
 * - `vectors(words)`: a word alone (`[CLS] word [SEP]`), so the model can join TOKI's ensemble.
 * Words are the pieces of core's `tokenize`; each is tokenised separately and the pieces
 * concatenated, so every piece belongs to exactly one word.
 */
export class TransformerEmbedding implements SentenceEncoder, WordEmbedding {
  readonly name: string;
  readonly dim: number;
  private readonly tokenizer: PreTrainedTokenizer;
  private readonly model: PreTrainedModel;
  private readonly output: string;
  private readonly normalize: boolean;
  private readonly batchSize: number;
  private readonly maxLength: number;
  private readonly prefix: number[];
  private readonly suffix: number[];
  private readonly pieceCache = new Map<string, number[]>();
  private readonly Tensor: TensorCtor;

  private constructor(
    name: string,
    dim: number,
    tokenizer: PreTrainedTokenizer,
    model: PreTrainedModel,
    TensorClass: TensorCtor,
    options: TransformerEmbeddingOptions,
  ) {
    this.name = name;
    this.Tensor = TensorClass;
    this.dim = dim;
    this.tokenizer = tokenizer;
    this.model = model;
    this.output = options.output ?? 'last_hidden_state';
    this.normalize = options.normalize ?? true;
    this.batchSize = options.batchSize ?? 32;
    const tokMax = Number(tokenizer.model_max_length);
    this.maxLength = options.maxLength ?? (Number.isFinite(tokMax) && tokMax > 0 ? Math.min(tokMax, 512) : 512);
    // The special tokens the tokenizer wraps a text in: where a probe word's own pieces sit inside
    // its encoding with specials ([CLS] … [SEP] for BERT, nothing for GPT-2).
    const bare = tokenizer.encode('the', { add_special_tokens: false });
    const full = tokenizer.encode('the', { add_special_tokens: true });
    let at = 0;
    for (; at + bare.length <= full.length; at++) if (bare.every((id, k) => full[at + k] === id)) break;
    if (at + bare.length > full.length) at = full.length;
    this.prefix = full.slice(0, at);
    this.suffix = full.slice(at + bare.length);
  }

  /** Loads a local model folder, or (with `allowRemote`) a hub id; FILE_NOT_FOUND names what is missing. */
  static async load(modelPathOrId: string, options: TransformerEmbeddingOptions = {}): Promise<TransformerEmbedding> {
    if (typeof modelPathOrId !== 'string' || modelPathOrId === '')
      throw new XtrustError('INVALID_ARGUMENT', 'TransformerEmbedding: a model folder (or hub id) is required');
    const dtype = options.dtype ?? 'fp32';
    const local = isAbsolute(modelPathOrId) ? modelPathOrId : resolve(modelPathOrId);
    const isFolder = existsSync(local) && statSync(local).isDirectory();
    if (!isFolder && !options.allowRemote) {
      throw new XtrustError(
        'FILE_NOT_FOUND',
        `TransformerEmbedding: model folder ${local} does not exist (remote loading is disabled; pass allowRemote: true to load "${modelPathOrId}" from the Hugging Face hub)`,
        { file: local },
      );
    }
    if (isFolder) {
      const weights = dtype === 'fp32' ? 'onnx/model.onnx' : `onnx/model_${dtype === 'q8' ? 'quantized' : dtype}.onnx`;
      for (const f of ['config.json', 'tokenizer.json', weights]) {
        if (!existsSync(join(local, f)))
          throw new XtrustError('FILE_NOT_FOUND', `TransformerEmbedding: ${join(local, f)} is missing`, {
            file: join(local, f),
          });
      }
    }
    const target = isFolder ? local : modelPathOrId;
    const localOnly = isFolder || !options.allowRemote;
    let tokenizer: PreTrainedTokenizer;
    let model: PreTrainedModel;
    const { AutoModel, AutoTokenizer, Tensor } = await import('@huggingface/transformers');
    try {
      tokenizer = await AutoTokenizer.from_pretrained(target, { local_files_only: localOnly });
      model = await AutoModel.from_pretrained(target, { local_files_only: localOnly, dtype });
    } catch (e) {
      throw new XtrustError(
        'FILE_UNREADABLE',
        `TransformerEmbedding: transformers.js cannot load ${target}: ${(e as Error).message}`,
        { file: target },
        { cause: e },
      );
    }
    const config = isFolder
      ? (JSON.parse(readFileSync(join(local, 'config.json'), 'utf8')) as Record<string, unknown>)
      : (model.config as unknown as Record<string, unknown>);
    const dim = hiddenSizeOf(config);
    if (dim === undefined)
      throw new XtrustError(
        'INCOMPATIBLE',
        `TransformerEmbedding: config of ${target} names no hidden size (hidden_size, d_model, dim, n_embd or word_embed_proj_dim)`,
        { file: target },
      );
    const name = options.name ?? `transformer:${isFolder ? local.split(/[\\/]/).filter(Boolean).pop() : modelPathOrId}`;
    return new TransformerEmbedding(name, dim, tokenizer, model, Tensor as unknown as TensorCtor, options);
  }

  /** Sub-word ids of one word (no special tokens), memoised. */
  private pieces(word: string): number[] {
    let p = this.pieceCache.get(word);
    if (!p) {
      p = this.tokenizer.encode(word, { add_special_tokens: false });
      this.pieceCache.set(word, p);
    }
    return p;
  }

  /** Runs the model on id sequences (already wrapped in specials), returning [n, seq, dim] states and the padded length. */
  private async run(sequences: number[][]): Promise<{ states: Float32Array; seq: number }> {
    const seq = Math.max(1, ...sequences.map((s) => s.length));
    const ids = new BigInt64Array(sequences.length * seq).fill(BigInt(this.tokenizer.pad_token_id ?? 0));
    const mask = new BigInt64Array(sequences.length * seq);
    sequences.forEach((s, i) => {
      for (let j = 0; j < s.length; j++) {
        ids[i * seq + j] = BigInt(s[j]);
        mask[i * seq + j] = 1n;
      }
    });
    const shape = [sequences.length, seq];
    const out = (await this.model({
      input_ids: new this.Tensor('int64', ids, shape),
      attention_mask: new this.Tensor('int64', mask, shape),
    })) as Record<string, Tensor>;
    const t = out[this.output];
    if (!t)
      throw new XtrustError(
        'BAD_MODEL_OUTPUT',
        `${this.name}: the model has no output "${this.output}" (outputs: ${Object.keys(out).join(', ')})`,
      );
    if (t.dims.length !== 3 || t.dims[0] !== sequences.length || t.dims[1] !== seq || t.dims[2] !== this.dim) {
      throw new XtrustError(
        'BAD_MODEL_OUTPUT',
        `${this.name}: output "${this.output}" has shape [${t.dims}], expected [${sequences.length}, ${seq}, ${this.dim}]`,
      );
    }
    const states = t.data instanceof Float32Array ? t.data : Float32Array.from(t.data as ArrayLike<number>);
    for (let i = 0; i < states.length; i++)
      if (!Number.isFinite(states[i]))
        throw new XtrustError('BAD_MODEL_OUTPUT', `${this.name}: output "${this.output}" contains NaN or infinity`);
    return { states, seq };
  }

  /** Pieces of a text's words wrapped in specials and cut to maxLength; `spans[w]` = [start, end) of word w's pieces (empty when cut). */
  private layout(words: readonly string[]): { ids: number[]; spans: Int32Array } {
    const room = this.maxLength - this.prefix.length - this.suffix.length;
    const ids = [...this.prefix];
    const spans = new Int32Array(words.length * 2);
    for (let w = 0; w < words.length; w++) {
      const p = this.pieces(words[w]);
      const start = ids.length;
      const take = Math.max(0, Math.min(p.length, room - (ids.length - this.prefix.length)));
      for (let k = 0; k < take; k++) ids.push(p[k]);
      spans[2 * w] = start;
      spans[2 * w + 1] = start + take;
    }
    ids.push(...this.suffix);
    return { ids, spans };
  }

  /**
   * n texts → n×dim mean-pooled sentence embeddings (over every non-padding position, special
   * tokens included, as sentence-transformers' mean pooling does). EMPTY_TEXT for a blank text.
   */
  async encode(texts: readonly string[]): Promise<Float32Array> {
    checkWords(texts, `${this.name}.encode`);
    const out = new Float32Array(texts.length * this.dim);
    for (let b = 0; b < texts.length; b += this.batchSize) {
      const batch = texts.slice(b, b + this.batchSize);
      const seqs = batch.map((t, i) => {
        if (t.trim() === '')
          throw new XtrustError('EMPTY_TEXT', `${this.name}: text ${b + i} is empty`, { index: b + i });
        let ids = this.tokenizer.encode(t, { add_special_tokens: true });
        if (ids.length > this.maxLength) ids = [...ids.slice(0, this.maxLength - this.suffix.length), ...this.suffix];
        return ids;
      });
      const { states, seq } = await this.run(seqs);
      seqs.forEach((s, i) => {
        const row = out.subarray((b + i) * this.dim, (b + i + 1) * this.dim);
        for (let j = 0; j < s.length; j++)
          for (let d = 0; d < this.dim; d++) row[d] += states[(i * seq + j) * this.dim + d];
        let nn = 0;
        for (let d = 0; d < this.dim; d++) {
          row[d] /= s.length;
          nn += row[d] * row[d];
        }
        if (this.normalize && nn > 0) for (let d = 0; d < this.dim; d++) row[d] /= Math.sqrt(nn);
      });
    }
    return out;
  }

  /** Each sentence's words (core `tokenize`) with their contextual vectors, sub-word states averaged. */
  async contextual(sentences: readonly string[]): Promise<ContextualWords[]> {
    checkWords(sentences, `${this.name}.contextual`);
    const results: ContextualWords[] = [];
    for (let b = 0; b < sentences.length; b += this.batchSize) {
      const batch = sentences.slice(b, b + this.batchSize);
      const toks = batch.map((s) => tokenize(s));
      const layouts = toks.map((t) => this.layout(t.map((x) => x.text)));
      const { states, seq } = await this.run(layouts.map((l) => l.ids));
      layouts.forEach((l, i) => {
        const n = toks[i].length;
        const vectors = new Float32Array(n * this.dim);
        const known = new Uint8Array(n);
        for (let w = 0; w < n; w++) {
          const s0 = l.spans[2 * w];
          const s1 = l.spans[2 * w + 1];
          const row = vectors.subarray(w * this.dim, (w + 1) * this.dim);
          if (s1 <= s0) {
            row.fill(NaN);
            continue;
          }
          known[w] = 1;
          for (let j = s0; j < s1; j++)
            for (let d = 0; d < this.dim; d++) row[d] += states[(i * seq + j) * this.dim + d];
          for (let d = 0; d < this.dim; d++) row[d] /= s1 - s0;
        }
        results.push({ words: toks[i], vectors, known });
      });
    }
    return results;
  }

  /** True when the word has at least one sub-word piece that is not the unknown token. */
  has(word: string): boolean {
    if (typeof word !== 'string')
      throw new XtrustError('INVALID_ARGUMENT', `${this.name}.has: expected a word (string), got ${typeof word}`);
    if (word.trim() === '') return false;
    const unk = this.tokenizer.unk_token_id;
    return this.pieces(word).some((id) => id !== unk);
  }

  /** Each word alone in its own input (`[CLS] word [SEP]`), its pieces' states averaged; OUT_OF_VOCABULARY when `has` is false. */
  async vectors(words: readonly string[]): Promise<Float32Array> {
    checkWords(words, `${this.name}.vectors`);
    const missing = words.filter((w) => !this.has(w));
    if (missing.length > 0) {
      throw new XtrustError(
        'OUT_OF_VOCABULARY',
        `${this.name} has no vector for ${missing.length} word(s): ${missing
          .slice(0, 10)
          .map((w) => JSON.stringify(w))
          .join(', ')}`,
        {
          embedding: this.name,
          missing,
        },
      );
    }
    const out = new Float32Array(words.length * this.dim);
    for (let b = 0; b < words.length; b += this.batchSize) {
      const batch = words.slice(b, b + this.batchSize);
      const layouts = batch.map((w) => this.layout([w]));
      const { states, seq } = await this.run(layouts.map((l) => l.ids));
      layouts.forEach((l, i) => {
        const row = out.subarray((b + i) * this.dim, (b + i + 1) * this.dim);
        const [s0, s1] = [l.spans[0], l.spans[1]];
        for (let j = s0; j < s1; j++) for (let d = 0; d < this.dim; d++) row[d] += states[(i * seq + j) * this.dim + d];
        for (let d = 0; d < this.dim; d++) row[d] /= s1 - s0;
      });
    }
    return out;
  }
}
