import { prepareLists, type ListOptions, type RankedList } from './ranked-list.js';
import { resolveMapping, type Syn, type SynonymMapping } from './synonymity.js';

/**
 * Kendall's tau rank distance in the position-wise form of the synonymity papers, as a similarity:
 * d(A, B) = Σ_{i=1}^{min(|A|,|B|)} 1[A[i] ≠ B[i]] + ||A| − |B|| (excess elements of the longer list
 * are dissonant), normalised by the longer length: sim = 1 − d / max(|A|, |B|).
 * Source: 001_3eb24fee3e674c02.txt §5.1 (2), Eq. 4 (= 004_87dc91cae9faa268.txt §5.1, Eq. 4); the
 * normalisation by the longer list is the one of the authors' XAIFooler code. Note this is not the
 * classical pairwise-discordance Kendall tau: it compares ranks position by position.
 * Edge cases: both empty → 1; one empty → 0.
 */
export function kendall(a: RankedList, b: RankedList, options: ListOptions = {}): number {
  const l = prepareLists(a, b, options);
  return kendallCore(l.a, l.b, null);
}

/**
 * Synonymity-weighted Kendall rank distance: a dissonant position i whose words are a mapped pair
 * a → b (a = A[i], b = B[i]) counts 1 − Syn(a, b) instead of 1; every other dissonance counts 1.
 * d_W = Σ_i 1[A[i] ≠ B[i]]·(1 − Syn(a, b)) + ||A| − |B||, sim = 1 − d_W / max(|A|, |B|).
 * Source: 001_3eb24fee3e674c02.txt §5.1 (2), Eq. 5 (= 004 Eq. 5). Edge cases as `kendall`.
 */
export function weightedKendall(
  a: RankedList,
  b: RankedList,
  mapping: SynonymMapping,
  syn: Syn,
  options: ListOptions = {},
): number {
  const l = prepareLists(a, b, options);
  const synAt = new Map<number, number>();
  for (const p of resolveMapping(l, mapping, syn)) if (p.i === p.j) synAt.set(p.i, p.syn);
  return kendallCore(l.a, l.b, synAt);
}

function kendallCore(a: readonly string[], b: readonly string[], synAt: ReadonlyMap<number, number> | null): number {
  const n = Math.max(a.length, b.length);
  if (n === 0) return 1;
  const m = Math.min(a.length, b.length);
  let d = n - m;
  for (let i = 0; i < m; i++) {
    if (a[i] === b[i]) continue;
    const s = synAt?.get(i);
    d += s === undefined ? 1 : 1 - s;
  }
  return Math.max(0, 1 - d / n);
}
