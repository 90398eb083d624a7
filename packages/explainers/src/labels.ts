import { XtrustError, argmaxRow, labelIndex } from '@xtrust/core';

/** Which labels to explain for each text. */
export type LabelOptions = {
  /** Explain these labels (names, or indices into `classifier.labels`) for every text. */
  labels?: readonly (string | number)[];
  /**
   * Explain the `topLabels` most probable labels of each text, most probable first (the reference's
   * `top_labels`). Default 1 (the predicted label) when `labels` is not given.
   */
  topLabels?: number;
};

/** Validates `labels` once per call and returns their indices (undefined when top labels are used). */
export function explicitLabels(classifierLabels: readonly string[], options: LabelOptions): number[] | undefined {
  if (options.labels === undefined) return undefined;
  if (!Array.isArray(options.labels) || options.labels.length === 0) {
    throw new XtrustError('INVALID_ARGUMENT', 'labels must be a non-empty array of label names or indices', {
      argument: 'labels',
    });
  }
  return options.labels.map((l) => {
    if (typeof l === 'number') {
      if (!Number.isInteger(l) || l < 0 || l >= classifierLabels.length) {
        throw new XtrustError(
          'UNKNOWN_LABEL',
          `label index ${l} is out of range: the classifier has ${classifierLabels.length} labels (${classifierLabels.join(', ')})`,
          { label: l, labels: [...classifierLabels] },
        );
      }
      return l;
    }
    return labelIndex(classifierLabels, String(l), 'label');
  });
}

/** Checks `topLabels` and returns it (default 1). */
export function topLabelCount(k: number, options: LabelOptions): number {
  const top = options.topLabels ?? 1;
  if (!Number.isInteger(top) || top < 1 || top > k) {
    throw new XtrustError(
      'INVALID_ARGUMENT',
      `topLabels must be an integer in [1, ${k}] (the classifier's label count), got ${String(top)}`,
      { argument: 'topLabels' },
    );
  }
  return top;
}

/** The labels to explain for one text whose class probabilities are row `r` of `probs`. */
export function labelsFor(
  probs: ArrayLike<number>,
  r: number,
  k: number,
  explicit: number[] | undefined,
  top: number,
): number[] {
  if (explicit) return explicit;
  if (top === 1) return [argmaxRow(probs, r, k)];
  const idx = Array.from({ length: k }, (_, c) => c);
  idx.sort((a, b) => probs[r * k + b] - probs[r * k + a] || a - b);
  return idx.slice(0, top);
}
