import { XtrustError, rng, scoreMasksTs, type MaskScoringNet } from '@xtrust/core';
import { backendInfo, scoreMasks, useBackend } from '@xtrust/native';
import { afterAll, describe, expect, it } from 'vitest';
import { expectClose, randomMatrix } from './helpers.js';

const hasNative = backendInfo().available.includes('cpu');
afterAll(() => {
  useBackend('auto');
});

function dense(seed: number, inDim: number, outDim: number) {
  return { inDim, outDim, weight: randomMatrix(seed, inDim, outDim), bias: randomMatrix(seed + 1, 1, outDim) };
}

const nets: [string, MaskScoringNet][] = [
  [
    'bag-of-words linear (binary)',
    { input: { kind: 'bag-of-words', vocabSize: 500, transform: 'binary' }, layers: [dense(1, 500, 3)] },
  ],
  [
    'bag-of-words MLP (log1p)',
    {
      input: { kind: 'bag-of-words', vocabSize: 800, transform: 'log1p' },
      layers: [dense(3, 800, 32), dense(5, 32, 2)],
    },
  ],
  [
    'mean-embedding MLP',
    {
      input: { kind: 'mean-embedding', vocabSize: 300, dim: 24, embeddings: randomMatrix(7, 300, 24) },
      layers: [dense(9, 24, 16), dense(11, 16, 8), dense(13, 8, 4)],
    },
  ],
];

function masksFor(seed: number, rows: number, tokens: number): Uint8Array {
  const r = rng(seed);
  const m = new Uint8Array(rows * tokens);
  for (let i = 0; i < m.length; i++) m[i] = r.float() < 0.5 ? 1 : 0;
  m.fill(1, 0, tokens); // the whole text
  m.fill(0, tokens, 2 * tokens); // nothing kept
  return m;
}

describe.skipIf(!hasNative)('native scoreMasks equals the TS twin', () => {
  it.each(nets)('%s', (_name, net) => {
    useBackend('cpu');
    const r = rng(17);
    const tokens = 40;
    // Repeated words and unknown tokens (−1), as a tokenised text has.
    const ids = Int32Array.from({ length: tokens }, (_, t) =>
      t % 9 === 4 ? -1 : r.int(Math.min(60, net.input.vocabSize)),
    );
    const masks = masksFor(19, 333, tokens);
    expectClose(scoreMasks(net, ids, masks, 333), scoreMasksTs(net, ids, masks, 333), 1e-4, 1e-7, 'probabilities');
  });
});

describe.each(['ts', 'cpu'] as const)('scoreMasks (%s backend)', (b) => {
  it.skipIf(b === 'cpu' && !hasNative)('returns probabilities and rejects bad input', () => {
    useBackend(b);
    const net = nets[1][1];
    const ids = Int32Array.from([1, 2, 2, -1]);
    const p = scoreMasks(net, ids, masksFor(1, 5, 4), 5);
    for (let i = 0; i < 5; i++) expect(p[2 * i] + p[2 * i + 1]).toBeCloseTo(1, 6);
    expect(scoreMasks(net, ids, new Uint8Array(0), 0).length).toBe(0);
    const bad = (f: () => unknown, argument: string) => {
      try {
        f();
      } catch (e) {
        expect(e).toBeInstanceOf(XtrustError);
        expect((e as XtrustError).details.argument).toBe(argument);
        return;
      }
      expect.fail(`no error for ${argument}`);
    };
    bad(() => scoreMasks(net, ids, new Uint8Array(7), 2), 'masks');
    bad(() => scoreMasks(net, Int32Array.from([1, 800]), new Uint8Array(2), 1), 'tokenIds');
    bad(() => scoreMasks(net, [1, 2] as unknown as Int32Array, new Uint8Array(2), 1), 'tokenIds');
  });
});
