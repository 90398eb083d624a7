import { argmaxRow, XtrustError, type Classifier } from '@xtrust/core';
import type { BuiltinClassifier, BuiltinKind } from './builtin-classifier.js';
import { trainClassifier, type TextRow, type TrainOptions } from './train.js';

export interface AccuracyReport {
  readonly accuracy: number;
  readonly rows: number;
  /** Confusion counts: confusion[true][predicted], in the classifier's label order. */
  readonly confusion: number[][];
}

/** Held-out accuracy of any classifier on labelled rows (batched calls to predictProba). */
export async function evaluateAccuracy(
  classifier: Classifier,
  rows: readonly TextRow[],
  batchSize = 256,
): Promise<AccuracyReport> {
  const labels = classifier.labels;
  const k = labels.length;
  const index = new Map(labels.map((l, i) => [l, i]));
  const confusion = labels.map(() => new Array<number>(k).fill(0));
  let correct = 0;
  for (let s = 0; s < rows.length; s += batchSize) {
    const batch = rows.slice(s, s + batchSize);
    const probs = await classifier.predictProba(batch.map((r) => r.text));
    batch.forEach((r, j) => {
      const truth = index.get(r.label);
      if (truth === undefined)
        throw new XtrustError(
          'UNKNOWN_LABEL',
          `evaluateAccuracy: rows[${s + j}].label "${r.label}" is not one of the classifier's labels (${labels.join(', ')})`,
          { row: s + j, label: r.label },
        );
      const pred = argmaxRow(probs, j, k);
      confusion[truth][pred]++;
      if (pred === truth) correct++;
    });
  }
  return { accuracy: rows.length ? correct / rows.length : NaN, rows: rows.length, confusion };
}

export interface TrainEvaluateReport {
  readonly kind: BuiltinKind;
  readonly classifier: BuiltinClassifier;
  readonly trainRows: number;
  readonly testRows: number;
  readonly testAccuracy: number;
  readonly confusion: number[][];
  readonly trainSeconds: number;
  readonly vocabularySize: number;
  readonly epochs: number;
}

/**
 * Trains a built-in model on `train` and reports its accuracy on `test` (the CLI's and README's
 * entry point; datasets and their split come from the caller, e.g. @xtrust/datasets).
 */
export async function trainAndEvaluate(
  kind: BuiltinKind,
  train: readonly TextRow[],
  test: readonly TextRow[],
  options: TrainOptions = {},
): Promise<TrainEvaluateReport> {
  const started = performance.now();
  const classifier = await trainClassifier(kind, train, options);
  const trainSeconds = (performance.now() - started) / 1000;
  const report = await evaluateAccuracy(classifier, test);
  return {
    kind,
    classifier,
    trainRows: train.length,
    testRows: test.length,
    testAccuracy: report.accuracy,
    confusion: report.confusion,
    trainSeconds,
    vocabularySize: classifier.vocabulary.size,
    epochs: classifier.training?.epochs ?? 0,
  };
}
