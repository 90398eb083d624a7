// The kit's tiny-bert-spam through both runtimes: onnxruntime-node (OnnxClassifier) and the
// transformers.js pipeline (HfClassifier) give the same probabilities and last-layer attention.
import * as ort from 'onnxruntime-node';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { isAttentionProvider } from '@xtrust/core';
import { HfClassifier, OnnxClassifier } from '../src/index.js';
import { kitFixture } from '../../../models/transformers/fixture-paths.js';

const TEXTS = [
  'Click here to win FREE money now, claim your prize!',
  'Please send me the project report before the meeting tomorrow.',
  '',
  'Unbelievabilities await the winners of the lottery',
  'ok',
];

describe('tiny-bert-spam: onnx and transformers runtimes agree', () => {
  let onnx: OnnxClassifier;
  let hf: HfClassifier;
  beforeAll(async () => {
    const dir = kitFixture('tiny-bert-spam');
    onnx = await OnnxClassifier.load(dir, { batchSize: 2 });
    hf = await HfClassifier.load(dir);
  });
  afterAll(async () => onnx?.release());

  it('labels from config.json and probabilities within 1e-5 (batched with padding)', async () => {
    expect(onnx.labels).toEqual(['ham', 'spam']);
    expect(hf.labels).toEqual(['ham', 'spam']);
    const a = await onnx.predictProba(TEXTS);
    const b = await hf.predictProba(TEXTS);
    for (let j = 0; j < a.length; j++) expect(Math.abs(a[j] - b[j])).toBeLessThan(1e-5);
    // padding never changes a prediction: each text alone gives the batched row
    for (let i = 0; i < TEXTS.length; i++) {
      const one = await onnx.predictProba([TEXTS[i]]);
      expect(Math.abs(one[1] - a[2 * i + 1])).toBeLessThan(1e-5);
    }
  });

  it('a positions budget per run (batchTokens) changes the batches, not the probabilities; a bad one is named', async () => {
    const a = await onnx.predictProba(TEXTS);
    const tight = await OnnxClassifier.load(kitFixture('tiny-bert-spam'), { batchSize: 64, batchTokens: 8 });
    const rows = await OnnxClassifier.load(kitFixture('tiny-bert-spam'), { batchSize: 64, batchTokens: Infinity });
    try {
      const b = await tight.predictProba(TEXTS);
      const c = await rows.predictProba(TEXTS);
      for (let j = 0; j < a.length; j++) expect(Math.abs(a[j] - b[j])).toBeLessThan(1e-5);
      for (let j = 0; j < a.length; j++) expect(Math.abs(a[j] - c[j])).toBeLessThan(1e-5);
      // 8 positions a run: every text longer than 4 pieces runs alone; one row batch holds all five
      expect(tight.scoringStats.runs).toBeGreaterThanOrEqual(4);
      expect(rows.scoringStats.runs).toBe(1);
    } finally {
      await tight.release();
      await rows.release();
    }
    await expect(OnnxClassifier.load(kitFixture('tiny-bert-spam'), { batchTokens: 0 })).rejects.toThrow(
      /batchTokens must be a positive integer, got 0/,
    );
    // by default the bound follows config.json's hidden_size (128 here)
    expect(onnx.batchTokens).toBe((1024 * 768) / 128);
  });

  it('the last attentions.N is the one fetched, and both runtimes return the same maps', async () => {
    expect(isAttentionProvider(onnx)).toBe(true);
    const layers = JSON.parse(
      (await import('node:fs')).readFileSync(`${kitFixture('tiny-bert-spam')}/config.json`, 'utf8'),
    ).num_hidden_layers;
    expect(onnx.attentionOutput).toBe(`attentions.${layers - 1}`);
    // only the last layer's output is fetched from the graph
    const run = vi.spyOn(ort.InferenceSession.prototype, 'run');
    const a = await onnx.attentions!(TEXTS);
    expect(run.mock.calls.length).toBeGreaterThan(0);
    for (const call of run.mock.calls) expect(call[1]).toEqual([`attentions.${layers - 1}`]);
    run.mockRestore();
    const b = await hf.attentions!(TEXTS);
    for (let i = 0; i < TEXTS.length; i++) {
      expect(a[i].tokens).toEqual(b[i].tokens);
      expect(a[i].heads).toBe(b[i].heads);
      const T = a[i].tokens.length;
      for (let j = 0; j < a[i].weights.length; j++)
        expect(Math.abs(a[i].weights[j] - b[i].weights[j])).toBeLessThan(1e-5);
      // rows over unpadded tokens are softmax rows: they sum to 1
      for (let r = 0; r < a[i].heads * T; r++) {
        let s = 0;
        for (let j = 0; j < T; j++) s += a[i].weights[r * T + j];
        expect(s).toBeCloseTo(1, 4);
      }
    }
  });
});
