import { describe, expect, it } from 'vitest';
import { counterFit, rowNorms, wordNetConstraints, type VectorTable } from '../src/index.js';
import { rng } from '@xtrust/core';

function table(words: string[], dim: number, seed: number): VectorTable {
  const r = rng(seed);
  const matrix = Float32Array.from({ length: words.length * dim }, () => r.normal());
  return { words, dim, matrix, norms: rowNorms(matrix, dim) };
}
const cos = (t: VectorTable, i: number, j: number) => {
  let s = 0;
  for (let d = 0; d < t.dim; d++) s += t.matrix[i * t.dim + d] * t.matrix[j * t.dim + d];
  return s / (t.norms[i] * t.norms[j]);
};

describe('counter-fitting (Mrkšić et al. 2016)', () => {
  it('pulls synonyms together, pushes antonyms apart, leaves unconstrained words in place', () => {
    const words = ['cheap', 'inexpensive', 'expensive', 'frog', 'toad', 'lonely'];
    const t = table(words, 16, 7);
    // make "cheap" and "expensive" close, as distributional vectors are
    for (let d = 0; d < 16; d++) t.matrix[2 * 16 + d] = t.matrix[d] + 0.3 * t.matrix[2 * 16 + d];
    const base = { ...t, norms: rowNorms(t.matrix, 16) };
    const { table: out, stats } = counterFit(base, {
      synonyms: Int32Array.from([0, 1]),
      antonyms: Int32Array.from([0, 2]),
    });
    expect(cos(out, 0, 1)).toBeGreaterThan(cos(base, 0, 1) + 0.3);
    expect(cos(out, 0, 2)).toBeLessThan(cos(base, 0, 2) - 0.2);
    // VSP holds "expensive" near its original neighbour "cheap"; without it (k3 = 0) the antonym
    // repulsion (δ = 1) drives the pair to orthogonal or beyond
    const free = counterFit(
      base,
      { synonyms: Int32Array.from([0, 1]), antonyms: Int32Array.from([0, 2]) },
      { k3: 0, epochs: 40 },
    );
    expect(cos(free.table, 0, 2)).toBeLessThan(0.05);
    expect(stats).toMatchObject({
      synonymPairs: 1,
      antonymPairs: 1,
      movedWords: 3,
      synonymsCloser: 1,
      antonymsApart: 1,
    });
    // frog, toad, lonely do not move (only unit-normalised)
    for (const i of [3, 4, 5])
      for (let d = 0; d < 16; d++)
        expect(out.matrix[i * 16 + d]).toBeCloseTo(base.matrix[i * 16 + d] / base.norms[i], 6);
    for (let i = 0; i < words.length; i++) expect(out.norms[i]).toBeCloseTo(1, 5);
  });

  it('preserves the original neighbourhood of moved words (VSP term)', () => {
    const t = table(['a', 'b', 'n', 'x'], 8, 3);
    // n is a near-duplicate of a (within ρ = 0.2), b is unrelated
    for (let d = 0; d < 8; d++) t.matrix[2 * 8 + d] = t.matrix[d] + 0.05 * t.matrix[2 * 8 + d];
    const base = { ...t, norms: rowNorms(t.matrix, 8) };
    const withVsp = counterFit(base, { synonyms: Int32Array.from([0, 1]), antonyms: new Int32Array(0) });
    const without = counterFit(base, { synonyms: Int32Array.from([0, 1]), antonyms: new Int32Array(0) }, { k3: 0 });
    expect(withVsp.stats.vspPairs).toBeGreaterThan(0);
    expect(without.stats.vspPairs).toBe(0);
    expect(cos(withVsp.table, 0, 2)).toBeGreaterThan(cos(without.table, 0, 2));
  });

  it('derives WordNet constraints inside a vocabulary', () => {
    const words = ['good', 'bad', 'car', 'automobile', 'auto', 'hot', 'cold', 'frog'];
    const c = wordNetConstraints(words);
    const pairs = (a: Int32Array) =>
      Array.from({ length: a.length / 2 }, (_, k) => `${words[a[2 * k]]}-${words[a[2 * k + 1]]}`);
    expect(pairs(c.synonyms)).toEqual(expect.arrayContaining(['car-automobile', 'car-auto', 'automobile-auto']));
    expect(pairs(c.antonyms)).toEqual(expect.arrayContaining(['good-bad', 'hot-cold']));
    expect(pairs(c.synonyms).some((p) => p.includes('frog'))).toBe(false);
  });

  it('rejects constraints outside the vocabulary', () => {
    const t = table(['a', 'b'], 4, 1);
    expect(() => counterFit(t, { synonyms: Int32Array.from([0, 5]), antonyms: new Int32Array(0) })).toThrow(
      /outside the vocabulary/,
    );
  });
});
