import {
  XtrustError,
  isGradientProvider,
  type Classifier,
  type Explainer,
  type Explanation,
  type GradientProvider,
  type InputGradients,
} from '@xtrust/core';
import { makeExplanation } from './explanation.js';
import { explicitLabels, labelsFor, topLabelCount, type LabelOptions } from './labels.js';
import { ProbabilityGuard, checkInputs, predictAll, textSeen, type ModelCallOptions } from './model-calls.js';
import { textFeatures, type TextFeatures } from './text-features.js';
import { aggregateToFeatures, alignTokens, type Aggregation } from './word-alignment.js';

export type GradientExplainerOptions = ModelCallOptions &
  LabelOptions & {
    /** `gradient-x-input` (default): Σ over the vector of gradient·input; `l2`: the gradient's L2 norm. */
    variant?: 'gradient-x-input' | 'l2';
    /** Differentiate the class probability (default) or logit. */
    output?: 'probability' | 'logit';
    /** One feature per distinct word (default; occurrences combined) or per word position. */
    bow?: boolean;
  };

/** Throws UNSUPPORTED unless the classifier is a GradientProvider (never faked). */
export function requireGradients(
  classifier: Classifier,
  method: string,
): asserts classifier is Classifier & GradientProvider {
  if (!isGradientProvider(classifier)) {
    throw new XtrustError(
      'UNSUPPORTED',
      `${method} needs gradients, and this classifier is not a GradientProvider (it has no inputGradients method); use lime, omission or kernel-shap, which need only predictions`,
      { method },
    );
  }
}

/** Checks the sizes of a GradientProvider's answer for S scales. */
export function checkGradients(g: InputGradients, scales: number, where: string): number {
  const T = g?.tokens?.length;
  if (
    !Number.isInteger(T) ||
    !Number.isInteger(g.dim) ||
    g.dim < 1 ||
    !(g.inputs instanceof Float32Array) ||
    !(g.gradients instanceof Float32Array)
  ) {
    throw new XtrustError(
      'BAD_MODEL_OUTPUT',
      `${where}: inputGradients returned a malformed result (tokens, dim, inputs, gradients expected)`,
    );
  }
  if (g.inputs.length !== T * g.dim || g.gradients.length !== scales * T * g.dim) {
    throw new XtrustError(
      'BAD_MODEL_OUTPUT',
      `${where}: inputGradients returned inputs of ${g.inputs.length} and gradients of ${g.gradients.length} values; expected T×dim = ${T}×${g.dim} and S×T×dim = ${scales}×${T}×${g.dim}`,
    );
  }
  for (let i = 0; i < g.gradients.length; i++) {
    if (!Number.isFinite(g.gradients[i]))
      throw new XtrustError('BAD_MODEL_OUTPUT', `${where}: gradient value ${i} is ${g.gradients[i]}`);
  }
  return T;
}

/** Word features from token scores, dropping words no model token covered (e.g. past a truncation). */
export function wordFeatures(tf: TextFeatures, g: InputGradients, tokenScores: ArrayLike<number>, how: Aggregation) {
  const alignment = alignTokens(tf, g.tokens);
  const { weights, covered, dropped } = aggregateToFeatures(tf.count, alignment, tokenScores, how);
  const features: { word: string; weight: number }[] = [];
  let uncovered = 0;
  for (let f = 0; f < tf.count; f++) {
    if (covered[f]) features.push({ word: tf.words[f], weight: weights[f] });
    else uncovered++;
  }
  return { features, dropped, uncovered };
}

/** How one gradient method turns a GradientProvider's answer into per-token scores. */
export interface GradientAttribution {
  /** Multipliers of the inputs at which gradients are taken (one `inputGradients` call for all). */
  readonly scales: ArrayLike<number>;
  /** How sub-word token scores merge into a word's score. */
  readonly combine: Aggregation;
  /** The method's parameters as recorded in each explanation. */
  params(output: 'probability' | 'logit', bow: boolean): Record<string, unknown>;
  /** Per-token scores from S×T×dim gradients and T×dim inputs. */
  tokenScores(g: InputGradients, T: number): Float64Array;
  /** The method's own diagnostics, given the token scores and the score of dropped (special or unaligned) tokens. */
  diagnostics(scores: Float64Array, dropped: number): Record<string, number>;
}

/**
 * The loop the gradient methods share: one batched prediction pass, then per text and explained label
 * one `inputGradients` call (all scales at once), token scores merged into word features by offsets.
 */
export async function explainWithGradients(
  method: string,
  classifier: Classifier & GradientProvider,
  texts: readonly string[],
  o: ModelCallOptions & LabelOptions & { output?: 'probability' | 'logit'; bow?: boolean },
  attribution: GradientAttribution,
): Promise<Explanation[]> {
  const output = o.output ?? 'probability';
  const bow = o.bow ?? true;
  const k = classifier.labels.length;
  const explicit = explicitLabels(classifier.labels, o);
  const top = topLabelCount(k, o);
  const tfs = texts.map((t, i) => textFeatures(t, bow, `texts[${i}]`));
  const probs = await predictAll(classifier, texts, new ProbabilityGuard(`${method}: classifier`, k, o), o.batchSize);
  const out: Explanation[] = [];
  for (let i = 0; i < texts.length; i++) {
    const predicted = labelsFor(probs, i, k, undefined, 1)[0];
    const seen = textSeen(classifier, tfs[i]);
    for (const label of labelsFor(probs, i, k, explicit, top)) {
      const g = await classifier.inputGradients(texts[i], label, { scales: attribution.scales, output });
      const T = checkGradients(g, attribution.scales.length, `${method}: texts[${i}]`);
      const scores = attribution.tokenScores(g, T);
      const { features, dropped, uncovered } = wordFeatures(tfs[i], g, scores, attribution.combine);
      out.push(
        makeExplanation({
          text: texts[i],
          method,
          params: attribution.params(output, bow),
          labels: classifier.labels,
          probabilities: probs.subarray(i * k, (i + 1) * k),
          predicted,
          explained: label,
          features,
          seen,
          diagnostics: {
            modelPrediction: probs[i * k + label],
            ...attribution.diagnostics(scores, dropped),
            uncoveredWords: uncovered,
          },
        }),
      );
    }
  }
  return out;
}

/**
 * Gradient saliency for classifiers that are `GradientProvider`s (Simonyan, Vedaldi & Zisserman, 2014;
 * gradient·input: Shrikumar et al., 2017; in the setting of 000_6d314fe57d39eb4c §5 after Mohebbi et
 * al., 2021): for each token, Σ over its input vector of ∂score/∂x · x (`gradient-x-input`) or the L2
 * norm of ∂score/∂x (`l2`). Sub-word tokens are merged into words by their character offsets (sum, or
 * the norm of the concatenated gradient), special tokens dropped.
 */
export class GradientExplainer implements Explainer<GradientExplainerOptions> {
  readonly name = 'gradient';
  constructor(private readonly defaults: GradientExplainerOptions = {}) {}

  async explain(
    classifier: Classifier,
    texts: readonly string[],
    options: GradientExplainerOptions = {},
  ): Promise<Explanation[]> {
    const o: GradientExplainerOptions = { ...this.defaults, ...options };
    checkInputs(classifier, texts, 'gradient');
    requireGradients(classifier, 'gradient');
    const variant = o.variant ?? 'gradient-x-input';
    if (variant !== 'gradient-x-input' && variant !== 'l2') {
      throw new XtrustError('INVALID_ARGUMENT', `variant must be "gradient-x-input" or "l2", got ${String(variant)}`, {
        argument: 'variant',
      });
    }
    return explainWithGradients('gradient', classifier, texts, o, {
      scales: [1],
      combine: variant === 'l2' ? 'root-sum-square' : 'sum',
      params: (output, bow) => ({ variant, output, bow }),
      tokenScores(g, T) {
        const scores = new Float64Array(T);
        for (let t = 0; t < T; t++) {
          let s = 0;
          for (let j = t * g.dim; j < (t + 1) * g.dim; j++)
            s += variant === 'l2' ? g.gradients[j] * g.gradients[j] : g.gradients[j] * g.inputs[j];
          scores[t] = s;
        }
        return scores;
      },
      diagnostics: (_scores, dropped) => ({ droppedTokenScore: variant === 'l2' ? Math.sqrt(dropped) : dropped }),
    });
  }
}
