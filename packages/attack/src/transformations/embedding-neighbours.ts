import { XtrustError, type WordEmbedding } from '@xtrust/core';
import { WordNeighbours } from '../neighbours.js';
import { isSingleToken, type AttackedText } from '../text.js';
import type { Transformation } from './types.js';

export interface EmbeddingNeighboursOptions {
  /** Neighbours per word. Default 20 (A2T's `WordSwapEmbedding(max_candidates=20)`). */
  maxCandidates?: number;
  /** Drop neighbours below this cosine (the constraint `wordEmbeddingDistance` is the usual place). Default none. */
  minCos?: number;
  /** Search only these words (default: the embedding's whole vocabulary, for a static embedding). */
  vocabulary?: readonly string[];
}

/**
 * Nearest neighbours in a word embedding — with counter-fitted GloVe (Mrkšić et al. 2016) the synonym
 * source of A2T (Yoo & Qi 2021) and of TEF (Ivankay et al. 2022). All queried positions go through one
 * batched top-k search (@xtrust/native). Words the embedding lacks get no candidates.
 */
export function embeddingNeighbours(
  embedding: WordEmbedding,
  options: EmbeddingNeighboursOptions = {},
): Transformation {
  const k = options.maxCandidates ?? 20;
  if (!Number.isInteger(k) || k < 1)
    throw new XtrustError(
      'INVALID_ARGUMENT',
      `embeddingNeighbours: maxCandidates must be a positive integer, got ${k}`,
      { argument: 'maxCandidates' },
    );
  let index: Promise<WordNeighbours> | undefined;
  const words = (text: AttackedText, indices: readonly number[]) =>
    indices.map((i) => text.word(i).toLowerCase()).filter((w) => embedding.has(w));
  return {
    async prepare(text, indices) {
      index ??= WordNeighbours.build(embedding, options.vocabulary);
      const w = words(text, indices);
      if (w.length > 0) await (await index).query(w, k + 5);
    },
    name: 'embedding-neighbours',
    params: { embedding: embedding.name, maxCandidates: k, minCos: options.minCos ?? null },
    async candidates(text: AttackedText, indices: readonly number[]) {
      index ??= WordNeighbours.build(embedding, options.vocabulary);
      const idx = await index;
      const queries: string[] = [];
      const slot = indices.map((i) => {
        const w = text.word(i).toLowerCase();
        if (!embedding.has(w)) return -1;
        queries.push(w);
        return queries.length - 1;
      });
      const res = queries.length > 0 ? await idx.query(queries, k + 5) : [];
      return slot.map((s) => {
        if (s < 0) return [];
        const out: string[] = [];
        for (const n of res[s]) {
          if (out.length >= k) break;
          if (options.minCos !== undefined && n.score < options.minCos) continue;
          if (isSingleToken(n.word)) out.push(n.word);
        }
        return out;
      });
    },
  };
}
