import type { Explainer, Explanation } from '@xtrust/core';
import { describe, expect, it } from 'vitest';
import {
  AttentionExplainer,
  EXPLAINER_NAMES,
  ExactShapleyExplainer,
  GradientExplainer,
  IntegratedGradientsExplainer,
  KernelShapExplainer,
  LimeExplainer,
  OmissionExplainer,
  explainerByName,
  makeExplanation,
  sortByMagnitude,
  topWords,
} from '../src/index.js';
import { LinearBowModel } from './models.js';

describe('the Explanation shape', () => {
  it('sorts by |weight| keeping input order for ties, and topWords reads it', () => {
    const exp: Explanation = makeExplanation({
      text: 'a b c d e',
      method: 'test',
      params: {},
      labels: ['x', 'y'],
      probabilities: [0.3, 0.7],
      predicted: 1,
      explained: 0,
      features: [
        { word: 'a', weight: 0.1 },
        { word: 'b', weight: -0.5 },
        { word: 'c', weight: 0.5 },
        { word: 'd', weight: 0.2 },
        { word: 'e', weight: 0 },
      ],
    });
    expect(exp.features.map((f) => f.word)).toEqual(['b', 'c', 'd', 'a', 'e']);
    expect(exp.predictedLabel).toBe('y');
    expect(exp.explainedLabel).toBe('x');
    expect(topWords(exp, 2)).toEqual(['b', 'c']);
    expect(topWords(exp, 3, { positiveOnly: true })).toEqual(['c', 'd', 'a']);
    expect(topWords(exp, 10, { positiveOnly: true })).toEqual(['c', 'd', 'a']);
    expect(topWords(exp, 0)).toEqual([]);
    expect(() => topWords(exp, -1)).toThrow(/non-negative/);
    expect(
      sortByMagnitude([
        { word: 'p', weight: -1 },
        { word: 'q', weight: 1 },
      ]).map((f) => f.word),
    ).toEqual(['p', 'q']);
  });

  it('every explainer is a plain core Explainer (no cast needed) and has its method name', () => {
    const all: Explainer[] = [
      new LimeExplainer(),
      new OmissionExplainer(),
      new GradientExplainer(),
      new IntegratedGradientsExplainer(),
      new KernelShapExplainer(),
      new ExactShapleyExplainer(),
      new AttentionExplainer(),
    ];
    expect(all.map((e) => e.name)).toEqual([...EXPLAINER_NAMES]);
  });

  it('every method returns word-level explanations carrying method, params and labels', async () => {
    const model = new LinearBowModel({ good: 1, bad: -1 });
    for (const name of EXPLAINER_NAMES) {
      if (name === 'attention') continue; // needs an AttentionProvider (attention.test.ts)
      const [exp] = await explainerByName(name, { numSamples: 200 }).explain(model, ['good movie, bad ending']);
      expect(exp.method).toBe(name);
      expect(exp.text).toBe('good movie, bad ending');
      expect(exp.predictedLabel).toBe('neg'); // σ(0) = 0.5 exactly: ties go to the first label
      expect(exp.explainedLabel).toBe('neg');
      expect(exp.probabilities).toHaveLength(2);
      expect(typeof exp.params).toBe('object');
      const mags = exp.features.map((f) => Math.abs(f.weight));
      expect(mags).toEqual([...mags].sort((a, b) => b - a));
      expect(new Set(exp.features.map((f) => f.word))).toEqual(new Set(['good', 'movie', 'bad', 'ending']));
    }
  });
});
