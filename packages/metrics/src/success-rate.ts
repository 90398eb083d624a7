import { footrule, weightedFootrule } from './footrule.js';
import { jaccard, weightedJaccard } from './jaccard.js';
import { kendall, weightedKendall } from './kendall.js';
import type { ListOptions, RankedList } from './ranked-list.js';
import { rbo, RBO_PERSISTENCES, weightedRbo } from './rbo.js';
import type { Syn, SynonymMapping } from './synonymity.js';
import { checkFinite, invalid } from './validate.js';

/** One attack on an explanation: the original ranked list A, the perturbed B, and the mapping a → b. */
export interface ExplanationPair {
  readonly original: RankedList;
  readonly perturbed: RankedList;
  /** The perturbation mapping; weighted measures need it, standard ones ignore it. Default: none. */
  readonly mapping?: SynonymMapping;
}

/** A ranked-list similarity in [0, 1] applied to one attack. */
export type PairMeasure = (pair: ExplanationPair) => number;

/**
 * The share of attacks whose explanation similarity fell strictly below τ, i.e. the attacks that
 * succeed at threshold τ: |{pair : measure(pair) < τ}| / |pairs|.
 * Source: 001_3eb24fee3e674c02.txt §5.2 and §6, Table 3 (= 004_87dc91cae9faa268.txt Tables 3 and 5),
 * where an attack is successful when the similarity drops below τ ∈ {0.3, 0.4, 0.5, 0.6}.
 * Edge cases: no pairs → INVALID_ARGUMENT (a rate of nothing is undefined); a measure returning a
 * non-finite value → INVALID_ARGUMENT naming the pair.
 */
export function successRate(pairs: readonly ExplanationPair[], measure: PairMeasure, tau: number): number {
  if (!Array.isArray(pairs) || pairs.length === 0)
    throw invalid('pairs', 'a non-empty array of {original, perturbed, mapping?}', pairs);
  if (typeof measure !== 'function') throw invalid('measure', 'a function (pair) => similarity', measure);
  checkFinite('tau', tau);
  let below = 0;
  pairs.forEach((pair, n) => {
    const s = measure(pair);
    if (typeof s !== 'number' || !Number.isFinite(s)) throw invalid(`measure(pairs[${n}])`, 'a finite similarity', s);
    if (s < tau) below++;
  });
  return below / pairs.length;
}

/** The thresholds of 001 Table 3: τ = 30 %, 40 %, 50 %, 60 %. */
export const SUCCESS_THRESHOLDS: readonly number[] = [0.3, 0.4, 0.5, 0.6];

/**
 * `successRate` for every measure and every τ: row `name` holds the rates at `taus`, in order — the
 * layout of 001 Table 3 (one such table for Base, one for Synw).
 */
export function successRateTable<N extends string>(
  pairs: readonly ExplanationPair[],
  measures: Readonly<Record<N, PairMeasure>>,
  taus: readonly number[] = SUCCESS_THRESHOLDS,
): Record<N, number[]> {
  if (!Array.isArray(taus) || taus.length === 0) throw invalid('taus', 'a non-empty array of thresholds', taus);
  taus.forEach((t, i) => checkFinite(`taus[${i}]`, t));
  if (!measures || typeof measures !== 'object') throw invalid('measures', 'a record of name → measure', measures);
  const out = {} as Record<N, number[]>;
  for (const name of Object.keys(measures) as N[]) {
    const m = measures[name];
    if (typeof m !== 'function') throw invalid(`measures.${name}`, 'a function (pair) => similarity', m);
    // each pair is measured once; successRate's checks run on the cached similarities
    const sims = new Map<ExplanationPair, number>();
    const cached: PairMeasure = (q) => {
      let v = sims.get(q);
      if (v === undefined) sims.set(q, (v = m(q)));
      return v;
    };
    out[name] = taus.map((t) => successRate(pairs, cached, t));
  }
  return out;
}

/** Names of the six measures of Tables 1–6 of the synonymity papers. */
export type PaperMeasureName = 'jaccard' | 'kendall' | 'spearman' | 'rbo0.5' | 'rbo0.7' | 'rbo0.9';

/**
 * The six standard measures of the papers' tables (Jaccard, Kendall, Spearman footrule, RBO_EXT with
 * p = 0.5, 0.7, 0.9) as pair measures, for `successRate` and Table 3 / Table 5 style comparisons.
 */
export function standardMeasures(options: ListOptions = {}): Record<PaperMeasureName, PairMeasure> {
  const out: Partial<Record<PaperMeasureName, PairMeasure>> = {
    jaccard: (q) => jaccard(q.original, q.perturbed, options),
    kendall: (q) => kendall(q.original, q.perturbed, options),
    spearman: (q) => footrule(q.original, q.perturbed, options),
  };
  for (const p of RBO_PERSISTENCES)
    out[`rbo${p}` as PaperMeasureName] = (q) => rbo(q.original, q.perturbed, p, options);
  return out as Record<PaperMeasureName, PairMeasure>;
}

/** The synonymity-weighted versions of the six measures under one Syn (interval or thesaurus form). */
export function weightedMeasures(syn: Syn, options: ListOptions = {}): Record<PaperMeasureName, PairMeasure> {
  const m = (q: ExplanationPair): SynonymMapping => q.mapping ?? [];
  const out: Partial<Record<PaperMeasureName, PairMeasure>> = {
    jaccard: (q) => weightedJaccard(q.original, q.perturbed, m(q), syn, options),
    kendall: (q) => weightedKendall(q.original, q.perturbed, m(q), syn, options),
    spearman: (q) => weightedFootrule(q.original, q.perturbed, m(q), syn, options),
  };
  for (const p of RBO_PERSISTENCES) {
    out[`rbo${p}` as PaperMeasureName] = (q) => weightedRbo(q.original, q.perturbed, m(q), syn, p, options);
  }
  return out as Record<PaperMeasureName, PairMeasure>;
}
