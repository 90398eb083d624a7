import { XtrustError } from '@xtrust/core';
import { setJaccard } from '@xtrust/metrics';
import {
  WeightedMoments,
  forwardSelection,
  highestWeights,
  lassoPathSelection,
  type FeatureSelection,
} from './feature-selection.js';
import { solvePsd } from './least-squares.js';
import { intOption } from './options.js';

/** LIME's optional adaptive sample count, as the caller gives it (`LimeOptions.adaptive`). */
export type AdaptiveOption = boolean | { step?: number; patience?: number; minJaccard?: number };

/** The adaptive rule with every default filled in. */
export interface AdaptiveRule {
  /** Samples scored per round. */
  readonly step: number;
  /** Consecutive stable rounds needed to stop. */
  readonly patience: number;
  /** Two fits are stable when, for every explained label, their top-word sets have a Jaccard index ≥ this (1: the same set). */
  readonly minJaccard: number;
}

/**
 * The rule `adaptive: true` meant until 2026-11-26 (step numSamples / 20 rounded up, patience 2, minJaccard 1):
 * what results stored before rules were keyed ran, so a store can tell them from today's default's.
 */
export function previousAdaptiveDefault(numSamples: number): AdaptiveRule {
  return { step: Math.ceil(numSamples / 20), patience: 2, minJaccard: 1 };
}

/**
 * Resolves `LimeOptions.adaptive` (null: off, the exact default). Defaults: step numSamples / 20 rounded
 * up, patience 4, minJaccard 1 — the cheapest of 36 rules whose top-10 agreement drop against exact LIME
 * stayed within 0.05 at the upper end of its 90 % interval, replayed on the int8 graph's outputs (what
 * `int8+adaptive` runs), on 24 validation texts of each of 40, 120 and 250 words (bench section
 * `lime-stopping`, apps/bench/results/lime-stopping/choice.json); every tolerant rule that saved more fell
 * outside. Patience 2 (2026-11-24's default, chosen on the mean over 8 texts) left int8+adaptive outside the
 * bound on the benchmark's 30 texts at 40 and 250 words; patience 4 is within at every length there
 * (bench section `transformer-lime-30-successor`).
 */
export function resolveAdaptive(option: AdaptiveOption | undefined, numSamples: number): AdaptiveRule | null {
  if (option === undefined || option === false) return null;
  const o = option === true ? {} : option;
  if (typeof o !== 'object' || o === null) {
    throw new XtrustError(
      'INVALID_ARGUMENT',
      `adaptive must be true, false or { step?, patience?, minJaccard? }, got ${JSON.stringify(option)}`,
      { argument: 'adaptive' },
    );
  }
  const minJaccard = o.minJaccard ?? 1;
  if (typeof minJaccard !== 'number' || !(minJaccard > 0 && minJaccard <= 1)) {
    throw new XtrustError(
      'INVALID_ARGUMENT',
      `adaptive.minJaccard must be a number in (0, 1] (1: the top words must be the same set), got ${JSON.stringify(o.minJaccard)}`,
      {
        argument: 'adaptive.minJaccard',
      },
    );
  }
  return {
    step: intOption('adaptive.step', o.step, Math.ceil(numSamples / 20), 1),
    patience: intOption('adaptive.patience', o.patience, 4, 1),
    minJaccard,
  };
}

/**
 * The fewest rows a neighbourhood of `d` features must have before the adaptive rule checks it: 2d.
 * Below that, `highest_weights`' d-feature ridge is barely determined (near d rows its smallest
 * eigenvalues approach the 0.01 ridge), so a "stable" top-k says more about the prior than the model,
 * and each check would cost a d×d factorisation. With the default step (250 of 5,000) it delays no check
 * up to 125 distinct words; at 250 it moves the first check from 250 to 500 rows, which left the rule's
 * validation (bench section lime-stopping) unchanged: no validation text had stopped at 750.
 */
export const adaptiveMinRows = (d: number): number => 2 * d;

/**
 * Whether the adaptive rule can stop before `numSamples` on a neighbourhood of `d` features: its first
 * check comes at the first round end ≥ adaptiveMinRows(d), and a stop needs `patience` more stable
 * rounds. When it cannot, LIME scores the whole budget at once (the exact explanation) and keeps no moments.
 */
export function adaptiveCanStop(rule: AdaptiveRule, d: number, numSamples: number): boolean {
  const firstCheck = Math.ceil(adaptiveMinRows(d) / rule.step) * rule.step;
  return firstCheck + rule.patience * rule.step < numSamples;
}

/** Above this many features the check's ridge is solved by warm-started conjugate gradients (cache-resident Cholesky below). */
const DIRECT_SOLVE_MAX_D = 256;
/** Relative residual at which a warm-started solve stops: far below the gaps between the top-k |coef| that decide a selection. */
const CG_TOLERANCE = 1e-10;

/**
 * Solves (G + αI) x = b by Jacobi-preconditioned conjugate gradients from `x` (in place): the
 * adaptive check's ridge changes little between rounds, so the previous round's solution is a close
 * start, and at ≥ 2d rows the centred Gram's spectrum is one outlier plus a cluster, where CG needs a
 * few dozen O(d²) products instead of an O(d³) factorisation. Returns false when it has not reached
 * CG_TOLERANCE in d iterations (the caller then factorises).
 */
function solveRidgeCg(g: Float64Array, alpha: number, b: Float64Array, x: Float64Array, d: number): boolean {
  const r = new Float64Array(d);
  const z = new Float64Array(d);
  const p = new Float64Array(d);
  const q = new Float64Array(d);
  const dinv = new Float64Array(d);
  for (let i = 0; i < d; i++) dinv[i] = 1 / (g[i * d + i] + alpha);
  const times = (v: Float64Array, out: Float64Array) => {
    for (let i = 0; i < d; i++) {
      const row = i * d;
      let t = alpha * v[i];
      for (let j = 0; j < d; j++) t += g[row + j] * v[j];
      out[i] = t;
    }
  };
  times(x, q);
  let bb = 0;
  for (let i = 0; i < d; i++) {
    r[i] = b[i] - q[i];
    z[i] = dinv[i] * r[i];
    p[i] = z[i];
    bb += b[i] * b[i];
  }
  const stopAt = CG_TOLERANCE * CG_TOLERANCE * bb;
  let rz = 0;
  for (let i = 0; i < d; i++) rz += r[i] * z[i];
  for (let it = 0; it <= d; it++) {
    let rr = 0;
    for (let i = 0; i < d; i++) rr += r[i] * r[i];
    if (rr <= stopAt) return true;
    if (it === d) break;
    times(p, q);
    let pq = 0;
    for (let i = 0; i < d; i++) pq += p[i] * q[i];
    if (!(pq > 0)) break;
    const step = rz / pq;
    let rz1 = 0;
    for (let i = 0; i < d; i++) {
      x[i] += step * p[i];
      r[i] -= step * q[i];
      z[i] = dinv[i] * r[i];
      rz1 += r[i] * z[i];
    }
    const beta = rz1 / rz;
    rz = rz1;
    for (let i = 0; i < d; i++) p[i] = z[i] + beta * p[i];
  }
  return false;
}

/**
 * The feature selection LIME would make on a neighbourhood that grows by rounds, without a refit over
 * the earlier rows: each round's rows go into running weighted moments (WeightedMoments), and the
 * selection on all rows so far is recomputed from them — `highest_weights`' alpha-0.01 ridge, by
 * Cholesky for small d and by conjugate gradients warm-started from the previous check for large d — so
 * a selection costs O(round · kept² + d²·iterations). Shared by the adaptive rule (AdaptiveStop) and the
 * verdict rule (VerdictStop).
 */
export class RunningSelection {
  private readonly moments: WeightedMoments;
  /** Rows added so far. */
  protected rows = 0;
  /** Each label's last ridge solution (the next check's starting point). */
  private solutions: (Float64Array | null)[] = [];

  constructor(
    protected readonly d: number,
    labels: number,
    private readonly method: Exclude<FeatureSelection, 'auto'>,
    private readonly numFeatures: number,
  ) {
    this.moments = new WeightedMoments(d, labels);
  }

  /** Adds a round's rows (`rows`×d binary data, their kernel weights, one target column per label). */
  add(data: Uint8Array, rows: number, weights: ArrayLike<number>, ys: readonly ArrayLike<number>[]): void {
    this.moments.add(data, rows, weights, ys);
    this.rows += rows;
  }

  /** Rows added so far. */
  get added(): number {
    return this.rows;
  }

  /** The features LIME would select for each label on the rows added so far (the same methods as `fitLimeModels`). */
  selection(): Int32Array[] {
    const { d, method, numFeatures } = this;
    if (method === 'none')
      return Array.from({ length: this.moments.targets }, () => Int32Array.from({ length: d }, (_, j) => j));
    const g = this.moments.gram();
    return Array.from({ length: this.moments.targets }, (_, t) => {
      const { b, yy } = this.moments.cross(t);
      if (method === 'forward_selection') return forwardSelection(g, b, yy, numFeatures);
      if (method === 'lasso_path') return lassoPathSelection(g, b, numFeatures);
      return highestWeights(this.ridge(g.gram, b, t), numFeatures);
    });
  }

  /**
   * `highest_weights`' ranking one word further: for each label the numFeatures + `extra` features of
   * largest |ridge coefficient|, in decreasing order (the first numFeatures are `selection()`'s set). Null
   * for the other selection methods, whose sets do not nest that way.
   */
  ranked(extra: number): Int32Array[] | null {
    if (this.method !== 'highest_weights') return null;
    const g = this.moments.gram();
    return Array.from({ length: this.moments.targets }, (_, t) =>
      highestWeights(this.ridge(g.gram, this.moments.cross(t).b, t), this.numFeatures + extra),
    );
  }

  /** `highest_weights`' ridge (G + 0.01 I) x = b for target `t`. */
  private ridge(gram: Float64Array, b: Float64Array, t: number): Float64Array {
    const d = this.d;
    if (d > DIRECT_SOLVE_MAX_D) {
      const start = this.solutions[t];
      const x = start ? Float64Array.from(start) : new Float64Array(d);
      if (solveRidgeCg(gram, 0.01, b, x, d)) return (this.solutions[t] = x);
    }
    const a = Float64Array.from(gram);
    for (let j = 0; j < d; j++) a[j * d + j] += 0.01;
    return (this.solutions[t] = solvePsd(a, b, d));
  }
}

/**
 * The stopping test of LIME's adaptive sample count for one neighbourhood scored in rounds: after each
 * round the selection LIME would make on all rows so far (RunningSelection) is compared with the
 * previous round's; `patience` consecutive stable comparisons stop. No check is made before
 * adaptiveMinRows(d) rows. The explanation itself is still fitted by `fitLimeModels` on the rows used;
 * only the decision to stop comes from here.
 */
export class AdaptiveStop extends RunningSelection {
  private previous: Int32Array[] | null = null;
  private stable = 0;

  constructor(
    private readonly rule: AdaptiveRule,
    d: number,
    labels: number,
    method: Exclude<FeatureSelection, 'auto'>,
    numFeatures: number,
  ) {
    super(d, labels, method, numFeatures);
  }

  /** Adds a round's rows (`rows`×d binary data, their kernel weights, one target column per label); true once the rule says stop. */
  addRound(data: Uint8Array, rows: number, weights: ArrayLike<number>, ys: readonly ArrayLike<number>[]): boolean {
    this.add(data, rows, weights, ys);
    if (this.rows < adaptiveMinRows(this.d)) return false;
    const selection = this.selection();
    const previous = this.previous;
    const same = previous !== null && selection.every((s, l) => setJaccard(s, previous[l]) >= this.rule.minJaccard);
    this.stable = same ? this.stable + 1 : 0;
    this.previous = selection;
    return this.stable >= this.rule.patience;
  }
}
