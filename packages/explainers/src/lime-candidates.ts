import { XtrustError, isGradientProvider, rng, type Classifier, type RidgeProblem } from '@xtrust/core';
import { checkGradients } from './gradient.js';
import type { Scorer } from './model-calls.js';
import { limeDistances, limeKernel, sampleLimeMasks } from './lime-sampling.js';
import { intOption } from './options.js';
import { ridgeBatch } from './ridge.js';
import type { TextFeatures } from './text-features.js';
import { aggregateToFeatures, alignTokens } from './word-alignment.js';

/** How the cheap pass of candidate-restricted LIME ranks a text's words. */
export type CandidateMethod = 'omission' | 'gradient' | 'lime';

/** `LimeOptions.candidates` as the caller gives it. `samples`: the short LIME pass's size (method `lime` only). */
export type CandidatesOption = { method?: CandidateMethod; count: number; samples?: number };

/** The candidate rule with its defaults filled in. */
export interface CandidateRule {
  readonly method: CandidateMethod;
  readonly count: number;
  /** Rows of the short LIME pass (method `lime`); absent otherwise. */
  readonly samples?: number;
}

/**
 * Resolves `LimeOptions.candidates` (null: off, every word a feature). The default method is
 * omission: it needs only predictions, so it works for every classifier, and its d + 1 rows go through
 * the text's own scorer (the unperturbed row is shared with LIME's row 0, and any leave-one-out row
 * LIME draws again is scored once). Gradient × input costs one backward pass instead, but on the kit's
 * transformers its keyword sets agree far less with LIME's than LIME with itself (issue 49's figures:
 * Jaccard 0.18 / 0.27 against LIME's 0.41 / 0.69 seed-to-seed), so it is offered, not the default.
 */
export function resolveCandidates(option: unknown, classifier: Classifier): CandidateRule | null {
  if (option === undefined || option === null) return null;
  if (typeof option !== 'object' || Array.isArray(option)) {
    throw new XtrustError(
      'INVALID_ARGUMENT',
      `candidates must be { method?: "omission" | "gradient", count } (count ≥ 2 words), got ${JSON.stringify(option)}`,
      { argument: 'candidates' },
    );
  }
  const o = option as { method?: unknown; count?: unknown; samples?: unknown };
  const method = o.method ?? 'omission';
  if (method !== 'omission' && method !== 'gradient' && method !== 'lime') {
    throw new XtrustError(
      'INVALID_ARGUMENT',
      `candidates.method must be "omission", "gradient" or "lime", got ${JSON.stringify(o.method)}`,
      { argument: 'candidates.method' },
    );
  }
  if (o.count === undefined) {
    throw new XtrustError('INVALID_ARGUMENT', 'candidates.count is required: how many words LIME samples over', {
      argument: 'candidates.count',
    });
  }
  const count = intOption(
    'candidates.count',
    o.count,
    0,
    2,
    'LIME needs at least two features to tell a weight from the intercept',
  );
  if (method === 'gradient' && !isGradientProvider(classifier)) {
    throw new XtrustError(
      'UNSUPPORTED',
      'candidates.method "gradient" needs a classifier that is a GradientProvider (inputGradients); use "omission", which needs only predictions',
      { argument: 'candidates.method' },
    );
  }
  if (method !== 'lime' && o.samples !== undefined) {
    throw new XtrustError(
      'INVALID_ARGUMENT',
      `candidates.samples sizes the short LIME pass of method "lime", not of "${method}"`,
      { argument: 'candidates.samples' },
    );
  }
  if (method === 'lime') {
    return {
      method,
      count,
      samples: intOption('candidates.samples', o.samples, 500, 2, 'the text plus a perturbation'),
    };
  }
  return { method, count };
}

/** Indices (ascending) of the `count` features with the largest scores; ties go to the earlier feature. */
export function topCandidates(scores: Float64Array, count: number): Int32Array {
  const idx = Array.from({ length: scores.length }, (_, j) => j);
  idx.sort((a, b) => scores[b] - scores[a] || a - b);
  return Int32Array.from(idx.slice(0, count)).sort();
}

/**
 * Omission scores of a text's d features: for each word, the largest |p(label | text) − p(label | text
 * without the word)| over the explained labels (leave-one-out, Li, Monroe & Jurafsky 2016). One call of
 * `scorer` with the d + 1 rows: the unperturbed text and each word removed.
 */
export async function omissionScores(
  scorer: Pick<Scorer, 'score'>,
  d: number,
  k: number,
  labels: readonly number[],
  probs0: ArrayLike<number>,
): Promise<Float64Array> {
  const rows = d + 1;
  const masks = new Uint8Array(rows * d).fill(1);
  for (let j = 0; j < d; j++) masks[(j + 1) * d + j] = 0;
  const probs = await scorer.score(masks, rows);
  const out = new Float64Array(d);
  for (let j = 0; j < d; j++) {
    let best = 0;
    for (const l of labels) best = Math.max(best, Math.abs(probs0[l] - probs[(j + 1) * k + l]));
    out[j] = best;
  }
  return out;
}

/**
 * Short-LIME scores of a text's d features: a LIME neighbourhood of `samples` rows over every word (the
 * sampler and kernel of "Why Should I Trust You?", Ribeiro et al. 2016, seeded by `seed`), scored through
 * `scorer`, and one weighted ridge (alpha 1, intercept) per explained label on all d columns; a word's
 * score is its largest |coefficient| over the labels.
 */
export async function shortLimeScores(
  scorer: Pick<Scorer, 'score'>,
  d: number,
  k: number,
  labels: readonly number[],
  samples: number,
  kernelWidth: number,
  seed: number,
  backend: 'ts' | 'cpu' | 'cuda',
): Promise<Float64Array> {
  const s = sampleLimeMasks(d, samples, rng(seed));
  const weights = limeKernel(limeDistances(s.kept, d), kernelWidth);
  const probs = await scorer.score(s.data, samples);
  const problems: RidgeProblem[] = labels.map((l) => {
    const y = new Float64Array(samples);
    for (let r = 0; r < samples; r++) y[r] = probs[r * k + l];
    return { x: s.data, rows: samples, cols: d, y, sampleWeight: weights, alpha: 1 };
  });
  const out = new Float64Array(d);
  for (const fit of ridgeBatch(problems, backend))
    for (let j = 0; j < d; j++) out[j] = Math.max(out[j], Math.abs(fit.coef[j]));
  return out;
}

/**
 * Gradient × input scores of a text's d features: for each word, the largest |Σ over its tokens of
 * ∂p(label)/∂x · x| over the explained labels (one `inputGradients` call per label). A word the model
 * never saw (past its length limit) scores −∞, so it is a candidate only when nothing else is left.
 */
export async function gradientScores(
  classifier: Classifier,
  tf: TextFeatures,
  labels: readonly number[],
  where: string,
): Promise<Float64Array> {
  if (!isGradientProvider(classifier)) {
    throw new XtrustError('UNSUPPORTED', `${where}: candidates.method "gradient" needs a GradientProvider`, {
      argument: 'candidates.method',
    });
  }
  const d = tf.count;
  const out = new Float64Array(d).fill(Number.NEGATIVE_INFINITY);
  for (const label of labels) {
    const g = await classifier.inputGradients(tf.text, label, { scales: [1], output: 'probability' });
    const T = checkGradients(g, 1, where);
    const scores = new Float64Array(T);
    for (let t = 0; t < T; t++) {
      let s = 0;
      for (let j = t * g.dim; j < (t + 1) * g.dim; j++) s += g.gradients[j] * g.inputs[j];
      scores[t] = s;
    }
    const { weights, covered } = aggregateToFeatures(d, alignTokens(tf, g.tokens), scores, 'sum');
    for (let f = 0; f < d; f++) if (covered[f]) out[f] = Math.max(out[f], Math.abs(weights[f]));
  }
  return out;
}

/**
 * Full d-wide feature masks from c-wide masks over the candidate features `cols`: each row keeps every
 * non-candidate feature (mask 1) and takes the candidates' bits from its c-wide row.
 */
export function expandCandidateMasks(masks: Uint8Array, rows: number, cols: Int32Array, d: number): Uint8Array {
  const c = cols.length;
  const out = new Uint8Array(rows * d).fill(1);
  for (let r = 0; r < rows; r++) {
    const src = r * c;
    const dst = r * d;
    for (let j = 0; j < c; j++) out[dst + cols[j]] = masks[src + j];
  }
  return out;
}

/** A scorer over the candidate features only: its c-wide masks reach `scorer` with the other words present. */
export function candidateScorer(scorer: Scorer, cols: Int32Array, d: number): Scorer {
  return {
    kind: scorer.kind,
    counts: scorer.counts,
    score: (masks, rows) => scorer.score(expandCandidateMasks(masks, rows, cols, d), rows),
  };
}
