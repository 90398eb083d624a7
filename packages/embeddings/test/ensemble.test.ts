import { describe, expect, it } from 'vitest';
import { EmbeddingEnsemble, StaticEmbedding, pluralityVote, rowNorms } from '../src/index.js';

function emb(name: string, vectors: Record<string, number[]>): StaticEmbedding {
  const words = Object.keys(vectors);
  const dim = vectors[words[0]].length;
  const matrix = Float32Array.from(words.flatMap((w) => vectors[w]));
  return new StaticEmbedding(name, { words, dim, matrix, norms: rowNorms(matrix, dim) });
}

describe('EmbeddingEnsemble', () => {
  const a = emb('a', { cat: [1, 0], dog: [1, 1], car: [0, 1] });
  const b = emb('b', { cat: [1, 0, 0], dog: [0, 1, 0] });
  const ens = new EmbeddingEnsemble([a, b]);

  it('labels per-member similarity matrices and marks missing words as NaN', async () => {
    const [ma, mb] = await ens.similarities(['cat', 'car'], ['dog', 'cat']);
    expect(ma.name).toBe('a');
    expect(ma.matrix[0]).toBeCloseTo(Math.SQRT1_2, 6);
    expect(ma.matrix[1]).toBeCloseTo(1, 6);
    expect(ma.matrix[2]).toBeCloseTo(Math.SQRT1_2, 6);
    expect(ma.matrix[3]).toBeCloseTo(0, 6);
    expect(mb.matrix[0]).toBeCloseTo(0, 6);
    expect(mb.matrix[1]).toBeCloseTo(1, 6);
    expect(Number.isNaN(mb.matrix[2])).toBe(true); // "car" is unknown to b
    expect(Number.isNaN(mb.matrix[3])).toBe(true);
    expect([...mb.knownA]).toEqual([1, 0]);
    expect(ens.coverage(['car']).map((c) => c.known[0])).toEqual([1, 0]);
  });

  it('rejects duplicate names and finds members by name', () => {
    expect(() => new EmbeddingEnsemble([a, a])).toThrow(/two members are named "a"/);
    expect(() => new EmbeddingEnsemble([])).toThrow(/at least one/);
    expect(ens.get('b')).toBe(b);
    expect(() => ens.get('c')).toThrow(/no member "c"/);
    expect(ens.names).toEqual(['a', 'b']);
  });

  it('votes by plurality with deterministic ties and abstentions', () => {
    expect(pluralityVote(['t', 'u', 'u'])).toBe('u');
    expect(pluralityVote(['u', 't', 't', 'u'])).toBe('u'); // tie: first seen wins
    expect(pluralityVote(['t', 'u', 'u', 't'])).toBe('t');
    expect(pluralityVote([undefined, 't', undefined])).toBe('t');
    expect(pluralityVote([undefined, undefined])).toBeUndefined();
  });
});
