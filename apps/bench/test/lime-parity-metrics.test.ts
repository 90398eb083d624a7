// Agreement of two word-weight explanations (src/lime-parity/metrics.ts), by hand.
import { describe, expect, it } from 'vitest';
import { mean, sharedWordPearson, topKJaccard } from '../src/lime-parity/metrics.js';

describe('topKJaccard', () => {
  it('compares the top k words by |weight|', () => {
    const a = [
      ['x', 0.1],
      ['y', -0.9],
      ['z', 0.5],
    ] as const;
    const b = [
      ['y', 0.2],
      ['w', 0.8],
      ['x', 0.05],
    ] as const;
    // top 2: {y, z} and {w, y}: 1 common of 3
    expect(topKJaccard(a, b, 2)).toBeCloseTo(1 / 3, 15);
    // all three: {x, y, z} and {w, x, y}: 2 of 4
    expect(topKJaccard(a, b, 10)).toBe(0.5);
    expect(topKJaccard([], [], 10)).toBe(1);
    expect(topKJaccard(a, [], 10)).toBe(0);
  });
});

describe('sharedWordPearson', () => {
  it('correlates the weights of the shared words, paired by word', () => {
    // shared a, b, c: (1, 2, 3) against (2, 4, 7): means 2 and 13/3; sxy = 5, sxx = 2, syy = 38/3 → 5 / √(76/3)
    const a = [
      ['a', 1],
      ['b', 2],
      ['c', 3],
      ['only-a', 9],
    ] as const;
    const b = [
      ['c', 7],
      ['a', 2],
      ['b', 4],
      ['only-b', -1],
    ] as const;
    expect(sharedWordPearson(a, b)).toBeCloseTo(5 / Math.sqrt(76 / 3), 12);
    expect(
      sharedWordPearson(a, [
        ['a', 3],
        ['b', 2],
        ['c', 1],
      ]),
    ).toBeCloseTo(-1, 12);
  });

  it('is NaN with fewer than 2 shared words or constant weights on one side', () => {
    expect(
      sharedWordPearson(
        [
          ['a', 1],
          ['b', 2],
        ],
        [['a', 1]],
      ),
    ).toBeNaN();
    expect(
      sharedWordPearson(
        [
          ['a', 1],
          ['b', 1],
        ],
        [
          ['a', 1],
          ['b', 2],
        ],
      ),
    ).toBeNaN();
    expect(
      sharedWordPearson(
        [
          ['a', 1],
          ['b', 2],
        ],
        [
          ['a', 5],
          ['b', 5],
        ],
      ),
    ).toBeNaN();
  });
});

describe('mean', () => {
  it('averages the finite values only', () => {
    expect(mean([1, Number.NaN, 3])).toBe(2);
    expect(mean([Number.NaN])).toBeNaN();
  });
});
