// Verdict-aware sampling (issue 30) on the oracle's side: the statistic whose sign is Eq. 6's verdict,
// and labelPredictions with LIME stopping once each verdict is settled.
import { rng } from '@xtrust/core';
import { LimeExplainer, type VerdictStatistic } from '@xtrust/explainers';
import { describe, expect, it } from 'vitest';
import {
  KeywordStore,
  TOKI_PAPER,
  labelPredictions,
  tokiStatistic,
  verdictOf,
  verdictSampling,
  verdictStatisticOf,
  type OracleConfig,
} from '../src/index.js';
import {
  HandEmbedding,
  LinearBow,
  LinearContributionExplainer,
  at,
  computerStore,
  HAND_PROVENANCE,
} from './fixtures.js';

const RULES = ['sum', 'decisive', 'decisive-word', 'sum-and-decisive'] as const;

describe('verdictStatisticOf: Eq. 6 as the sign of one number', () => {
  it('is ≥ 0 exactly when verdictOf says trustworthy, for every rule (2,000 random cases, ties included)', () => {
    const r = rng(4);
    for (let i = 0; i < 2000; i++) {
      // quantised values so that ties (IS_rel = IS_unr, IS_unr = margin/2) occur
      const q = () => r.int(9) / 16;
      const isRel = q();
      const isUnr = q();
      const maxUnr = Math.min(isUnr, q());
      const pc = 0.5 + q();
      const probabilities = [pc, 1 - pc];
      for (const rule of RULES) {
        const s = verdictStatisticOf(rule, isRel, isUnr, pc - (1 - pc), maxUnr);
        expect(s >= 0).toBe(verdictOf(rule, isRel, isUnr, { probabilities }, 0, maxUnr));
      }
    }
  });
});

describe('tokiStatistic (hand-computed)', () => {
  // "File" and "file" fold to one decision word; "the" is neutral (a function word); apple's weight is negative (not counted)
  const words = ['File', 'file', 'banana', 'the', 'apple', 'zzyzx'];
  const role = Int8Array.from([1, 1, -1, 0, -1, -1]);
  const fit = {
    features: Int32Array.from([0, 1, 2, 3, 4, 5]),
    coef: Float64Array.from([0.2, 0.1, 0.25, 0.05, -0.3, 0.01]),
    intercept: 0,
  };
  // top 3 decision words: file 0.3 (related), banana 0.25 (unrelated), the 0.05 (neutral); zzyzx is 4th
  const at = (rule: (typeof RULES)[number], margin: number) => tokiStatistic(rule, words, role, 3, margin)(fit);

  it('sum: IS_rel − IS_unr = 0.3 − 0.25, gradient +1 on both spellings of file, −1 on banana', () => {
    const s = at('sum', 0.4);
    expect(s.value).toBeCloseTo(0.05, 12);
    expect(Array.from(s.gradient)).toEqual([1, 1, -1, 0, 0, 0]);
  });
  it('decisive and decisive-word: margin/2 − 0.25, gradient −1 on banana', () => {
    for (const rule of ['decisive', 'decisive-word'] as const) {
      const s = at(rule, 0.4);
      expect(s.value).toBeCloseTo(-0.05, 12);
      expect(Array.from(s.gradient)).toEqual([0, 0, -1, 0, 0, 0]);
    }
  });
  it('sum-and-decisive: the smaller statistic and its gradient', () => {
    expect(at('sum-and-decisive', 0.4).value).toBeCloseTo(-0.05, 12);
    expect(Array.from(at('sum-and-decisive', 0.4).gradient)).toEqual([0, 0, -1, 0, 0, 0]);
    const wide = at('sum-and-decisive', 1); // decisive 0.25, sum 0.05
    expect(wide.value).toBeCloseTo(0.05, 12);
    expect(Array.from(wide.gradient)).toEqual([1, 1, -1, 0, 0, 0]);
  });
});

const hand = new HandEmbedding('hand', {
  computer: at(0),
  file: at(20),
  folder: at(30),
  extension: at(55),
  fruit: at(120),
  banana: at(120),
  apple: at(125),
  lemon: at(130),
});

const store = (oracle: OracleConfig) => computerStore([hand], { oracle });

// zzyzx alone carries a computer prediction: without it the text would be fruit
const COEF = {
  file: [2, 0],
  extension: [1.5, 0],
  folder: [1, 0],
  banana: [0, 2],
  apple: [0, 1.5],
  lemon: [0, 1],
  zzyzx: [8, 0],
};
const model = new LinearBow(['computer', 'fruit'], COEF);
const TEXTS = [
  'file extension folder report data notes',
  'zzyzx lemon notes data memo',
  'apple banana lemon fruit salad bowl',
  'file folder extension zzyzx lemon apple',
];

describe('labelPredictions with verdictSampling', () => {
  for (const rule of ['decisive', 'sum'] as const) {
    it(`gives the exact run's labels with fewer samples on clear cases (verdict rule ${rule})`, async () => {
      const s = await store({ ...TOKI_PAPER, name: `test-${rule}`, verdictRule: rule });
      const explainer = new LimeExplainer({ numSamples: 4000, seed: 1 });
      const exact = await labelPredictions(s, model, TEXTS, {
        embeddings: [hand],
        explainer,
        skipFingerprintCheck: true,
      });
      const fast = await labelPredictions(s, model, TEXTS, {
        embeddings: [hand],
        explainer,
        skipFingerprintCheck: true,
        verdictSampling: true,
      });
      expect(fast.map((l) => l.verdict)).toEqual(exact.map((l) => l.verdict));
      expect(exact.map((l) => l.verdict).slice(0, 3)).toEqual(['trustworthy', 'untrustworthy', 'trustworthy']);
      expect(exact.every((l) => l.samples === undefined)).toBe(true);
      for (const l of fast) expect(l.samples).toBeLessThanOrEqual(4000);
      expect(fast.slice(0, 3).every((l) => l.samples! < 1000)).toBe(true);
    });
  }

  it('refuses an explainer without the verdict option, naming verdictSampling', async () => {
    const s = await store(TOKI_PAPER);
    await expect(
      labelPredictions(s, model, TEXTS, {
        embeddings: [hand],
        explainer: new LinearContributionExplainer(COEF),
        skipFingerprintCheck: true,
        verdictSampling: true,
      }),
    ).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', details: { argument: 'verdictSampling' } });
  });
});

describe('verdictSampling.prepare', () => {
  const ctx = (label: number, probabilities: number[], text = 'zzyzx file') => ({
    text,
    words: ['zzyzx', 'file'],
    probabilities: Float32Array.from(probabilities),
    label,
    labels: ['computer', 'fruit'],
  });

  it("is 'settled' for an incorrect prediction and for a class without a pool, null for a label other than the prediction", async () => {
    const s = await store(TOKI_PAPER);
    const v = verdictSampling(s, { embeddings: [hand], trueLabels: new Map([['zzyzx file', 'fruit']]) });
    expect(v.name).toBe('toki-paper:sum');
    expect(await v.prepare(ctx(0, [0.9, 0.1]))).toBe('settled');
    expect(await v.prepare(ctx(1, [0.9, 0.1], 'other'))).toBeNull();
    const empty = KeywordStore.create({
      fingerprint: 'm1',
      labels: ['computer', 'fruit'],
      thetaDist: 0.3,
      topK: 10,
      ensemble: [{ name: 'hand', dim: 2, thetaRelate: 0.6 }],
      provenance: HAND_PROVENANCE,
    });
    expect(await verdictSampling(empty, { embeddings: [hand] }).prepare(ctx(0, [0.9, 0.1], 'other'))).toBe('settled');
  });

  it("splits the text's words by r(w, c) once: file related, zzyzx (unknown to the embedding) unrelated", async () => {
    const s = await store(TOKI_PAPER);
    const stat = (await verdictSampling(s, { embeddings: [hand], confidence: 0.9, step: 50 }).prepare(
      ctx(0, [0.9, 0.1]),
    )) as VerdictStatistic;
    const out = stat({ features: Int32Array.from([0, 1]), coef: Float64Array.from([0.3, 0.1]), intercept: 0 });
    expect(out.value).toBeCloseTo(-0.2, 12);
    expect(Array.from(out.gradient)).toEqual([-1, 1]);
  });

  it('counts a word of an unrelated category as unrelated, though it is a keyword', async () => {
    const s = await store(TOKI_PAPER);
    const files = {
      name: 'files',
      spans: (text: string) => [...text.matchAll(/file/g)].map((m) => ({ start: m.index!, end: m.index! + 4 })),
    };
    const stat = (await verdictSampling(s, { embeddings: [hand], unrelatedCategories: [files] }).prepare(
      ctx(0, [0.9, 0.1]),
    )) as VerdictStatistic;
    // sum rule: IS_rel − IS_unr = 0 − (0.3 + 0.1); without the category it was 0.1 − 0.3 (the test above)
    const out = stat({ features: Int32Array.from([0, 1]), coef: Float64Array.from([0.3, 0.1]), intercept: 0 });
    expect(out.value).toBeCloseTo(-0.4, 12);
    expect(Array.from(out.gradient)).toEqual([-1, -1]);
  });
});
