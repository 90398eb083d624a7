import type { Classifier, Explanation } from '@xtrust/core';
import { makeExplanation } from './explanation.js';
import { labelsFor, type LabelOptions } from './labels.js';
import { textSeen, type ModelCallOptions } from './model-calls.js';
import type { TextFeatures } from './text-features.js';

/** Options shared by the Shapley explainers. */
export type ShapleyOptions = ModelCallOptions &
  LabelOptions & {
    /** Players are distinct words (default) or word positions. */
    bow?: boolean;
  };

/** Builds the explanations of one text from per-label Shapley values. */
export function shapleyExplanations(
  classifier: Classifier,
  tf: TextFeatures,
  method: string,
  params: Record<string, unknown>,
  seed: number | undefined,
  probsFull: ArrayLike<number>,
  probsEmpty: ArrayLike<number>,
  labels: number[],
  values: Float64Array[],
  extra: Record<string, number> = {},
): Explanation[] {
  const k = classifier.labels.length;
  const predicted = labelsFor(probsFull, 0, k, undefined, 1)[0];
  const seen = textSeen(classifier, tf);
  return labels.map((label, l) =>
    makeExplanation({
      text: tf.text,
      method,
      params,
      ...(seed === undefined ? {} : { seed }),
      labels: classifier.labels,
      probabilities: probsFull,
      predicted,
      explained: label,
      features: tf.words.map((word, j) => ({ word, weight: values[l][j] })),
      seen,
      diagnostics: {
        baseValue: probsEmpty[label],
        modelPrediction: probsFull[label],
        distinctFeatures: tf.count,
        ...extra,
      },
    }),
  );
}
