import { describe, expect, it } from 'vitest';
import { GradientExplainer, IntegratedGradientsExplainer, integrationRule } from '../src/index.js';
import { LinearBowModel, SubwordModel, sigmoid, stringsOnly, vec2 } from './models.js';

describe('GradientExplainer', () => {
  it('gradient·input on a bag-of-words model is p(1−p)·w per occurrence, summed per word, by hand', async () => {
    const model = new LinearBowModel({ good: 1.2, bad: -0.9 }, 0.3);
    const [exp] = await new GradientExplainer().explain(model, ['good bad good movie']);
    const p = sigmoid(0.3 + 2.4 - 0.9);
    const w = (word: string) => exp.features.find((f) => f.word === word)!.weight;
    expect(exp.explainedLabel).toBe('pos');
    expect(w('good')).toBeCloseTo(2 * p * (1 - p) * 1.2, 6);
    expect(w('bad')).toBeCloseTo(p * (1 - p) * -0.9, 6);
    expect(w('movie')).toBe(0);
    const [neg] = await new GradientExplainer().explain(model, ['good bad good movie'], {
      labels: ['neg'],
      output: 'logit',
    });
    expect(neg.features.find((f) => f.word === 'good')!.weight).toBeCloseTo(-1.2, 6); // 2 × (−w/2)
  });

  it('merges sub-word tokens into words by offsets and drops [CLS]/[SEP]', async () => {
    const model = new SubwordModel();
    const text = 'Wonderful day, wonderful';
    const [exp] = await new GradientExplainer().explain(model, [text]);
    const p = sigmoid(model.logitAt(text, 1));
    const f = p * (1 - p);
    const gi = (s: string) => f * (model.u[0] * vec2(s)[0] + model.u[1] * vec2(s)[1]);
    expect(exp.features.map((x) => x.word).sort()).toEqual(['Wonderful', 'day', 'wonderful']);
    const w = (word: string) => exp.features.find((x) => x.word === word)!.weight;
    expect(w('Wonderful')).toBeCloseTo(gi('Won') + gi('##derful'), 6);
    expect(w('wonderful')).toBeCloseTo(gi('won') + gi('##derful'), 6);
    expect(w('day')).toBeCloseTo(gi('day'), 6);
    expect(exp.diagnostics!.droppedTokenScore).toBeCloseTo(2 * f * (model.u[0] * 0.5 - model.u[1] * 0.5), 6);
    // L2 variant: norm of the concatenated gradients of the word's tokens
    const [l2] = await new GradientExplainer().explain(model, [text], { variant: 'l2' });
    const g = Math.hypot(f * model.u[0], f * model.u[1]);
    expect(l2.features.find((x) => x.word === 'Wonderful')!.weight).toBeCloseTo(Math.sqrt(2) * g, 6);
    expect(l2.features.find((x) => x.word === 'day')!.weight).toBeCloseTo(g, 6);
  });

  it('refuses a classifier without gradients (UNSUPPORTED), never fakes them', async () => {
    const model = stringsOnly(new LinearBowModel({ good: 1 }));
    await expect(new GradientExplainer().explain(model, ['good'])).rejects.toMatchObject({ code: 'UNSUPPORTED' });
    await expect(new IntegratedGradientsExplainer().explain(model, ['good'])).rejects.toMatchObject({
      code: 'UNSUPPORTED',
    });
  });
});

describe('IntegratedGradientsExplainer', () => {
  it('quadrature rules integrate polynomials as they should', () => {
    for (const m of [1, 2, 5, 20, 50]) {
      const { alphas, weights } = integrationRule('gausslegendre', m);
      const deg = 2 * m - 1; // exact up to degree 2m−1
      let s = 0;
      for (let i = 0; i < m; i++) s += weights[i] * alphas[i] ** deg;
      expect(s).toBeCloseTo(1 / (deg + 1), 12);
    }
    const t = integrationRule('riemann_trapezoid', 11);
    let s = 0;
    for (let i = 0; i < 11; i++) s += t.weights[i] * t.alphas[i];
    expect(s).toBeCloseTo(0.5, 12);
  });

  it('satisfies completeness: attributions sum to f(x) − f(0)', async () => {
    const model = new SubwordModel();
    const text = 'Wonderful day at the seaside, wonderful people';
    for (const output of ['probability', 'logit'] as const) {
      const [exp] = await new IntegratedGradientsExplainer().explain(model, [text], {
        steps: 32,
        output,
        labels: ['pos'],
      });
      const fx = output === 'probability' ? sigmoid(model.logitAt(text, 1)) : model.logitAt(text, 1) / 2;
      const f0 = output === 'probability' ? sigmoid(model.bias) : model.bias / 2;
      const words = exp.features.reduce((s, f) => s + f.weight, 0);
      expect(exp.diagnostics!.attributionSum).toBeCloseTo(fx - f0, 5);
      expect(words + exp.diagnostics!.droppedAttribution).toBeCloseTo(fx - f0, 5);
    }
    // a bag-of-words model: the special-free case, riemann rule with many steps
    const bow = new LinearBowModel({ good: 2, bad: -1, great: 1.5 }, -0.5);
    const [exp] = await new IntegratedGradientsExplainer().explain(bow, ['good great bad plot'], {
      steps: 400,
      method: 'riemann_middle',
    });
    const sum = exp.features.reduce((s, f) => s + f.weight, 0);
    expect(sum).toBeCloseTo(sigmoid(2) - sigmoid(-0.5), 5);
    expect(exp.features.map((f) => f.word)).toEqual(['good', 'great', 'bad', 'plot']);
  });
});
