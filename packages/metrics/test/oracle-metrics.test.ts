import { describe, expect, it } from 'vitest';
import {
  bestGMeanThreshold,
  classificationMetrics,
  confusion,
  metricsFromConfusion,
  rocAuc,
  rocCurve,
  thresholdSweep,
} from '../src/index.js';
import { code } from './error-code.js';

describe('classification metrics, trustworthy = positive (000 §6.3)', () => {
  it('counts the confusion matrix', () => {
    expect(confusion([1, 1, 0, 0, 1, 0], [1, 0, 0, 1, 1, 0])).toEqual({ tp: 2, fp: 1, tn: 2, fn: 1 });
    expect(confusion([true, false], Uint8Array.of(1, 1))).toEqual({ tp: 1, fp: 0, tn: 0, fn: 1 });
  });
  it('hand-computed Acc, Pre, Sen, F1, Spec, G-mean', () => {
    const m = metricsFromConfusion({ tp: 3, fp: 1, tn: 4, fn: 2 });
    expect(m.accuracy).toBeCloseTo(0.7, 12);
    expect(m.precision).toBeCloseTo(0.75, 12);
    expect(m.sensitivity).toBeCloseTo(0.6, 12);
    expect(m.f1).toBeCloseTo((2 * 0.75 * 0.6) / 1.35, 12);
    expect(m.specificity).toBeCloseTo(0.8, 12);
    expect(m.gmean).toBeCloseTo(Math.sqrt(0.48), 12);
    const s = classificationMetrics([1, 1, 0, 0, 1, 0], [1, 0, 0, 1, 1, 0]);
    for (const k of ['accuracy', 'precision', 'sensitivity', 'f1', 'specificity', 'gmean'] as const)
      expect(s[k]).toBeCloseTo(2 / 3, 12);
  });
  it('zero denominators give 0, never NaN', () => {
    const allUntrust = classificationMetrics([0, 0, 0], [1, 0, 1]);
    expect(allUntrust.precision).toBe(0);
    expect(allUntrust.sensitivity).toBe(0);
    expect(allUntrust.f1).toBe(0);
    expect(allUntrust.specificity).toBe(1);
    expect(allUntrust.gmean).toBe(0);
    const onlyTrust = classificationMetrics([1, 1], [1, 1]);
    expect(onlyTrust.specificity).toBe(0);
    expect(onlyTrust.accuracy).toBe(1);
  });
  it('validates inputs', () => {
    expect(code(() => confusion([1, 0], [1]))).toBe('DIMENSION_MISMATCH');
    expect(code(() => confusion([], []))).toBe('INVALID_ARGUMENT');
    expect(code(() => confusion([2], [1]))).toBe('INVALID_ARGUMENT');
    expect(code(() => metricsFromConfusion({ tp: -1, fp: 0, tn: 0, fn: 0 }))).toBe('INVALID_ARGUMENT');
  });
});

describe('ROC, AUC and the G-mean threshold', () => {
  const scores = [0.9, 0.8, 0.7, 0.6];
  const actual = [1, 0, 1, 0];
  it('ROC points, one per distinct score', () => {
    const r = rocCurve(scores, actual);
    expect(Array.from(r.fpr)).toEqual([0, 0, 0.5, 0.5, 1]);
    expect(Array.from(r.tpr)).toEqual([0, 0.5, 0.5, 1, 1]);
    expect(Array.from(r.thresholds)).toEqual([Infinity, 0.9, 0.8, 0.7, 0.6]);
  });
  it('AUC equals the Mann–Whitney probability, ties counting one half', () => {
    expect(rocAuc(scores, actual)).toBeCloseTo(0.75, 12);
    expect(rocAuc([0.5, 0.5], [1, 0])).toBeCloseTo(0.5, 12);
    expect(rocAuc([0.1, 0.9], [0, 1])).toBe(1);
    expect(rocAuc(Float32Array.of(0.3, 0.5, 0.5, 0.2), [1, 1, 0, 0])).toBeCloseTo((0 + 1 + 0.5 + 1) / 4, 12);
  });
  it('picks the threshold that maximises G-mean, ties to the higher threshold', () => {
    const best = bestGMeanThreshold(scores, actual);
    expect(best.threshold).toBe(0.9);
    expect(best.gmean).toBeCloseTo(Math.SQRT1_2, 12);
    const grid = bestGMeanThreshold(scores, actual, { thresholds: [0, 0.65, 0.75, 1] });
    expect(grid.threshold).toBe(0.65);
    expect(grid.sensitivity).toBe(1);
    expect(grid.specificity).toBe(0.5);
  });
  it('sweeps a threshold grid', () => {
    const s = thresholdSweep(scores, actual, [0, 0.75, 1]);
    expect(s.map((p) => p.confusion)).toEqual([
      { tp: 2, fp: 2, tn: 0, fn: 0 },
      { tp: 1, fp: 1, tn: 1, fn: 1 },
      { tp: 0, fp: 0, tn: 2, fn: 2 },
    ]);
  });
  it('needs both classes and finite scores', () => {
    expect(code(() => rocCurve([0.1, 0.2], [1, 1]))).toBe('INVALID_ARGUMENT');
    expect(code(() => rocAuc([0.1, Number.NaN], [1, 0]))).toBe('INVALID_ARGUMENT');
    expect(code(() => rocAuc([0.1], [1, 0]))).toBe('DIMENSION_MISMATCH');
  });
});
