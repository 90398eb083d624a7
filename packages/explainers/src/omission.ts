import type { Classifier, Explainer, Explanation } from '@xtrust/core';
import { makeExplanation } from './explanation.js';
import { explicitLabels, labelsFor, topLabelCount, type LabelOptions } from './labels.js';
import { ProbabilityGuard, checkInputs, makeScorer, textSeen, type ModelCallOptions } from './model-calls.js';
import { textFeatures } from './text-features.js';

export type OmissionOptions = ModelCallOptions &
  LabelOptions & {
    /** Drop every occurrence of a word (default) or each token position on its own. */
    bow?: boolean;
    /** In position mode, what replaces the dropped word; default: nothing (the word is erased). */
    maskString?: string;
  };

/**
 * Word omission, leave-one-out (Li, Monroe & Jurafsky, 2016, "Understanding Neural Networks through
 * Representation Erasure"; as used by Dong, 2018, and 000_6d314fe57d39eb4c §5): the importance of a
 * word is p(label | text) − p(label | text without the word). One model call per text: the text and
 * its d leave-one-out variants are scored together (rows of one `scoreTokenMasks`, or one batched
 * `predictProba`).
 */
export class OmissionExplainer implements Explainer<OmissionOptions> {
  readonly name = 'omission';
  constructor(private readonly defaults: OmissionOptions = {}) {}

  async explain(
    classifier: Classifier,
    texts: readonly string[],
    options: OmissionOptions = {},
  ): Promise<Explanation[]> {
    const o: OmissionOptions = { ...this.defaults, ...options };
    checkInputs(classifier, texts, 'omission');
    const k = classifier.labels.length;
    const bow = o.bow ?? true;
    const explicit = explicitLabels(classifier.labels, o);
    const top = topLabelCount(k, o);
    const guard = new ProbabilityGuard('omission: classifier', k, o);
    const out: Explanation[] = [];
    for (let i = 0; i < texts.length; i++) {
      const tf = textFeatures(texts[i], bow, `texts[${i}]`);
      const d = tf.count;
      const rows = d + 1;
      const masks = new Uint8Array(rows * d).fill(1);
      for (let j = 0; j < d; j++) masks[(j + 1) * d + j] = 0;
      const scorer = makeScorer(
        classifier,
        tf,
        guard,
        { ...o, batchSize: Math.max(o.batchSize ?? 2048, rows) },
        bow ? null : (o.maskString ?? ''),
      );
      const probs = await scorer.score(masks, rows);
      const probs0 = probs.subarray(0, k);
      const predicted = labelsFor(probs, 0, k, undefined, 1)[0];
      const seen = textSeen(classifier, tf);
      for (const label of labelsFor(probs, 0, k, explicit, top)) {
        const base = probs[label];
        const features = tf.words.map((word, j) => ({ word, weight: base - probs[(j + 1) * k + label] }));
        out.push(
          makeExplanation({
            text: tf.text,
            method: 'omission',
            params: { bow, ...(bow ? {} : { maskString: o.maskString ?? '' }), scorer: scorer.kind },
            labels: classifier.labels,
            probabilities: probs0,
            predicted,
            explained: label,
            features,
            seen,
            diagnostics: { modelPrediction: base, distinctFeatures: d },
          }),
        );
      }
    }
    return out;
  }
}
