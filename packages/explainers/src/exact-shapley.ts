import { XtrustError, type Classifier, type Explainer, type Explanation } from '@xtrust/core';
import { explicitLabels, labelsFor, topLabelCount } from './labels.js';
import { ProbabilityGuard, checkInputs, makeScorer } from './model-calls.js';
import { intOption } from './options.js';
import { shapleyExplanations, type ShapleyOptions } from './shapley-common.js';
import { textFeatures } from './text-features.js';

export type ExactShapleyOptions = ShapleyOptions & {
  /** Largest number of players accepted (2^d coalitions are scored). Default 12, at most 20. */
  maxFeatures?: number;
};

/**
 * Shapley values of the words of a text for the game v(S) = p(label | text keeping only the words in
 * S) (Shapley, 1953; the value function of SHAP, Lundberg & Lee, 2017), computed exactly:
 * φ_i = Σ_{S ⊆ F∖{i}} |S|!(d−|S|−1)!/d! · (v(S ∪ {i}) − v(S)). All 2^d coalitions are scored in one
 * model call, so it is limited to texts of at most `maxFeatures` (12) distinct words. Efficiency holds
 * exactly: Σφ = v(F) − v(∅).
 */
export class ExactShapleyExplainer implements Explainer<ExactShapleyOptions> {
  readonly name = 'exact-shapley';
  constructor(private readonly defaults: ExactShapleyOptions = {}) {}

  async explain(
    classifier: Classifier,
    texts: readonly string[],
    options: ExactShapleyOptions = {},
  ): Promise<Explanation[]> {
    const o: ExactShapleyOptions = { ...this.defaults, ...options };
    checkInputs(classifier, texts, 'exact-shapley');
    const maxFeatures = intOption('maxFeatures', o.maxFeatures, 12, 1);
    if (maxFeatures > 20)
      throw new XtrustError('INVALID_ARGUMENT', `maxFeatures must be ≤ 20 (2^20 coalitions), got ${maxFeatures}`, {
        argument: 'maxFeatures',
      });
    const bow = o.bow ?? true;
    const k = classifier.labels.length;
    const explicit = explicitLabels(classifier.labels, o);
    const top = topLabelCount(k, o);
    const guard = new ProbabilityGuard('exact-shapley: classifier', k, o);
    const out: Explanation[] = [];
    for (let i = 0; i < texts.length; i++) {
      const tf = textFeatures(texts[i], bow, `texts[${i}]`);
      const d = tf.count;
      if (d > maxFeatures) {
        throw new XtrustError(
          'INVALID_ARGUMENT',
          `texts[${i}] has ${d} ${bow ? 'distinct words' : 'words'}; exact Shapley values score 2^d coalitions and accept at most maxFeatures = ${maxFeatures} (use KernelShapExplainer)`,
          { argument: `texts[${i}]`, features: d },
        );
      }
      const rows = 1 << d;
      const masks = new Uint8Array(rows * d);
      for (let s = 0; s < rows; s++) for (let j = 0; j < d; j++) masks[s * d + j] = (s >> j) & 1;
      const scorer = makeScorer(
        classifier,
        tf,
        guard,
        { ...o, batchSize: Math.max(o.batchSize ?? 2048, rows) },
        bow ? null : '',
      );
      const probs = await scorer.score(masks, rows);
      const full = probs.subarray((rows - 1) * k, rows * k);
      const empty = probs.subarray(0, k);
      const labels = labelsFor(full, 0, k, explicit, top);
      // w(c) = c!(d−c−1)!/d!
      const w = new Float64Array(d);
      for (let c = 0; c < d; c++) {
        let v = 1 / d;
        // c!(d−1−c)!/(d−1)! = 1 / C(d−1, c)
        let binom = 1;
        for (let t = 1; t <= c; t++) binom = (binom * (d - c + t - 1)) / t;
        v /= binom;
        w[c] = v;
      }
      const popcount = (x: number) => {
        let n = 0;
        while (x) {
          x &= x - 1;
          n++;
        }
        return n;
      };
      const values = labels.map((label) => {
        const phi = new Float64Array(d);
        for (let s = 0; s < rows; s++) {
          const c = popcount(s);
          const vs = probs[s * k + label];
          for (let j = 0; j < d; j++) {
            if ((s >> j) & 1) continue;
            phi[j] += w[c] * (probs[(s | (1 << j)) * k + label] - vs);
          }
        }
        return phi;
      });
      out.push(
        ...shapleyExplanations(
          classifier,
          tf,
          'exact-shapley',
          { bow, scorer: scorer.kind },
          undefined,
          full,
          empty,
          labels,
          values,
          { coalitions: rows },
        ),
      );
    }
    return out;
  }
}
