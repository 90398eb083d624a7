import type { FeatureWeight, SentenceEncoder } from '@xtrust/core';
import { XtrustError } from '@xtrust/core';
import { pairCosines } from './sentence-cosine.js';
import { checkFinite, checkNumberArray, checkSameLength, checkStringArray, invalid } from './validate.js';

export interface PearsonOptions {
  /**
   * PCC when exactly one of the two vectors is constant (zero variance: PCC is undefined). Default 0,
   * "no linear relation". When both are constant PCC is 1: neither map distinguishes any token, so the
   * explanation did not change. Never NaN.
   */
  flat?: number;
}

/**
 * Pearson correlation coefficient of two equally long vectors, computed in float64 with two passes and
 * clamped to [−1, 1]. Source: 002_20470d3eef4d9d3e.txt §4.2 (Pearson 1895).
 * Edge cases: different lengths → DIMENSION_MISMATCH; empty or non-finite → INVALID_ARGUMENT; zero
 * variance → see `PearsonOptions.flat` (a length-1 vector has zero variance).
 */
export function pearson(x: ArrayLike<number>, y: ArrayLike<number>, options: PearsonOptions = {}): number {
  checkNumberArray('x', x);
  checkNumberArray('y', y);
  checkSameLength('x', x, 'y', y);
  const flat = options.flat === undefined ? 0 : checkFinite('options.flat', options.flat);
  if (flat < -1 || flat > 1) throw invalid('options.flat', 'a number in [-1, 1]', flat);
  const n = x.length;
  let mx = 0;
  let my = 0;
  for (let i = 0; i < n; i++) {
    mx += x[i];
    my += y[i];
  }
  mx /= n;
  my /= n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    const dx = x[i] - mx;
    const dy = y[i] - my;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  // A vector whose spread is rounding noise relative to its largest magnitude counts as constant.
  let ax = 0;
  let ay = 0;
  for (let i = 0; i < n; i++) {
    ax = Math.max(ax, Math.abs(x[i]));
    ay = Math.max(ay, Math.abs(y[i]));
  }
  const tx = sxx <= (1e-12 * ax) ** 2 * n;
  const ty = syy <= (1e-12 * ay) ** 2 * n;
  if (tx && ty) return 1;
  if (tx || ty) return flat;
  return Math.max(-1, Math.min(1, sxy / Math.sqrt(sxx * syy)));
}

/**
 * Attribution distance d = 1 − (1 + PCC(a, ã)) / 2 ∈ [0, 1] between attribution maps aligned by token
 * position (0: identical up to an affine rescaling, 1: perfectly anti-correlated).
 * Source: 002_20470d3eef4d9d3e.txt §4.2, the numerator of Eq. 2. Zero variance as `pearson`.
 */
export function attributionDistance(
  original: ArrayLike<number>,
  perturbed: ArrayLike<number>,
  options: PearsonOptions = {},
): number {
  return 1 - (1 + pearson(original, perturbed, options)) / 2;
}

/**
 * A word-level explanation laid onto the token positions of its text: entry t is the weight of
 * tokens[t]'s word (0 for a token the explanation does not mention), so that two explanations of texts
 * with the same number of tokens (word-substitution attacks) can be compared with `attributionDistance`.
 */
export function attributionVector(tokens: readonly string[], features: readonly FeatureWeight[]): Float64Array {
  checkStringArray('tokens', tokens);
  if (!Array.isArray(features)) throw invalid('features', 'an array of {word, weight}', features);
  const w = new Map<string, number>();
  features.forEach((f, i) => {
    if (typeof f?.word !== 'string') throw invalid(`features[${i}].word`, 'a string', f?.word);
    checkFinite(`features[${i}].weight`, f.weight);
    if (!w.has(f.word)) w.set(f.word, f.weight);
  });
  return Float64Array.from(tokens, (t) => w.get(t) ?? 0);
}

export interface SemanticDistanceOptions {
  /**
   * 'eq5' (default): d_s = 1 − (cos + 1) / 2 = (1 − cos) / 2, Eq. 5 as printed.
   * 'one-minus-cosine': d_s = 1 − cos, the scale the r values of the paper's Figure 1 correspond to
   * (they are twice what Eq. 5 gives).
   */
  form?: 'eq5' | 'one-minus-cosine';
}

/**
 * Input distance from a sentence-embedding cosine: d_s = 1 − (s_cos + 1) / 2 ∈ [0, 1].
 * Source: 002_20470d3eef4d9d3e.txt §4.2, Eq. 5.
 */
export function semanticDistance(cosine: number, options: SemanticDistanceOptions = {}): number {
  const c = checkFinite('cosine', cosine);
  if (c < -1 - 1e-9 || c > 1 + 1e-9) throw invalid('cosine', 'a cosine similarity in [-1, 1]', cosine);
  const form = options.form ?? 'eq5';
  const cc = Math.max(-1, Math.min(1, c));
  if (form === 'eq5') return 1 - (cc + 1) / 2;
  if (form === 'one-minus-cosine') return 1 - cc;
  throw invalid('options.form', "'eq5' or 'one-minus-cosine'", form);
}

/** Eq. 5 for many pairs with one batched `encode` call (e.g. USE or MiniLM). */
export async function sentenceDistances(
  encoder: SentenceEncoder,
  originals: readonly string[],
  perturbed: readonly string[],
  options: SemanticDistanceOptions = {},
): Promise<Float64Array> {
  const cos = await pairCosines(encoder, originals, perturbed);
  return cos.map((c) => semanticDistance(c, options));
}

/**
 * Input distance from perplexity: the relative increase d_s = (PP(s̃) − PP(s)) / (PP(s) + ε). Negative
 * when the perturbed text is more fluent than the original (kept as the formula gives it).
 * Source: 002_20470d3eef4d9d3e.txt §4.2, Eq. 6 (perplexity as Eq. 1, computed by the caller's model).
 */
export function perplexityDistance(ppPerturbed: number, ppOriginal: number, epsilon = 1e-8): number {
  for (const [name, v] of [
    ['ppPerturbed', ppPerturbed],
    ['ppOriginal', ppOriginal],
  ] as const) {
    if (checkFinite(name, v) <= 0) throw invalid(name, 'a positive perplexity', v);
  }
  if (checkFinite('epsilon', epsilon) < 0) throw invalid('epsilon', 'a non-negative number', epsilon);
  return (ppPerturbed - ppOriginal) / (ppOriginal + epsilon);
}

/** A perplexity function: texts → their perplexities under a language model (e.g. GPT-2), batched. */
export type PerplexityFn = (texts: readonly string[]) => Promise<ArrayLike<number>>;

/** Eq. 6 for many pairs, with one batched perplexity call. */
export async function perplexityDistances(
  perplexity: PerplexityFn,
  originals: readonly string[],
  perturbed: readonly string[],
  epsilon = 1e-8,
): Promise<Float64Array> {
  if (typeof perplexity !== 'function')
    throw invalid('perplexity', 'a function (texts) => Promise<perplexities>', perplexity);
  checkStringArray('originals', originals);
  checkStringArray('perturbed', perturbed);
  checkSameLength('originals', originals, 'perturbed', perturbed);
  const n = originals.length;
  if (n === 0) return new Float64Array(0);
  const pp = await perplexity([...originals, ...perturbed]);
  if (!pp || pp.length !== 2 * n) {
    throw new XtrustError('BAD_MODEL_OUTPUT', `perplexity returned ${pp?.length} values for ${2 * n} texts`, {
      expected: 2 * n,
      got: pp?.length,
    });
  }
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) out[i] = perplexityDistance(pp[n + i], pp[i], epsilon);
  return out;
}

/**
 * The ratio of Eq. 2 for one perturbed sample: d[A(s̃), A(s)] / d_s(s̃, s).
 * Edge case: d_s = 0 (the perturbed text is indistinguishable from the original under this distance)
 * makes r undefined → INVALID_ARGUMENT naming `inputDistance`.
 */
export function robustnessRatio(attributionDist: number, inputDistance: number): number {
  checkFinite('attributionDistance', attributionDist);
  if (checkFinite('inputDistance', inputDistance) === 0) {
    throw invalid(
      'inputDistance',
      'a non-zero input distance (r = d_attr / d_s is undefined at d_s = 0)',
      inputDistance,
    );
  }
  return attributionDist / inputDistance;
}

/**
 * r(s) = max over the perturbed samples s̃ of s of d[A(s̃), A(s)] / d_s(s̃, s).
 * Source: 002_20470d3eef4d9d3e.txt §4.1, Eq. 2 (the prediction constraint Eq. 3 is the caller's: pass
 * only samples that keep the predicted class).
 */
export function sampleRobustness(attributionDistances: ArrayLike<number>, inputDistances: ArrayLike<number>): number {
  checkNumberArray('attributionDistances', attributionDistances);
  checkNumberArray('inputDistances', inputDistances);
  checkSameLength('attributionDistances', attributionDistances, 'inputDistances', inputDistances);
  let best = -Infinity;
  for (let i = 0; i < attributionDistances.length; i++) {
    const r = robustnessRatio(attributionDistances[i], inputDistances[i]);
    if (r > best) best = r;
  }
  return best;
}

/**
 * The attribution robustness constant r(A, F) = E_s[r(s)], the mean over samples (higher = less robust).
 * Source: 002_20470d3eef4d9d3e.txt §4.1, Eq. 4. Empty input → INVALID_ARGUMENT.
 */
export function meanRobustness(perSample: ArrayLike<number>): number {
  checkNumberArray('perSample', perSample);
  let s = 0;
  for (let i = 0; i < perSample.length; i++) s += perSample[i];
  return s / perSample.length;
}

/**
 * AUC_r = ∫ r(A, F) dρ over the ratio ρ of perturbed tokens, by the trapezoid rule over the given grid
 * (points are sorted by ρ first; equal ρ values add nothing).
 * Source: 002_20470d3eef4d9d3e.txt §5 (the AUC_r paragraph and Figure 3).
 * Edge cases: fewer than two points → INVALID_ARGUMENT; lengths differ → DIMENSION_MISMATCH.
 */
export function aucR(rho: ArrayLike<number>, r: ArrayLike<number>): number {
  checkNumberArray('rho', rho);
  checkNumberArray('r', r);
  checkSameLength('rho', rho, 'r', r);
  if (rho.length < 2) throw invalid('rho', 'at least two points of the ρ grid', rho);
  const order = Array.from({ length: rho.length }, (_, i) => i).sort((i, j) => rho[i] - rho[j]);
  let area = 0;
  for (let n = 1; n < order.length; n++) {
    const i = order[n - 1];
    const j = order[n];
    area += ((rho[j] - rho[i]) * (r[i] + r[j])) / 2;
  }
  return area;
}
