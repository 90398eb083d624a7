import { XtrustError, type SentenceEncoder } from '@xtrust/core';
import type { AttackedText, Candidate } from '../text.js';
import type { CandidateConstraint } from './types.js';

export interface SentenceEncoderOptions {
  /** Minimum cosine between the sentence encodings. Default 0.9 (A2T's SBERT threshold). */
  threshold?: number;
  /** Compare with the original text (default, as A2T) or with the current perturbed one. */
  compareAgainst?: 'original' | 'current';
  /** Encode only this many words on each side of the changed word (TextAttack's window); default the whole text. */
  window?: number;
}

function windowText(t: AttackedText, index: number, window: number | undefined): string {
  if (window === undefined) return t.text;
  const lo = Math.max(0, index - window);
  const hi = Math.min(t.length - 1, index + window);
  return t.text.slice(t.tokens[lo].start, t.tokens[hi].end);
}

/**
 * Semantic preservation: cos(E(s̃), E(s)) ≥ threshold under a sentence encoder (A2T's DistilBERT/SBERT
 * constraint, 000 Table 1; USE in TextFooler). The reference and all candidates of a position are encoded
 * in one call. The similarity is kept on each candidate (`similarity`) so that, among several successful
 * swaps, the search can return the most similar one, as TextAttack does.
 */
export function sentenceEncoderSimilarity(
  encoder: SentenceEncoder,
  options: SentenceEncoderOptions = {},
): CandidateConstraint {
  const threshold = options.threshold ?? 0.9;
  const against = options.compareAgainst ?? 'original';
  if (!(threshold >= -1 && threshold <= 1))
    throw new XtrustError(
      'INVALID_ARGUMENT',
      `sentenceEncoderSimilarity: threshold must be in [-1, 1], got ${threshold}`,
      { argument: 'threshold' },
    );
  return {
    kind: 'candidate',
    name: 'sentence-encoder-similarity',
    params: { encoder: encoder.name, threshold, compareAgainst: against, window: options.window ?? null },
    async check(candidates: readonly Candidate[], current, original) {
      if (candidates.length === 0) return [];
      const ref = against === 'original' ? original : current;
      const refs = new Map<string, number>();
      const texts: string[] = [];
      const refIndex = candidates.map((c) => {
        const r = windowText(ref, c.index, options.window);
        let k = refs.get(r);
        if (k === undefined) {
          k = texts.length;
          refs.set(r, k);
          texts.push(r);
        }
        return k;
      });
      const first = texts.length;
      for (const c of candidates) texts.push(windowText(c.text, c.index, options.window));
      const e = await encoder.encode(texts);
      const dim = encoder.dim;
      if (e.length !== texts.length * dim)
        throw new XtrustError(
          'BAD_MODEL_OUTPUT',
          `${encoder.name}: ${e.length} values for ${texts.length} texts × ${dim}`,
        );
      return candidates.map((c, n) => {
        const i = refIndex[n];
        const j = first + n;
        let s = 0;
        let a = 0;
        let b = 0;
        for (let d = 0; d < dim; d++) {
          const x = e[i * dim + d];
          const y = e[j * dim + d];
          s += x * y;
          a += x * x;
          b += y * y;
        }
        const cos = a === 0 || b === 0 ? 0 : s / Math.sqrt(a * b);
        c.similarity = cos;
        return cos >= threshold;
      });
    },
  };
}
