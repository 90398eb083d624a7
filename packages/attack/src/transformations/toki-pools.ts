import { XtrustError, type WordEmbedding } from '@xtrust/core';
import { WordNeighbours } from '../neighbours.js';
import type { KeywordStore } from '@xtrust/oracle';
import { isSingleToken, type AttackedText } from '../text.js';
import type { TransformContext, Transformation } from './types.js';

export interface TokiPoolOptions {
  /** Candidates kept per word. Default 20 (as A2T's neighbours). */
  maxCandidates?: number;
  /** Similar words considered before ordering by importance. Default 50. */
  neighbours?: number;
  /** "Similar": cosine ≥ this in `embedding`. Default 0.5. */
  minCos?: number;
}

/**
 * The candidates of the TOKI-guided attack (000 §4): a word related to the predicted class c (Eq. 5: its
 * nearest word in the pool W_c is a keyword) is replaced by a similar keyword of c with a low averaged
 * importance s̄_w; an unrelated word by a similar non-keyword of another class with a high s̄_w — weakening
 * valid correlations and strengthening spurious ones. Word pools, keywords and s̄_w come from a saved
 * KeywordStore; similarity is cosine in `embedding`. Similar words are the `neighbours` nearest pool words
 * with cosine ≥ `minCos`, ordered by importance (ascending for keywords, descending for non-keywords).
 */
export function tokiPools(
  store: KeywordStore,
  embedding: WordEmbedding,
  options: TokiPoolOptions = {},
): Transformation {
  const k = options.maxCandidates ?? 20;
  const neighbours = options.neighbours ?? 50;
  const minCos = options.minCos ?? 0.5;
  if (!Number.isInteger(k) || k < 1)
    throw new XtrustError('INVALID_ARGUMENT', `tokiPools: maxCandidates must be a positive integer, got ${k}`);
  const cache = new Map<
    string,
    Promise<{
      pool: WordNeighbours;
      keywords: WordNeighbours;
      others: WordNeighbours;
      importance: Map<string, number>;
      otherImportance: Map<string, number>;
    }>
  >();
  const prepare = (label: string) => {
    let p = cache.get(label);
    if (!p) {
      p = (async () => {
        const importance = new Map(store.pool(label).map((w) => [w.word, w.importance]));
        const otherImportance = new Map<string, number>();
        for (const l of store.labels) {
          if (l === label || !store.hasPool(l)) continue;
          const pool = new Map(store.pool(l).map((w) => [w.word, w.importance]));
          for (const w of store.nonKeywords(l))
            otherImportance.set(w, Math.max(otherImportance.get(w) ?? -Infinity, pool.get(w)!));
        }
        const [pool, keywords, others] = await Promise.all([
          WordNeighbours.build(embedding, [...importance.keys()]),
          WordNeighbours.build(embedding, store.keywords(label)),
          WordNeighbours.build(embedding, [...otherImportance.keys()]),
        ]);
        return { pool, keywords, others, importance, otherImportance };
      })();
      cache.set(label, p);
    }
    return p;
  };
  return {
    name: 'toki-word-pools',
    params: { embedding: embedding.name, maxCandidates: k, neighbours, minCos, fingerprint: store.fingerprint },
    async candidates(text: AttackedText, indices: readonly number[], ctx: TransformContext) {
      const label = ctx.labels[ctx.label];
      if (!store.hasPool(label)) return indices.map(() => []);
      const p = await prepare(label);
      const words = indices.map((i) => text.word(i).toLowerCase());
      const known = words.map((w) => embedding.has(w));
      const q = words.filter((_, n) => known[n]);
      if (q.length === 0) return indices.map(() => []);
      const nearestInPool = p.pool.size > 0 ? await p.pool.query(q, 1, { includeSelf: true }) : q.map(() => []);
      const kwN = p.keywords.size > 0 ? await p.keywords.query(q, neighbours) : q.map(() => []);
      const otN = p.others.size > 0 ? await p.others.query(q, neighbours) : q.map(() => []);
      let j = 0;
      return words.map((w, n) => {
        if (!known[n]) return [];
        const m = j++;
        const nearest = nearestInPool[m][0]?.word;
        const related = nearest !== undefined && store.isKeyword(label, nearest);
        const pick = (related ? kwN[m] : otN[m]).filter(
          (x) => x.score >= minCos && isSingleToken(x.word) && x.word !== w,
        );
        const imp = related ? p.importance : p.otherImportance;
        pick.sort(
          (a, b) =>
            (related ? imp.get(a.word)! - imp.get(b.word)! : imp.get(b.word)! - imp.get(a.word)!) || b.score - a.score,
        );
        return pick.slice(0, k).map((x) => x.word);
      });
    },
  };
}
