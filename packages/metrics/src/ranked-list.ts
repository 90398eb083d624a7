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
        throw invalidDetail(name, `a list without repeated words (or options.duplicates = 'dedupe')`, `"${w}" at ranks ${first + 1} and ${i + 1}`);
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
 * The words of an explanation, most important first (by |weight|, ties kept in the given order),
 * optionally only the top k. This is the ranked list A or B of the synonymity papers.
 */
export function rankedWords(explanation: Pick<Explanation, 'features'>, k?: number): string[] {
  if (!explanation || !Array.isArray(explanation.features)) throw invalid('explanation.features', 'an array of {word, weight}', explanation?.features);
  const limit = k === undefined ? Infinity : checkPositiveInt('k', k);
  const order = explanation.features.map((f, i) => {
    if (typeof f?.word !== 'string' || typeof f.weight !== 'number' || Number.isNaN(f.weight)) {
      throw invalid(`explanation.features[${i}]`, 'a {word: string, weight: number}', f);
    }
    return { word: f.word, abs: Math.abs(f.weight), i };
  });
  order.sort((x, y) => y.abs - x.abs || x.i - y.i);
  return order.slice(0, Math.min(limit, order.length)).map((f) => f.word);
}
