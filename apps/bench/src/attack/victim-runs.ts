/**
 * The attack runs the benchmark makes on one victim (a transformer or a bag-of-words model) and their
 * Markdown: TOKI-guided vs A2T (000 §4, Table 4) with the perturbed-word share beside Avg. NP, and the
 * language models of CEA (002 §4: candidates from a masked LM, Δ_PP from GPT-2's perplexity, Eq. 6).
 */
import { join } from 'node:path';
import type { Classifier, SentenceEncoder, WordEmbedding } from '@xtrust/core';
import type { KeywordStore } from '@xtrust/oracle';
import { bootstrapInterval, type BootstrapInterval } from '@xtrust/metrics';
import { a2t, tokiGuided, type AttackInput, type AttackRecord, type PosTagger, type Table4Row } from '@xtrust/attack';
import { findKitFixture } from './transformer-victim.js';

export interface PairRun {
  readonly method: string;
  readonly records: AttackRecord[];
  readonly resumed: number;
  readonly seconds: number;
}

export interface PairOptions {
  readonly store: KeywordStore;
  /** The attack's word vectors (A2T's neighbours, TOKI's pool similarity) and sentence encoder (≥ 0.9 constraint). */
  readonly embedding: WordEmbedding;
  readonly encoder: SentenceEncoder;
  readonly posTagger: PosTagger;
  readonly seed: number;
  /** JSONL files `<prefix>-toki-guided.jsonl` and `<prefix>-a2t.jsonl` under `out` (resumed when present); none: in memory. */
  readonly out?: { readonly dir: string; readonly prefix: string };
  readonly onRecord?: (method: string) => (r: { status: string }, done: number, total: number) => void;
}

/**
 * TOKI-guided and A2T (000 Table 1: the same goal, gradient word ranking, search and constraints; the
 * candidates differ) on the same inputs against one classifier. On an OnnxClassifier with the kit's
 * gradient graph the word ranking is the transformer's own input gradients.
 */
export async function tokiVsA2t(model: Classifier, inputs: readonly AttackInput[], o: PairOptions): Promise<PairRun[]> {
  const runs: PairRun[] = [];
  for (const [method, attack] of [
    [
      'TOKI-guided',
      tokiGuided(model, { store: o.store, embedding: o.embedding, encoder: o.encoder, posTagger: o.posTagger }),
    ],
    ['A2T', a2t(model, { embedding: o.embedding, encoder: o.encoder, posTagger: o.posTagger })],
  ] as const) {
    const t = performance.now();
    const run = await attack.run(inputs, {
      output: o.out ? join(o.out.dir, `${o.out.prefix}-${attack.name}.jsonl`) : undefined,
      seed: o.seed,
      onRecord: o.onRecord?.(method),
    });
    runs.push({ method, records: run.records, resumed: run.resumed, seconds: (performance.now() - t) / 1000 });
  }
  return runs;
}

/**
 * Mean share of the words changed, perturbedWords / words, over the successful attacks on the instances
 * every run attacked (the set `table4` scores): Avg. NP relative to the text's length.
 */
export function perturbedShare(runs: readonly { records: readonly AttackRecord[] }[]): number[] {
  const attacked = (rs: readonly AttackRecord[]) =>
    new Set(rs.filter((r) => r.status !== 'skipped').map((r) => r.index));
  let common = attacked(runs[0]?.records ?? []);
  for (const r of runs.slice(1)) {
    const s = attacked(r.records);
    common = new Set([...common].filter((i) => s.has(i)));
  }
  return runs.map((run) => {
    const ok = run.records.filter((r) => common.has(r.index) && r.status === 'succeeded' && r.words > 0);
    return ok.length === 0 ? NaN : ok.reduce((a, r) => a + r.perturbedWords / r.words, 0) / ok.length;
  });
}

/** Success-rate intervals of a victim's runs: each run's SAR, and the paired difference of the first two runs. */
export interface SarIntervals {
  /** Per run (rows' order): SAR over the instances every run attacked, percentile bootstrap over instances. */
  readonly sar: readonly BootstrapInterval[];
  /** runs[0] − runs[1] (TOKI-guided − A2T) on the instances both attacked, instances resampled together. */
  readonly difference: BootstrapInterval & { readonly instances: number };
}

/**
 * 95 % percentile-bootstrap intervals (2,000 resamples, seeded) of each run's success rate and of the
 * paired difference between the first two runs, over the instances every run attacked (table4's set):
 * both attacks face the same instances, so resampling instances together keeps the shared difficulty out
 * of the difference's spread.
 */
export function sarIntervals(runs: readonly { records: readonly AttackRecord[] }[], seed: number): SarIntervals {
  const opts = { resamples: 2000, seed };
  const successOf = (rs: readonly AttackRecord[]) =>
    new Map(rs.filter((r) => r.status !== 'skipped').map((r) => [r.index, r.status === 'succeeded' ? 1 : 0]));
  const maps = runs.map((r) => successOf(r.records));
  // the instances every run attacked: the set table4 scores SAR on
  const common =
    maps.length === 0 ? [] : [...maps[0].keys()].filter((i) => maps.every((m) => m.has(i))).sort((a, b) => a - b);
  const mean = (v: readonly number[]) => (idx: Uint32Array) =>
    v.length === 0 ? NaN : idx.reduce((a, i) => a + v[i], 0) / idx.length;
  const n = Math.max(1, common.length);
  const sar = maps.map((m) => bootstrapInterval(n, mean(common.map((i) => m.get(i)!)), opts));
  const diff = maps.length >= 2 ? common.map((i) => maps[0].get(i)! - maps[1].get(i)!) : [];
  return { sar, difference: { ...bootstrapInterval(n, mean(diff), opts), instances: diff.length } };
}

const fmt = (x: number | null | undefined, d = 3) =>
  x === null || x === undefined || !Number.isFinite(x) ? '–' : x.toFixed(d);

/** One victim's block of the victim-comparison table: its `table4` rows and the perturbed-word shares. */
export interface VictimRows {
  readonly victim: string;
  readonly rows: readonly Table4Row[];
  readonly share: readonly number[];
  /** Attack seconds of each run, summed over its records (same order as rows; kept by resumed records too). */
  readonly seconds: readonly number[];
  /** SAR intervals (sarIntervals): shown beside SAR, and the paired difference under the table. */
  readonly intervals?: SarIntervals;
}

/** Seconds a run's attacks took, from its records (a resumed record keeps the time it took when it was made). */
export function attackSeconds(records: readonly AttackRecord[]): number {
  return records.reduce((a, r) => a + r.seconds, 0);
}

/** Table 4 for several victims in one Markdown table (victim, method, attacked, SAR, NP, share, cosines, queries, time). */
export function formatVictimTable4(blocks: readonly VictimRows[]): string {
  const enc = [...new Set(blocks.flatMap((b) => b.rows.flatMap((r) => Object.keys(r.cosine))))];
  const head = [
    'victim',
    'method',
    'attacked',
    'SAR ↑',
    'Avg. NP ↓',
    'perturbed share ↓',
    'NP on common successes ↓',
    ...enc.map((e) => `${e} ↑`),
    'queries',
    's/instance',
    'attack s',
  ];
  const lines = [`| ${head.join(' | ')} |`, `|${head.map(() => ' --- ').join('|')}|`];
  for (const b of blocks) {
    b.rows.forEach((r, i) => {
      lines.push(
        `| ${[b.victim, r.method, r.instances, b.intervals ? `${fmt(r.successRate)} [${fmt(b.intervals.sar[i].lo)}, ${fmt(b.intervals.sar[i].hi)}]` : fmt(r.successRate), fmt(r.averagePerturbedWords, 2), fmt(b.share[i]), `${fmt(r.perturbedWordsOnCommonSuccesses, 2)} (${r.commonSuccesses})`, ...enc.map((e) => fmt(r.cosine[e])), fmt(r.averageQueries, 0), fmt(r.secondsPerInstance, 3), fmt(b.seconds[i], 1)].join(' | ')} |`,
      );
    });
  }
  const paired = blocks.filter((b) => b.intervals && b.rows.length >= 2);
  if (paired.length > 0) {
    lines.push('');
    for (const b of paired) {
      const d = b.intervals!.difference;
      const sign = (x: number) => `${x >= 0 ? '+' : ''}${fmt(x)}`;
      lines.push(
        `- ${b.victim}: SAR ${b.rows[0].method} − ${b.rows[1].method} on the ${d.instances} instances both attacked ${sign(d.estimate)} [${sign(d.lo)}, ${sign(d.hi)}] (paired bootstrap, 95 %)${d.lo > 0 || d.hi < 0 ? '' : ' — the interval holds 0'}.`,
      );
    }
  }
  return lines.join('\n');
}

/**
 * CEA's language models: the folders given, else — for a transformer victim — the model kit's masked LM
 * (tiny-bert-mlm: CEA's candidates, 002 §4.1) and causal LM (tiny-gpt2: Δ_PP, Eq. 6) when they are in this
 * checkout. A bag-of-words victim keeps the CBOW stand-ins unless folders are given (its section's figures
 * stay as they were).
 */
export function ceaLanguageModels(
  given: { mlm?: string; causalLm?: string },
  transformerVictim: boolean,
): { mlm?: string; causalLm?: string } {
  if (!transformerVictim) return { mlm: given.mlm, causalLm: given.causalLm };
  return { mlm: given.mlm ?? findKitFixture('tiny-bert-mlm'), causalLm: given.causalLm ?? findKitFixture('tiny-gpt2') };
}
