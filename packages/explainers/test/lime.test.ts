import { rng, tokenize } from '@xtrust/core';
import { describe, expect, it } from 'vitest';
import { LimeExplainer, limeDistances, limeKernel, sampleLimeMasks, topWords } from '../src/index.js';
import { LinearBowModel, stringsOnly } from './models.js';

const WEIGHTS = { great: 0.9, good: 0.6, fine: 0.3, bad: -0.8, awful: -1.2, plot: 0.05, movie: -0.02 };
const TEXT =
  'The plot was great, the acting good and the music fine; only the ending was bad. Awful awful popcorn. movie';

describe('LIME sampling, distances and kernel (reference LimeTextExplainer)', () => {
  it('keeps every feature in row 0 and removes between 1 and d features elsewhere, uniformly in count', () => {
    const d = 4;
    const s = sampleLimeMasks(d, 20001, rng(7));
    expect(Array.from(s.data.subarray(0, d))).toEqual([1, 1, 1, 1]);
    const sizes = new Array(d + 1).fill(0);
    for (let r = 1; r < s.rows; r++) {
      let kept = 0;
      for (let c = 0; c < d; c++) kept += s.data[r * d + c];
      expect(kept).toBe(s.kept[r]);
      sizes[d - kept]++;
    }
    expect(sizes[0]).toBe(0); // never zero removed
    for (let k = 1; k <= d; k++) expect(Math.abs(sizes[k] / 20000 - 1 / d)).toBeLessThan(0.015); // numpy randint(1, d+1)
    // every feature equally likely to be removed
    for (let c = 0; c < d; c++) {
      let removed = 0;
      for (let r = 1; r < s.rows; r++) removed += 1 - s.data[r * d + c];
      expect(Math.abs(removed / 20000 - 0.625)).toBeLessThan(0.015); // E[size]/d = 2.5/4
    }
  });

  it('computes cosine distance ×100 to the all-ones row and the sqrt-exp kernel by hand', () => {
    const dist = limeDistances(Int32Array.from([4, 1, 0, 2]), 4);
    expect(dist[0]).toBeCloseTo(0, 12);
    expect(dist[1]).toBeCloseTo(50, 12); // 1 − √(1/4)
    expect(dist[2]).toBe(100); // empty row: similarity 0
    expect(dist[3]).toBeCloseTo((1 - Math.SQRT1_2) * 100, 12);
    const k = limeKernel(dist, 25);
    expect(k[0]).toBeCloseTo(1, 12);
    expect(k[1]).toBeCloseTo(Math.exp(-2), 12); // √exp(−2500/625)
    expect(k[2]).toBeCloseTo(Math.exp(-8), 12);
  });
});

describe('LimeExplainer', () => {
  it('recovers the ranking of a linear model’s weights (feature selection none)', async () => {
    const model = new LinearBowModel(WEIGHTS, 0.1);
    const [exp] = await new LimeExplainer().explain(model, [TEXT], {
      featureSelection: 'none',
      labels: ['pos'],
      seed: 3,
    });
    expect(exp.method).toBe('lime');
    expect(exp.explainedLabel).toBe('pos');
    const distinct = new Set(tokenize(TEXT).map((t) => t.text));
    expect(exp.features.length).toBe(distinct.size);
    const weight = (w: string) => exp.features.find((f) => f.word === w)!.weight;
    // the model's weights, in the order LIME must rank them
    expect(weight('great')).toBeGreaterThan(weight('good'));
    expect(weight('good')).toBeGreaterThan(weight('fine'));
    expect(weight('fine')).toBeGreaterThan(Math.abs(weight('The')));
    expect(weight('bad')).toBeLessThan(-weight('fine'));
    expect(weight('awful')).toBeLessThan(weight('bad')); // occurs twice: removing it removes both
    // unweighted words stay near zero
    for (const w of ['The', 'the', 'was', 'acting', 'and', 'music', 'only', 'ending', 'popcorn', 'Awful'])
      expect(Math.abs(weight(w))).toBeLessThan(0.02);
    // signs follow the model
    expect(weight('great')).toBeGreaterThan(0);
    expect(weight('bad')).toBeLessThan(0);
    // local model diagnostics
    const diag = exp.diagnostics!;
    const sum = exp.features.reduce((s, f) => s + f.weight, 0);
    expect(diag.localPrediction).toBeCloseTo(diag.intercept + sum, 9);
    expect(diag.score).toBeGreaterThan(0.9);
    expect(diag.modelPrediction).toBeCloseTo(exp.probabilities![1], 6);
  });

  it('ranks the top words like the model with every feature selection method', async () => {
    const model = new LinearBowModel(WEIGHTS, 0.1);
    const lime = new LimeExplainer({ seed: 11, labels: ['pos'] });
    for (const [featureSelection, numFeatures] of [
      ['highest_weights', 4],
      ['forward_selection', 4],
      ['lasso_path', 4],
      ['auto', 4],
      ['auto', 10],
    ] as const) {
      const [exp] = await lime.explain(model, [TEXT], { featureSelection, numFeatures });
      expect(exp.params.featureSelection).toBe(
        featureSelection === 'auto' ? (numFeatures <= 6 ? 'forward_selection' : 'highest_weights') : featureSelection,
      );
      expect(exp.features.length).toBe(numFeatures);
      expect(topWords(exp, 4)).toEqual(['awful', 'great', 'bad', 'good']);
    }
  });

  it('gives the same explanation through TokenScorer (no strings) and through predictProba on strings', async () => {
    const model = new LinearBowModel(WEIGHTS, -0.2);
    const lime = new LimeExplainer({ numSamples: 1500, seed: 5, topLabels: 2 });
    const viaTokens = await lime.explain(model, [TEXT, 'good bad good fine']);
    const calls = { ...model.calls };
    expect(calls.predictProba).toBe(0);
    expect(calls.scoreTokenMasks).toBe(2); // one call per text
    const viaStrings = await lime.explain(stringsOnly(model), [TEXT, 'good bad good fine'], { batchSize: 400 });
    expect(model.calls.predictProba).toBe(2 * Math.ceil(1500 / 400));
    expect(viaTokens.map((e) => e.params.scorer)).toEqual([
      'token-scorer',
      'token-scorer',
      'token-scorer',
      'token-scorer',
    ]);
    expect(viaStrings.map((e) => e.params.scorer)).toEqual(['strings', 'strings', 'strings', 'strings']);
    expect(viaStrings.map((e) => e.features)).toEqual(viaTokens.map((e) => e.features));
    // two labels per text, most probable first, in text order
    expect(viaTokens.map((e) => e.explainedLabel)).toEqual(['neg', 'pos', 'pos', 'neg']);
    // binary model: the weights of the two labels are opposite
    const [a, b] = viaTokens;
    for (const f of a.features) expect(b.features.find((g) => g.word === f.word)!.weight).toBeCloseTo(-f.weight, 6);
  });

  it('position mode replaces each occurrence separately with the mask string', async () => {
    const seen: string[] = [];
    const model = new LinearBowModel({ good: 1, bad: -1 });
    const spy = {
      labels: model.labels,
      predictProba: async (texts: readonly string[]) => {
        seen.push(...texts);
        return model.predictProba(texts);
      },
    };
    const [exp] = await new LimeExplainer().explain(spy, ['good, bad good'], {
      bow: false,
      numSamples: 50,
      featureSelection: 'none',
      labels: ['pos'],
    });
    expect(exp.features.length).toBe(3);
    expect(exp.features.filter((f) => f.word === 'good').length).toBe(2);
    expect(seen[0]).toBe('good, bad good');
    for (const s of seen.slice(1)) expect(s).toMatch(/^(good|UNKWORDZ), (bad|UNKWORDZ) (good|UNKWORDZ)$/);
    expect(seen.slice(1).some((s) => s.includes('UNKWORDZ'))).toBe(true);
  });

  it('builds perturbed strings as the reference inverse_removing (separators kept)', async () => {
    const seen: string[] = [];
    const model = new LinearBowModel({});
    const spy = {
      labels: model.labels,
      predictProba: async (texts: readonly string[]) => {
        seen.push(...texts);
        return model.predictProba(texts);
      },
    };
    await new LimeExplainer().explain(spy, ['Hi, you... you!'], { numSamples: 200, featureSelection: 'none' });
    const allowed = new Set(['Hi, you... you!', ', you... you!', 'Hi, ... !', ', ... !']);
    for (const s of seen) expect(allowed.has(s)).toBe(true);
    expect(new Set(seen).size).toBe(4); // removing a word removes both occurrences
  });
});
