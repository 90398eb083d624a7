import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as ort from 'onnxruntime-node';
import { describe, expect, it } from 'vitest';
import { loadLocalTokenizer } from '../src/hf-tokenizer-loader.js';
import { FIXTURES } from '../../../models/transformers/fixture-paths.js';

/**
 * The committed transformer fixtures (models/transformers/fixtures, built by the kit in PyTorch) run in
 * onnxruntime-node and agree with the PyTorch outputs the build wrote into each folder's reference.json:
 * logits and every layer's attention probabilities within 1e-4; the gradient graph's gradients within
 * 1e-4 of torch autograd's (relative to the gradient's largest entry when that exceeds 1); and
 * transformers.js' tokenizer gives the ids the kit's WordPiece encoder gave.
 */

interface ClassifierReference {
  tolerance: number;
  labels: string[];
  texts: string[];
  input_ids: number[][];
  attention_mask: number[][];
  token_type_ids: number[][];
  logits: number[][];
  attentions: number[][][][][];
  gradient_cases: {
    name: string;
    embedding_scale: number[][];
    output_weights: number[][];
    logits: number[][];
    inputs_embeds: number[][][];
    gradients: number[][][];
  }[];
}

const readJson = <T>(path: string): T => JSON.parse(readFileSync(path, 'utf8')) as T;

function int64(rows: number[][]): ort.Tensor {
  return new ort.Tensor('int64', BigInt64Array.from(rows.flat().map((v) => BigInt(v))), [rows.length, rows[0].length]);
}
function float32(rows: number[][]): ort.Tensor {
  return new ort.Tensor('float32', Float32Array.from(rows.flat()), [rows.length, rows[0].length]);
}
function flat(x: unknown): number[] {
  return Array.isArray(x) ? x.flatMap(flat) : [x as number];
}
function maxAbsDiff(a: ArrayLike<number>, b: readonly number[]): number {
  expect(a.length).toBe(b.length);
  let m = 0;
  for (let i = 0; i < b.length; i++) m = Math.max(m, Math.abs(a[i] - b[i]));
  return m;
}
const maxAbs = (a: readonly number[]) => a.reduce((m, v) => Math.max(m, Math.abs(v)), 0);

async function session(folder: string, file = 'model.onnx'): Promise<ort.InferenceSession> {
  return ort.InferenceSession.create(join(FIXTURES, folder, 'onnx', file));
}

for (const name of ['tiny-bert-spam', 'tiny-bert-brown', 'tiny-bert-shortcut']) {
  describe(`${name}: onnxruntime-node equals PyTorch`, () => {
    const folder = join(FIXTURES, name);
    const ref = readJson<ClassifierReference>(join(folder, 'reference.json'));
    const config = readJson<{
      num_hidden_layers: number;
      num_attention_heads: number;
      id2label: Record<string, string>;
      architectures: string[];
    }>(join(folder, 'config.json'));

    it('has the contract layout: config with id2label, tokenizer files, both graphs', () => {
      expect(config.architectures).toEqual(['BertForSequenceClassification']);
      expect(Object.values(config.id2label)).toEqual(ref.labels);
      for (const f of [
        'tokenizer.json',
        'tokenizer_config.json',
        'special_tokens_map.json',
        'vocab.txt',
        'onnx/model.onnx',
        'onnx/model_grad.onnx',
      ])
        expect(existsSync(join(folder, f)), f).toBe(true);
    });

    it('model.onnx: logits and attentions.N within 1e-4 of PyTorch on a padded batch', async () => {
      const s = await session(name);
      expect(s.inputNames).toEqual(['input_ids', 'attention_mask', 'token_type_ids']);
      expect(s.outputNames).toEqual([
        'logits',
        ...Array.from({ length: config.num_hidden_layers }, (_, i) => `attentions.${i}`),
      ]);
      const out = await s.run({
        input_ids: int64(ref.input_ids),
        attention_mask: int64(ref.attention_mask),
        token_type_ids: int64(ref.token_type_ids),
      });
      expect(out.logits.dims).toEqual([ref.texts.length, ref.labels.length]);
      expect(maxAbsDiff(out.logits.data as Float32Array, flat(ref.logits))).toBeLessThanOrEqual(1e-4);
      const S = ref.input_ids[0].length;
      for (let l = 0; l < config.num_hidden_layers; l++) {
        const a = out[`attentions.${l}`];
        expect(a.dims).toEqual([ref.texts.length, config.num_attention_heads, S, S]);
        expect(maxAbsDiff(a.data as Float32Array, flat(ref.attentions[l]))).toBeLessThanOrEqual(1e-4);
      }
      // a row of attention probabilities sums to 1 and gives padded keys nothing
      const a0 = out['attentions.0'].data as Float32Array;
      const b = ref.attention_mask.findIndex((m) => m.includes(0));
      if (b >= 0) {
        const q = 0;
        const row = a0.subarray(
          ((b * config.num_attention_heads + 0) * S + q) * S,
          ((b * config.num_attention_heads + 0) * S + q + 1) * S,
        );
        expect(row.reduce((x, y) => x + y, 0)).toBeCloseTo(1, 5);
        ref.attention_mask[b].forEach((m, k) => m === 0 && expect(row[k]).toBe(0));
      }
    });

    it('model_grad.onnx: logits, inputs_embeds and gradients equal PyTorch autograd', async () => {
      const s = await session(name, 'model_grad.onnx');
      expect(s.inputNames).toEqual([
        'input_ids',
        'attention_mask',
        'token_type_ids',
        'embedding_scale',
        'output_weights',
      ]);
      expect(s.outputNames).toEqual(['logits', 'inputs_embeds', 'gradients']);
      expect(ref.gradient_cases.length).toBeGreaterThanOrEqual(2);
      for (const c of ref.gradient_cases) {
        const out = await s.run({
          input_ids: int64(ref.input_ids),
          attention_mask: int64(ref.attention_mask),
          token_type_ids: int64(ref.token_type_ids),
          embedding_scale: float32(c.embedding_scale),
          output_weights: float32(c.output_weights),
        });
        expect(maxAbsDiff(out.logits.data as Float32Array, flat(c.logits)), c.name).toBeLessThanOrEqual(1e-4);
        expect(maxAbsDiff(out.inputs_embeds.data as Float32Array, flat(c.inputs_embeds)), c.name).toBeLessThanOrEqual(
          1e-6,
        );
        const g = flat(c.gradients);
        expect(maxAbs(g), `${c.name}: a gradient that is all zero checks nothing`).toBeGreaterThan(1e-3);
        expect(maxAbsDiff(out.gradients.data as Float32Array, g), c.name).toBeLessThanOrEqual(
          1e-4 * Math.max(1, maxAbs(g)),
        );
      }
    });

    it("transformers.js' tokenizer gives the ids PyTorch was fed", async () => {
      const tok = await loadLocalTokenizer(folder, name);
      const enc = tok(ref.texts, { padding: true, truncation: true, return_tensor: false }) as unknown as {
        input_ids: number[][];
        attention_mask: number[][];
      };
      expect(enc.input_ids.map((r) => r.map(Number))).toEqual(ref.input_ids);
      expect(enc.attention_mask.map((r) => r.map(Number))).toEqual(ref.attention_mask);
    });
  });
}

describe('tiny-bert-mlm: onnxruntime-node equals PyTorch', () => {
  const name = 'tiny-bert-mlm';
  const ref = readJson<{
    texts: string[];
    input_ids: number[][];
    attention_mask: number[][];
    token_type_ids: number[][];
    positions: [number, number][];
    logits_at_positions: number[][];
    logits_of_inputs: number[][];
  }>(join(FIXTURES, name, 'reference.json'));

  it('model.onnx: [batch, sequence, vocab] logits within 1e-4 at the [MASK] positions and at every input piece', async () => {
    const s = await session(name);
    expect(s.outputNames).toEqual(['logits']);
    const out = await s.run({
      input_ids: int64(ref.input_ids),
      attention_mask: int64(ref.attention_mask),
      token_type_ids: int64(ref.token_type_ids),
    });
    const [B, S, V] = out.logits.dims as number[];
    expect([B, S]).toEqual([ref.input_ids.length, ref.input_ids[0].length]);
    const data = out.logits.data as Float32Array;
    expect(ref.positions.length).toBeGreaterThan(0);
    ref.positions.forEach(([b, p], i) =>
      expect(
        maxAbsDiff(data.subarray((b * S + p) * V, (b * S + p + 1) * V), ref.logits_at_positions[i]),
      ).toBeLessThanOrEqual(1e-4),
    );
    const own = ref.input_ids.flatMap((row, b) => row.map((id, p) => data[(b * S + p) * V + id]));
    expect(maxAbsDiff(own, flat(ref.logits_of_inputs))).toBeLessThanOrEqual(1e-4);
  });

  it("transformers.js reads [MASK] in a text as the mask piece, as the kit's encoder did", async () => {
    const tok = await loadLocalTokenizer(join(FIXTURES, name), name);
    const enc = tok(ref.texts, { padding: true, truncation: true, return_tensor: false }) as unknown as {
      input_ids: number[][];
    };
    expect(enc.input_ids.map((r) => r.map(Number))).toEqual(ref.input_ids);
  });
});

describe('tiny-gpt2: onnxruntime-node equals PyTorch', () => {
  const name = 'tiny-gpt2';
  const ref = readJson<{
    texts: string[];
    input_ids: number[][];
    attention_mask: number[][];
    positions: [number, number][];
    logits_at_positions: number[][];
    next_logprob: number[][];
    perplexity: number[];
  }>(join(FIXTURES, name, 'reference.json'));
  const config = readJson<{ model_type: string; architectures: string[]; bos_token_id: number; eos_token_id: number }>(
    join(FIXTURES, name, 'config.json'),
  );

  it('model.onnx: next-piece logits, log-probabilities and perplexities within 1e-4', async () => {
    expect(config.model_type).toBe('gpt2');
    expect(config.architectures).toEqual(['GPT2LMHeadModel']);
    const s = await session(name);
    expect(s.inputNames).toEqual(['input_ids', 'attention_mask']);
    expect(s.outputNames).toEqual(['logits']);
    const out = await s.run({ input_ids: int64(ref.input_ids), attention_mask: int64(ref.attention_mask) });
    const [, S, V] = out.logits.dims as number[];
    const data = out.logits.data as Float32Array;
    ref.positions.forEach(([b, p], i) =>
      expect(
        maxAbsDiff(data.subarray((b * S + p) * V, (b * S + p + 1) * V), ref.logits_at_positions[i]),
      ).toBeLessThanOrEqual(1e-4),
    );
    // log-softmax of each position's row at the next piece, and each text's perplexity over the positions after the first
    const logprob = ref.input_ids.map((row, b) =>
      row.slice(1).map((next, p) => {
        const r = data.subarray((b * S + p) * V, (b * S + p + 1) * V);
        let m = -Infinity;
        for (const v of r) m = Math.max(m, v);
        let z = 0;
        for (const v of r) z += Math.exp(v - m);
        return r[next] - m - Math.log(z);
      }),
    );
    expect(maxAbsDiff(logprob.flat(), flat(ref.next_logprob))).toBeLessThanOrEqual(1e-4);
    const ppl = ref.input_ids.map((_, b) => {
      const n = ref.attention_mask[b].reduce((x, y) => x + y, 0);
      return Math.exp(-logprob[b].slice(0, n - 1).reduce((x, y) => x + y, 0) / (n - 1));
    });
    ppl.forEach((p, b) => expect(Math.abs(p - ref.perplexity[b]) / ref.perplexity[b]).toBeLessThanOrEqual(1e-4));
  });

  it('is causal: changing a later piece leaves every earlier position unchanged', async () => {
    const s = await session(name);
    const row = ref.input_ids[0].slice(
      0,
      ref.attention_mask[0].reduce((x, y) => x + y, 0),
    );
    const k = Math.floor(row.length / 2);
    const changed = row.map((id, i) => (i === k ? (id === 100 ? 101 : 100) : id));
    const mask = [row.map(() => 1), row.map(() => 1)];
    const out = await s.run({ input_ids: int64([row, changed]), attention_mask: int64(mask) });
    const V = (out.logits.dims as number[])[2];
    const d = out.logits.data as Float32Array;
    const S = row.length;
    expect(maxAbsDiff(d.subarray(0, k * V), Array.from(d.subarray(S * V, S * V + k * V)))).toBe(0);
    expect(maxAbsDiff(d.subarray(k * V, S * V), Array.from(d.subarray(S * V + k * V, 2 * S * V)))).toBeGreaterThan(
      1e-3,
    );
  });

  it('its tokenizer wraps a text in [CLS] (beginning of sequence) … [SEP] (end)', async () => {
    const tok = await loadLocalTokenizer(join(FIXTURES, name), name);
    const enc = tok(ref.texts, { padding: true, truncation: true, return_tensor: false }) as unknown as {
      input_ids: number[][];
    };
    expect(enc.input_ids.map((r) => r.map(Number))).toEqual(ref.input_ids);
    for (const row of enc.input_ids) expect(Number(row[0])).toBe(config.bos_token_id);
  });
});
