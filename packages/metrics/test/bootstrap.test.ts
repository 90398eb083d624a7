import { describe, expect, it } from 'vitest';
import { bootstrapInterval, classificationMetrics, gmeanInterval, quantile } from '../src/index.js';
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
