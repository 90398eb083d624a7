/**
 * Cached explanations for oracle selection (select.ts). LIME explanations do not depend on the oracle's
 * configuration, so each family case's training sample and scored validation/test predictions are
 * explained once, into checkpointed JSONL files, and every candidate configuration is evaluated on them.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { argmaxRow, rng, type Explainer, type Explanation } from '@xtrust/core';
import { explainTolerant, predictAll } from '@xtrust/oracle';
import type { BenchmarkCase } from '@xtrust/datasets';
import { buildCase, type BuiltCase } from './case-data.js';
import { caseName, type CaseSpec } from './family.js';
import { makeExplainer, sampleSides } from './evaluate-case.js';

/** A scored prediction with its ground truth and the model's confidence. */
export interface ScoredItem {
  readonly text: string;
  readonly label: string;
  readonly trustworthy: boolean;
  readonly confidence: number;
  /** Whether the text carries the spurious part (trigger or header block). */
  readonly shortcut: boolean;
}

export interface CachedCase {
  readonly spec: CaseSpec;
  readonly name: string;
  readonly labels: readonly string[];
  readonly classNames: Readonly<Record<string, string>>;
  readonly accuracy: number;
  readonly scored: boolean;
  readonly counts: { readonly validation: readonly [number, number]; readonly test: readonly [number, number] };
  readonly train: readonly Explanation[];
  readonly trainLabels: readonly string[];
  readonly validation: {
    readonly items: readonly ScoredItem[];
    readonly explanations: readonly (Explanation | null)[];
  };
  readonly test: { readonly items: readonly ScoredItem[]; readonly explanations: readonly (Explanation | null)[] };
}

const log = (s: string) => process.stderr.write(`[${new Date().toISOString().slice(11, 19)}] ${s}\n`);

export interface CacheOptions {
  readonly samples: number;
  readonly trainSample: number;
  /** Predictions explained and scored per side, validation and test (a seeded sample; the family's 250). */
  readonly perSide: number;
  readonly minPerSide: number;
  readonly testFractions: readonly number[];
  readonly validationFraction: number;
  readonly windowsPerText: number;
}

/**
 * Builds one family case exactly as the shortcut bench does (case-data.ts buildCase: split, trigger,
 * bow-logistic model, ground truth of issue 14 on the validation and test pools), then explains with
 * LIME — the sampled correctly predicted training texts and at most `perSide` scored predictions per
 * side of each pool — each part into a JSONL checkpoint under `dir`, reused on a rerun.
 */
export async function cachedCase(spec: CaseSpec, dir: string, opts: CacheOptions): Promise<CachedCase> {
  const name = caseName(spec);
  mkdirSync(dir, { recursive: true });
  const built: BuiltCase = await buildCase(spec, {
    kind: 'bow-logistic',
    testFractions: opts.testFractions,
    validationFraction: opts.validationFraction,
    windowsPerText: opts.windowsPerText,
    minPerSide: opts.minPerSide,
    validation: true,
  });
  const { data, model } = built;
  const labels = model.labels;
  const { explainer } = makeExplainer('lime', opts.samples, spec.seed) as { explainer: Explainer };
  const side = (b: { counts: { trustworthy: number; untrustworthy: number } }) =>
    [b.counts.trustworthy, b.counts.untrustworthy] as const;
  log(
    `${name}: ${data.train.length} train / ${data.validation.length} validation / ${data.test.length} test rows; accuracy ${built.testAccuracy.toFixed(3)}; validation ${side(built.validationBench!).join('/')}, test ${side(built.bench).join('/')} (trustworthy/untrustworthy)${built.scored ? '' : ' — too small'}`,
  );

  const counts = { validation: side(built.validationBench!), test: side(built.bench) };
  if (!built.scored) {
    // a case too small to score is not explained (nothing of it enters the selection or the report)
    const none = { items: [], explanations: [] };
    return {
      spec,
      name,
      labels,
      classNames: data.classNames,
      accuracy: built.testAccuracy,
      scored: false,
      counts,
      train: [],
      trainLabels: [],
      validation: none,
      test: none,
    };
  }
  const scored = async (cases: readonly BenchmarkCase[], part: string) => {
    const picked = sampleSides(cases, opts.perSide, spec.seed);
    const items: ScoredItem[] = picked.map((c) => ({
      text: c.text,
      label: c.label,
      trustworthy: c.truth === 'trustworthy',
      confidence: c.confidence,
      shortcut: c.shortcut,
    }));
    const t = await explainTolerant(
      explainer,
      model,
      items.map((x) => x.text),
      items.map((_, i) => `${part}:${i}`),
      { checkpoint: join(dir, `${part}.jsonl`), onProgress: progress(`${name} ${part}`) },
    );
    return { items, explanations: t.explanations };
  };
  const v = await scored(built.validationBench!.cases, 'validation');
  const te = await scored(built.bench.cases, 'test');

  // keyword identification's input, as identifyKeywords draws it: a seeded sample, the correctly predicted ones explained
  const train = data.train;
  const picked = Array.from(rng(spec.seed).sampleIndices(train.length, Math.min(opts.trainSample, train.length))).sort(
    (a, b) => a - b,
  );
  const probs = await predictAll(
    model,
    picked.map((i) => train[i].text),
  );
  const correct = picked.filter((row, j) => labels[argmaxRow(probs, j, labels.length)] === train[row].label);
  const tt = await explainTolerant(
    explainer,
    model,
    correct.map((i) => train[i].text),
    correct.map((i) => `train:${i}`),
    { checkpoint: join(dir, 'train.jsonl'), onProgress: progress(`${name} train`) },
  );
  const ok = correct.flatMap((row, j) =>
    tt.explanations[j] ? [{ e: tt.explanations[j]!, label: train[row].label }] : [],
  );
  return {
    spec,
    name,
    labels,
    classNames: data.classNames,
    accuracy: built.testAccuracy,
    scored: built.scored,
    counts,
    train: ok.map((x) => x.e),
    trainLabels: ok.map((x) => x.label),
    validation: v,
    test: te,
  };
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
