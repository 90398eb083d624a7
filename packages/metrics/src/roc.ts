import { checkBinary, checkNumberArray, checkSameLength, invalid } from './validate.js';
import { metricsFromConfusion, type BinaryLabels, type ClassificationMetrics } from './oracle-metrics.js';

/** A ROC curve: point t is (fpr[t], tpr[t]) for "trustworthy iff score ≥ thresholds[t]". */
export interface RocCurve {
  /** false-positive rate = 1 − specificity, non-decreasing, from 0 to 1 */
  readonly fpr: Float64Array;
  /** true-positive rate = sensitivity, non-decreasing, from 0 to 1 */
  readonly tpr: Float64Array;
  /** decreasing; the first is +Infinity (nothing labelled trustworthy) */
  readonly thresholds: Float64Array;
}

interface Sorted {
  scores: ArrayLike<number>;
  labels: Uint8Array;
  order: Uint32Array;
  pos: number;
  neg: number;
}

function sortByScore(scores: ArrayLike<number>, actual: BinaryLabels): Sorted {
  checkNumberArray('scores', scores);
  const labels = checkBinary('actual', actual);
  checkSameLength('scores', scores, 'actual', labels);
  let pos = 0;
  for (let i = 0; i < labels.length; i++) pos += labels[i];
  const neg = labels.length - pos;
  if (pos === 0 || neg === 0) {
    throw invalid(
      'actual',
      'both trustworthy and untrustworthy examples (ROC and G-mean are undefined otherwise)',
      `${pos} trustworthy, ${neg} untrustworthy`,
    );
  }
  const order = Uint32Array.from({ length: labels.length }, (_, i) => i);
  order.sort((i, j) => scores[j] - scores[i]);
  return { scores, labels, order, pos, neg };
}

/**
 * The ROC curve of a score-based oracle (e.g. Naive's model confidence, 000 §6.5 RQ1.2 / Figure 7):
 * higher scores mean "more trustworthy" (negate a distance first). One point per distinct score, plus
 * (0, 0) at threshold +∞; tied scores move together (a diagonal segment).
 * Source: 000_6d314fe57d39eb4c.txt §6.3 and the RQ1.2 discussion. Edge cases: both classes must be
 * present; NaN scores are rejected.
 */
export function rocCurve(scores: ArrayLike<number>, actual: BinaryLabels): RocCurve {
  const s = sortByScore(scores, actual);
  const fpr: number[] = [0];
  const tpr: number[] = [0];
  const th: number[] = [Number.POSITIVE_INFINITY];
  let tp = 0;
  let fp = 0;
  const n = s.order.length;
  for (let r = 0; r < n; r++) {
    const i = s.order[r];
    if (s.labels[i]) tp++;
    else fp++;
    if (r + 1 < n && s.scores[s.order[r + 1]] === s.scores[i]) continue;
    fpr.push(fp / s.neg);
    tpr.push(tp / s.pos);
    th.push(s.scores[i]);
  }
  return { fpr: Float64Array.from(fpr), tpr: Float64Array.from(tpr), thresholds: Float64Array.from(th) };
}

/**
 * Area under the ROC curve by the trapezoid rule over `rocCurve` — equal to the probability that a
 * random trustworthy example scores above a random untrustworthy one, ties counting one half.
 */
export function rocAuc(scores: ArrayLike<number>, actual: BinaryLabels): number {
  const { fpr, tpr } = rocCurve(scores, actual);
  let area = 0;
  for (let t = 1; t < fpr.length; t++) area += ((fpr[t] - fpr[t - 1]) * (tpr[t] + tpr[t - 1])) / 2;
  return area;
}

/** The classification metrics of the rule "trustworthy iff score ≥ threshold" at one threshold. */
export interface ThresholdPoint extends ClassificationMetrics {
  readonly threshold: number;
}

/**
 * The metrics of "trustworthy iff score ≥ θ" for each θ of a grid (e.g. θ_conf = 0.05, 0.10, …, 1 as in
 * the paper's Figure 8), in the grid's order.
 */
export function thresholdSweep(
  scores: ArrayLike<number>,
  actual: BinaryLabels,
  thresholds: ArrayLike<number>,
): ThresholdPoint[] {
  const s = sortByScore(scores, actual);
  checkNumberArray('thresholds', thresholds);
  const n = s.order.length;
  const sorted = new Float64Array(n); // scores, descending
  const cumTp = new Uint32Array(n + 1); // trustworthy among the first r
  for (let r = 0; r < n; r++) {
    sorted[r] = s.scores[s.order[r]];
    cumTp[r + 1] = cumTp[r] + s.labels[s.order[r]];
  }
  const out: ThresholdPoint[] = [];
  for (let t = 0; t < thresholds.length; t++) {
    const theta = thresholds[t];
    let lo = 0; // number of scores ≥ θ, by binary search
    let hi = n;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (sorted[mid] >= theta) lo = mid + 1;
      else hi = mid;
    }
    const tp = cumTp[lo];
    const fp = lo - tp;
    out.push({ threshold: theta, ...metricsFromConfusion({ tp, fp, fn: s.pos - tp, tn: s.neg - fp }) });
  }
  return out;
}

/**
 * The threshold θ maximising G-mean = √(sensitivity × specificity) for "trustworthy iff score ≥ θ" —
 * how the paper picks Naive's θ_conf (000 §6.5, RQ1.2: "we choose to maximise G-mean").
 * Candidates: the given grid, or by default every distinct score (the ROC thresholds, +∞ excluded).
 * Ties in G-mean go to the higher threshold (the more conservative oracle).
 */
export function bestGMeanThreshold(
  scores: ArrayLike<number>,
  actual: BinaryLabels,
  options: { thresholds?: ArrayLike<number> } = {},
): ThresholdPoint {
  let grid: ArrayLike<number>;
  if (options.thresholds === undefined) grid = rocCurve(scores, actual).thresholds.subarray(1);
  else grid = checkNumberArray('options.thresholds', options.thresholds);
  const points = thresholdSweep(scores, actual, grid);
  let best = points[0];
  for (const p of points) {
    if (p.gmean > best.gmean || (p.gmean === best.gmean && p.threshold > best.threshold)) best = p;
  }
  return best;
}
