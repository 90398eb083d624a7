// Integration with @xtrust/models' built-in classifiers (resolved to their sources by the vitest
// workspace aliases; explainers itself does not depend on models).
import { rng } from '@xtrust/core';
import { trainClassifier, type BuiltinClassifier } from '@xtrust/models';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  GradientExplainer,
  IntegratedGradientsExplainer,
  KernelShapExplainer,
  LimeExplainer,
  OmissionExplainer,
  topWords,
} from '../src/index.js';
import { stringsOnly } from './models.js';

const POS = ['great', 'excellent', 'superb', 'lovely', 'enjoyable', 'brilliant'];
const NEG = ['awful', 'terrible', 'boring', 'dreadful', 'poor', 'dull'];
const FILL = ['the', 'film', 'plot', 'actor', 'was', 'and', 'a', 'story', 'it', 'scene', 'music', 'ending'];

function corpus(n: number, seed: number) {
  const r = rng(seed);
  const pick = (xs: string[]) => xs[r.int(xs.length)];
  const rows: { text: string; label: string }[] = [];
  for (let i = 0; i < n; i++) {
    const label = r.int(2) === 0 ? 'neg' : 'pos';
    const words: string[] = [];
    for (let j = 0; j < 8; j++) words.push(pick(FILL));
    for (let j = 0; j < 2; j++) words.splice(r.int(words.length), 0, pick(label === 'pos' ? POS : NEG));
    rows.push({ text: words.join(' '), label });
  }
  return rows;
}

describe('explainers on @xtrust/models built-in classifiers', () => {
  let logistic: BuiltinClassifier;
  let mlp: BuiltinClassifier;
  beforeAll(async () => {
    const rows = corpus(600, 1);
    logistic = await trainClassifier('bow-logistic', rows, { seed: 1, labels: ['neg', 'pos'], maxEpochs: 15 });
    mlp = await trainClassifier('bow-mlp', rows, { seed: 1, labels: ['neg', 'pos'], maxEpochs: 15, hidden: 16 });
  });

  const text = 'the film was superb and the music lovely, but the ending was dull';

  it('LIME finds the sentiment words and agrees between TokenScorer and strings', async () => {
    for (const model of [logistic, mlp]) {
      const lime = new LimeExplainer({ numSamples: 2000, seed: 4 });
      const [a] = await lime.explain(model, [text]);
      const [b] = await lime.explain(stringsOnly(model), [text]);
      expect(a.params.scorer).toBe('token-scorer');
      expect(b.params.scorer).toBe('strings');
      expect(b.features.map((f) => f.word)).toEqual(a.features.map((f) => f.word));
      a.features.forEach((f, i) => expect(b.features[i].weight).toBeCloseTo(f.weight, 5));
      expect(a.explainedLabel).toBe('pos');
      expect(new Set(topWords(a, 3))).toEqual(new Set(['superb', 'lovely', 'dull']));
      expect(topWords(a, 2, { positiveOnly: true }).sort()).toEqual(['lovely', 'superb']);
    }
  });

  it('omission equals re-scoring the text without each word', async () => {
    const [exp] = await new OmissionExplainer().explain(mlp, [text]);
    const p = await mlp.predictProba([text, text.replace('superb', ''), text.replace(/\bthe\b/g, '')]);
    expect(exp.features.find((f) => f.word === 'superb')!.weight).toBeCloseTo(p[1] - p[3], 5);
    expect(exp.features.find((f) => f.word === 'the')!.weight).toBeCloseTo(p[1] - p[5], 5);
  });

  it('integrated gradients are complete: attributions sum to p(text) − p(empty text)', async () => {
    // smooth logistic model: Gauss–Legendre is near exact; ReLU MLP: the integrand has kinks, so the
    // quadrature error shrinks only like 1/steps (measured: 1.1e-3 at 16 steps, 6e-5 at 1,024)
    for (const [model, steps, digits] of [
      [logistic, 32, 6],
      [mlp, 1024, 3],
    ] as const) {
      const [exp] = await new IntegratedGradientsExplainer().explain(model, [text], { steps });
      const [full, empty] = [await model.predictProba([text]), await model.predictProba([''])];
      const sum = exp.features.reduce((s, f) => s + f.weight, 0);
      expect(sum).toBeCloseTo(full[1] - empty[1], digits);
      expect(new Set(topWords(exp, 3))).toEqual(new Set(['superb', 'lovely', 'dull']));
      const [grad] = await new GradientExplainer().explain(model, [text]);
      expect(new Set(topWords(grad, 3))).toEqual(new Set(['superb', 'lovely', 'dull']));
    }
  });

  it('Kernel SHAP agrees with LIME on the top words', async () => {
    const [shap] = await new KernelShapExplainer().explain(mlp, [text], { seed: 2 });
    expect(new Set(topWords(shap, 3))).toEqual(new Set(['superb', 'lovely', 'dull']));
  });
});
