import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAttentionProvider, rng, tokenize, type AttentionMap } from '@xtrust/core';
import { HfClassifier, hfConfigJson, OnnxClassifier, tokenizerConfigJson, tokenizerJson } from '../src/index.js';
import { alignTokens, findAttentionOutput, findLayerAttentionOutputs, splitAttention } from '../src/attention.js';
import { FLOAT, INT64, OnnxGraphBuilder } from '../src/onnx-graph.js';
import { maxAbsDiff } from './helpers.js';

/**
 * A small real self-attention model: X = E[ids]; per head h, A_h = softmax(X·Wq_h·(X·Wk_h)ᵀ/√d + mask
 * bias); logits = mean of X over unpadded positions · Wout. Ids follow a tokenizer.json that wraps
 * texts in [CLS] … [SEP], so the special-token handling is exercised too.
 */
const WORDS = ['good', 'film', 'awful', 'plot', 'the', 'was', 'fun'];
const D = 6;
const HEADS = 2;
const V = 2 + WORDS.length + 2; // [PAD], [UNK], words, [CLS], [SEP]
const CLS = V - 2;
const SEP = V - 1;
const r = rng(21);
const randn = (n: number, s = 1) => Float32Array.from({ length: n }, () => s * r.normal());
const E = randn(V * D);
const Wq = [randn(D * D, 0.8), randn(D * D, 0.8)];
const Wk = [randn(D * D, 0.8), randn(D * D, 0.8)];
const Wout = randn(D * 2);

function attentionGraph(outputName: 'last_attention' | 'layers'): Uint8Array {
  const g = new OnnxGraphBuilder('tiny-attention');
  const ids = g.input('input_ids', INT64, ['batch', 'sequence']);
  const mask = g.input('attention_mask', INT64, ['batch', 'sequence']);
  g.output('logits', FLOAT, ['batch', 2]);
  const maskF = g.node('Cast', [mask], { to: { int: FLOAT } });
  const X = g.node('Gather', [g.floats('E', [V, D], E), ids], { axis: { int: 0 } });
  const bias = g.node('Unsqueeze', [
    g.node('Mul', [
      g.node('Sub', [g.floats('one', [], Float32Array.of(1)), maskF]),
      g.floats('neg', [], Float32Array.of(-1e4)),
    ]),
    g.int64s('ax1', [1], [1]),
  ]);
  const heads = [0, 1].map((h) => {
    const Q = g.node('MatMul', [X, g.floats(`Wq${h}`, [D, D], Wq[h])]);
    const K = g.node('MatMul', [X, g.floats(`Wk${h}`, [D, D], Wk[h])]);
    const scores = g.node('Mul', [
      g.node('MatMul', [Q, g.node('Transpose', [K], { perm: { ints: [0, 2, 1] } })]),
      g.floats(`scale${h}`, [], Float32Array.of(1 / Math.sqrt(D))),
    ]);
    const A = g.node('Softmax', [g.node('Add', [scores, bias])], { axis: { int: -1 } });
    return g.node('Unsqueeze', [A, g.int64s(`ax1_${h}`, [1], [1])]);
  });
  if (outputName === 'last_attention') {
    g.output('last_attention', FLOAT, ['batch', HEADS, 'sequence', 'sequence']);
    g.node('Concat', heads, { axis: { int: 1 } }, 'last_attention');
  } else {
    // Two "layers": attentions.0 is a decoy (heads swapped), attentions.1 the last layer.
    g.output('attentions.0', FLOAT, ['batch', HEADS, 'sequence', 'sequence']);
    g.output('attentions.1', FLOAT, ['batch', HEADS, 'sequence', 'sequence']);
    g.node('Concat', [heads[1], heads[0]], { axis: { int: 1 } }, 'attentions.0');
    g.node('Concat', heads, { axis: { int: 1 } }, 'attentions.1');
  }
  const summed = g.node(
    'ReduceSum',
    [g.node('Mul', [X, g.node('Unsqueeze', [maskF, g.int64s('ax2', [1], [2])])]), g.int64s('ax1b', [1], [1])],
    { keepdims: { int: 0 } },
  );
  const n = g.node('Max', [
    g.node('ReduceSum', [maskF, g.int64s('ax1c', [1], [1])], { keepdims: { int: 1 } }),
    g.floats('one_b', [], Float32Array.of(1)),
  ]);
  g.node('MatMul', [g.node('Div', [summed, n]), g.floats('Wout', [D, 2], Wout)], {}, 'logits');
  return g.toBytes();
}

function writeFolder(dir: string, outputName: 'last_attention' | 'layers') {
  mkdirSync(join(dir, 'onnx'), { recursive: true });
  writeFileSync(join(dir, 'onnx', 'model.onnx'), attentionGraph(outputName));
  const tok = tokenizerJson(WORDS) as Record<string, any>;
  const special = (id: number, content: string) => ({
    id,
    content,
    single_word: false,
    lstrip: false,
    rstrip: false,
    normalized: false,
    special: true,
  });
  tok.added_tokens.push(special(CLS, '[CLS]'), special(SEP, '[SEP]'));
  tok.model.vocab['[CLS]'] = CLS;
  tok.model.vocab['[SEP]'] = SEP;
  tok.post_processor = {
    type: 'TemplateProcessing',
    single: [
      { SpecialToken: { id: '[CLS]', type_id: 0 } },
      { Sequence: { id: 'A', type_id: 0 } },
      { SpecialToken: { id: '[SEP]', type_id: 0 } },
    ],
    pair: [
      { SpecialToken: { id: '[CLS]', type_id: 0 } },
      { Sequence: { id: 'A', type_id: 0 } },
      { SpecialToken: { id: '[SEP]', type_id: 0 } },
      { Sequence: { id: 'B', type_id: 1 } },
      { SpecialToken: { id: '[SEP]', type_id: 1 } },
    ],
    special_tokens: {
      '[CLS]': { id: '[CLS]', ids: [CLS], tokens: ['[CLS]'] },
      '[SEP]': { id: '[SEP]', ids: [SEP], tokens: ['[SEP]'] },
    },
  };
  writeFileSync(join(dir, 'tokenizer.json'), JSON.stringify(tok));
  writeFileSync(
    join(dir, 'tokenizer_config.json'),
    JSON.stringify({ ...tokenizerConfigJson(), cls_token: '[CLS]', sep_token: '[SEP]' }),
  );
  writeFileSync(join(dir, 'config.json'), JSON.stringify(hfConfigJson(['neg', 'pos'])));
}

/** The same computation in TypeScript (Float64) for one text's ids. */
function expected(ids: number[]): { attention: Float64Array; probs: number[] } {
  const T = ids.length;
  const X = ids.map((id) => Array.from(E.subarray(id * D, (id + 1) * D)));
  const mul = (x: number[], W: Float32Array) =>
    Array.from({ length: D }, (_, o) => x.reduce((s, v, i) => s + v * W[i * D + o], 0));
  const attention = new Float64Array(HEADS * T * T);
  for (let h = 0; h < HEADS; h++) {
    const Q = X.map((x) => mul(x, Wq[h]));
    const K = X.map((x) => mul(x, Wk[h]));
    for (let i = 0; i < T; i++) {
      const s = K.map((k) => Q[i].reduce((a, q, d) => a + q * k[d], 0) / Math.sqrt(D));
      const m = Math.max(...s);
      const e = s.map((v) => Math.exp(v - m));
      const z = e.reduce((a, b) => a + b, 0);
      e.forEach((v, j) => (attention[(h * T + i) * T + j] = v / z));
    }
  }
  const mean = Array.from({ length: D }, (_, d) => X.reduce((s, x) => s + x[d], 0) / T);
  const logits = [0, 1].map((c) => mean.reduce((s, v, d) => s + v * Wout[d * 2 + c], 0));
  const m = Math.max(...logits);
  const z = logits.reduce((s, v) => s + Math.exp(v - m), 0);
  return { attention, probs: logits.map((v) => Math.exp(v - m) / z) };
}

const idOf = (w: string) => (WORDS.includes(w) ? WORDS.indexOf(w) + 2 : 1);
const TEXTS = ['Good film, AWFUL plot!', 'zebra good', '', 'the film was fun fun fun and the plot was good'];

const tmp = mkdtempSync(join(tmpdir(), 'xtrust-attn-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
beforeAll(() => {
  writeFolder(join(tmp, 'last'), 'last_attention');
  writeFolder(join(tmp, 'layers'), 'layers');
});

function checkMaps(maps: AttentionMap[]) {
  expect(maps.length).toBe(TEXTS.length);
  maps.forEach((map, b) => {
    const words = tokenize(TEXTS[b]);
    const ids = [CLS, ...words.map((w) => idOf(w.text.toLowerCase())), SEP];
    expect(map.heads).toBe(HEADS);
    expect(map.tokens.length).toBe(ids.length);
    expect(map.tokens[0]).toMatchObject({ text: '[CLS]', special: true });
    expect(map.tokens[ids.length - 1]).toMatchObject({ text: '[SEP]', special: true });
    // Word tokens (known or [UNK]) carry the offsets of core's tokenizer.
    expect(map.tokens.slice(1, -1).map(({ text, start, end, special }) => ({ text, start, end, special }))).toEqual(
      words.map((w) => ({ ...w, special: false })),
    );
    const exp = expected(ids);
    expect(maxAbsDiff(map.weights, exp.attention)).toBeLessThan(1e-5);
    // Rows are distributions and not uniform: a real attention pattern.
    const T = ids.length;
    for (let i = 0; i < T; i++)
      expect(map.weights.subarray(i * T, (i + 1) * T).reduce((a, v) => a + v, 0)).toBeCloseTo(1, 5);
    if (T > 2) expect(Math.max(...map.weights) - Math.min(...map.weights)).toBeGreaterThan(0.05);
  });
}

describe('AttentionProvider on OnnxClassifier and HfClassifier', () => {
  it('finds attention outputs by name', () => {
    expect(findAttentionOutput(['logits'])).toBeNull();
    expect(findAttentionOutput(['logits', 'attentions'])).toBe('attentions');
    expect(findAttentionOutput(['logits', 'attentions.2', 'attentions.10', 'attentions.9'])).toBe('attentions.10');
    expect(findAttentionOutput(['logits', 'attentions_3', 'last_attention'])).toBe('last_attention');
  });

  it("finds every layer's attention outputs in layer order, and splits one layer of a stacked tensor", () => {
    expect(findLayerAttentionOutputs(['logits'])).toEqual([]);
    expect(findLayerAttentionOutputs(['logits', 'last_attention'])).toEqual([]);
    expect(findLayerAttentionOutputs(['logits', 'attentions'])).toEqual(['attentions']);
    expect(findLayerAttentionOutputs(['logits', 'attentions.2', 'attentions.10', 'attentions.0'])).toEqual([
      'attentions.0',
      'attentions.2',
      'attentions.10',
    ]);
    // [L=2, B=1, H=1, S=2, S=2]: layer 0 = 1..4, layer 1 = 5..8
    const data = Float32Array.from([1, 2, 3, 4, 5, 6, 7, 8]);
    const toks = [
      [
        { text: 'a', start: 0, end: 1, special: false },
        { text: 'b', start: 2, end: 3, special: false },
      ],
    ];
    expect(Array.from(splitAttention(data, [2, 1, 1, 2, 2], toks, 't', 0)[0].weights)).toEqual([1, 2, 3, 4]);
    expect(Array.from(splitAttention(data, [2, 1, 1, 2, 2], toks, 't')[0].weights)).toEqual([5, 6, 7, 8]);
    expect(() => splitAttention(data, [2, 1, 1, 2, 2], toks, 't', 2)).toThrow(/2 layers; layer 2/);
  });

  it.each(['last', 'layers'])(
    'OnnxClassifier returns the last layer heads×T×T with token offsets and special flags (%s)',
    async (variant) => {
      const c = await OnnxClassifier.load(join(tmp, variant), { batchSize: 3 });
      expect(isAttentionProvider(c)).toBe(true);
      expect(c.attentionOutput).toBe(variant === 'last' ? 'last_attention' : 'attentions.1');
      checkMaps(await c.attentions!(TEXTS));
      const probs = await c.predictProba(TEXTS);
      TEXTS.forEach((t, b) => {
        const ids = [CLS, ...tokenize(t).map((w) => idOf(w.text.toLowerCase())), SEP];
        expect(maxAbsDiff(probs.subarray(2 * b, 2 * b + 2), expected(ids).probs)).toBeLessThan(1e-5);
      });
    },
  );

  it('OnnxClassifier.layerAttentions returns every layer in order (attentions.0 is layer 1 with its heads swapped); none without per-layer outputs', async () => {
    const c = await OnnxClassifier.load(join(tmp, 'layers'), { batchSize: 2 });
    const layered = await c.layerAttentions!(TEXTS);
    const last = await c.attentions!(TEXTS);
    expect(layered.length).toBe(TEXTS.length);
    layered.forEach((layers, b) => {
      expect(layers.length).toBe(2);
      expect(Array.from(layers[1].weights)).toEqual(Array.from(last[b].weights));
      expect(layers[0].tokens).toEqual(last[b].tokens);
      const T = last[b].tokens.length;
      // heads swapped: head 0 of layer 0 is head 1 of layer 1
      expect(Array.from(layers[0].weights.subarray(0, T * T))).toEqual(
        Array.from(last[b].weights.subarray(T * T, 2 * T * T)),
      );
    });
    await c.release();
    const only = await OnnxClassifier.load(join(tmp, 'last'));
    expect(only.layerAttentions).toBeUndefined();
    await only.release();
  });

  it('HfClassifier returns the same attention maps and probabilities', async () => {
    const hf = await HfClassifier.load(join(tmp, 'last'), { batchSize: 2 });
    expect(isAttentionProvider(hf)).toBe(true);
    checkMaps(await hf.attentions!(TEXTS));
    const onnx = await OnnxClassifier.load(join(tmp, 'last'));
    expect(maxAbsDiff(await hf.predictProba(TEXTS), await onnx.predictProba(TEXTS))).toBeLessThan(1e-6);
  });
});

describe('alignTokens', () => {
  it('maps WordPiece / BPE / SentencePiece pieces back to character offsets', () => {
    const text = 'Unbelievable films, ZEBRA!';
    const p = (token: string, special = false, unknown = false) => ({ token, id: 0, special, unknown });
    const toks = alignTokens(text, [
      p('[CLS]', true),
      p('un'),
      p('##bel'),
      p('##ievable'),
      p('\u0120films'),
      p(','),
      p('[UNK]', false, true),
      p('\u2581!'),
      p('[SEP]', true),
    ]);
    expect(toks.map((t) => [t.text, t.start, t.end, t.special])).toEqual([
      ['[CLS]', 0, 0, true],
      ['Un', 0, 2, false],
      ['bel', 2, 5, false],
      ['ievable', 5, 12, false],
      ['films', 13, 18, false],
      [',', 18, 19, false],
      ['ZEBRA', 20, 25, false],
      ['!', 25, 26, false],
      ['[SEP]', 26, 26, true],
    ]);
  });
});

describe('alignTokens with BERT normalisation', () => {
  it('finds accent-stripped, lower-cased pieces in the original text', () => {
    const text = 'Café RÉSUMÉ naïve, déjà vu';
    const p = (token: string, special = false, unknown = false) => ({ token, id: 0, special, unknown });
    const toks = alignTokens(text, [
      p('[CLS]', true),
      p('cafe'),
      p('res'),
      p('##ume'),
      p('naive'),
      p(','),
      p('deja'),
      p('vu'),
      p('[SEP]', true),
    ]);
    expect(toks.filter((t) => !t.special).map((t) => [t.text, t.start, t.end])).toEqual([
      ['Café', 0, 4],
      ['RÉS', 5, 8],
      ['UMÉ', 8, 11],
      ['naïve', 12, 17],
      [',', 17, 18],
      ['déjà', 19, 23],
      ['vu', 24, 26],
    ]);
  });
});
