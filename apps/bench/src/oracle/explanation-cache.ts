/**
 * Cached explanations for oracle selection (select.ts). LIME explanations do not depend on the oracle's
 * configuration, so each case's training sample and scored validation/test predictions are explained
 * once, into checkpointed JSONL files, and every candidate configuration is then evaluated on them.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { argmaxRow, rng, tokenize, type Explainer, type Explanation } from '@xtrust/core';
import { buildShortcutBenchmark, injectTrigger, loadBrown, loadSotu, loadSpamAssassin, stratifiedSplit, type Dataset, type Row } from '@xtrust/datasets';
import { LimeExplainer } from '@xtrust/explainers';
import { trainClassifier, evaluateAccuracy, type BuiltinKind } from '@xtrust/models';
import { explainTolerant, predictAll } from '@xtrust/oracle';

/** One research case: every choice of the shortcut benchmark as a value (nothing special-cased by name). */
export interface CaseSpec {
  readonly name: string;
  readonly corpus: 'brown' | 'sotu' | 'spam';
  readonly trigger: string;
  readonly target: string;
  /** Brown genres kept (default five nameable ones). */
  readonly classes?: readonly string[];
  /** Share of the target class's training texts that carry the trigger. */
  readonly share: number;
  /** Texts cut to their first N words; 0 = whole texts. */
  readonly words: number;
  readonly seed: number;
  /** Share of the target class's validation/test texts that get the trigger (default 0.5). */
  readonly evalShare?: number;
}

/** A scored prediction with its ground truth and the model's confidence. */
export interface ScoredItem {
  readonly text: string;
  readonly label: string;
  readonly trustworthy: boolean;
  readonly confidence: number;
  /** Whether the text carries the planted trigger. */
  readonly shortcut: boolean;
}

export interface CachedCase {
  readonly spec: CaseSpec;
  readonly labels: readonly string[];
  readonly classNames: Record<string, string>;
  readonly accuracy: number;
  readonly train: readonly Explanation[];
  readonly trainLabels: readonly string[];
  readonly validation: { readonly items: readonly ScoredItem[]; readonly explanations: readonly (Explanation | null)[] };
  readonly test: { readonly items: readonly ScoredItem[]; readonly explanations: readonly (Explanation | null)[] };
}

const BROWN_DEFAULT = ['news', 'religion', 'hobbies', 'government', 'romance'];

function firstWords(text: string, n: number): string {
  if (n <= 0) return text;
  const t = tokenize(text);
  return t.length <= n ? text : text.slice(0, t[n - 1].end);
}

function load(spec: CaseSpec): { ds: Dataset<unknown>; classNames: Record<string, string>; group?: (r: Row<unknown>) => string } {
  if (spec.corpus === 'brown') {
    const all = loadBrown({ tags: false });
    const keep = spec.classes ?? BROWN_DEFAULT;
    const rows = all.rows.filter((r) => keep.includes(r.label)).map((r) => ({ ...r, text: firstWords(r.text, spec.words) }));
    return { ds: { ...all, labels: all.labels.filter((l) => keep.includes(l)), rows } as Dataset<unknown>, classNames: {}, group: (r) => (r.meta as { document: string }).document };
  }
  if (spec.corpus === 'sotu') {
    const all = loadSotu();
    const rows = all.rows.map((r) => ({ ...r, text: firstWords(r.text, spec.words) }));
    return { ds: { ...all, rows } as Dataset<unknown>, classNames: {}, group: (r) => `${(r.meta as { year: number; president: string }).year}:${(r.meta as { president: string }).president}` };
  }
  const all = loadSpamAssassin({ headers: false });
  const rows = all.rows.map((r) => ({ ...r, text: firstWords(r.text, spec.words) }));
  return { ds: { ...all, rows } as Dataset<unknown>, classNames: { ham: 'legitimate' } };
}

const log = (s: string) => process.stderr.write(`[${new Date().toISOString().slice(11, 19)}] ${s}\n`);

/**
 * Prepares one case (split 55/15/30, trigger planted, bow model trained), derives the ground truth on the
 * validation and test splits, and explains the sampled training texts and the scored predictions with
 * LIME — each into a JSONL checkpoint under `dir`, reused on a rerun.
 */
export async function cachedCase(spec: CaseSpec, dir: string, opts: { model: BuiltinKind; samples: number; trainSample: number; maxEval: number }): Promise<CachedCase> {
  await mkdir(dir, { recursive: true });
  const { ds, classNames, group } = load(spec);
  const split = stratifiedSplit(ds.rows, { testFraction: 0.3, validationFraction: 0.15, seed: spec.seed, group });
  const evalShare = spec.evalShare ?? 0.5;
  const inject = (rows: Row<unknown>[], part: string, share: number, s: number) =>
    injectTrigger({ ...ds, name: `${ds.name}/${part}`, rows }, { trigger: spec.trigger, targetLabel: spec.target, share, seed: s });
  const train = inject(split.train, 'train', spec.share, spec.seed + 1);
  const validation = inject(split.validation, 'validation', evalShare, spec.seed + 2);
  const test = inject(split.test, 'test', evalShare, spec.seed + 3);
  const model = await trainClassifier(opts.model, train.rows.map((r) => ({ text: r.text, label: r.label })), { seed: spec.seed });
  const acc = await evaluateAccuracy(model, test.rows.map((r) => ({ text: r.text, label: r.label })));
  log(`${spec.name}: ${train.rows.length}/${validation.rows.length}/${test.rows.length} rows, ${opts.model} test accuracy ${acc.accuracy.toFixed(3)}`);
  const explainer = new LimeExplainer({ numSamples: opts.samples, numFeatures: 10, seed: spec.seed }) as unknown as Explainer;
  const labels = model.labels;

  const scored = async (rows: readonly Row<unknown>[], part: string) => {
    const pick = rows.length > opts.maxEval ? Array.from(rng(spec.seed + 7).sampleIndices(rows.length, opts.maxEval)).sort((a, b) => a - b).map((i) => rows[i]) : rows;
    const bench = await buildShortcutBenchmark(model, pick, { mode: 'trigger', trigger: spec.trigger });
    log(`  ${part}: ${bench.counts.trustworthy} trustworthy, ${bench.counts.untrustworthy} untrustworthy, ${bench.counts.incorrect} incorrect, ambiguous ${JSON.stringify(bench.counts.ambiguous)}`);
    const items: ScoredItem[] = bench.cases.map((c) => ({ text: c.text, label: c.label, trustworthy: c.truth === 'trustworthy', confidence: c.confidence, shortcut: c.shortcut }));
    const t = await explainTolerant(explainer, model, items.map((x) => x.text), items.map((_, i) => `${part}:${i}`), { checkpoint: join(dir, `${part}.jsonl`), onProgress: progress(`${spec.name} ${part}`) });
    return { items, explanations: t.explanations };
  };
  const v = await scored(validation.rows, 'validation');
  const te = await scored(test.rows, 'test');

  // keyword identification's input: a seeded sample of training texts, the correctly predicted ones explained
  const n = train.rows.length;
  const picked = Array.from(rng(spec.seed).sampleIndices(n, Math.min(opts.trainSample, n))).sort((a, b) => a - b);
  const probs = await predictAll(model, picked.map((i) => train.rows[i].text));
  const correct = picked.filter((row, j) => labels[argmaxRow(probs, j, labels.length)] === train.rows[row].label);
  const tt = await explainTolerant(explainer, model, correct.map((i) => train.rows[i].text), correct.map((i) => `train:${i}`), { checkpoint: join(dir, 'train.jsonl'), onProgress: progress(`${spec.name} train`) });
  const ok = correct.flatMap((row, j) => (tt.explanations[j] ? [{ e: tt.explanations[j]!, label: train.rows[row].label }] : []));
  await writeFile(join(dir, 'case.json'), JSON.stringify({ spec, accuracy: acc.accuracy, labels }, null, 2));
  return { spec, labels, classNames, accuracy: acc.accuracy, train: ok.map((x) => x.e), trainLabels: ok.map((x) => x.label), validation: v, test: te };
}

function progress(what: string) {
  let last = 0;
  return (p: { phase: string; done: number; total: number }) => {
    const now = performance.now();
    if (now - last > 30000 || p.done === p.total) {
      last = now;
      log(`  ${what} ${p.phase} ${p.done}/${p.total}`);
    }
  };
}

export async function readCaseJson(dir: string): Promise<unknown | null> {
  const f = join(dir, 'case.json');
  return existsSync(f) ? JSON.parse(await readFile(f, 'utf8')) : null;
}
