import { prepareLists, type ListOptions, type PreparedLists, type RankedList } from './ranked-list.js';
import { resolveMapping, type MappedPair, type Syn, type SynonymMapping } from './synonymity.js';
import { checkFinite, invalid } from './validate.js';

export interface FootruleOptions extends ListOptions {
  /**
   * Distance charged for a word of A missing from B (Fagin et al. 2002's location parameter). Default
   * k/2, as the papers choose, with k = max(|A|, |B|) after the cut to `k`. Not rounded down.
   */
  penalty?: number;
}

/**
 * Spearman's footrule for top-k lists as a similarity:
 * F(A, B) = Σ_{a ∈ A ∩ B} |i − j| + Σ_{a ∈ A \ B} p, sim = 1 − min(F, ⌊k²/2⌋) / ⌊k²/2⌋,
 * with i, j the ranks of a in A and B, p = k/2 and k = max(|A|, |B|). Only words of A are summed
 * (Eq. 6 sums over a ∈ A): a word that only B has costs nothing by itself.
 * Source: 001_3eb24fee3e674c02.txt §5.1 (3), Eq. 6 (= 004_87dc91cae9faa268.txt Eq. 6), top-k form of
 * Fagin, Kumar & Sivakumar (2002) with penalty k/2; ⌊k²/2⌋ is the largest footrule between two
 * permutations of k items. With p = k/2 and odd k, F can exceed ⌊k²/2⌋ (e.g. disjoint lists): the
 * similarity is clipped at 0.
 * Edge cases: both empty → 1; one empty → 0; k = 1 (⌊k²/2⌋ = 0) → 1 when F = 0, else 0.
 */
export function footrule(a: RankedList, b: RankedList, options: FootruleOptions = {}): number {
  const l = prepareLists(a, b, options);
  return footruleCore(l, [], options.penalty);
}

/**
 * Synonymity-weighted footrule:
 * F_W = Σ_{a ∈ A ∩ B} |i − j| + Σ_{a → b} s + Σ_{a ∈ A \ B, unmapped} p,  s = min(|i − j| / Syn(a, b), |A| − 1),
 * normalised and clipped as `footrule`. A mapped pair with Syn = 0 gets s = |A| − 1 (x / 0 taken as
 * +∞, also for |i − j| = 0), so a non-synonym never counts as a perfect match.
 * Source: 001_3eb24fee3e674c02.txt §5.1 (3), Eq. 7 (= 004 Eq. 7). Note that s can exceed p, so for a
 * far-moved, weakly synonymous substitute the weighted similarity can be *lower* than the standard one.
 */
export function weightedFootrule(
  a: RankedList,
  b: RankedList,
  mapping: SynonymMapping,
  syn: Syn,
  options: FootruleOptions = {},
): number {
  const l = prepareLists(a, b, options);
  return footruleCore(l, resolveMapping(l, mapping, syn), options.penalty);
}

function footruleCore(l: PreparedLists, pairs: readonly MappedPair[], penaltyOption: number | undefined): number {
  const na = l.a.length;
  const nb = l.b.length;
  const k = Math.max(na, nb);
  let p = k / 2;
  if (penaltyOption !== undefined) {
    p = checkFinite('options.penalty', penaltyOption);
    if (p < 0) throw invalid('options.penalty', 'a non-negative number', penaltyOption);
  }
  if (k === 0) return 1;
  if (na === 0 || nb === 0) return 0;
  const mapped = new Map<string, MappedPair>();
  for (const pair of pairs) mapped.set(pair.a, pair);
  const cap = na - 1;
  let f = 0;
  for (let i = 0; i < na; i++) {
    const w = l.a[i];
    const j = l.rankB.get(w);
    if (j !== undefined) {
      f += Math.abs(i - j);
      continue;
    }
    const pair = mapped.get(w);
    if (pair === undefined) {
      f += p;
    } else {
      const dist = Math.abs(pair.i - pair.j);
      f += pair.syn === 0 ? cap : Math.min(dist / pair.syn, cap);
    }
  }
  const norm = Math.floor((k * k) / 2);
  if (norm === 0) return f === 0 ? 1 : 0;
  return Math.max(0, 1 - Math.min(f, norm) / norm);
}
