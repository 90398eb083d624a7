import { XtrustError, type WordEmbedding } from '@xtrust/core';
import type { Candidate } from '../text.js';
import type { CandidateConstraint } from './types.js';

/** Cosine similarity of two rows of a row-major matrix. */
function cosine(m: Float32Array, i: number, j: number, dim: number): number {
  let s = 0;
  let a = 0;
  let b = 0;
  for (let d = 0; d < dim; d++) {
    const x = m[i * dim + d];
    const y = m[j * dim + d];
    s += x * y;
    a += x * x;
    b += y * y;
  }
  return a === 0 || b === 0 ? 0 : s / Math.sqrt(a * b);
}

/**
 * The substitute must stay close to the original word: cosine ≥ `minCos` in a word embedding
 * (TextAttack's `WordEmbeddingDistance`; A2T uses 0.8 on counter-fitted vectors). A word the embedding
 * does not know fails, as in the reference. Compared with the word of the original text.
 */
export function wordEmbeddingDistance(
  embedding: WordEmbedding,
  options: { minCos?: number } = {},
): CandidateConstraint {
  const minCos = options.minCos ?? 0.8;
  if (!(minCos >= -1 && minCos <= 1))
    throw new XtrustError('INVALID_ARGUMENT', `wordEmbeddingDistance: minCos must be in [-1, 1], got ${minCos}`, {
      argument: 'minCos',
    });
  return {
    kind: 'candidate',
    name: 'word-embedding-distance',
    params: { embedding: embedding.name, minCos },
    async check(candidates: readonly Candidate[], _current, original) {
      const words: string[] = [];
      const at = new Map<string, number>();
      const id = (w: string) => {
        const l = w.toLowerCase();
        if (!embedding.has(l)) return -1;
        let k = at.get(l);
        if (k === undefined) {
          k = words.length;
          at.set(l, k);
          words.push(l);
        }
        return k;
      };
      const pairs = candidates.map((c) => [id(original.word(c.index)), id(c.to)] as const);
      const m = words.length > 0 ? await embedding.vectors(words) : new Float32Array(0);
      return pairs.map(([a, b]) => a >= 0 && b >= 0 && cosine(m, a, b, embedding.dim) >= minCos);
    },
  };
}
