import { XtrustError, type SentenceEncoder, type WordEmbedding } from '@xtrust/core';
import { WordNeighbours } from '../neighbours.js';
import type { MaskedWordModel } from '../mlm.js';
import { isSingleToken, type AttackedText } from '../text.js';
import type { Transformation } from './types.js';

function separators(text: AttackedText): string[] {
  const out: string[] = [];
  let last = 0;
  for (const t of text.tokens) {
    out.push(text.text.slice(last, t.start));
    last = t.end;
  }
  out.push(text.text.slice(last));
  return out;
}

/**
 * Masked-language-model candidates with batch masking (CEA, 002 §4.3): every position of the block is
 * masked at once in the current adversarial text and the model is queried once for all of them;
 * |C| = `candidates` (15 in the paper) whole-word fillers per position.
 */
export function maskedLmCandidates(model: MaskedWordModel, options: { candidates?: number } = {}): Transformation {
  const n = options.candidates ?? 15;
  if (!Number.isInteger(n) || n < 1)
    throw new XtrustError('INVALID_ARGUMENT', `maskedLmCandidates: candidates must be a positive integer, got ${n}`);
  return {
    name: 'masked-lm',
    params: { model: model.name, candidates: n },
    async candidates(text, indices) {
      if (indices.length === 0) return [];
      return model.fill(text.words, separators(text), indices, n);
    },
  };
}

export interface ContextRerankedOptions {
  /** |C|: candidates kept per position. Default 15. */
  candidates?: number;
  /** Embedding neighbours considered before re-ranking. Default 40. */
  neighbours?: number;
  /** Search only these words (default: the embedding's vocabulary). */
  vocabulary?: readonly string[];
}

/**
 * The offline context-aware substitute for CEA's MLM — NOT a masked language model: the `neighbours`
 * nearest words of each position in a word embedding, each put into the current text, re-ranked by the
 * sentence-encoder cosine between that text and the current text, the best `candidates` kept. Context enters
 * through the sentence encoder; a block's positions are encoded in one call. Results made with it are
 * labelled `cea-context` (candidate source `context-reranked-neighbours`), never CEA-with-MLM.
 */
export function contextRerankedNeighbours(
  embedding: WordEmbedding,
  encoder: SentenceEncoder,
  options: ContextRerankedOptions = {},
): Transformation {
  const n = options.candidates ?? 15;
  const pool = options.neighbours ?? 40;
  let index: Promise<WordNeighbours> | undefined;
  return {
    name: 'context-reranked-neighbours',
    params: { embedding: embedding.name, encoder: encoder.name, candidates: n, neighbours: pool },
    async candidates(text, indices) {
      index ??= WordNeighbours.build(embedding, options.vocabulary);
      const idx = await index;
      const words = indices.map((i) => text.word(i).toLowerCase());
      const known = words.map((w) => embedding.has(w));
      const q = words.filter((_, j) => known[j]);
      const nn = q.length > 0 ? await idx.query(q, pool) : [];
      const lists: string[][] = [];
      let j = 0;
      for (let p = 0; p < indices.length; p++)
        lists.push(known[p] ? nn[j++].map((x) => x.word).filter(isSingleToken) : []);
      const texts = [text.text];
      const owner: [number, string][] = [];
      lists.forEach((l, p) => {
        for (const w of l) {
          texts.push(text.replaceWord(indices[p], w).text);
          owner.push([p, w]);
        }
      });
      if (owner.length === 0) return lists;
      const e = await encoder.encode(texts);
      const dim = encoder.dim;
      const cos = (i: number) => {
        let s = 0;
        let a = 0;
        let b = 0;
        for (let d = 0; d < dim; d++) {
          s += e[d] * e[i * dim + d];
          a += e[d] * e[d];
          b += e[i * dim + d] * e[i * dim + d];
        }
        return a === 0 || b === 0 ? 0 : s / Math.sqrt(a * b);
      };
      const scored: { w: string; s: number }[][] = indices.map(() => []);
      owner.forEach(([p, w], r) => scored[p].push({ w, s: cos(r + 1) }));
      return scored.map((l) =>
        l
          .sort((a, b) => b.s - a.s)
          .slice(0, n)
          .map((x) => x.w),
      );
    },
  };
}
