import { prepareLists, type ListOptions, type RankedList } from './ranked-list.js';
import { resolveMapping, type Syn, type SynonymMapping } from './synonymity.js';
import { invalid } from './validate.js';

/**
 * Jaccard index of two explanations viewed as sets: J(A, B) = |A ∩ B| / |A ∪ B|.
 * Source: 001_3eb24fee3e674c02.txt §4.1, Eq. 1 (= 004_87dc91cae9faa268.txt §4.1, Eq. 1).
 * Edge cases: both lists empty → 1 (identical); one empty → 0; disjoint → 0 (as the paper defines).
 */
export function jaccard(a: RankedList, b: RankedList, options: ListOptions = {}): number {
  const l = prepareLists(a, b, options);
  return jaccardFromCounts(l.a.length, l.b.length, countCommon(l.a, l.rankB), 0, 0);
}

export interface WeightedJaccardOptions extends ListOptions {
  /**
   * 'union' (default): Eq. 3 as numbered, Σ Syn over |A ∪ B|. 'merged': the paper's second variant in
   * §4.1, which counts each mapped pair once in the denominator: Σ Syn over (|A ∪ B| − #mapped pairs).
   * In the paper's example (Syn = 0.9, 0.6, 0.3) 'union' gives 0.3 and 'merged' gives 0.6.
   */
  denominator?: 'union' | 'merged';
}

/**
 * Synonymity-weighted Jaccard: J_W(A, B) = Σ_i Syn(A[i], M(A[i])) / |A ∪ B|, where an unchanged word
 * contributes Syn(x, x) = 1 and a word with no substitute in B contributes 0.
 * Source: 001_3eb24fee3e674c02.txt §4.1, Eqs. 2–3 (= 004 §4.1). See `resolveMapping` for which mapped
 * pairs count. Edge cases as `jaccard`.
 */
export function weightedJaccard(
  a: RankedList,
  b: RankedList,
  mapping: SynonymMapping,
  syn: Syn,
  options: WeightedJaccardOptions = {},
): number {
  const mode = options.denominator ?? 'union';
  if (mode !== 'union' && mode !== 'merged') throw invalid('options.denominator', "'union' or 'merged'", mode);
  const l = prepareLists(a, b, options);
  const pairs = resolveMapping(l, mapping, syn);
  let synSum = 0;
  for (const p of pairs) synSum += p.syn;
  return jaccardFromCounts(
    l.a.length,
    l.b.length,
    countCommon(l.a, l.rankB),
    synSum,
    mode === 'merged' ? pairs.length : 0,
  );
}

function countCommon(a: readonly string[], rankB: ReadonlyMap<string, number>): number {
  let n = 0;
  for (const w of a) if (rankB.has(w)) n++;
  return n;
}

function jaccardFromCounts(na: number, nb: number, common: number, synSum: number, merged: number): number {
  if (na === 0 && nb === 0) return 1;
  const union = na + nb - common - merged;
  return union === 0 ? 0 : Math.min(1, (common + synSum) / union);
}

/**
 * Jaccard index |A ∩ B| / |A ∪ B| of two sets of numbers given as arrays (e.g. Int32Array feature
 * indices), 1 when both are empty. Each array must hold distinct values (not checked: it runs in LIME's
 * adaptive stopping loop); order does not matter. The typed-array form of `jaccard` without k or
 * duplicate handling.
 */
export function setJaccard(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const inA = new Set<number>();
  for (let i = 0; i < a.length; i++) inA.add(a[i]);
  let both = 0;
  for (let i = 0; i < b.length; i++) if (inA.has(b[i])) both++;
  const union = a.length + b.length - both;
  return union === 0 ? 1 : both / union;
}
