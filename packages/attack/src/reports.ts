import { XtrustError, type SentenceEncoder } from '@xtrust/core';
import {
  aucR,
  bootstrapInterval,
  pairCosines,
  perplexityDistances,
  semanticDistance,
  standardMeasures,
  successRateTable,
  summarizeAttacks,
  SUCCESS_THRESHOLDS,
  weightedMeasures,
  type AttackOutcome,
  type BootstrapInterval,
  type ExplanationPair,
  type PaperMeasureName,
  type PerplexityFn,
  type Syn,
} from '@xtrust/metrics';
import type { AttackRecord } from './attack.js';
import type { LanguageChecker } from './grammar.js';

const mean = (xs: readonly number[]) => (xs.length === 0 ? null : xs.reduce((a, b) => a + b, 0) / xs.length);

/** One row of 000 Table 4. */
export interface Table4Row {
  readonly method: string;
  readonly instances: number;
  readonly successRate: number;
  readonly averagePerturbedWords: number | null;
  /** Mean original/adversarial cosine over successful attacks, per encoder name. */
  readonly cosine: Readonly<Record<string, number | null>>;
  /** Mean perturbed words over the instances every method attacked successfully (null when none): NP on one set. */
  readonly perturbedWordsOnCommonSuccesses: number | null;
  readonly commonSuccesses: number;
  readonly averageQueries: number | null;
  readonly secondsPerInstance: number;
}

/**
 * 000 Table 4 for several recipes on the same instances: only instances every recipe attacked (none
 * skipped them) count, so the success rates are over one set. SAR = successes / attacks, Avg. NP over the
 * successful attacks, encoder cosines (USE, …) over the successful attacks (@xtrust/metrics summarizeAttacks).
 */
export async function table4(
  runs: readonly { method: string; records: readonly AttackRecord[] }[],
  encoders: readonly SentenceEncoder[] = [],
): Promise<Table4Row[]> {
  if (runs.length === 0) throw new XtrustError('INVALID_ARGUMENT', 'table4: no runs given', { argument: 'runs' });
  const attacked = (rs: readonly AttackRecord[]) =>
    new Set(rs.filter((r) => r.status !== 'skipped').map((r) => r.index));
  let common = attacked(runs[0].records);
  for (const r of runs.slice(1)) {
    const s = attacked(r.records);
    common = new Set([...common].filter((i) => s.has(i)));
  }
  if (common.size === 0)
    throw new XtrustError('INVALID_ARGUMENT', 'table4: no instance was attacked by every method', { argument: 'runs' });
  const won = (rs: readonly AttackRecord[]) => new Set(rs.filter((r) => r.status === 'succeeded').map((r) => r.index));
  let bothWon = won(runs[0].records);
  for (const r of runs.slice(1)) {
    const s = won(r.records);
    bothWon = new Set([...bothWon].filter((i) => s.has(i)));
  }
  const rows: Table4Row[] = [];
  for (const run of runs) {
    const recs = run.records.filter((r) => common.has(r.index));
    const outcomes: AttackOutcome[] = recs.map((r) => ({
      original: r.original,
      adversarial: r.adversarial,
      success: r.status === 'succeeded',
      perturbedWords: r.perturbedWords,
    }));
    const s = await summarizeAttacks(outcomes, encoders);
    rows.push({
      method: run.method,
      instances: recs.length,
      successRate: s.successRate,
      averagePerturbedWords: s.averagePerturbedWords,
      cosine: s.cosine,
      perturbedWordsOnCommonSuccesses: mean(recs.filter((r) => bothWon.has(r.index)).map((r) => r.perturbedWords)),
      commonSuccesses: bothWon.size,
      averageQueries: mean(recs.map((r) => r.queries.texts)),
      secondsPerInstance: recs.reduce((a, r) => a + r.seconds, 0) / recs.length,
    });
  }
  return rows;
}

const fmt = (x: number | null | undefined, d = 3) => (x === null || x === undefined ? '–' : x.toFixed(d));

/** Table 4 as a Markdown table. */
export function formatTable4(rows: readonly Table4Row[], title = ''): string {
  const enc = [...new Set(rows.flatMap((r) => Object.keys(r.cosine)))];
  const head = [
    'method',
    'instances',
    'SAR ↑',
    'Avg. NP ↓',
    'NP on common successes ↓',
    ...enc.map((e) => `${e} ↑`),
    'queries',
    's/instance',
  ];
  const lines = [title ? `${title}\n` : '', `| ${head.join(' | ')} |`, `|${head.map(() => ' --- ').join('|')}|`];
  for (const r of rows) {
    lines.push(
      `| ${[r.method, r.instances, fmt(r.successRate), fmt(r.averagePerturbedWords), `${fmt(r.perturbedWordsOnCommonSuccesses)} (${r.commonSuccesses})`, ...enc.map((e) => fmt(r.cosine[e])), fmt(r.averageQueries, 0), fmt(r.secondsPerInstance, 3)].join(' | ')} |`,
    );
  }
  return lines.filter((l) => l !== '').join('\n');
}

/** CEA/TEF figures for one recipe at one ρ_max (002 §5.2, Figure 2). */
export interface RobustnessPoint {
  readonly method: string;
  readonly rhoMax: number;
  /** Instances with at least one kept swap (the samples r is estimated on). */
  readonly samples: number;
  /** Mean true perturbed ratio ρ. */
  readonly rho: number | null;
  readonly pcc: number | null;
  /** Mean STS (sentence cosine) per encoder. */
  readonly sts: Readonly<Record<string, number | null>>;
  /** r(A, F) with d_s from each encoder (Eq. 5), mean over samples of d_attr / d_s. */
  readonly r: Readonly<Record<string, number | null>>;
  /** Mean relative perplexity increase Δ_PP (Eq. 6) and r_PP, when a language model was given. */
  readonly deltaPP: number | null;
  readonly rPP: number | null;
  /** Mean increase of language errors per text (adversarial − original), when a checker was given. */
  readonly languageErrorIncrease: number | null;
  readonly languageChecker: string | null;
  /**
   * Each sample's own figures, by the instance's position in the run's inputs (AttackRecord.index): what
   * the means above average, kept so that intervals can resample instances (robustnessAucIntervals).
   */
  readonly perSample?: readonly RobustnessSample[];
}

/** One attacked instance's figures at one ρ_max: r per encoder (null where d_s = 0) and r_PP (null where Δ_PP ≤ 0). */
export interface RobustnessSample {
  readonly index: number;
  readonly r: Readonly<Record<string, number | null>>;
  readonly rPP: number | null;
}

export interface RobustnessOptions {
  encoders?: readonly SentenceEncoder[];
  perplexity?: PerplexityFn;
  checker?: LanguageChecker;
}

/**
 * The attribution-robustness figures of one run of CEA or TEF (002 §4–5): PCC, STS per encoder, r with
 * Eq. 5's input distance per encoder, Δ_PP and r_PP with a language model (Eq. 6), and the increase in
 * language errors under an offline checker. Samples with d_s = 0 (no change an encoder can see) are left out
 * of that encoder's r.
 */
export async function robustnessPoint(
  method: string,
  rhoMax: number,
  records: readonly AttackRecord[],
  options: RobustnessOptions = {},
): Promise<RobustnessPoint> {
  const ok = records.filter(
    (r) => r.status === 'succeeded' && r.adversarial !== null && typeof r.details.attributionDistance === 'number',
  );
  const orig = ok.map((r) => r.original);
  const adv = ok.map((r) => r.adversarial as string);
  const dAttr = ok.map((r) => r.details.attributionDistance as number);
  const sts: Record<string, number | null> = {};
  const r: Record<string, number | null> = {};
  const sampleR = ok.map(() => ({}) as Record<string, number | null>);
  const sampleRPP: (number | null)[] = ok.map(() => null);
  for (const enc of options.encoders ?? []) {
    if (ok.length === 0) {
      sts[enc.name] = r[enc.name] = null;
      continue;
    }
    const cos = await pairCosines(enc, orig, adv);
    sts[enc.name] = mean(Array.from(cos));
    const ratios: number[] = [];
    cos.forEach((c, i) => {
      const ds = semanticDistance(Math.max(-1, Math.min(1, c)));
      sampleR[i][enc.name] = ds > 0 ? dAttr[i] / ds : null;
      if (ds > 0) ratios.push(dAttr[i] / ds);
    });
    r[enc.name] = mean(ratios);
  }
  let deltaPP: number | null = null;
  let rPP: number | null = null;
  if (options.perplexity && ok.length > 0) {
    const d = await perplexityDistances(options.perplexity, orig, adv);
    deltaPP = mean(Array.from(d));
    d.forEach((x, i) => (sampleRPP[i] = x > 0 ? dAttr[i] / x : null));
    rPP = mean(Array.from(d).flatMap((x, i) => (x > 0 ? [dAttr[i] / x] : [])));
  }
  let ge: number | null = null;
  if (options.checker && ok.length > 0) {
    const [a, b] = await Promise.all([options.checker.count(orig), options.checker.count(adv)]);
    ge = mean(Array.from(b, (x, i) => x - a[i]));
  }
  return {
    method,
    rhoMax,
    samples: ok.length,
    rho: mean(ok.map((x) => x.perturbedWords / Math.max(1, x.words))),
    pcc: mean(ok.map((x) => x.details.pcc as number)),
    sts,
    r,
    deltaPP,
    rPP,
    languageErrorIncrease: ge,
    languageChecker: options.checker ? options.checker.measures : null,
    perSample: ok.map((x, i) => ({ index: x.index, r: sampleR[i], rPP: sampleRPP[i] })),
  };
}

/** AUC_r = ∫ r dρ over the ρ_max grid (002 §5.2, Figure 3), per input distance, for one method's points. */
export function robustnessAuc(points: readonly RobustnessPoint[]): Record<string, number | null> {
  const keys = [...new Set(points.flatMap((p) => Object.keys(p.r))), 'pp'];
  const out: Record<string, number | null> = {};
  for (const k of keys) {
    const pts = points
      .map((p) => ({ rho: p.rhoMax, r: k === 'pp' ? p.rPP : (p.r[k] ?? null) }))
      .filter((p): p is { rho: number; r: number } => p.r !== null);
    out[k] =
      pts.length >= 2
        ? aucR(
            pts.map((p) => p.rho),
            pts.map((p) => p.r),
          )
        : null;
  }
  return out;
}

/** AUC_r intervals of each method and of the paired difference between two methods (robustnessAucIntervals). */
export interface RobustnessAucIntervals {
  /** Per method, per input distance (as robustnessAuc's keys). */
  readonly methods: Readonly<Record<string, Readonly<Record<string, BootstrapInterval | null>>>>;
  /** first − second of `pair`, per input distance, on the same resampled instances. */
  readonly difference: {
    readonly pair: readonly [string, string];
    readonly auc: Readonly<Record<string, BootstrapInterval | null>>;
  } | null;
  /** Instances resampled: those with figures in any point. */
  readonly instances: number;
}

/**
 * Percentile-bootstrap intervals of AUC_r (002 §5.2) over the attacked instances: each resample draws
 * instances with replacement, every (method, ρ_max) point's r is the mean over the drawn instances it holds
 * (with their multiplicity), and AUC_r is integrated over the grid as robustnessAuc does. The methods ran on
 * the same inputs, so one draw serves all of them and `pair`'s difference is paired by instance. Needs the
 * points' perSample figures.
 */
export function robustnessAucIntervals(
  points: readonly RobustnessPoint[],
  options: { pair?: readonly [string, string]; resamples?: number; seed: number; level?: number },
): RobustnessAucIntervals {
  if (points.some((p) => !p.perSample))
    throw new XtrustError(
      'INVALID_ARGUMENT',
      'robustnessAucIntervals: a point without perSample figures (made by robustnessPoint before they were kept)',
      { argument: 'points' },
    );
  const ids = [...new Set(points.flatMap((p) => p.perSample!.map((x) => x.index)))].sort((a, b) => a - b);
  const methods = [...new Set(points.map((p) => p.method))];
  const keys = [...new Set(points.flatMap((p) => Object.keys(p.r))), 'pp'];
  const byPoint = points.map((p) => new Map(p.perSample!.map((x) => [x.index, x])));
  const value = (x: RobustnessSample, k: string) => (k === 'pp' ? x.rPP : (x.r[k] ?? null));
  const gridSize = new Map(methods.map((m) => [m, points.filter((p) => p.method === m).length]));
  // AUC_r of one method and distance on a draw of instance positions (positions into ids)
  const auc = (m: string, k: string, draw: Uint32Array): number => {
    const pts: { rho: number; r: number }[] = [];
    points.forEach((p, j) => {
      if (p.method !== m) return;
      let sum = 0;
      let n = 0;
      for (const d of draw) {
        const x = byPoint[j].get(ids[d]);
        const v = x ? value(x, k) : null;
        if (v !== null) {
          sum += v;
          n++;
        }
      }
      if (n > 0) pts.push({ rho: p.rhoMax, r: sum / n });
    });
    // a draw that leaves a ρ_max without any r has no AUC over the whole grid
    return pts.length >= 2 && pts.length === gridSize.get(m)
      ? aucR(
          pts.map((p) => p.rho),
          pts.map((p) => p.r),
        )
      : Number.NaN;
  };
  const opts = {
    resamples: options.resamples ?? 2000,
    seed: options.seed,
    ...(options.level ? { level: options.level } : {}),
  };
  const interval = (f: (draw: Uint32Array) => number) => {
    if (ids.length === 0) return null;
    const b = bootstrapInterval(ids.length, f, opts);
    return Number.isFinite(b.estimate) ? b : null;
  };
  const out: Record<string, Record<string, BootstrapInterval | null>> = {};
  for (const m of methods) out[m] = Object.fromEntries(keys.map((k) => [k, interval((d) => auc(m, k, d))]));
  const pair =
    options.pair && methods.includes(options.pair[0]) && methods.includes(options.pair[1]) ? options.pair : null;
  const difference = pair
    ? { pair, auc: Object.fromEntries(keys.map((k) => [k, interval((d) => auc(pair[0], k, d) - auc(pair[1], k, d))])) }
    : null;
  return { methods: out, difference, instances: ids.length };
}

/** The CEA vs TEF comparison over a ρ_max grid as Markdown: one row per (method, ρ_max), then AUC_r and its relative increase. */
export function formatRobustness(points: readonly RobustnessPoint[], intervals?: RobustnessAucIntervals): string {
  const enc = [...new Set(points.flatMap((p) => Object.keys(p.sts)))];
  const head = [
    'method',
    'ρ_max',
    'samples',
    'ρ',
    'PCC ↓',
    ...enc.map((e) => `STS ${e} ↑`),
    ...enc.map((e) => `r ${e} ↑`),
    'Δ_PP ↓',
    'r_PP ↑',
    'ΔGE ↓',
  ];
  const lines = [`| ${head.join(' | ')} |`, `|${head.map(() => ' --- ').join('|')}|`];
  for (const p of points) {
    lines.push(
      `| ${[p.method, p.rhoMax, p.samples, fmt(p.rho), fmt(p.pcc), ...enc.map((e) => fmt(p.sts[e])), ...enc.map((e) => fmt(p.r[e], 2)), fmt(p.deltaPP), fmt(p.rPP, 2), fmt(p.languageErrorIncrease, 2)].join(' | ')} |`,
    );
  }
  const methods = [...new Set(points.map((p) => p.method))];
  const aucs = methods.map((m) => ({ m, auc: robustnessAuc(points.filter((p) => p.method === m)) }));
  lines.push(
    '',
    '| method | ' +
      Object.keys(aucs[0]?.auc ?? {})
        .map((k) => `AUC_r ${k}`)
        .join(' | ') +
      ' |',
  );
  lines.push(`|${[' --- ', ...Object.keys(aucs[0]?.auc ?? {}).map(() => ' --- ')].join('|')}|`);
  const ci = (b: BootstrapInterval | null | undefined) => (b ? ` [${fmt(b.lo)}, ${fmt(b.hi)}]` : '');
  for (const { m, auc } of aucs)
    lines.push(
      `| ${m} | ${Object.entries(auc)
        .map(([k, x]) => `${fmt(x)}${ci(intervals?.methods[m]?.[k])}`)
        .join(' | ')} |`,
    );
  if (intervals?.difference) {
    const { pair, auc } = intervals.difference;
    lines.push(
      `| ${pair[0]} − ${pair[1]} (paired) | ${Object.keys(aucs[0]?.auc ?? {})
        .map((k) => `${fmt(auc[k]?.estimate ?? null)}${ci(auc[k])}`)
        .join(' | ')} |`,
    );
    lines.push(
      '',
      `AUC_r intervals: 95 % percentile bootstrap over the ${intervals.instances} attacked instances (${auc[Object.keys(auc)[0]]?.resamples ?? 0} resamples; one draw serves every method and ρ_max, so the difference is paired by instance).`,
    );
  }
  const checker = points.find((p) => p.languageChecker)?.languageChecker;
  if (checker) lines.push('', `ΔGE: ${checker}.`);
  return lines.join('\n');
}

/** Table 3 of 001: success rates at each τ under the standard and the synonymity-weighted measures. */
export interface SimilarityTable {
  readonly pairs: number;
  readonly taus: readonly number[];
  readonly base: Readonly<Record<PaperMeasureName, number[]>>;
  readonly weighted: Readonly<Record<PaperMeasureName, number[]>>;
}

/** The explanation pairs (A, B, a → b) recorded by explanation-similarity runs; instances with no explanation pair (skipped) are left out. */
export function explanationPairs(records: readonly AttackRecord[]): ExplanationPair[] {
  const out: ExplanationPair[] = [];
  for (const r of records) {
    if (r.status === 'skipped' || !Array.isArray(r.details.originalList)) continue;
    const a = r.details.originalList as string[];
    const b = Array.isArray(r.details.perturbedList) ? (r.details.perturbedList as string[]) : a;
    const mapping = Array.isArray(r.details.mapping) ? (r.details.mapping as [string, string][]) : [];
    out.push({ original: a, perturbed: b, mapping });
  }
  return out;
}

/**
 * Base vs synonymity-weighted success rates for τ ∈ {0.3, 0.4, 0.5, 0.6} (001 §6, Table 3; 004 Tables 3
 * and 5) over the pairs of explanation-similarity runs: each measure re-scores every recorded pair with the
 * mapping a → b, so one attack run serves every measure and both forms.
 */
export function similaritySuccessTable(
  records: readonly AttackRecord[],
  syn: Syn,
  options: { taus?: readonly number[]; k?: number } = {},
): SimilarityTable {
  const pairs = explanationPairs(records);
  if (pairs.length === 0)
    throw new XtrustError(
      'INVALID_ARGUMENT',
      'similaritySuccessTable: no attacked instance with explanation lists (run the xaifooler recipe)',
      { argument: 'records' },
    );
  const taus = options.taus ?? SUCCESS_THRESHOLDS;
  const lo = { k: options.k, duplicates: 'dedupe' as const };
  return {
    pairs: pairs.length,
    taus,
    base: successRateTable(pairs, standardMeasures(lo), taus),
    weighted: successRateTable(pairs, weightedMeasures(syn, lo), taus),
  };
}

/** Table 3 as Markdown: one row per τ, Base and Synw columns per measure. */
export function formatSimilarityTable(t: SimilarityTable): string {
  const ms = Object.keys(t.base) as PaperMeasureName[];
  const head = ['τ', ...ms.flatMap((m) => [`${m} base`, `${m} synw`])];
  const lines = [`| ${head.join(' | ')} |`, `|${head.map(() => ' --- ').join('|')}|`];
  t.taus.forEach((tau, i) =>
    lines.push(
      `| ${Math.round(tau * 100)}% | ${ms.flatMap((m) => [fmt(t.base[m][i], 2), fmt(t.weighted[m][i], 2)]).join(' | ')} |`,
    ),
  );
  lines.push('', `${t.pairs} attacked instances.`);
  return lines.join('\n');
}
