import { rng } from '@xtrust/core';
import { classificationMetrics } from './oracle-metrics.js';
import { invalid } from './validate.js';

/** A percentile bootstrap confidence interval. */
export interface BootstrapInterval {
  /** The statistic on the data as it is (all n items once). */
  readonly estimate: number;
  /** Lower and upper ends: the (1 − level)/2 and (1 + level)/2 quantiles of the resampled statistics. */
  readonly lo: number;
  readonly hi: number;
  readonly level: number;
  /** Resamples drawn, and how many gave a finite statistic (the quantiles are taken over those). */
  readonly resamples: number;
  readonly finite: number;
}

export interface BootstrapOptions {
  /** Resamples drawn (default 1,000). */
  readonly resamples?: number;
  /** Coverage of the interval (default 0.95). */
  readonly level?: number;
  /** Seed of core's rng: the same data, statistic and seed give the same interval. */
  readonly seed: number;
}

/**
 * The q-quantile of `values` by linear interpolation between order statistics (Hyndman & Fan's type 7,
 * numpy's default): position h = (n − 1)·q, value x_⌊h⌋ + (h − ⌊h⌋)(x_⌊h⌋+1 − x_⌊h⌋) of the sorted values.
 */
export function quantile(values: ArrayLike<number>, q: number): number {
  if (!(q >= 0 && q <= 1)) throw invalid('q', 'a number in [0, 1]', q);
  if (values.length === 0) throw invalid('values', 'at least one value', values);
  const sorted = Float64Array.from(values).sort();
  const h = (sorted.length - 1) * q;
  const lo = Math.floor(h);
  return lo + 1 < sorted.length ? sorted[lo] + (h - lo) * (sorted[lo + 1] - sorted[lo]) : sorted[lo];
}

/**
 * The nearest-rank q-quantile of `values` (Hyndman & Fan's type 1, the inverse of the empirical CDF): the
 * smallest value x with at least q·n of the values ≤ x, i.e. the ⌈q·n⌉-th smallest (the smallest for
 * q = 0). Always one of the values, never interpolated: e.g. the median of 1 2 3 4 is 2, where `quantile`
 * gives 2.5. The oracle family report's medians and tenth percentiles are taken so.
 */
export function nearestRankQuantile(values: ArrayLike<number>, q: number): number {
  if (!(q >= 0 && q <= 1)) throw invalid('q', 'a number in [0, 1]', q);
  if (values.length === 0) throw invalid('values', 'at least one value', values);
  const sorted = Float64Array.from(values).sort();
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

/**
 * Percentile bootstrap (Efron & Tibshirani 1993, §13.3) of a statistic over n items: draws `resamples`
 * samples of n item indices with replacement (seeded), computes `statistic(indices)` on each, and
 * returns the (1 − level)/2 and (1 + level)/2 quantiles of the finite results with the estimate on
 * the identity sample 0…n−1. The statistic receives indices, so it can resample paired data (e.g.
 * an oracle's verdicts and the ground truth of the same predictions, for a G-mean interval).
 */
export function bootstrapInterval(
  n: number,
  statistic: (indices: Uint32Array) => number,
  options: BootstrapOptions,
): BootstrapInterval {
  if (!Number.isInteger(n) || n < 1) throw invalid('n', 'a positive integer (items to resample)', n);
  const resamples = options.resamples ?? 1000;
  if (!Number.isInteger(resamples) || resamples < 1) throw invalid('resamples', 'a positive integer', resamples);
  const level = options.level ?? 0.95;
  if (!(level > 0 && level < 1)) throw invalid('level', 'a number strictly between 0 and 1', level);
  if (!Number.isInteger(options.seed)) throw invalid('seed', 'an integer', options.seed);
  const estimate = statistic(Uint32Array.from({ length: n }, (_, i) => i));
  const r = rng(options.seed);
  const idx = new Uint32Array(n);
  const stats: number[] = [];
  for (let b = 0; b < resamples; b++) {
    for (let i = 0; i < n; i++) idx[i] = r.int(n);
    const s = statistic(idx);
    if (Number.isFinite(s)) stats.push(s);
  }
  if (stats.length === 0) return { estimate, lo: Number.NaN, hi: Number.NaN, level, resamples, finite: 0 };
  return {
    estimate,
    lo: quantile(stats, (1 - level) / 2),
    hi: quantile(stats, (1 + level) / 2),
    level,
    resamples,
    finite: stats.length,
  };
}

/**
 * G-mean (√(Sen·Spec), 000 §6.3; trustworthy = 1 is the positive class) of binary verdicts against
 * the truth, with a percentile-bootstrap interval over the items (pairs resampled together; a resample
 * holding one class only has no G-mean and is skipped).
 */
export function gmeanInterval(
  predicted: ArrayLike<number>,
  actual: ArrayLike<number>,
  options: BootstrapOptions,
): BootstrapInterval {
  if (predicted.length !== actual.length)
    throw invalid('predicted', `as many verdicts as truths (${actual.length})`, predicted.length);
  return bootstrapInterval(
    actual.length,
    (idx) => {
      const t = Uint8Array.from(idx, (i) => (actual[i] ? 1 : 0));
      const pos = t.reduce((a, b) => a + b, 0);
      if (pos === 0 || pos === t.length) return Number.NaN;
      return classificationMetrics(
        Uint8Array.from(idx, (i) => (predicted[i] ? 1 : 0)),
        t,
      ).gmean;
    },
    options,
  );
}

/** A mean with a confidence interval, and how many values it is over. */
export interface MeanInterval {
  readonly mean: number;
  readonly lo: number;
  readonly hi: number;
  readonly n: number;
}

/**
 * The mean of `values` with a percentile-bootstrap interval over the values (`bootstrapInterval` of the
 * mean: the values resampled with replacement, seeded; 1,000 resamples and 95 % unless `options` say).
 * No values: every field NaN but n = 0.
 */
export function meanInterval(values: ArrayLike<number>, options: BootstrapOptions): MeanInterval {
  const n = values.length;
  if (n === 0) return { mean: Number.NaN, lo: Number.NaN, hi: Number.NaN, n: 0 };
  const mean = (idx: ArrayLike<number>) => {
    let s = 0;
    for (let i = 0; i < idx.length; i++) s += values[idx[i]];
    return s / idx.length;
  };
  const ci = bootstrapInterval(n, mean, options);
  return { mean: ci.estimate, lo: ci.lo, hi: ci.hi, n };
}

/** Student's t 0.95-quantiles for 1…15 degrees of freedom (two-sided 90 %). */
const T90 = [6.314, 2.92, 2.353, 2.132, 2.015, 1.943, 1.895, 1.86, 1.833, 1.812, 1.796, 1.782, 1.771, 1.761, 1.753];

/**
 * The mean of `values` and the half-width of its two-sided 90 % t-interval, t · s / √n with s the sample
 * standard deviation (n − 1 in the denominator) and t Student's 0.95-quantile at n − 1 degrees of
 * freedom, tabled for n ≤ 16; above that the normal 1.645 is used (narrower than t by 4 % at n = 24 and
 * 1 % at n = 100; the lime-stopping section's stored figures were computed so). Fewer than 2 values: the
 * half-width is NaN (and the mean of none is NaN).
 */
export function meanTInterval(values: ArrayLike<number>): { mean: number; halfWidth: number; n: number } {
  const n = values.length;
  let m = 0;
  for (let i = 0; i < n; i++) m += values[i];
  m = n === 0 ? Number.NaN : m / n;
  if (n < 2) return { mean: m, halfWidth: Number.NaN, n };
  let ss = 0;
  for (let i = 0; i < n; i++) ss += (values[i] - m) ** 2;
  const t = T90[n - 2] ?? 1.645;
  return { mean: m, halfWidth: (t * Math.sqrt(ss / (n - 1))) / Math.sqrt(n), n };
}
