import { XtrustError } from '@xtrust/core';
import type { FeatureSelection } from './feature-selection.js';
import { solvePsd } from './least-squares.js';
import { RunningSelection, adaptiveMinRows } from './lime-adaptive.js';
import { intOption } from './options.js';

/** The local model of one explained label at a check: the selected features (indices into the text's words) and their ridge coefficients. */
export interface VerdictFit {
  readonly features: Int32Array;
  readonly coef: Float64Array;
  readonly intercept: number;
}

/**
 * A caller's statistic of the local model at a check: its value — the verdict is `value ≥ 0` — and its
 * gradient with respect to `coef` (one entry per selected feature). A statistic that is linear in the
 * coefficients given which words count (a sum of some words' weights minus a constant) has that
 * pattern's 0/±1 indicator as its gradient.
 */
export interface VerdictValue {
  readonly value: number;
  readonly gradient: ArrayLike<number>;
}

export type VerdictStatistic = (fit: VerdictFit) => VerdictValue;

/** What `prepare` is told about one text and explained label once its unperturbed row is scored. */
export interface VerdictContext {
  readonly text: string;
  /** The text's features (distinct words in bag-of-words mode), indexed as `VerdictFit.features`. */
  readonly words: readonly string[];
  /** Class probabilities of the unperturbed text. */
  readonly probabilities: Float32Array;
  /** Index of the explained label. */
  readonly label: number;
  readonly labels: readonly string[];
}

/**
 * A verdict rule for LIME's sample count (`LimeOptions.verdict`): the caller says what decision the
 * explanation is for, LIME samples until that decision is settled. `prepare` is called once per text and
 * explained label, after the first round; it returns the statistic, `'settled'` when the decision does
 * not depend on the explanation (LIME stops at the first check), or null when there is no decision to
 * settle (LIME samples the whole budget: the exact explanation).
 */
export interface VerdictOption {
  /** Recorded in the explanation's params (e.g. `toki:decisive`). */
  readonly name: string;
  /** Probability that the rule stops on the wrong side of the statistic (asymptotically, Bonferroni over its checks) is ≤ 1 − confidence. Default 0.95. */
  readonly confidence?: number;
  /** Samples scored per round. Default numSamples / 20, rounded up (250 of 5,000). */
  readonly step?: number;
  /** No check before max(minRows, 2d) rows (d distinct words). Default 200. */
  readonly minRows?: number;
  /** Earlier consecutive checks that must have given the same verdict (settled or not) before a stop. Default 1. */
  readonly patience?: number;
  /**
   * A guard for what the interval does not see, which words are selected (VERDICT_SELECTION_GUARDS).
   * `none`: none beyond minRows and patience. `stable`: a stop also needs the same selected set as the
   * previous check. `swap` (highest_weights selection only; others as `none`): the statistic is also
   * computed on the selection with its last word swapped for the runner-up (the (k+1)-th |weight|), and a
   * stop needs both intervals on the same side of 0 — the statistic of the top k next to that of the
   * top k one boundary change away. Default VERDICT_SELECTION_GUARD.
   */
  readonly selectionGuard?: VerdictSelectionGuard;
  prepare(context: VerdictContext): VerdictStatistic | 'settled' | null | Promise<VerdictStatistic | 'settled' | null>;
}

/** A verdict rule with its defaults filled in. */
export interface VerdictRule {
  readonly name: string;
  readonly confidence: number;
  readonly step: number;
  readonly minRows: number;
  readonly patience: number;
  readonly selectionGuard: VerdictSelectionGuard;
  readonly prepare: VerdictOption['prepare'];
}

export const VERDICT_SELECTION_GUARDS = ['none', 'stable', 'swap'] as const;
export type VerdictSelectionGuard = (typeof VERDICT_SELECTION_GUARDS)[number];
/** The default selection guard (VerdictOption.selectionGuard). */
export const VERDICT_SELECTION_GUARD: VerdictSelectionGuard = 'none';

/**
 * Default floor on the rows before a verdict check: the interval is the sandwich (heteroscedasticity-
 * consistent) standard error of a weighted ridge on ~10 selected words, whose coverage needs many rows
 * per coefficient — 200 rows is 20 per coefficient at LIME's 10 features.
 */
export const VERDICT_MIN_ROWS = 200;

/** Resolves `LimeOptions.verdict` (null: off), naming the bad field. */
export function resolveVerdict(option: VerdictOption | undefined, numSamples: number): VerdictRule | null {
  if (option === undefined || option === null) return null;
  if (typeof option !== 'object' || typeof option.prepare !== 'function') {
    throw new XtrustError(
      'INVALID_ARGUMENT',
      "verdict must be { name, prepare(context), confidence?, step?, minRows?, patience? } (a verdict rule, e.g. from @xtrust/oracle's verdictSampling)",
      { argument: 'verdict' },
    );
  }
  if (typeof option.name !== 'string' || option.name === '') {
    throw new XtrustError(
      'INVALID_ARGUMENT',
      `verdict.name must be a non-empty string, got ${JSON.stringify(option.name)}`,
      { argument: 'verdict.name' },
    );
  }
  const confidence = option.confidence ?? 0.95;
  if (typeof confidence !== 'number' || !(confidence > 0 && confidence < 1)) {
    throw new XtrustError(
      'INVALID_ARGUMENT',
      `verdict.confidence must be a number in (0, 1), got ${JSON.stringify(option.confidence)}`,
      { argument: 'verdict.confidence' },
    );
  }
  return {
    name: option.name,
    confidence,
    step: intOption('verdict.step', option.step, Math.ceil(numSamples / 20), 1),
    minRows: intOption('verdict.minRows', option.minRows, VERDICT_MIN_ROWS, 2),
    patience: intOption('verdict.patience', option.patience, 1, 0),
    selectionGuard: selectionGuardOption(option.selectionGuard),
    prepare: option.prepare.bind(option),
  };
}

function selectionGuardOption(value: unknown): VerdictSelectionGuard {
  if (value === undefined) return VERDICT_SELECTION_GUARD;
  if (!(VERDICT_SELECTION_GUARDS as readonly unknown[]).includes(value)) {
    throw new XtrustError(
      'INVALID_ARGUMENT',
      `verdict.selectionGuard must be one of ${VERDICT_SELECTION_GUARDS.join(', ')}, got ${JSON.stringify(value)}`,
      { argument: 'verdict.selectionGuard' },
    );
  }
  return value as VerdictSelectionGuard;
}

/** The first row count at which the verdict rule checks a neighbourhood of d features: max(minRows, 2d) (adaptiveMinRows' reason holds for the selection). */
export function verdictMinRows(rule: Pick<VerdictRule, 'minRows'>, d: number): number {
  return Math.max(rule.minRows, adaptiveMinRows(d));
}

/** The round ends at which the rule checks: multiples of `step` from verdictMinRows up to (not including) numSamples. */
export function verdictChecks(rule: Pick<VerdictRule, 'minRows' | 'step'>, d: number, numSamples: number): number {
  const first = Math.ceil(verdictMinRows(rule, d) / rule.step) * rule.step;
  return first >= numSamples ? 0 : Math.ceil((numSamples - first) / rule.step);
}

/** Whether the rule can stop before numSamples on d features: it needs patience + 1 checks. */
export function verdictCanStop(
  rule: Pick<VerdictRule, 'minRows' | 'step' | 'patience'>,
  d: number,
  numSamples: number,
): boolean {
  return verdictChecks(rule, d, numSamples) >= rule.patience + 1;
}

/**
 * The standard normal quantile Φ⁻¹(p) for 0 < p < 1: P. J. Acklam's rational approximation (relative
 * error below 1.2e-9), "An algorithm for computing the inverse normal cumulative distribution function" (2003).
 */
export function normalQuantile(p: number): number {
  if (!(p > 0 && p < 1))
    throw new XtrustError('INVALID_ARGUMENT', `normalQuantile: p must be in (0, 1), got ${p}`, { argument: 'p' });
  const a = [
    -39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716, 2.506628277459239,
  ];
  const b = [-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572];
  const c = [
    -0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968,
    2.938163982698783,
  ];
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  const lo = 0.02425;
  if (p < lo) {
    const q = Math.sqrt(-2 * Math.log(p));
    return (
      (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
      ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1)
    );
  }
  if (p > 1 - lo) return -normalQuantile(1 - p);
  const q = p - 0.5;
  const r = q * q;
  return (
    ((((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q) /
    (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1)
  );
}

/** The statistic at one check: its value, the interval's ends and whether the interval excludes 0 (+1 above, −1 below, 0 not settled). */
export interface VerdictCheck {
  readonly rows: number;
  readonly value: number;
  readonly low: number;
  readonly high: number;
  readonly side: -1 | 0 | 1;
}

/**
 * One weighted ridge with intercept on the columns `cols` of the first `rows` rows — scikit-learn's
 * `Ridge(alpha, fit_intercept=True)` with sample weights, LIME's local model — and the
 * heteroscedasticity-consistent (sandwich, HC1) standard error of gᵀβ (White 1980; MacKinnon & White 1985):
 * with A = X̃ᵀWX̃ + αI (X̃ centred by the weighted means) and residuals e,
 * Var(gᵀβ) = uᵀ (Σ w² e² x̃ x̃ᵀ) u · n/(n − k − 1), u = A⁻¹g, computed as Σ w² e² (x̃ᵀu)² in O(n·k).
 * Returns the fit first (so the caller can compute g from it) through `fit`, then the error through `se(g)`.
 */
export function ridgeWithSandwich(
  data: Uint8Array,
  rows: number,
  d: number,
  cols: Int32Array,
  weights: ArrayLike<number>,
  y: ArrayLike<number>,
  alpha: number,
): { fit: VerdictFit; se: (g: ArrayLike<number>) => number } {
  const k = cols.length;
  let sw = 0;
  let sy = 0;
  const mx = new Float64Array(k);
  for (let r = 0; r < rows; r++) {
    const w = weights[r];
    sw += w;
    sy += w * y[r];
    const base = r * d;
    for (let j = 0; j < k; j++) if (data[base + cols[j]] !== 0) mx[j] += w;
  }
  const my = sy / sw;
  for (let j = 0; j < k; j++) mx[j] /= sw;
  const a = new Float64Array(k * k);
  const b = new Float64Array(k);
  const xc = new Float64Array(k);
  for (let r = 0; r < rows; r++) {
    const w = weights[r];
    const base = r * d;
    const yc = y[r] - my;
    for (let j = 0; j < k; j++) xc[j] = data[base + cols[j]] - mx[j];
    for (let i = 0; i < k; i++) {
      const wi = w * xc[i];
      b[i] += wi * yc;
      const row = i * k;
      for (let j = i; j < k; j++) a[row + j] += wi * xc[j];
    }
  }
  for (let i = 0; i < k; i++) {
    a[i * k + i] += alpha;
    for (let j = i + 1; j < k; j++) a[j * k + i] = a[i * k + j];
  }
  const coef = solvePsd(a, b, k);
  let intercept = my;
  for (let j = 0; j < k; j++) intercept -= coef[j] * mx[j];
  const se = (g: ArrayLike<number>): number => {
    const u = solvePsd(a, Float64Array.from(g), k);
    let meat = 0;
    for (let r = 0; r < rows; r++) {
      const w = weights[r];
      const base = r * d;
      let e = y[r] - my;
      let t = 0;
      for (let j = 0; j < k; j++) {
        const x = data[base + cols[j]] - mx[j];
        e -= x * coef[j];
        t += x * u[j];
      }
      meat += w * w * e * e * t * t;
    }
    const dof = rows - k - 1;
    return Math.sqrt(dof > 0 ? (meat * rows) / dof : meat);
  };
  return { fit: { features: cols, coef, intercept }, se };
}

/**
 * The verdict rule's stopping test for one neighbourhood scored in rounds (issue 30, "verdict-aware
 * sampling"). The decision a caller makes from an explanation — e.g. TOKI's Eq. 6 verdict, IS_rel ≥
 * IS_unr, or its decisive form IS_unr ≤ (p_c − p_2)/2 — is the sign of a statistic S of the local model.
 * After each round the selection LIME would make on the rows so far is recomputed from running moments
 * (RunningSelection), LIME's ridge (alpha 1) is fitted on the selected words, and S gets the interval
 * S ± z·se, se the delta-method standard error gᵀ Cov(β) g with the sandwich covariance.
 *
 * Why the analytic sandwich interval and not a bootstrap: LIME's "noise" is the random design — the model
 * is deterministic, the rows are drawn — and its linear model is misspecified, so residuals are
 * systematic and heteroscedastic; the sandwich estimator is the consistent covariance of a least-squares
 * fit under exactly that (random design, misspecification; White 1980), and it costs one k×k solve and
 * one O(n·k) pass per check, where a bootstrap of B refits costs B weighted Gram matrices over all rows
 * (B·n·d², hundreds of times a transformer's share at d ≈ 200). What neither interval sees is the
 * selection: the interval is conditional on which words are selected and counted. Two guards cover it:
 * no check before max(minRows, 2d) rows (where `highest_weights`' ridge is determined), and a stop also
 * needs the `patience` previous checks to have given the same verdict.
 *
 * z is the two-sided normal quantile at (1 − confidence) / checks — Bonferroni over every check the rule
 * can make on this text — so, asymptotically and given the selection, the probability that it ever stops
 * on the wrong side of S's limit is at most 1 − confidence.
 */
export class VerdictStop {
  private readonly selection: RunningSelection;
  private readonly z: number;
  private readonly first: number;
  /** Consecutive checks (per label) whose verdict, sign(S), was the same. */
  private readonly streak: Int32Array;
  private readonly lastSign: Int8Array;
  /** The previous check's selected set per label (sorted), for the `stable` guard. */
  private readonly lastSelected: (string | null)[];
  /** The last check of each label (null before the first). */
  readonly last: (VerdictCheck | null)[];

  constructor(
    private readonly rule: VerdictRule,
    private readonly d: number,
    private readonly statistics: readonly (VerdictStatistic | 'settled')[],
    method: Exclude<FeatureSelection, 'auto'>,
    private readonly numFeatures: number,
    numSamples: number,
  ) {
    this.selection = new RunningSelection(d, statistics.length, method, numFeatures);
    const checks = Math.max(1, verdictChecks(rule, d, numSamples));
    this.z = normalQuantile(1 - (1 - rule.confidence) / (2 * checks));
    this.first = verdictMinRows(rule, d);
    this.streak = new Int32Array(statistics.length);
    this.lastSign = new Int8Array(statistics.length);
    this.lastSelected = statistics.map(() => null);
    this.last = statistics.map(() => null);
  }

  /** The normal quantile the intervals use (Bonferroni-adjusted). */
  get quantile(): number {
    return this.z;
  }

  /**
   * Adds the rows [from, to) of the neighbourhood (`data` and `weights` from row 0, `ys` one column per
   * label over at least `to` rows) and checks; true once every label's verdict is settled.
   */
  addRound(data: Uint8Array, from: number, to: number, weights: Float64Array, ys: readonly Float64Array[]): boolean {
    const d = this.d;
    this.selection.add(
      data.subarray(from * d, to * d),
      to - from,
      weights.subarray(from, to),
      ys.map((y) => y.subarray(from, to)),
    );
    if (to < this.first) return false;
    const settledAll = this.statistics.every((s) => s === 'settled');
    if (settledAll) return true;
    const guard = this.rule.selectionGuard;
    const ranked = guard === 'swap' ? this.selection.ranked(1) : null;
    const selected =
      ranked === null
        ? this.selection.selection()
        : ranked.map((r) => r.subarray(0, Math.min(this.numFeatures, r.length)));
    let stop = true;
    this.statistics.forEach((stat, l) => {
      if (stat === 'settled') return;
      const { value, low, high, side } = this.interval(stat, data, to, selected[l], weights, ys[l]);
      const sign = value >= 0 ? 1 : -1;
      this.streak[l] = this.last[l] !== null && this.lastSign[l] === sign ? this.streak[l] + 1 : 0;
      this.lastSign[l] = sign;
      this.last[l] = { rows: to, value, low, high, side };
      let guarded = true;
      if (guard === 'stable') {
        const key = Array.from(selected[l])
          .sort((a, b) => a - b)
          .join(',');
        guarded = this.lastSelected[l] === key;
        this.lastSelected[l] = key;
      } else if (ranked !== null && side !== 0 && ranked[l].length > selected[l].length) {
        // the top k with its last word swapped for the runner-up: one boundary change away
        const swapped = Int32Array.from(selected[l]);
        swapped[swapped.length - 1] = ranked[l][ranked[l].length - 1];
        guarded = this.interval(stat, data, to, swapped, weights, ys[l]).side === side;
      }
      if (side === 0 || !guarded || this.streak[l] < this.rule.patience) stop = false;
    });
    return stop;
  }

  /** The statistic and its interval on the ridge over `cols`. */
  private interval(
    stat: VerdictStatistic,
    data: Uint8Array,
    rows: number,
    cols: Int32Array,
    weights: ArrayLike<number>,
    y: ArrayLike<number>,
  ): Omit<VerdictCheck, 'rows'> {
    const { fit, se } = ridgeWithSandwich(data, rows, this.d, cols, weights, y, 1);
    const { value, gradient } = stat(fit);
    if (!Number.isFinite(value) || gradient.length !== fit.coef.length) {
      throw new XtrustError(
        'INVALID_ARGUMENT',
        `verdict "${this.rule.name}": the statistic must return a finite value and one gradient entry per selected feature (${fit.coef.length}), got value ${value} and ${gradient.length} entries`,
        { argument: 'verdict.prepare' },
      );
    }
    const half = this.z * se(gradient);
    const low = value - half;
    const high = value + half;
    return { value, low, high, side: low > 0 ? 1 : high < 0 ? -1 : 0 };
  }
}
