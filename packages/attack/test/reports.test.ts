import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  HarperChecker,
  HfMaskedWordModel,
  formatRobustness,
  robustnessAuc,
  robustnessAucIntervals,
  robustnessPoint,
  type AttackRecord,
  type RobustnessPoint,
} from '../src/index.js';
import { handEncoder } from './helpers.js';

function record(
  original: string,
  adversarial: string,
  d: number,
  status: AttackRecord['status'] = 'succeeded',
): AttackRecord {
  return {
    recipe: 'cea',
    index: 0,
    id: null,
    seed: 0,
    status,
    reason: null,
    original,
    adversarial,
    label: null,
    originalPrediction: 'pos',
    adversarialPrediction: 'pos',
    originalProbabilities: [0.2, 0.8],
    adversarialProbabilities: [0.3, 0.7],
    words: original.split(' ').length,
    perturbedWords: 1,
    substitutions: [],
    score: d,
    details: { attributionDistance: d, pcc: 1 - 2 * d },
    queries: { texts: 1, calls: 1 },
    candidates: { generated: 0, evaluated: 0 },
    rejections: {},
    seconds: 0,
  };
}

describe('CEA/TEF robustness report', () => {
  it('computes PCC, STS, r = d_attr / d_s (Eq. 5), Δ_PP, r_PP and AUC_r by hand-checkable numbers', async () => {
    const enc = handEncoder();
    const recs = [
      record('a good film', 'a great film', 0.2),
      record('a good plot', 'a fine plot', 0.4),
      record('a good story', 'a good story', 0, 'failed'),
    ];
    const pp = async (texts: readonly string[]) =>
      texts.map((t) => (t.includes('great') ? 30 : t.includes('fine') ? 25 : 20));
    const p = await robustnessPoint('cea', 0.1, recs, { encoders: [enc], perplexity: pp });
    expect(p.samples).toBe(2);
    expect(p.pcc).toBeCloseTo((0.6 + 0.2) / 2, 12);
    const e = await enc.encode(['a good film', 'a great film', 'a good plot', 'a fine plot']);
    const cos = (i: number, j: number) => {
      let s = 0;
      let a = 0;
      let b = 0;
      for (let d = 0; d < 4; d++) {
        s += e[i * 4 + d] * e[j * 4 + d];
        a += e[i * 4 + d] ** 2;
        b += e[j * 4 + d] ** 2;
      }
      return s / Math.sqrt(a * b);
    };
    const c1 = cos(0, 1);
    const c2 = cos(2, 3);
    expect(p.sts[enc.name]).toBeCloseTo((c1 + c2) / 2, 6);
    expect(p.r[enc.name]).toBeCloseTo((0.2 / ((1 - c1) / 2) + 0.4 / ((1 - c2) / 2)) / 2, 4);
    expect(p.deltaPP).toBeCloseTo((0.5 + 0.25) / 2, 6);
    expect(p.rPP).toBeCloseTo((0.2 / 0.5 + 0.4 / 0.25) / 2, 6);
    const q = { ...p, rhoMax: 0.2, r: { [enc.name]: 2 * (p.r[enc.name] as number) }, rPP: 4 };
    const auc = robustnessAuc([p, q]);
    expect(auc[enc.name]).toBeCloseTo((0.1 * ((p.r[enc.name] as number) * 3)) / 2, 6);
    expect(auc.pp).toBeCloseTo((0.1 * (p.rPP! + 4)) / 2, 6);
    expect(formatRobustness([p, q])).toContain('AUC_r');
    // each succeeded sample's own figures, what the means average
    expect(p.perSample!.map((x) => x.r[enc.name])).toEqual([
      expect.closeTo(0.2 / ((1 - c1) / 2), 4),
      expect.closeTo(0.4 / ((1 - c2) / 2), 4),
    ]);
    expect(p.perSample!.map((x) => x.rPP)).toEqual([expect.closeTo(0.4, 6), expect.closeTo(1.6, 6)]);
  });

  it('AUC_r intervals resample instances: the estimate is robustnessAuc, the paired difference excludes 0 when one method is above on every instance', () => {
    // r of instance i at ρ_max 0.1 / 0.2: method a 1 + i / 2 + i, method b exactly half of a's
    const point = (method: string, rhoMax: number, scale: number): RobustnessPoint => {
      const perSample = Array.from({ length: 20 }, (_, i) => ({
        index: i,
        r: { use: scale * (rhoMax * 10 + i) },
        rPP: null,
      }));
      const r = perSample.reduce((a, x) => a + x.r.use, 0) / perSample.length;
      return {
        method,
        rhoMax,
        samples: 20,
        rho: rhoMax,
        pcc: 0,
        sts: { use: 0.9 },
        r: { use: r },
        deltaPP: null,
        rPP: null,
        languageErrorIncrease: null,
        languageChecker: null,
        perSample,
      };
    };
    const points = [point('a', 0.1, 1), point('a', 0.2, 1), point('b', 0.1, 0.5), point('b', 0.2, 0.5)];
    const iv = robustnessAucIntervals(points, { pair: ['a', 'b'], seed: 3, resamples: 500 });
    expect(iv.instances).toBe(20);
    expect(iv.methods.a.use!.estimate).toBeCloseTo(robustnessAuc(points.slice(0, 2)).use!, 12);
    // (mean r at 0.1 = 1 + 9.5, at 0.2 = 2 + 9.5) → trapezoid 0.1 × (10.5 + 11.5) / 2 = 1.1
    expect(iv.methods.a.use!.estimate).toBeCloseTo(1.1, 12);
    expect(iv.difference!.auc.use!.estimate).toBeCloseTo(0.55, 12);
    expect(iv.difference!.auc.use!.lo).toBeGreaterThan(0);
    expect(iv.methods.a.use!.lo).toBeLessThan(1.1);
    expect(iv.methods.a.use!.hi).toBeGreaterThan(1.1);
    expect(iv.methods.a.pp).toBeNull(); // no r_PP anywhere: no interval
    expect(robustnessAucIntervals(points, { pair: ['a', 'b'], seed: 3, resamples: 500 })).toEqual(iv); // seeded
    expect(formatRobustness(points, iv)).toMatch(/\| a − b \(paired\) \| 0\.550 \[0\.\d+, 0\.\d+\]/);
    const { perSample: _, ...bare } = points[0];
    expect(() => robustnessAucIntervals([bare, ...points.slice(1)], { seed: 1 })).toThrow(/perSample/);
  });

  it('counts language errors with the offline Harper checker: an agreement error and a repeated word add errors', async () => {
    const checker = await HarperChecker.load();
    const n = await checker.count(['She goes to school every day.', 'She go to school every every day.']);
    expect(n[0]).toBe(0);
    expect(n[1]).toBeGreaterThanOrEqual(2);
    expect(checker.measures).toMatch(/Harper/);
    const p = await robustnessPoint(
      'tef',
      0.1,
      [record('She goes to school every day.', 'She go to school every day.', 0.3)],
      { checker },
    );
    expect(p.languageErrorIncrease).toBeGreaterThanOrEqual(1);
  }, 60_000);
});

describe('masked language model folder', () => {
  it('refuses a folder without its tokenizer, and a missing folder, naming the file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'xtrust-mlm-'));
    mkdirSync(join(dir, 'onnx'));
    writeFileSync(join(dir, 'config.json'), '{"model_type":"bert"}');
    writeFileSync(join(dir, 'onnx', 'model.onnx'), '');
    await expect(HfMaskedWordModel.load(dir)).rejects.toThrow(/missing its tokenizer: tokenizer\.json/);
    await expect(HfMaskedWordModel.load(join(dir, 'nope'))).rejects.toThrow(/does not exist/);
  });
});

describe('masked language model through @huggingface/transformers', () => {
  it('loads a local fill-mask folder and fills several masks from one forward pass (batch masking)', async () => {
    const { writeTinyMlm } = await import('./tiny-mlm.js');
    const dir = mkdtempSync(join(tmpdir(), 'xtrust-mlm-'));
    writeTinyMlm(dir, ['a', 'good', 'great', 'fine', 'film', 'movie', 'picture'], {
      great: 9,
      fine: 8,
      good: 10,
      movie: 7,
      picture: 6.5,
    });
    const mlm = await HfMaskedWordModel.load(dir);
    // the mask predicts good > great > fine > movie > picture; the masked word itself is never proposed
    expect(await mlm.fill(['a', 'good', 'film'], ['', ' ', ' ', ''], [1], 2)).toEqual([['great', 'fine']]);
    expect(await mlm.fill(['a', 'good', 'film'], ['', ' ', ' ', ''], [1, 2], 3)).toEqual([
      ['great', 'fine', 'movie'],
      ['good', 'great', 'fine'],
    ]);
  }, 60_000);
});

describe('CBOW masked-word model trained by xtrust', () => {
  it('learns fillers from context and gives the same fillers through its fill-mask ONNX export', async () => {
    const { trainMaskedWordModel } = await import('../src/index.js');
    const { rng } = await import('@xtrust/core');
    const r = rng(3);
    const texts: string[] = [];
    // "the cat sat on the mat" / "a dog ran in the park": fillers depend on the neighbours
    for (let i = 0; i < 400; i++) {
      texts.push(
        r.float() < 0.5
          ? `the ${['cat', 'kitten'][r.int(2)]} sat on the mat`
          : `a ${['dog', 'puppy'][r.int(2)]} ran in the park`,
      );
    }
    const mlm = trainMaskedWordModel(texts, { dim: 16, window: 2, epochs: 5, minCount: 1, seed: 1, corpus: 'toy' });
    const [cat] = await mlm.fill(['the', 'cat', 'sat', 'on', 'the', 'mat'], [], [1], 1);
    expect(cat).toEqual(['kitten']);
    const [[dog]] = await mlm.fill(['a', 'dog', 'ran', 'in', 'the', 'park'], [], [1, 5], 2);
    expect(dog).toBe('puppy');
    // pseudo-perplexity: a sentence like the corpus's reads more fluently than the templates mixed up
    const [fluent, shuffled] = await mlm.pseudoPerplexity(['the cat sat on the mat', 'the park sat on a puppy']);
    expect(fluent).toBeLessThan(shuffled);
    expect(fluent).toBeGreaterThanOrEqual(1);
    const dir = mkdtempSync(join(tmpdir(), 'xtrust-cbow-'));
    await mlm.save(join(dir, 'saved'));
    const { CbowMaskedWordModel } = await import('../src/index.js');
    const again = await CbowMaskedWordModel.load(join(dir, 'saved'));
    expect(await again.fill(['the', 'cat', 'sat', 'on', 'the', 'mat'], [], [1, 4], 3)).toEqual(
      await mlm.fill(['the', 'cat', 'sat', 'on', 'the', 'mat'], [], [1, 4], 3),
    );
    await expect(CbowMaskedWordModel.load(join(dir, 'nothing'))).rejects.toThrow(/cbow\.json: no such file/);
    await mlm.exportFillMask(dir);
    const hf = await HfMaskedWordModel.load(dir);
    for (const [words, masked] of [
      [['the', 'cat', 'sat', 'on', 'the', 'mat'], [1]],
      [
        ['a', 'dog', 'ran', 'in', 'the', 'park'],
        [1, 3],
      ],
      [
        ['the', 'kitten', 'ran', 'on', 'a', 'mat'],
        [0, 2, 5],
      ],
    ] as const) {
      const seps = ['', ...words.map((_, i) => (i === words.length - 1 ? '' : ' '))];
      expect(await hf.fill(words, seps, masked, 3)).toEqual(await mlm.fill(words, seps, masked, 3));
    }
  }, 60_000);
});
