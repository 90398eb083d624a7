import { describe, expect, it } from 'vitest';
import { scoreMasksTs, validateNet, type MaskScoringNet } from '@xtrust/core';

const softmax2 = (a: number, b: number) => [
  Math.exp(a) / (Math.exp(a) + Math.exp(b)),
  Math.exp(b) / (Math.exp(a) + Math.exp(b)),
];

describe('scoreMasksTs', () => {
  // Vocabulary: 0 "free", 1 "money", 2 "hello". Two classes. W is inDim×outDim.
  const linear: MaskScoringNet = {
    input: { kind: 'bag-of-words', vocabSize: 3, transform: 'log1p' },
    layers: [{ inDim: 3, outDim: 2, weight: Float32Array.from([0, 2, 0, 1, 1, 0]), bias: Float32Array.from([0.5, 0]) }],
  };

  it('scores bag-of-words masks (log1p counts) by hand', () => {
    validateNet(linear);
    // text tokens: free free money unknown hello
    const ids = Int32Array.from([0, 0, 1, -1, 2]);
    const masks = Uint8Array.from([1, 1, 1, 1, 1, /* drop one "free" */ 1, 0, 1, 1, 1, /* nothing */ 0, 0, 0, 0, 0]);
    const p = scoreMasksTs(linear, ids, masks, 3);
    const l2 = Math.log(3);
    const l1 = Math.log(2);
    const expect0 = softmax2(0.5 + 1 * l1, 2 * l2 + 1 * l1);
    const expect1 = softmax2(0.5 + 1 * l1, 2 * l1 + 1 * l1);
    const expect2 = softmax2(0.5, 0);
    [...expect0, ...expect1, ...expect2].forEach((v, i) => expect(p[i]).toBeCloseTo(v, 6));
  });

  it('runs a ReLU hidden layer and a mean-embedding input by hand', () => {
    const net: MaskScoringNet = {
      input: { kind: 'mean-embedding', vocabSize: 2, dim: 2, embeddings: Float32Array.from([1, 0, 0, 1]) },
      layers: [
        { inDim: 2, outDim: 2, weight: Float32Array.from([1, -1, 1, 1]), bias: Float32Array.from([0, 0]) },
        { inDim: 2, outDim: 2, weight: Float32Array.from([1, 0, 0, 1]), bias: Float32Array.from([0, 0.25]) },
      ],
    };
    validateNet(net);
    const ids = Int32Array.from([0, 1, 1]);
    const p = scoreMasksTs(net, ids, Uint8Array.from([1, 1, 1, 1, 0, 0]), 2);
    // row 0: mean = [1/3, 2/3]; hidden = relu([1, 1/3]); logits = [1, 1/3 + 0.25]
    softmax2(1, 1 / 3 + 0.25).forEach((v, i) => expect(p[i]).toBeCloseTo(v, 6));
    // row 1: mean = [1, 0]; hidden = relu([1, -1]) = [1, 0]; logits = [1, 0.25]
    softmax2(1, 0.25).forEach((v, i) => expect(p[2 + i]).toBeCloseTo(v, 6));
  });

  it('rejects masks of the wrong size and inconsistent nets', () => {
    expect(() => scoreMasksTs(linear, Int32Array.from([0, 1]), new Uint8Array(3), 2)).toThrow(
      /expected rows×tokens = 2×2/,
    );
    expect(() => validateNet({ ...linear, layers: [{ ...linear.layers[0], inDim: 4 }] })).toThrow(
      /inDim is 4, expected 3/,
    );
  });
});
