import type { PosQuery, PosTagger } from '../pos.js';
import type { Candidate } from '../text.js';
import type { CandidateConstraint } from './types.js';

export interface PartOfSpeechOptions {
  /** Accept a noun for a verb and vice versa. Default false (A2T). */
  allowVerbNounSwap?: boolean;
  /** Words of context on each side given to the tagger. Default 4 (TextAttack). */
  window?: number;
}

/**
 * Part-of-speech consistency in context: the substitute, tagged in the original word's context window,
 * must have the original word's tag (TextAttack's `PartOfSpeech`, compared against the original text;
 * A2T with allow_verb_noun_swap = false). With a context-free lexicon (WordNet fallback) the tag sets must
 * intersect; an original word the lexicon does not know imposes nothing. All tagging of one position is
 * one batch.
 */
export function partOfSpeech(tagger: PosTagger, options: PartOfSpeechOptions = {}): CandidateConstraint {
  const window = options.window ?? 4;
  const swap = options.allowVerbNounSwap ?? false;
  const compatible = (a: ReadonlySet<string>, b: ReadonlySet<string>) => {
    if (a.size === 0) return true;
    for (const t of a) {
      if (b.has(t)) return true;
      if (swap && (t === 'NOUN' || t === 'VERB') && (b.has('NOUN') || b.has('VERB'))) return true;
    }
    return false;
  };
  return {
    kind: 'candidate',
    name: 'part-of-speech',
    params: { tagger: tagger.name, allowVerbNounSwap: swap, window },
    async check(candidates: readonly Candidate[], _current, original) {
      if (candidates.length === 0) return [];
      const queries: PosQuery[] = [];
      const origAt = new Map<number, number>();
      const windowOf = (i: number, w: string) => {
        const lo = Math.max(0, i - window);
        const hi = Math.min(original.length, i + window);
        const words = original.words.slice(lo, hi);
        words[i - lo] = w;
        return { words, index: i - lo };
      };
      for (const c of candidates) {
        if (!origAt.has(c.index)) {
          origAt.set(c.index, queries.length);
          queries.push(windowOf(c.index, original.word(c.index)));
        }
      }
      const first = queries.length;
      for (const c of candidates) queries.push(windowOf(c.index, c.to));
      const tags = await tagger.tags(queries);
      return candidates.map((c, n) => compatible(tags[origAt.get(c.index)!], tags[first + n]));
    },
  };
}
