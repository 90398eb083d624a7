import { describe, expect, it } from 'vitest';
import {
  bootstrapInterval,
  classificationMetrics,
  gmeanInterval,
  meanInterval,
  meanTInterval,
  nearestRankQuantile,
  quantile,
  setJaccard,
} from '../src/index.js';
import { code } from './error-code.js';

describe('quantile (type 7, linear interpolation)', () => {
  it('matches hand-computed values', () => {
    // sorted 1 2 3 4: h = 3q
    expect(quantile([4, 1, 3, 2], 0.5)).toBe(2.5);
    expect(quantile([4, 1, 3, 2], 0)).toBe(1);
    expect(quantile([4, 1, 3, 2], 1)).toBe(4);
    // h = 3·0.25 = 0.75 → 1 + 0.75·(2 − 1)
    expect(quantile([1, 2, 3, 4], 0.25)).toBe(1.75);
    expect(quantile([7], 0.9)).toBe(7);
    expect(code(() => quantile([], 0.5))).toBe('INVALID_ARGUMENT');
    expect(code(() => quantile([1], 1.5))).toBe('INVALID_ARGUMENT');
  });
});

describe('nearestRankQuantile (type 1, the ⌈q·n⌉-th smallest)', () => {
  it('matches hand-computed values', () => {
    // sorted 1 2 3 4: ⌈4q⌉-th smallest
    expect(nearestRankQuantile([4, 1, 3, 2], 0.5)).toBe(2);
    expect(nearestRankQuantile([4, 1, 3, 2], 0.51)).toBe(3);
    expect(nearestRankQuantile([4, 1, 3, 2], 0.1)).toBe(1);
    expect(nearestRankQuantile([4, 1, 3, 2], 0)).toBe(1);
    expect(nearestRankQuantile([4, 1, 3, 2], 1)).toBe(4);
    // 10 values 10 20 … 100: the 10th percentile is the 1st, the 25th the ⌈2.5⌉ = 3rd
    const tens = Array.from({ length: 10 }, (_, i) => 10 * (i + 1));
    expect(nearestRankQuantile(tens, 0.1)).toBe(10);
    expect(nearestRankQuantile(tens, 0.25)).toBe(30);
    expect(code(() => nearestRankQuantile([], 0.5))).toBe('INVALID_ARGUMENT');
    expect(code(() => nearestRankQuantile([1], -0.1))).toBe('INVALID_ARGUMENT');
  });
});

describe('bootstrapInterval', () => {
  const mean = (x: number[]) => (idx: Uint32Array) => idx.reduce((a, i) => a + x[i], 0) / idx.length;

  it('a statistic that ignores the resample has a zero-width interval at its value', () => {
    const r = bootstrapInterval(10, () => 0.7, { seed: 1, resamples: 50 });
    expect(r).toEqual({ estimate: 0.7, lo: 0.7, hi: 0.7, level: 0.95, resamples: 50, finite: 50 });
  });

  it('the mean of {0, 1} over two draws: 0, ½, 1 with chances ¼, ½, ¼, so the 95 % interval is [0, 1]', () => {
    const seen: number[] = [];
    const r = bootstrapInterval(
      2,
      (idx) => {
        const m = mean([0, 1])(idx);
        seen.push(m);
        return m;
      },
      { seed: 3, resamples: 4000 },
    );
    expect(r.estimate).toBe(0.5);
    expect([r.lo, r.hi]).toEqual([0, 1]);
    const half = seen.slice(1).filter((m) => m === 0.5).length / 4000;
    expect(half).toBeGreaterThan(0.47);
    expect(half).toBeLessThan(0.53);
    // a 40 % interval sits inside the middle mass: both ends ½
    const narrow = bootstrapInterval(2, mean([0, 1]), { seed: 3, resamples: 4000, level: 0.4 });
    expect([narrow.lo, narrow.hi]).toEqual([0.5, 0.5]);
  });

  it('is seeded: same seed same interval, another seed another one', () => {
    const x = Array.from({ length: 50 }, (_, i) => (i * 37) % 11);
    const a = bootstrapInterval(50, mean(x), { seed: 5 });
    expect(bootstrapInterval(50, mean(x), { seed: 5 })).toEqual(a);
    expect(bootstrapInterval(50, mean(x), { seed: 6 })).not.toEqual(a);
    expect(a.lo).toBeLessThan(a.estimate);
    expect(a.hi).toBeGreaterThan(a.estimate);
  });

  it('resamples paired data through the indices (a G-mean interval), and skips non-finite statistics', () => {
    const truth = [1, 1, 1, 0, 0, 0];
    const verdict = [1, 1, 0, 0, 0, 1];
    const g = (idx: Uint32Array) => {
      const t = Array.from(idx, (i) => truth[i]);
      if (!t.includes(0) || !t.includes(1)) return Number.NaN; // one class only: G-mean undefined
      return classificationMetrics(
        Array.from(idx, (i) => verdict[i]),
        t,
      ).gmean;
    };
    const r = bootstrapInterval(6, g, { seed: 2, resamples: 500 });
    // gmeanInterval is the same computation
    expect(gmeanInterval(verdict, truth, { seed: 2, resamples: 500 })).toEqual(r);
    // sensitivity 2/3, specificity 2/3
    expect(r.estimate).toBeCloseTo(2 / 3, 12);
    expect(r.finite).toBeLessThan(500);
    expect(r.finite).toBeGreaterThan(400);
    expect(r.lo).toBeGreaterThanOrEqual(0);
    expect(r.hi).toBeLessThanOrEqual(1);
  });

  it('refuses bad arguments', () => {
    expect(code(() => bootstrapInterval(0, () => 1, { seed: 1 }))).toBe('INVALID_ARGUMENT');
    expect(code(() => bootstrapInterval(3, () => 1, { seed: 1, level: 1 }))).toBe('INVALID_ARGUMENT');
    expect(code(() => bootstrapInterval(3, () => 1, { seed: 1.5 }))).toBe('INVALID_ARGUMENT');
    expect(code(() => bootstrapInterval(3, () => 1, { seed: 1, resamples: 0 }))).toBe('INVALID_ARGUMENT');
  });
});

describe('meanInterval (percentile bootstrap of the mean)', () => {
  it('is bootstrapInterval of the mean, as {mean, lo, hi, n}', () => {
    const x = [0.2, 0.4, 0.6, 0.8];
    const r = meanInterval(x, { seed: 3, resamples: 300 });
    const b = bootstrapInterval(4, (idx) => idx.reduce((a, i) => a + x[i], 0) / idx.length, {
      seed: 3,
      resamples: 300,
    });
    expect(r).toEqual({ mean: b.estimate, lo: b.lo, hi: b.hi, n: 4 });
    expect(r.mean).toBeCloseTo(0.5, 12);
  });

  it('constant values give a zero-width interval; no values give NaN with n = 0', () => {
    expect(meanInterval([0.5, 0.5, 0.5], { seed: 1 })).toEqual({ mean: 0.5, lo: 0.5, hi: 0.5, n: 3 });
    const e = meanInterval([], { seed: 1 });
    expect(e.n).toBe(0);
    expect([e.mean, e.lo, e.hi].every(Number.isNaN)).toBe(true);
  });
});

describe('meanTInterval (90 % t-interval half-width)', () => {
  it('matches hand-computed values', () => {
    // 1 2 3: mean 2, s = 1, t(0.95, 2 df) = 2.92 → 2.92 / √3
    const r = meanTInterval([1, 2, 3]);
    expect(r.mean).toBe(2);
    expect(r.halfWidth).toBeCloseTo(2.92 / Math.sqrt(3), 12);
    expect(r.n).toBe(3);
    // 0 4: mean 2, s = √8, t(0.95, 1 df) = 6.314 → 6.314 · √8 / √2 = 12.628
    expect(meanTInterval(Float64Array.of(0, 4)).halfWidth).toBeCloseTo(12.628, 12);
    // 18 values, nine 0s and nine 2s: mean 1, s² = 18/17; above 16 values the normal 1.645 → 1.645 / √17
    const big = Array.from({ length: 18 }, (_, i) => (i % 2 ? 2 : 0));
    expect(meanTInterval(big).halfWidth).toBeCloseTo(1.645 / Math.sqrt(17), 12);
  });

  it('one value has no half-width; no values have no mean', () => {
    expect(meanTInterval([5])).toEqual({ mean: 5, halfWidth: Number.NaN, n: 1 });
    expect(Number.isNaN(meanTInterval([]).mean)).toBe(true);
  });
});

describe('setJaccard (typed-array sets)', () => {
  it('matches hand-computed values', () => {
    // {1, 2, 3} and {3, 4}: 1 common of 4
    expect(setJaccard(Int32Array.of(1, 2, 3), Int32Array.of(4, 3))).toBe(0.25);
    expect(setJaccard([2, 1], [1, 2])).toBe(1);
    expect(setJaccard([1], [])).toBe(0);
    expect(setJaccard(new Int32Array(0), new Int32Array(0))).toBe(1);
  });
});
