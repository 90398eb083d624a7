import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  fitLimeModels,
  limeDistances,
  limeKernel,
  resolveFeatureSelection,
  type FeatureSelection,
} from '../src/index.js';

// Fixture written by fixtures/make-lime-reference.py with the reference LIME (marcotcr/lime,
// lime_base.LimeBase.explain_instance_with_data) and scikit-learn 1.2.1 on four neighbourhoods.
interface Case {
  d: number;
  rows: number;
  data: string;
  y: number[];
  distances: number[];
  results: {
    method: FeatureSelection;
    numFeatures: number;
    intercept: number;
    features: number[];
    weights: number[];
    score: number;
    localPrediction: number;
  }[];
}
const fixture = JSON.parse(readFileSync(new URL('./fixtures/lime-reference.json', import.meta.url), 'utf8')) as {
  cases: Case[];
};

describe('LIME regression against the reference implementation', () => {
  for (const [ci, c] of fixture.cases.entries()) {
    const data = Uint8Array.from(c.data, (ch) => (ch === '1' ? 1 : 0));
    const kept = new Int32Array(c.rows);
    for (let r = 0; r < c.rows; r++) for (let j = 0; j < c.d; j++) kept[r] += data[r * c.d + j];

    it(`case ${ci} (d=${c.d}): distances equal scikit-learn's cosine distances ×100`, () => {
      const dist = limeDistances(kept, c.d);
      for (let r = 0; r < c.rows; r++) expect(dist[r]).toBeCloseTo(c.distances[r], 9);
    });

    for (const ref of c.results) {
      it(`case ${ci} (d=${c.d}): ${ref.method} with ${ref.numFeatures} features selects the same words and weights`, async () => {
        const weights = limeKernel(Float64Array.from(c.distances), 25);
        const method = resolveFeatureSelection(ref.method, ref.numFeatures);
        const [[model]] = await fitLimeModels(
          [{ data, rows: c.rows, d: c.d, weights, ys: [Float64Array.from(c.y)] }],
          method,
          ref.numFeatures,
          'ts',
        );
        // reference order: sorted by |weight| descending
        const ours = Array.from(model.features, (f, j) => ({ f, w: model.fit.coef[j] })).sort(
          (a, b) => Math.abs(b.w) - Math.abs(a.w),
        );
        expect(ours.map((e) => e.f)).toEqual(ref.features);
        ours.forEach((e, j) => expect(e.w).toBeCloseTo(ref.weights[j], 9));
        expect(model.fit.intercept).toBeCloseTo(ref.intercept, 9);
        expect(model.fit.score).toBeCloseTo(ref.score, 9);
        expect(model.fit.firstPrediction).toBeCloseTo(ref.localPrediction, 9);
      });
    }
  }
});
