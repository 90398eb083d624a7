import { backendInfo } from '@xtrust/native';
import { describe, expect, it } from 'vitest';
import { KernelShapExplainer, LimeExplainer, resolveRidgeBackend, topWords } from '../src/index.js';
import { LinearBowModel } from './models.js';

const model = new LinearBowModel(
  { offer: 1.4, free: 1.1, meeting: -0.9, click: 0.8, thanks: -0.5, report: -0.3 },
  -0.4,
);
const texts = [
  'Free offer: click here for your free prize. Thanks!',
  'Thanks for the meeting notes; the report is attached, see the offer section.',
  'Click the link to confirm the meeting and the free parking offer.',
];

describe('determinism', () => {
  it('same seed, inputs and options give identical explanations; another seed differs', async () => {
    const lime = new LimeExplainer({ numSamples: 1000 });
    const a = await lime.explain(model, texts, { seed: 42 });
    const b = await lime.explain(model, texts, { seed: 42 });
    expect(b).toEqual(a);
    expect(a.every((e) => e.seed === 42)).toBe(true);
    const c = await lime.explain(model, texts, { seed: 43 });
    expect(c.map((e) => e.features)).not.toEqual(a.map((e) => e.features));
    expect(topWords(c[0], 3)).toEqual(topWords(a[0], 3));
  });

  it('an explanation does not depend on the batch it was computed in', async () => {
    const lime = new LimeExplainer({ numSamples: 800, seed: 7 });
    const together = await lime.explain(model, texts, { chunkSize: 2 });
    const alone = await lime.explain(model, [texts[2]]);
    expect(alone[0]).toEqual(together[2]);
  });

  it('the ts and native (cpu) ridge backends give the same explanations', async () => {
    const prev = process.env.XTRUST_BACKEND;
    try {
      process.env.XTRUST_BACKEND = 'ts';
      expect(resolveRidgeBackend('auto')).toBe('ts');
      const ts = await new LimeExplainer().explain(model, texts, { numSamples: 1500, seed: 3 });
      const tsHw = await new LimeExplainer().explain(model, texts, {
        numSamples: 1500,
        seed: 3,
        featureSelection: 'highest_weights',
        numFeatures: 4,
      });
      process.env.XTRUST_BACKEND = 'cpu';
      const backend = resolveRidgeBackend('auto');
      // cpu whenever the addon is built (the root `test` script builds it); ts otherwise
      expect(backend).toBe(backendInfo().available.includes('cpu') ? 'cpu' : 'ts');
      const cpu = await new LimeExplainer().explain(model, texts, { numSamples: 1500, seed: 3 });
      const cpuHw = await new LimeExplainer().explain(model, texts, {
        numSamples: 1500,
        seed: 3,
        featureSelection: 'highest_weights',
        numFeatures: 4,
      });
      expect(cpu[0].params.ridgeBackend).toBe(backend);
      for (const [x, y] of [
        [ts, cpu],
        [tsHw, cpuHw],
      ]) {
        x.forEach((e, i) => {
          expect(y[i].features.map((f) => f.word)).toEqual(e.features.map((f) => f.word));
          e.features.forEach((f, j) => expect(y[i].features[j].weight).toBeCloseTo(f.weight, 5));
          expect(y[i].diagnostics!.score).toBeCloseTo(e.diagnostics!.score, 5);
        });
      }
    } finally {
      if (prev === undefined) delete process.env.XTRUST_BACKEND;
      else process.env.XTRUST_BACKEND = prev;
    }
  });

  it('Kernel SHAP is seeded per text', async () => {
    const a = await new KernelShapExplainer().explain(model, texts, { numSamples: 100, seed: 1 });
    const b = await new KernelShapExplainer().explain(model, [texts[1]], { numSamples: 100, seed: 1 });
    expect(b[0]).toEqual(a[1]);
  });
});
