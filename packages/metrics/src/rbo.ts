import { prepareLists, type ListOptions, type PreparedLists, type RankedList } from './ranked-list.js';
import { resolveMapping, type MappedPair, type Syn, type SynonymMapping } from './synonymity.js';
import { checkProbability } from './validate.js';

/** The persistence values the synonymity papers report (RBO0.5, RBO0.7, RBO0.9). */
export const RBO_PERSISTENCES = [0.5, 0.7, 0.9] as const;

/**
 * Rank-biased overlap in its extrapolated form RBO_EXT (Webber, Moffat & Zobel 2010, Eq. 32), which
 * handles lists of different lengths. With S the shorter list (length s), L the longer (length l),
 * X_d the overlap of the two prefixes of depth d (for d > s: all of S against L's prefix):
 *
 *   RBO_EXT = (1−p)/p · [ Σ_{d=1}^{l} (X_d/d)·p^d + Σ_{d=s+1}^{l} X_s·(d−s)/(s·d)·p^d ]
 *             + [ (X_l − X_s)/l + X_s/s ]·p^l
 *
 * For equal lengths k this is (1−p)·Σ_{d=1}^{k} p^{d−1}·X_d/d + (X_k/k)·p^k, i.e. the papers' Eq. 8
 * (a truncated sum) plus the extrapolation term that lets identical lists score exactly 1.
 * Source: 001_3eb24fee3e674c02.txt §5.1 (4), Eq. 8 (= 004_87dc91cae9faa268.txt Eq. 8) and Webber et
 * al. (2010) Eq. 32; the extrapolated form is the one of the authors' XAIFooler code.
 * @param p persistence in (0, 1): larger p weighs deeper ranks more.
 * Edge cases: both empty → 1; one empty → 0.
 */
export function rbo(a: RankedList, b: RankedList, p: number, options: ListOptions = {}): number {
  checkProbability('p', p, { openLow: true, openHigh: true });
  const l = prepareLists(a, b, options);
  return rboCore(l, [], p);
}

/**
 * Synonymity-weighted RBO_EXT: at every depth d the overlap X_d is increased by Syn(a, b) for each
 * mapped pair a → b with a in A's prefix and b in B's prefix (the idea of Eqs. 2–3 applied to each
 * prefix intersection), then RBO_EXT is computed as in `rbo`.
 * Source: 001_3eb24fee3e674c02.txt §5.1 (4), the sentence after Eq. 8 (= 004 §5.1).
 */
export function weightedRbo(
  a: RankedList,
  b: RankedList,
  mapping: SynonymMapping,
  syn: Syn,
  p: number,
  options: ListOptions = {},
): number {
  checkProbability('p', p, { openLow: true, openHigh: true });
  const l = prepareLists(a, b, options);
  return rboCore(l, resolveMapping(l, mapping, syn), p);
}

function rboCore(lists: PreparedLists, pairs: readonly MappedPair[], p: number): number {
  const na = lists.a.length;
  const nb = lists.b.length;
  if (na === 0 && nb === 0) return 1;
  if (na === 0 || nb === 0) return 0;
  const l = Math.max(na, nb);
  const s = Math.min(na, nb);
  // gain[d] = what enters the overlap at depth d+1 (0-based d): a common word counts once it has
  // appeared in both prefixes, a mapped pair with its Syn once both of its words have.
  const gain = new Float64Array(l);
  for (let i = 0; i < na; i++) {
    const j = lists.rankB.get(lists.a[i]);
    if (j !== undefined) gain[Math.max(i, j)] += 1;
  }
  for (const pair of pairs) gain[Math.max(pair.i, pair.j)] += pair.syn;
  let x = 0;
  let xs = 0;
  let sum = 0;
  let pd = 1;
  for (let d = 1; d <= l; d++) {
    x += gain[d - 1];
    pd *= p;
    if (d === s) xs = x;
    sum += (x / d) * pd;
    if (d > s) sum += ((xs * (d - s)) / (s * d)) * pd;
  }
  const result = ((1 - p) / p) * sum + ((x - xs) / l + xs / s) * pd;
  return Math.min(1, Math.max(0, result));
}
