import {
  XtrustError,
  argmaxRow,
  checkProbabilities,
  isGradientProvider,
  isTokenScorer,
  type Classifier,
  type Explainer,
  type Explanation,
  type GradientOptions,
  type InputGradients,
} from '@xtrust/core';

/** How many texts (or token-mask rows) the model was asked about, and in how many calls. */
export interface QueryCount {
  texts: number;
  calls: number;
}

/**
 * The classifier as the attack sees it: the same capabilities as `inner` (a TokenScorer or
 * GradientProvider only when `inner` is one, never faked), every call counted.
 */
export interface CountedClassifier extends Classifier {
  readonly count: QueryCount;
  readonly inner: Classifier;
}

/** Wraps a classifier so every model call is counted (queries per attack, TextAttack's `num_queries`). */
export function countQueries(inner: Classifier): CountedClassifier {
  const count: QueryCount = { texts: 0, calls: 0 };
  const wrapped: Record<string, unknown> = {
    inner,
    count,
    labels: inner.labels,
    async predictProba(texts: readonly string[]) {
      count.texts += texts.length;
      count.calls++;
      return inner.predictProba(texts);
    },
  };
  if (isTokenScorer(inner)) {
    wrapped.scoreTokenMasks = async (text: string, masks: Uint8Array, rows: number) => {
      count.texts += rows;
      count.calls++;
      return inner.scoreTokenMasks(text, masks, rows);
    };
  }
  if (isGradientProvider(inner)) {
    wrapped.inputGradients = async (
      text: string,
      labelIndex: number,
      options?: GradientOptions,
    ): Promise<InputGradients> => {
      count.texts += 1;
      count.calls++;
      return inner.inputGradients(text, labelIndex, options);
    };
  }
  return wrapped as unknown as CountedClassifier;
}

/** n×k probabilities of `texts` in one model call, checked (shape, finiteness, range). */
export async function predict(classifier: Classifier, texts: readonly string[], where: string): Promise<Float32Array> {
  if (texts.length === 0) return new Float32Array(0);
  const out = await classifier.predictProba(texts);
  return checkProbabilities(out, texts.length, classifier.labels.length, where);
}

/** Row i's argmax of an n×k matrix. */
export function argmax(probs: Float32Array, i: number, k: number): number {
  return argmaxRow(probs, i, k);
}

/**
 * Explanations of many texts for one label, in one explainer call: the attribution maps A(s, F, l)
 * that the explanation attacks compare (CEA, TEF, the explanation-similarity attack).
 */
export type ExplainFn = (
  classifier: Classifier,
  texts: readonly string[],
  labelIndex: number,
) => Promise<Explanation[]>;

/** An ExplainFn from any xtrust `Explainer` (LIME, omission, gradient, …) and its options; the label is passed as `labels: [l]`. */
export function explainWith<O extends object>(
  explainer: Explainer<O>,
  options: O = {} as O,
): ExplainFn & { readonly method: string; readonly options: O } {
  const fn = async (classifier: Classifier, texts: readonly string[], labelIndex: number) => {
    if (texts.length === 0) return [];
    const out = await explainer.explain(classifier, texts, { ...options, labels: [labelIndex] } as O);
    if (out.length !== texts.length) {
      throw new XtrustError(
        'BAD_MODEL_OUTPUT',
        `${explainer.name}: ${out.length} explanations for ${texts.length} texts (one label each expected)`,
      );
    }
    return out;
  };
  return Object.assign(fn, { method: explainer.name, options });
}
