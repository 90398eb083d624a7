import { describe, expect, it } from 'vitest';
import { isXtrustError } from '@xtrust/core';
import { evaluateAccuracy, trainAndEvaluate, trainClassifier } from '../src/index.js';
import { Adam } from '../src/adam.js';
import { KINDS, toyRows, toyVectors, trainToy } from './helpers.js';

describe('Adam', () => {
  it('first step moves each weight by lr·sign(g) (bias-corrected moments), L2 added to the gradient', () => {
    const p = Float32Array.of(1, -2, 0.5);
    const adam = new Adam([p], { learningRate: 0.1 });
    adam.nextStep();
    adam.updateDense(0, Float64Array.of(0.5, -3, 0), 0);
    expect(Array.from(p)).toEqual([0.9, -1.9, 0.5].map((v) => expect.closeTo(v, 6)));
    // Second step with the same gradient: m̂ = g, v̂ = g², so again lr·sign(g).
    adam.nextStep();
    adam.updateDense(0, Float64Array.of(0.5, -3, 0), 0);
    expect(p[0]).toBeCloseTo(0.8, 6);
    const q = Float32Array.of(2);
    const withL2 = new Adam([q], { learningRate: 0.1 });
    withL2.nextStep();
    withL2.updateDense(0, Float64Array.of(-1), 1); // g + λw = −1 + 2 = 1 > 0 → decreases
    expect(q[0]).toBeCloseTo(1.9, 6);
  });
  it('lazy row updates leave untouched rows (and their moments) alone', () => {
    const p = Float32Array.of(1, 1, 1, 1);
    const adam = new Adam([p], { learningRate: 0.1 });
    adam.nextStep();
    adam.updateRows(0, Float64Array.of(0, 0, 1, 1), Int32Array.of(1), 1, 2, 0);
    expect(Array.from(p)).toEqual([1, 1, expect.closeTo(0.9, 6), expect.closeTo(0.9, 6)]);
  });
});

describe('trainClassifier', () => {
  it.each(KINDS)('%s learns the toy task (held-out accuracy ≥ 0.85) and records its run', async (kind) => {
    const rows = toyRows(400, 5);
    const report = await trainAndEvaluate(kind, rows.slice(0, 300), rows.slice(300), {
      seed: 2,
      minCount: 1,
      hidden: 16,
      vectors: toyVectors(),
    });
    expect(report.testAccuracy).toBeGreaterThanOrEqual(0.85);
    expect(report.testRows).toBe(100);
    const t = report.classifier.training!;
    expect(t.trainRows + t.validationRows).toBe(300);
    expect(t.validationRows).toBe(30);
    expect(t.bestEpoch).toBeGreaterThanOrEqual(1);
    expect(t.bestEpoch).toBeLessThanOrEqual(t.epochs);
    expect(report.confusion.flat().reduce((a, b) => a + b, 0)).toBe(100);
  });

  it('is deterministic for a seed and changes with the seed', async () => {
    const a = (await trainToy('bow-mlp', { seed: 4 })).toNet();
    const b = (await trainToy('bow-mlp', { seed: 4 })).toNet();
    const c = (await trainToy('bow-mlp', { seed: 5 })).toNet();
    expect(Array.from(a.layers[0].weight)).toEqual(Array.from(b.layers[0].weight));
    expect(Array.from(a.layers[1].bias)).toEqual(Array.from(b.layers[1].bias));
    expect(Array.from(a.layers[0].weight)).not.toEqual(Array.from(c.layers[0].weight));
  });

  it('stops early when validation loss stops improving and keeps the best epoch', async () => {
    const epochs: number[] = [];
    const m = await trainToy('bow-logistic', {
      maxEpochs: 200,
      patience: 2,
      learningRate: 0.05,
      onEpoch: (e) => epochs.push(e.validationLoss!),
    });
    const t = m.training!;
    expect(t.epochs).toBeLessThan(200);
    expect(t.epochs).toBe(t.bestEpoch + 2);
    expect(t.validationLoss).toBeCloseTo(Math.min(...epochs), 12);
    // The restored weights are a trained model's, not the last (possibly worse) epoch's garbage.
    expect((await evaluateAccuracy(m, toyRows(100, 9))).accuracy).toBeGreaterThan(0.85);
  });

  it('builds the vocabulary from the training texts with minCount / maxVocab', async () => {
    const m = await trainToy('bow-logistic', { minCount: 1, maxVocab: 5 });
    expect(m.vocabulary.size).toBe(5);
    const e = await trainToy('embedding-mlp', { minCount: 1 });
    expect(e.vocabulary.words.every((w) => toyVectors().words.includes(w))).toBe(true);
  });

  it('rejects bad rows, unknown labels and missing vectors', async () => {
    const rows = toyRows(20);
    await expect(trainClassifier('bow-logistic', [])).rejects.toThrow(/non-empty array/);
    await expect(trainClassifier('bow-logistic', [...rows, { text: 3 } as never])).rejects.toSatisfy(
      (e) => isXtrustError(e, 'DATASET_ROW') && /rows\[20\]/.test((e as Error).message),
    );
    await expect(trainClassifier('bow-logistic', rows, { labels: ['pos', 'other'] })).rejects.toSatisfy(
      (e) => isXtrustError(e, 'UNKNOWN_LABEL') && /"neg"/.test((e as Error).message),
    );
    await expect(trainClassifier('embedding-mlp', rows)).rejects.toThrow(/needs options.vectors/);
    await expect(
      trainClassifier(
        'bow-logistic',
        rows.filter((r) => r.label === 'pos'),
      ),
    ).rejects.toThrow(/two labels/);
    await expect(trainClassifier('nope' as never, rows)).rejects.toThrow(/kind must be one of/);
  });

  it('evaluateAccuracy rejects a label the classifier does not have', async () => {
    const m = await trainToy('bow-logistic');
    await expect(evaluateAccuracy(m, [{ text: 'x', label: 'maybe' }])).rejects.toSatisfy((e) =>
      isXtrustError(e, 'UNKNOWN_LABEL'),
    );
  });
});
