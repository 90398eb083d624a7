import type { Classifier } from '@xtrust/core';
import { describe, expect, it } from 'vitest';
import {
  ExactShapleyExplainer,
  KernelShapExplainer,
  LimeExplainer,
  OmissionExplainer,
  explainerByName,
} from '../src/index.js';
import { LinearBowModel, sigmoid } from './models.js';

const model = new LinearBowModel({ good: 1, bad: -1 }, 0.2);

/** Scores times `factor`: rows sum to `factor`, not 1. */
function scaled(factor: number): Classifier {
  return {
    labels: model.labels,
    predictProba: async (texts) => (await model.predictProba(texts)).map((v) => v * factor),
  };
}

describe('bad input', () => {
  it('empty text and text without words: EMPTY_TEXT naming the text, for every method', async () => {
    for (const m of [
      new LimeExplainer(),
      new OmissionExplainer(),
      new KernelShapExplainer(),
      new ExactShapleyExplainer(),
    ]) {
      await expect(m.explain(model, ['good bad', ''])).rejects.toMatchObject({
        code: 'EMPTY_TEXT',
        message: expect.stringContaining('texts[1]'),
      });
      await expect(m.explain(model, [' ,;! '])).rejects.toMatchObject({ code: 'EMPTY_TEXT' });
    }
  });

  it('LIME on a one-word text explains why it needs two features; omission handles it', async () => {
    await expect(new LimeExplainer().explain(model, ['good good'])).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: expect.stringMatching(/single distinct word \("good"\).*at least two features/),
    });
    const [exp] = await new OmissionExplainer().explain(model, ['good good']);
    expect(exp.features[0].weight).toBeCloseTo(sigmoid(2.2) - sigmoid(0.2), 6);
  });

  it('num_samples < 2 and other option errors name the option', async () => {
    await expect(new LimeExplainer().explain(model, ['good bad'], { numSamples: 1 })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: expect.stringContaining('numSamples'),
    });
    await expect(new LimeExplainer().explain(model, ['good bad'], { numSamples: 2.5 })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
    await expect(new LimeExplainer().explain(model, ['good bad'], { numFeatures: 0 })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: expect.stringContaining('numFeatures'),
    });
    await expect(
      new LimeExplainer().explain(model, ['good bad'], { featureSelection: 'magic' as never }),
    ).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringContaining('featureSelection') });
    await expect(new LimeExplainer().explain(model, ['good bad'], { kernelWidth: -1 })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
    await expect(new LimeExplainer().explain(model, ['good bad'], { topLabels: 3 })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: expect.stringContaining('topLabels'),
    });
    await expect(new LimeExplainer().explain(model, ['good bad'], { seed: 0.5 })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: expect.stringContaining('seed'),
    });
    // two samples is the smallest neighbourhood and works
    const [exp] = await new LimeExplainer().explain(model, ['good bad'], { numSamples: 2 });
    expect(exp.features.length).toBe(2);
  });

  it('a label the classifier does not have: UNKNOWN_LABEL listing the labels', async () => {
    for (const m of ['lime', 'omission', 'kernel-shap', 'exact-shapley', 'gradient', 'integrated-gradients']) {
      await expect(explainerByName(m).explain(model, ['good bad'], { labels: ['positive'] })).rejects.toMatchObject({
        code: 'UNKNOWN_LABEL',
        message: expect.stringContaining('neg, pos'),
      });
      await expect(explainerByName(m).explain(model, ['good bad'], { labels: [2] })).rejects.toMatchObject({
        code: 'UNKNOWN_LABEL',
      });
    }
    expect(() => explainerByName('deeplift')).toThrow(/unknown explanation method/);
  });

  it('probabilities that do not sum to 1: warn once, explain as they are, normalise only when asked', async () => {
    const warnings: string[] = [];
    const warn = (m: string) => warnings.push(m);
    const texts = ['good bad movie', 'bad bad film good'];
    const raw = await new LimeExplainer().explain(scaled(0.5), texts, { numSamples: 300, warn, labels: ['pos'] });
    expect(warnings.length).toBe(1);
    expect(warnings[0]).toMatch(/do not sum to 1.*normalise/);
    const reference = await new LimeExplainer().explain(model, texts, { numSamples: 300, labels: ['pos'] });
    // unnormalised: the weights are those of the halved scores
    raw[0].features.forEach((f, i) => expect(f.weight).toBeCloseTo(reference[0].features[i].weight / 2, 6));
    warnings.length = 0;
    const norm = await new LimeExplainer().explain(scaled(0.5), texts, {
      numSamples: 300,
      warn,
      labels: ['pos'],
      normalise: true,
    });
    expect(warnings.length).toBe(1);
    expect(warnings[0]).toMatch(/rescaling/);
    norm[0].features.forEach((f, i) => expect(f.weight).toBeCloseTo(reference[0].features[i].weight, 6));
    // omission warns once as well
    warnings.length = 0;
    await new OmissionExplainer().explain(scaled(0.8), texts, { warn });
    expect(warnings.length).toBe(1);
  });

  it('a model returning NaN or the wrong shape: BAD_MODEL_OUTPUT', async () => {
    const nan: Classifier = {
      labels: ['a', 'b'],
      predictProba: async (t) => new Float32Array(t.length * 2).fill(Number.NaN),
    };
    await expect(new LimeExplainer().explain(nan, ['good bad'], { numSamples: 10 })).rejects.toMatchObject({
      code: 'BAD_MODEL_OUTPUT',
    });
    const short: Classifier = { labels: ['a', 'b'], predictProba: async (t) => new Float32Array(t.length) };
    await expect(new OmissionExplainer().explain(short, ['good bad'])).rejects.toMatchObject({
      code: 'BAD_MODEL_OUTPUT',
      message: expect.stringContaining('expected'),
    });
  });

  it('no texts: no explanations and no model call', async () => {
    const m = new LinearBowModel({ good: 1 });
    for (const name of ['lime', 'omission', 'kernel-shap', 'exact-shapley', 'gradient', 'integrated-gradients']) {
      expect(await explainerByName(name).explain(m, [])).toEqual([]);
    }
    expect(m.calls).toEqual({ predictProba: 0, scoreTokenMasks: 0, rows: 0 });
  });

  it('texts that are not strings and classifiers that are not classifiers', async () => {
    await expect(new LimeExplainer().explain(model, [42 as unknown as string])).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: expect.stringContaining('texts[0]'),
    });
    await expect(new LimeExplainer().explain({} as Classifier, ['a b'])).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: expect.stringContaining('classifier'),
    });
  });
});
