import { checkBinary, checkSameLength, invalid } from './validate.js';

/** Binary labels: true / 1 = trustworthy (the positive class), false / 0 = untrustworthy. */
export type BinaryLabels = ArrayLike<boolean> | ArrayLike<number>;

/** Counts of a binary classification with "trustworthy" as the positive class. */
export interface Confusion {
  /** trustworthy predictions labelled trustworthy */
  readonly tp: number;
  /** untrustworthy predictions labelled trustworthy */
  readonly fp: number;
  /** untrustworthy predictions labelled untrustworthy */
  readonly tn: number;
  /** trustworthy predictions labelled untrustworthy */
  readonly fn: number;
}

/** The six measures of 000 §6.3, plus the counts they come from. */
export interface ClassificationMetrics {
  readonly accuracy: number;
  readonly precision: number;
  /** recall of the trustworthy class */
  readonly sensitivity: number;
  readonly f1: number;
  /** recall of the untrustworthy class */
  readonly specificity: number;
  /** √(sensitivity × specificity) */
  readonly gmean: number;
  readonly confusion: Confusion;
}

/**
 * The confusion counts of an oracle's labels against the ground truth (true = trustworthy).
 * Edge cases: different lengths → DIMENSION_MISMATCH; an entry other than a boolean or 0/1 →
 * INVALID_ARGUMENT; empty → INVALID_ARGUMENT.
 */
export function confusion(predicted: BinaryLabels, actual: BinaryLabels): Confusion {
  const p = checkBinary('predicted', predicted);
  const a = checkBinary('actual', actual);
  checkSameLength('predicted', p, 'actual', a);
  if (p.length === 0) throw invalid('predicted', 'at least one labelled prediction', predicted);
  let tp = 0;
  let fp = 0;
  let tn = 0;
  let fn = 0;
  for (let i = 0; i < p.length; i++) {
    if (p[i]) {
      if (a[i]) tp++;
      else fp++;
    } else if (a[i]) fn++;
    else tn++;
  }
  return { tp, fp, tn, fn };
}

const ratio = (num: number, den: number) => (den === 0 ? 0 : num / den);

/**
 * Accuracy, precision, sensitivity, F1, specificity and G-mean from confusion counts, with
 * "trustworthy" the positive class:
 *   Acc = (TP+TN)/n, Pre = TP/(TP+FP), Sen = TP/(TP+FN), F1 = 2·Pre·Sen/(Pre+Sen),
 *   Spec = TN/(TN+FP), G-mean = √(Sen·Spec).
 * Source: 000_6d314fe57d39eb4c.txt §6.3 ("Trustworthiness assessment").
 * Edge case: a ratio with a zero denominator (no predicted-trustworthy, no trustworthy, or no
 * untrustworthy example) is 0, never NaN — as scikit-learn's zero_division=0.
 */
export function metricsFromConfusion(c: Confusion): ClassificationMetrics {
  for (const k of ['tp', 'fp', 'tn', 'fn'] as const) {
    const v = c?.[k];
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0)
      throw invalid(`confusion.${k}`, 'a non-negative integer', v);
  }
  const n = c.tp + c.fp + c.tn + c.fn;
  if (n === 0) throw invalid('confusion', 'at least one counted prediction', 0);
  const precision = ratio(c.tp, c.tp + c.fp);
  const sensitivity = ratio(c.tp, c.tp + c.fn);
  const specificity = ratio(c.tn, c.tn + c.fp);
  return {
    accuracy: (c.tp + c.tn) / n,
    precision,
    sensitivity,
    f1: ratio(2 * precision * sensitivity, precision + sensitivity),
    specificity,
    gmean: Math.sqrt(sensitivity * specificity),
    confusion: { tp: c.tp, fp: c.fp, tn: c.tn, fn: c.fn },
  };
}

/** `metricsFromConfusion(confusion(predicted, actual))`: how well an oracle's labels match the truth. */
export function classificationMetrics(predicted: BinaryLabels, actual: BinaryLabels): ClassificationMetrics {
  return metricsFromConfusion(confusion(predicted, actual));
}
