import { rng, tokenize } from '@xtrust/core';
import { describe, expect, it } from 'vitest';
import {
  AdaptiveStop,
  LimeExplainer,
  adaptiveCanStop,
  adaptiveMinRows,
  WeightedMoments,
  fitLimeModels,
  limeDistances,
  limeKernel,
  resolveAdaptive,
  sampleLimeMasks,
  weightedCross,
  weightedGram,
} from '../src/index.js';
import { LinearBowModel } from './models.js';

/** A LIME neighbourhood of `d` features and `rows` samples, with `labels` smooth targets plus noise. */
function neighbourhood(d: number, rows: number, labels: number, seed: number) {
  const s = sampleLimeMasks(d, rows, rng(seed));
  const weights = limeKernel(limeDistances(s.kept, d), 25);
  const r = rng(seed + 1);
  const beta = Array.from({ length: labels }, () => Array.from({ length: d }, () => r.normal()));
  const ys = beta.map((b) => {
    const y = new Float64Array(rows);
    for (let i = 0; i < rows; i++) {
      let z = 0.1 * r.normal();
      for (let c = 0; c < d; c++) z += s.data[i * d + c] * b[c];
      y[i] = 1 / (1 + Math.exp(-z / 4));
    }
    return y;
  });
  return { data: s.data, weights, ys };
}

describe('WeightedMoments (running moments of a growing LIME neighbourhood)', () => {
  it('added in rounds, gives the Gram matrix and cross-moments of all rows at once', () => {
    const d = 12;
    const rows = 700;
    const { data, weights, ys } = neighbourhood(d, rows, 2, 3);
    const m = new WeightedMoments(d, 2);
    for (const [from, to] of [
      [0, 1],
      [1, 250],
      [250, 700],
    ]) {
      m.add(
        data.subarray(from * d, to * d),
        to - from,
        weights.subarray(from, to),
        ys.map((y) => y.subarray(from, to)),
      );
    }
    const whole = weightedGram(data, rows, d, weights);
    const g = m.gram();
    expect(g.sumWeights).toBeCloseTo(whole.sumWeights, 10);
    g.gram.forEach((v, i) => expect(Math.abs(v - whole.gram[i])).toBeLessThan(1e-9));
    g.mean.forEach((v, i) => expect(Math.abs(v - whole.mean[i])).toBeLessThan(1e-12));
    ys.forEach((y, t) => {
      const want = weightedCross(data, rows, whole, weights, y);
      const got = m.cross(t);
      expect(Math.abs(got.yy - want.yy)).toBeLessThan(1e-9);
      got.b.forEach((v, c) => expect(Math.abs(v - want.b[c])).toBeLessThan(1e-9));
    });
  });

  it('a hand-computed case: two rows', () => {
    // rows [1,0] (w 1) and [1,1] (w 3), y = 0.2 and 0.6: Σw 4, m = (1, 0.75), ȳ = 0.5.
    // G = Σ w (x−m)(x−m)ᵀ: only column 1 varies, 1·0.75² + 3·0.25² = 0.75.
    // b = Σ w x (y − ȳ): column 0, 1·(−0.3) + 3·0.1 = 0; column 1, 3·0.1 = 0.3. yy = 1·0.09 + 3·0.01 = 0.12.
    const m = new WeightedMoments(2, 1).add(Uint8Array.from([1, 0, 1, 1]), 2, [1, 3], [[0.2, 0.6]]);
    const g = m.gram();
    [0, 0, 0, 0.75].forEach((v, i) => expect(g.gram[i]).toBeCloseTo(v, 12));
    expect(g.sumWeights).toBe(4);
    const { b, yy } = m.cross(0);
    expect(b[0]).toBeCloseTo(0, 12);
    expect(b[1]).toBeCloseTo(0.3, 12);
    expect(yy).toBeCloseTo(0.12, 12);
  });
});

describe("AdaptiveStop (the adaptive sample count's stopping test)", () => {
  for (const [method, numFeatures] of [
    ['highest_weights', 10],
    ['forward_selection', 4],
    ['lasso_path', 5],
    ['none', 10],
  ] as const) {
    it(`selects the features fitLimeModels selects on the rows so far (${method})`, async () => {
      const d = 24;
      const rows = 900;
      const { data, weights, ys } = neighbourhood(d, rows, 2, 11);
      const stop = new AdaptiveStop({ step: 300, patience: 1, minJaccard: 1 }, d, 2, method, numFeatures);
      for (let from = 0; from < rows; from += 300) {
        stop.addRound(
          data.subarray(from * d, (from + 300) * d),
          300,
          weights.subarray(from, from + 300),
          ys.map((y) => y.subarray(from, from + 300)),
        );
        const n = from + 300;
        const [models] = await fitLimeModels(
          [
            {
              data: data.subarray(0, n * d),
              rows: n,
              d,
              weights: weights.subarray(0, n),
              ys: ys.map((y) => y.subarray(0, n)),
            },
          ],
          method,
          numFeatures,
          'ts',
        );
        const sorted = (a: Int32Array) => Array.from(a).sort((x, y) => x - y);
        expect(stop.selection().map(sorted)).toEqual(models.map((mm) => sorted(mm.features)));
      }
    });
  }

  it('on a wide neighbourhood (d > 256: conjugate gradients, cold then warm) still selects what fitLimeModels selects', async () => {
    const d = 300;
    const step = 300;
    const rows = 1800;
    const { data, weights, ys } = neighbourhood(d, rows, 1, 5);
    const stop = new AdaptiveStop({ step, patience: 5, minJaccard: 1 }, d, 1, 'highest_weights', 10);
    const sorted = (a: Int32Array) => Array.from(a).sort((x, y) => x - y);
    for (let from = 0; from < rows; from += step) {
      stop.addRound(data.subarray(from * d, (from + step) * d), step, weights.subarray(from, from + step), [
        ys[0].subarray(from, from + step),
      ]);
      const n = from + step;
      if (n < adaptiveMinRows(d)) continue;
      const [models] = await fitLimeModels(
        [{ data: data.subarray(0, n * d), rows: n, d, weights: weights.subarray(0, n), ys: [ys[0].subarray(0, n)] }],
        'highest_weights',
        10,
        'ts',
      );
      expect(stop.selection().map(sorted)).toEqual(models.map((mm) => sorted(mm.features)));
    }
  });

  it('makes no check before 2d rows: a rule that would stop at once waits for them', () => {
    const d = 40;
    const { data, weights, ys } = neighbourhood(d, 400, 1, 9);
    const stop = new AdaptiveStop({ step: 20, patience: 1, minJaccard: 0.01 }, d, 1, 'highest_weights', 10);
    let stoppedAt = 0;
    for (let from = 0; from < 400 && !stoppedAt; from += 20) {
      if (
        stop.addRound(data.subarray(from * d, (from + 20) * d), 20, weights.subarray(from, from + 20), [
          ys[0].subarray(from, from + 20),
        ])
      )
        stoppedAt = from + 20;
    }
    // the first check is at 80 rows (2d) and only records a selection; a Jaccard ≥ 0.01 rule stops at the next one
    expect(adaptiveMinRows(d)).toBe(80);
    expect(stoppedAt).toBe(100);
  });

  it('adaptiveCanStop: whether the first check (at 2d rows, rounded up to a round) plus `patience` rounds comes before the budget', () => {
    const rule = { step: 250, patience: 2, minJaccard: 1 };
    // d 100: first check at 250, a stop at 750 at the earliest
    expect(adaptiveCanStop(rule, 100, 5000)).toBe(true);
    expect(adaptiveCanStop(rule, 100, 750)).toBe(false);
    expect(adaptiveCanStop(rule, 100, 751)).toBe(true);
    // d 2,100: first check at 4,250 (≥ 4,200), a stop at 4,750 at the earliest
    expect(adaptiveCanStop(rule, 2100, 5000)).toBe(true);
    // d 2,200: first check at 4,500, a stop at 5,000 at the earliest: no saving possible
    expect(adaptiveCanStop(rule, 2200, 5000)).toBe(false);
  });

  it('stops after `patience` stable rounds; minJaccard 0.8 lets one of ten words swap, 1 does not', () => {
    const d = 30;
    const { data, weights, ys } = neighbourhood(d, 4000, 1, 21);
    const run = (minJaccard: number, patience: number) => {
      const stop = new AdaptiveStop({ step: 250, patience, minJaccard }, d, 1, 'highest_weights', 10);
      for (let from = 0; from < 4000; from += 250) {
        if (
          stop.addRound(data.subarray(from * d, (from + 250) * d), 250, weights.subarray(from, from + 250), [
            ys[0].subarray(from, from + 250),
          ])
        )
          return from + 250;
      }
      return 4000;
    };
    // Set equality implies Jaccard ≥ any bound, so on the same stream a looser rule never stops later, and more patience never earlier.
    for (const patience of [1, 2, 3]) {
      expect(run(0.8, patience)).toBeLessThanOrEqual(run(1, patience));
      expect(run(0.5, patience)).toBeLessThanOrEqual(run(0.8, patience));
      expect(run(1, patience + 1)).toBeGreaterThanOrEqual(run(1, patience));
    }
    expect(run(1, 1)).toBeGreaterThanOrEqual(500);
  });

  it('resolveAdaptive fills the defaults and names a bad minJaccard', () => {
    expect(resolveAdaptive(undefined, 5000)).toBeNull();
    expect(resolveAdaptive(false, 5000)).toBeNull();
    expect(resolveAdaptive(true, 5000)).toEqual({ step: 250, patience: 4, minJaccard: 1 });
    expect(resolveAdaptive(true, 1001)).toEqual({ step: 51, patience: 4, minJaccard: 1 });
    expect(resolveAdaptive({ patience: 2 }, 5000)).toEqual({ step: 250, patience: 2, minJaccard: 1 }); // 2026-11-24's rule, still reachable
    expect(resolveAdaptive({ step: 500, patience: 2, minJaccard: 0.8 }, 5000)).toEqual({
      step: 500,
      patience: 2,
      minJaccard: 0.8,
    });
    expect(() => resolveAdaptive({ minJaccard: 0 }, 5000)).toThrow(/adaptive\.minJaccard must be a number in \(0, 1\]/);
    expect(() => resolveAdaptive({ minJaccard: 1.5 }, 5000)).toThrow(/adaptive\.minJaccard/);
    expect(() => resolveAdaptive({ step: 0 }, 5000)).toThrow(/adaptive\.step/);
  });
});

describe('LimeExplainer with a tolerant adaptive rule', () => {
  // 26 distinct words: five strong ones and a tail of near-equal weights, so the 10th word is a toss-up.
  const words =
    'alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa quebec romeo sierra tango uniform victor whiskey xray yankee zulu'.split(
      ' ',
    );
  const model = new LinearBowModel(
    Object.fromEntries(words.map((w, i) => [w, i < 5 ? 1.5 - 0.2 * i : 0.3 + 0.001 * i])),
  );
  const text = words.join(' ');

  it('stops no later than set equality, and its explanation is the exact one at the samples it used', async () => {
    expect(tokenize(text).length).toBe(26);
    const lime = new LimeExplainer({ seed: 4, numSamples: 4000 });
    const [strict] = await lime.explain(model, [text], { adaptive: { step: 500, patience: 1 } });
    const [loose] = await lime.explain(model, [text], { adaptive: { step: 500, patience: 1, minJaccard: 0.8 } });
    // On this text the tail words swap between fits: set equality needs 3,500 samples, the looser rule 2,500.
    expect(loose.diagnostics!.samples).toBeLessThan(strict.diagnostics!.samples);
    expect(loose.params.adaptive).toEqual({ step: 500, patience: 1, minJaccard: 0.8 });
    const [exact] = await lime.explain(model, [text], { numSamples: loose.diagnostics!.samples });
    expect(loose.features).toEqual(exact.features);
    // The five strong words lead every explanation.
    expect(
      loose.features
        .slice(0, 5)
        .map((f) => f.word)
        .sort(),
    ).toEqual(words.slice(0, 5).sort());
  });
});

describe('LimeExplainer on a text too wide for the adaptive rule to stop early', () => {
  it('scores the whole budget and returns the exact explanation', async () => {
    // 60 distinct words, 200 samples, step 10: the first check would be at 120 rows and a stop at 140, so it can stop;
    // 100 words: the first check at 200 = the budget, so it cannot
    for (const [n, canStop] of [
      [60, true],
      [100, false],
    ] as const) {
      const words = Array.from({ length: n }, (_, i) => `w${i}`);
      const model = new LinearBowModel(Object.fromEntries(words.map((w, i) => [w, i % 7 === 0 ? 1 : 0.01 * (i % 5)])));
      const lime = new LimeExplainer({ seed: 2, numSamples: 200 });
      expect(adaptiveCanStop(resolveAdaptive(true, 200)!, n, 200)).toBe(canStop);
      const [fast] = await lime.explain(model, [words.join(' ')], { adaptive: true });
      const [exact] = await lime.explain(model, [words.join(' ')], { numSamples: fast.diagnostics!.samples });
      expect(fast.features).toEqual(exact.features);
      if (!canStop) expect(fast.diagnostics!.samples).toBe(200);
    }
  });
});
