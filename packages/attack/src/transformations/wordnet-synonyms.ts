import { wordnet, type WordNet } from '@xtrust/embeddings';
import { isSingleToken, type AttackedText } from '../text.js';
import type { Transformation } from './types.js';

/** WordNet synonyms (the other single-word lemmas of the word's synsets; Miller 1995), at most `maxCandidates`. */
export function wordNetSynonyms(options: { maxCandidates?: number; wordnet?: WordNet } = {}): Transformation {
  const k = options.maxCandidates ?? 20;
  const wn = options.wordnet ?? wordnet();
  return {
    name: 'wordnet-synonyms',
    params: { maxCandidates: k },
    async candidates(text: AttackedText, indices: readonly number[]) {
      return indices.map((i) => {
        const w = text.word(i).toLowerCase();
        if (!/^\p{L}+$/u.test(w)) return [];
        return wn.synonyms(w).filter(isSingleToken).slice(0, k);
      });
    },
  };
}
