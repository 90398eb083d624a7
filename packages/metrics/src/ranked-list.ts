import type { Explanation } from '@xtrust/core';
import { checkPositiveInt, checkStringArray, invalid, invalidDetail } from './validate.js';

/** A ranked list of words, most important first (an explanation's words by |weight|). */
export type RankedList = readonly string[];

/** Options shared by every ranked-list measure. */
export interface ListOptions {
  /**
   * Compare only the top k of each list (both are cut to k before anything else). Default: the whole
   * lists. A k larger than a list keeps all of that list; it never pads.
   */
  k?: number;
  /**
   * A word that occurs twice in one list: 'reject' (default) throws INVALID_ARGUMENT naming the list and
   * the word; 'dedupe' keeps its first (highest-ranked) occurrence and closes the gap. Deduping happens
   * before the cut to k, so k counts distinct words.
   */
  duplicates?: 'reject' | 'dedupe';
}

/** The two lists after validation, de-duplication and the cut to k, with each word's 0-based rank. */
export interface PreparedLists {
  readonly a: readonly string[];
  readonly b: readonly string[];
  readonly rankA: ReadonlyMap<string, number>;
  readonly rankB: ReadonlyMap<string, number>;
}

function prepareOne(name: string, list: unknown, options: ListOptions): { words: string[]; rank: Map<string, number> } {
  const words = checkStringArray(name, list);
  const mode = options.duplicates ?? 'reject';
  if (mode !== 'reject' && mode !== 'dedupe') throw invalid('options.duplicates', "'reject' or 'dedupe'", mode);
  const limit = options.k === undefined ? Infinity : checkPositiveInt('options.k', options.k);
  const out: string[] = [];
  const rank = new Map<string, number>();
  const seen = new Map<string, number>(); // word -> index of its first occurrence in the input
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    const first = seen.get(w);
    if (first !== undefined) {
      if (mode === 'reject') {
        throw invalidDetail(
          name,
          `a list without repeated words (or options.duplicates = 'dedupe')`,
          `"${w}" at ranks ${first + 1} and ${i + 1}`,
        );
      }
      continue;
    }
    seen.set(w, i);
    if (out.length < limit) {
      rank.set(w, out.length);
      out.push(w);
    } else if (mode === 'dedupe') {
      break; // words past k cannot matter once duplicates are tolerated
    }
  }
  return { words: out, rank };
}

/** Validates two ranked lists, applies `duplicates` and `k`, and indexes their ranks. */
export function prepareLists(a: RankedList, b: RankedList, options: ListOptions = {}): PreparedLists {
  const pa = prepareOne('a (original list)', a, options);
  const pb = prepareOne('b (perturbed list)', b, options);
  return { a: pa.words, b: pb.words, rankA: pa.rank, rankB: pb.rank };
}

/**
 * The words of an explanation, most important first, optionally only the top k.
 * - order 'magnitude' (default): by |weight| — the ranked lists A and B of the synonymity papers
 *   (001 §2: LIME's features ordered by importance) and core's `Explanation.features` order.
 * - order 'positive': only words with weight > 0, by weight — "the words that have made the most
 *   positive contribution" that NDCG against the class name scores (003 §1, §4).
 * Ties keep the given order.
 */
export function rankedWords(
  explanation: Pick<Explanation, 'features'>,
  k?: number,
  order: 'magnitude' | 'positive' = 'magnitude',
): string[] {
  if (!explanation || !Array.isArray(explanation.features))
    throw invalid('explanation.features', 'an array of {word, weight}', explanation?.features);
  if (order !== 'magnitude' && order !== 'positive') throw invalid('order', "'magnitude' or 'positive'", order);
  const limit = k === undefined ? Infinity : checkPositiveInt('k', k);
  const ranked = explanation.features.map((f, i) => {
    if (typeof f?.word !== 'string' || typeof f.weight !== 'number' || Number.isNaN(f.weight)) {
      throw invalid(`explanation.features[${i}]`, 'a {word: string, weight: number}', f);
    }
    return { word: f.word, key: order === 'magnitude' ? Math.abs(f.weight) : f.weight, i };
  });
  const kept = order === 'positive' ? ranked.filter((f) => f.key > 0) : ranked;
  kept.sort((x, y) => y.key - x.key || x.i - y.i);
  return kept.slice(0, Math.min(limit, kept.length)).map((f) => f.word);
}
