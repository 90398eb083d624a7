import { XtrustError } from '@xtrust/core';
import { WeightedMoments, forwardSelection, highestWeights, lassoPathSelection, type FeatureSelection } from './feature-selection.js';
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
 * Resolves `LimeOptions.adaptive` (null: off, the exact default). Defaults: step numSamples / 20 rounded
 * up, patience 2, minJaccard 1 — the cheapest of 27 rules whose top-10 agreement drop stayed within 0.05
 * of exact LIME on validation texts of 40, 120 and 250 words (bench section `lime-stopping`,
 * apps/bench/results/lime-stopping/choice.json); every tolerant rule that saved more fell outside.
 */
export function resolveAdaptive(option: AdaptiveOption | undefined, numSamples: number): AdaptiveRule | null {
  if (option === undefined || option === false) return null;
  const o = option === true ? {} : option;
  if (typeof o !== 'object' || o === null) {
    throw new XtrustError('INVALID_ARGUMENT', `adaptive must be true, false or { step?, patience?, minJaccard? }, got ${JSON.stringify(option)}`, { argument: 'adaptive' });
  }
  const minJaccard = o.minJaccard ?? 1;
  if (typeof minJaccard !== 'number' || !(minJaccard > 0 && minJaccard <= 1)) {
    throw new XtrustError('INVALID_ARGUMENT', `adaptive.minJaccard must be a number in (0, 1] (1: the top words must be the same set), got ${JSON.stringify(o.minJaccard)}`, {
      argument: 'adaptive.minJaccard',
    });
  }
  return {
    step: intOption('adaptive.step', o.step, Math.ceil(numSamples / 20), 1),
    patience: intOption('adaptive.patience', o.patience, 2, 1),
    minJaccard,
  };
}

/** |a ∩ b| / |a ∪ b| of two index sets (1 for two empty sets). */
function jaccard(a: Int32Array, b: Int32Array): number {
  const inA = new Set(a);
  let both = 0;
  for (const x of b) if (inA.has(x)) both++;
  const union = a.length + b.length - both;
  return union === 0 ? 1 : both / union;
}

/**
 * The stopping test of LIME's adaptive sample count for one neighbourhood scored in rounds. Each round's
 * rows go into running weighted moments (WeightedMoments), and the feature selection LIME would make on
 * all rows so far is recomputed from them — `highest_weights`' alpha-0.01 ridge is one d×d solve — so a
 * check costs O(round · kept² + d³) instead of a refit over every earlier row. The explanation itself is
 * still fitted by `fitLimeModels` on the rows used; only the decision to stop comes from here.
 */
export class AdaptiveStop {
  private readonly moments: WeightedMoments;
  private previous: Int32Array[] | null = null;
  private stable = 0;

  constructor(
    private readonly rule: AdaptiveRule,
    private readonly d: number,
    labels: number,
    private readonly method: Exclude<FeatureSelection, 'auto'>,
    private readonly numFeatures: number,
  ) {
    this.moments = new WeightedMoments(d, labels);
  }

  /** Adds a round's rows (`rows`×d binary data, their kernel weights, one target column per label); true once the rule says stop. */
  addRound(data: Uint8Array, rows: number, weights: ArrayLike<number>, ys: readonly ArrayLike<number>[]): boolean {
    this.moments.add(data, rows, weights, ys);
    const selection = this.selection();
    const previous = this.previous;
    const same = previous !== null && selection.every((s, l) => jaccard(s, previous[l]) >= this.rule.minJaccard);
    this.stable = same ? this.stable + 1 : 0;
    this.previous = selection;
    return this.stable >= this.rule.patience;
  }

  /** The features LIME would select for each label on the rows added so far (the same methods as `fitLimeModels`). */
  selection(): Int32Array[] {
    const { d, method, numFeatures } = this;
    if (method === 'none') return Array.from({ length: this.moments.targets }, () => Int32Array.from({ length: d }, (_, j) => j));
    const g = this.moments.gram();
    return Array.from({ length: this.moments.targets }, (_, t) => {
      const { b, yy } = this.moments.cross(t);
      if (method === 'forward_selection') return forwardSelection(g, b, yy, numFeatures);
      if (method === 'lasso_path') return lassoPathSelection(g, b, numFeatures);
      const a = Float64Array.from(g.gram);
      for (let j = 0; j < d; j++) a[j * d + j] += 0.01;
      return highestWeights(solvePsd(a, b, d), numFeatures);
    });
  }
}
