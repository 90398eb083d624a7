import { describe, expect, it } from 'vitest';
import { isXtrustError, type WordEmbedding } from '@xtrust/core';
import { classNameRelevance, dcg, ndcgAtK, ndcgAtKs } from '../src/index.js';

const rel = new Map([
  ['a', 1],
  ['b', 0.5],
  ['c', 0],
  ['d', -0.5],
]);
const text = ['a', 'b', 'c', 'd'];
const L3 = Math.log2(3);

function fakeEmbedding(table: Record<string, number[]>): WordEmbedding {
  return {
    name: 'fake',
    dim: 2,
    has: (w) => w in table,
    vectors: async (ws) => Float32Array.from(ws.flatMap((w) => table[w])),
  };
}

describe('NDCG@k against the class name (003 §4)', () => {
  it('DCG with D(j) = 1 / log2(1 + j)', () => {
    expect(dcg([1, 1, 1], 3)).toBeCloseTo(1 + 1 / L3 + 0.5, 12);
    expect(dcg([1], 5)).toBe(1);
  });
  it('an explanation in ideal order scores 1', () => {
    expect(ndcgAtK(['a', 'b', 'c'], text, rel, 3)).toBeCloseTo(1, 12);
  });
  it('hand-computed values', () => {
    // [c, a]: 0 + 1/log2(3); ideal [a, b]: 1 + 0.5/log2(3)
    expect(ndcgAtK(['c', 'a'], text, rel, 2)).toBeCloseTo(1 / L3 / (1 + 0.5 / L3), 12);
    // k larger than the explanation: missing ranks gain 0
    expect(ndcgAtK(['a'], text, rel, 3)).toBeCloseTo(1 / (1 + 0.5 / L3), 12);
    expect(ndcgAtK([], text, rel, 3)).toBe(0);
  });
  it('clips negative cosines to 0 by default, keeps them on request', () => {
    expect(ndcgAtK(['d', 'a'], text, rel, 2)).toBeCloseTo(1 / L3 / (1 + 0.5 / L3), 12);
    expect(ndcgAtK(['d', 'a'], text, rel, 2, { negative: 'keep' })).toBeCloseTo((-0.5 + 1 / L3) / (1 + 0.5 / L3), 12);
  });
  it('the unique-word variant removes repeats; without it the ideal keeps the text\u2019s repeats', () => {
    const t = ['a', 'a', 'b', 'c'];
    expect(ndcgAtK(['a', 'a', 'b'], t, rel, 2)).toBeCloseTo(1, 12); // ideal [a, a]
    expect(ndcgAtK(['a', 'b', 'a'], t, rel, 3)).toBeCloseTo((1 + 0.5 / L3 + 0.5) / (1 + 1 / L3 + 0.25), 12);
    expect(ndcgAtK(['a', 'a', 'b'], t, rel, 2, { unique: true })).toBeCloseTo(1, 12); // [a, b] vs ideal [a, b]
    expect(ndcgAtK(['b', 'b', 'a'], t, rel, 2, { unique: true })).toBeCloseTo((0.5 + 1 / L3) / (1 + 0.5 / L3), 12);
  });
  it('an explanation word missing from the text joins the ideal pool, so NDCG never exceeds 1', () => {
    const r = new Map([...rel, ['z', 2]]);
    expect(ndcgAtK(['z'], text, r, 1)).toBe(1);
    expect(ndcgAtK(['a', 'z'], text, r, 1)).toBe(0.5); // z (beyond k) still joins the ideal pool
    expect(ndcgAtK(['a'], text, r, 1)).toBe(1);
  });
  it('no relevant word in the text gives 0, not NaN', () => {
    expect(ndcgAtK(['c'], ['c', 'd'], rel, 2)).toBe(0);
  });
  it('reports NDCG@1, 3, 5, 10 by default', () => {
    const r = ndcgAtKs(['b', 'a'], text, rel);
    expect(Object.keys(r)).toEqual(['1', '3', '5', '10']);
    expect(r[1]).toBe(0.5);
    expect(r[10]).toBeCloseTo((0.5 + 1 / L3) / (1 + 0.5 / L3), 12);
  });
  it('validates inputs', () => {
    const bad = [
      () => ndcgAtK(['a'], text, rel, 0),
      () => ndcgAtK(['x'], text, rel, 1), // no relevance for x
      () => ndcgAtK(['a'], text, () => Number.NaN, 1),
      () => ndcgAtK(['a'], text, rel, 1, { negative: 'abs' as never }),
      () => ndcgAtKs(['a'], text, rel, []),
    ];
    for (const f of bad) {
      let caught: unknown;
      try {
        f();
      } catch (e) {
        caught = e;
      }
      expect(isXtrustError(caught, 'INVALID_ARGUMENT')).toBe(true);
    }
  });
});

describe('classNameRelevance', () => {
  const emb = fakeEmbedding({
    machine: [1, 0],
    learning: [0, 1],
    ball: [1, 1],
    maine: [0, 3],
    zero: [0, 0],
    baseball: [2, 0],
  });
  it('averages a multi-word class name and returns cosines; unknown words get 0', async () => {
    const r = await classNameRelevance(emb, 'Machine learning', ['ball', 'maine', 'unknown', 'zero', 'ball']);
    expect(r.get('ball')).toBeCloseTo(1, 6);
    expect(r.get('maine')).toBeCloseTo(Math.SQRT1_2, 6);
    expect(r.get('unknown')).toBe(0);
    expect(r.get('zero')).toBe(0);
    expect(r.size).toBe(4);
  });
  it('feeds ndcgAtK end to end', async () => {
    const words = ['maine', 'ball', 'baseball'];
    const r = await classNameRelevance(emb, ['baseball'], words);
    expect(ndcgAtK(['baseball', 'ball'], words, r, 2)).toBeCloseTo(1, 6);
    expect(ndcgAtK(['maine', 'ball'], words, r, 2)).toBeCloseTo(Math.SQRT1_2 / L3 / (1 + Math.SQRT1_2 / L3), 6);
  });
  it('throws NO_KNOWN_WORDS for a class name the embedding does not know', async () => {
    await expect(classNameRelevance(emb, 'cricket bat', ['ball'])).rejects.toSatisfy((e) =>
      isXtrustError(e, 'NO_KNOWN_WORDS'),
    );
  });
});
