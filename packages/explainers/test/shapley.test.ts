import { rng, tokenize, type Classifier, type TokenScorer } from '@xtrust/core';
import { describe, expect, it } from 'vitest';
import { ExactShapleyExplainer, KernelShapExplainer, kernelShapCoalitions } from '../src/index.js';
import { LinearBowModel, sigmoid, stringsOnly } from './models.js';

/** A nonlinear model with word interactions: z = Σ w + 1.5·[good ∧ not] − 1·[great ∧ but], p = σ(z). */
class InteractionModel implements Classifier, TokenScorer {
  readonly labels = ['neg', 'pos', 'other'];
  private probs(present: Set<string>): number[] {
    const w: Record<string, number> = { good: 1, not: -0.7, great: 1.2, but: -0.2, boring: -1.1, plot: 0.3 };
    let z = 0.1;
    for (const x of present) z += w[x] ?? 0;
    if (present.has('good') && present.has('not')) z -= 1.5;
    if (present.has('great') && present.has('but')) z -= 1;
    const p = sigmoid(z);
    const other = 0.1 * sigmoid(present.size - 4);
    return [(1 - p) * (1 - other), p * (1 - other), other];
  }
  async predictProba(texts: readonly string[]): Promise<Float32Array> {
    return Float32Array.from(texts.flatMap((t) => this.probs(new Set(tokenize(t).map((x) => x.text)))));
  }
  async scoreTokenMasks(text: string, masks: Uint8Array, rows: number): Promise<Float32Array> {
    const toks = tokenize(text);
    const out: number[] = [];
    for (let r = 0; r < rows; r++)
      out.push(...this.probs(new Set(toks.filter((_, t) => masks[r * toks.length + t]).map((x) => x.text))));
    return Float32Array.from(out);
  }
}

const TEXT = 'not good, but great plot; the acting was boring but fine and the music good';

describe('ExactShapleyExplainer', () => {
  it('matches the Shapley formula by hand on two words', async () => {
    const m = new LinearBowModel({ good: 1, bad: -2 }, 0.5);
    const [exp] = await new ExactShapleyExplainer().explain(m, ['good bad'], { labels: ['pos'] });
    const v = (g: number, b: number) => sigmoid(0.5 + g - 2 * b);
    const phiGood = 0.5 * (v(1, 0) - v(0, 0)) + 0.5 * (v(1, 1) - v(0, 1));
    const phiBad = 0.5 * (v(0, 1) - v(0, 0)) + 0.5 * (v(1, 1) - v(1, 0));
    expect(exp.features.find((f) => f.word === 'good')!.weight).toBeCloseTo(phiGood, 6);
    expect(exp.features.find((f) => f.word === 'bad')!.weight).toBeCloseTo(phiBad, 6);
    expect(exp.diagnostics!.baseValue).toBeCloseTo(v(0, 0), 6);
  });

  it('is efficient (Σφ = v(F) − v(∅)) and refuses more than maxFeatures words', async () => {
    const m = new InteractionModel();
    const [exp] = await new ExactShapleyExplainer().explain(m, [TEXT], { labels: ['pos'] });
    expect(exp.features.length).toBe(12);
    const sum = exp.features.reduce((s, f) => s + f.weight, 0);
    expect(sum).toBeCloseTo(exp.diagnostics!.modelPrediction - exp.diagnostics!.baseValue, 6);
    await expect(new ExactShapleyExplainer().explain(m, [`${TEXT} extra`])).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: expect.stringMatching(/13 distinct words/),
    });
  });
});

describe('KernelShapExplainer', () => {
  it('equals exact Shapley values when the budget covers every coalition', async () => {
    const m = new InteractionModel();
    for (const label of ['pos', 'other']) {
      const [exact] = await new ExactShapleyExplainer().explain(m, [TEXT], { labels: [label] });
      const [kernel] = await new KernelShapExplainer().explain(m, [TEXT], { labels: [label], numSamples: 5000 });
      expect(kernel.diagnostics!.coalitions).toBe(2 ** 12 - 2);
      const truth = new Map(exact.features.map((f) => [f.word, f.weight]));
      expect(kernel.features.length).toBe(12);
      for (const f of kernel.features) expect(f.weight).toBeCloseTo(truth.get(f.word)!, 6);
    }
  });

  it('approximates exact Shapley values with a small seeded budget, and is efficient', async () => {
    const m = new InteractionModel();
    const [exact] = await new ExactShapleyExplainer().explain(m, [TEXT], { labels: ['pos'] });
    const truth = new Map(exact.features.map((f) => [f.word, f.weight]));
    const [kernel] = await new KernelShapExplainer().explain(m, [TEXT], { labels: ['pos'], numSamples: 400, seed: 9 });
    expect(kernel.diagnostics!.coalitions).toBe(400);
    let err = 0;
    let scale = 0;
    for (const f of kernel.features) {
      err = Math.max(err, Math.abs(f.weight - truth.get(f.word)!));
      scale = Math.max(scale, Math.abs(truth.get(f.word)!));
    }
    expect(err).toBeLessThan(0.05 * scale);
    expect(kernel.features.slice(0, 3).map((f) => f.word)).toEqual(exact.features.slice(0, 3).map((f) => f.word));
    const sum = kernel.features.reduce((s, f) => s + f.weight, 0);
    expect(sum).toBeCloseTo(kernel.diagnostics!.modelPrediction - kernel.diagnostics!.baseValue, 6);
    // seeded: same seed same values, other seed other values
    const [again] = await new KernelShapExplainer().explain(m, [TEXT], { labels: ['pos'], numSamples: 400, seed: 9 });
    expect(again.features).toEqual(kernel.features);
    const [other] = await new KernelShapExplainer().explain(m, [TEXT], { labels: ['pos'], numSamples: 400, seed: 10 });
    expect(other.features).not.toEqual(kernel.features);
    // strings path gives the same
    const [viaStrings] = await new KernelShapExplainer().explain(stringsOnly(m), [TEXT], {
      labels: ['pos'],
      numSamples: 400,
      seed: 9,
    });
    viaStrings.features.forEach((f, i) => expect(f.weight).toBeCloseTo(kernel.features[i].weight, 6));
  });

  it('draws a design whose weights follow the Shapley kernel and sum to 1', () => {
    const c = kernelShapCoalitions(8, 100, rng(1));
    expect(c.rows).toBe(100);
    let total = 0;
    for (const w of c.weights) total += w;
    expect(total).toBeCloseTo(1, 12);
    // sizes 1 and 7 enumerated (8 + 8 rows) with equal per-row weight (d−1)/(s(d−s)) normalised
    for (let r = 0; r < 16; r++) {
      let k = 0;
      for (let j = 0; j < 8; j++) k += c.masks[r * 8 + j];
      expect(k === 1 || k === 7).toBe(true);
      expect(c.weights[r]).toBeCloseTo(c.weights[0], 12);
    }
  });
});
