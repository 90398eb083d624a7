/**
 * The scored check beside an audit: a planted-trigger case of the shortcut benchmark family (issue
 * 14), small enough for the demo. A word unrelated to every class is planted in the training texts
 * of one class, a model of the same kind is trained on them, and the ground truth of its correct
 * test predictions comes from intervention on both sides (@xtrust/datasets buildShortcutBenchmark):
 * untrustworthy when removing the trigger flips the prediction, trustworthy when the text carries
 * none (or survives its removal while the trigger alone gives another class). TOKI — with the audit's
 * own settings — and Naive are scored against it, each G-mean with a bootstrap 95 % interval, and only
 * when both sides have at least MIN_CASES_PER_SIDE predictions.
 */
import { argmaxRow, rng, type Classifier, type Explainer } from '@xtrust/core';
import {
  buildShortcutBenchmark,
  corpusVocabulary,
  drawTrigger,
  shortcutSplit,
  wordWindows,
  type Dataset,
  type Row,
} from '@xtrust/datasets';
import { classificationMetrics, gmeanInterval } from '@xtrust/metrics';
import {
  explainAll,
  identifyKeywords,
  labelExplanations,
  naiveOracle,
  predictAll,
  type UnrelatedCategory,
} from '@xtrust/oracle';
import { groundTruthCounts, MIN_CASES_PER_SIDE, type ScoredCaseSummary, type ScoredRow } from './audit-records.js';
import { auditExplainer, keywordOptions, type AuditSettings } from './audit-settings.js';
import { loadEnsemble } from './ensemble.js';
import type { Progress } from './progress.js';
import type { RunDir } from './run-dir.js';

export interface ScoredCaseInputs {
  /** The corpus, without any shortcut of its own (SpamAssassin: the bodies). */
  readonly corpus: string;
  readonly labels: readonly string[];
  readonly rows: readonly Row<unknown>[];
  /** Rows with one key stay on one side of the split. */
  readonly group?: (r: Row<unknown>) => string;
  /** The model's name in the summary (e.g. "bow-logistic"). */
  readonly model: string;
  /** Trains the check's model on its training texts (with the trigger planted): the same kind as the audited model. */
  readonly train: (rows: readonly { text: string; label: string }[]) => Promise<Classifier>;
  readonly testFraction: number;
  /** The audit's unrelated token categories (--unrelated-categories), so the check scores the audit's oracle. */
  readonly unrelatedCategories?: readonly UnrelatedCategory[];
}

/**
 * The case's fixed design (chosen before any result was seen; see README). The trigger is an everyday
 * word (issue 29): drawn with the audit's seed from the corpus's 3,000 most frequent content words, never
 * one the target class already leans on (@xtrust/datasets drawTrigger) — the hard case for an oracle, where
 * the word's cosine to a class name can be as high as a real keyword's.
 */
export const SCORED_CASE = { band: 'everyday', share: 1, words: 40, windowsPerText: 3, perSide: 150 } as const;

/** The scored check's trigger: an everyday word of the corpus drawn with `seed`, not leaning on `target`. */
export function scoredCaseTrigger(
  rows: readonly { text: string; label: string }[],
  target: string,
  seed: number,
): string {
  return drawTrigger(rng(seed), SCORED_CASE.band, target, corpusVocabulary(rows));
}

/**
 * The class with the fewest rows (first in label order on a tie): the model errs most on it without
 * the trigger, so planting the trigger there makes untrustworthy predictions.
 */
export function smallestClass(labels: readonly string[], rows: readonly { label: string }[]): string {
  const n = new Map(labels.map((l) => [l, 0]));
  for (const r of rows) n.set(r.label, (n.get(r.label) ?? 0) + 1);
  return labels.reduce((a, b) => (n.get(b)! < n.get(a)! ? b : a));
}

/** Scores one oracle's binary verdicts (1 = trustworthy) against the truth. */
export function scoredRow(method: string, verdicts: Uint8Array, truth: Uint8Array, seed: number): ScoredRow {
  const m = classificationMetrics(verdicts, truth);
  const ci = gmeanInterval(verdicts, truth, { seed, resamples: 1000 });
  return {
    method,
    accuracy: m.accuracy,
    precision: m.precision,
    sensitivity: m.sensitivity,
    specificity: m.specificity,
    f1: m.f1,
    gmean: m.gmean,
    gmeanLo: ci.lo,
    gmeanHi: ci.hi,
  };
}

/** Runs the scored check: plant, train, derive the ground truth, and (when large enough) score TOKI and Naive. */
export async function runScoredCase(
  inputs: ScoredCaseInputs,
  settings: AuditSettings,
  run: RunDir,
  progress: Progress,
): Promise<ScoredCaseSummary> {
  const started = performance.now();
  const { band, share, words, windowsPerText, perSide } = SCORED_CASE;
  const rows = wordWindows(inputs.rows, words, windowsPerText);
  const target = smallestClass(inputs.labels, inputs.rows);
  const trigger = scoredCaseTrigger(inputs.rows, target, settings.seed);
  const dataset: Dataset<unknown> = {
    name: inputs.corpus,
    labels: inputs.labels,
    rows: rows as Row<unknown>[],
    skipped: { count: 0, reasons: {} },
  };
  const split = shortcutSplit(dataset, {
    trigger,
    targetLabel: target,
    trainShare: share,
    testShare: 'twins',
    testFraction: inputs.testFraction,
    seed: settings.seed,
    group: inputs.group,
  });
  const description = `${inputs.corpus} in windows of ${words} words; "${trigger}" (an ${band} word, drawn with seed ${settings.seed} from the corpus's 3,000 most frequent content words) planted in every ${target} training text; the test texts plus a copy of each ${target} one carrying "${trigger}"`;
  progress.note(`scored check: ${description}; training ${inputs.model} on ${split.train.rows.length} texts…`);
  const model: Classifier = await inputs.train(split.train.rows.map((r) => ({ text: r.text, label: r.label })));
  const bench = await buildShortcutBenchmark(model, split.test.rows, { mode: 'trigger', trigger });
  const groundTruth = groundTruthCounts(bench);
  const base = {
    description,
    trigger,
    band,
    target,
    words,
    model: inputs.model,
    groundTruth,
    minPerSide: MIN_CASES_PER_SIDE,
  };
  if (bench.counts.trustworthy < MIN_CASES_PER_SIDE || bench.counts.untrustworthy < MIN_CASES_PER_SIDE) {
    return { ...base, tooSmall: true, rows: [], seconds: (performance.now() - started) / 1000 };
  }
  // a seeded sample of at most perSide predictions of each side keeps the demo short
  const r = rng(settings.seed);
  const keep = new Set<number>();
  for (const side of ['trustworthy', 'untrustworthy'] as const) {
    const idx = bench.cases.flatMap((c, i) => (c.truth === side ? [i] : []));
    for (const j of r.sampleIndices(idx.length, Math.min(perSide, idx.length))) keep.add(idx[j]);
  }
  const cases = bench.cases.filter((_, i) => keep.has(i));
  const texts = cases.map((c) => c.text);
  const truth = Uint8Array.from(cases, (c) => (c.truth === 'trustworthy' ? 1 : 0));

  // TOKI with the audit's own settings (one configuration for the audit and its check)
  const { embeddings, thetaRelate } = await loadEnsemble(progress, settings.ensemble);
  const explainer: Explainer = auditExplainer(settings);
  progress.note(
    `scored check: keyword identification on up to ${settings.trainSample} training texts, then ${texts.length} test predictions explained`,
  );
  const store = await identifyKeywords(
    model,
    split.train.rows.map((x) => x.text),
    split.train.rows.map((x) => x.label),
    keywordOptions(
      settings,
      { explainer, embeddings, thetaRelate },
      run.path('scored-check.keywords.explanations.jsonl'),
    ),
  );
  const explanations = await explainAll(
    explainer,
    model,
    texts,
    cases.map((c) => c.id),
    { checkpoint: run.path('scored-check.explanations.jsonl') },
  );
  const labels = await labelExplanations(store, explanations, {
    embeddings,
    trueLabels: cases.map((c) => c.label),
    unrelatedCategories: inputs.unrelatedCategories,
    classifier: model,
  });
  const toki = Uint8Array.from(labels, (l) => (l.verdict === 'trustworthy' ? 1 : 0));
  const probs = await predictAll(model, texts);
  const k = inputs.labels.length;
  const confidence = Float64Array.from(texts, (_, i) => probs[i * k + argmaxRow(probs, i, k)]);
  const rowsOut = [
    scoredRow(`TOKI (${store.oracle.name})`, toki, truth, settings.seed),
    scoredRow(
      `Naive (θ_conf ${settings.thetaConf})`,
      naiveOracle(confidence, settings.thetaConf),
      truth,
      settings.seed,
    ),
  ];
  const trustworthy = truth.reduce((a, b) => a + b, 0);
  return {
    ...base,
    tooSmall: false,
    scored: { trustworthy, untrustworthy: truth.length - trustworthy },
    rows: rowsOut,
    seconds: (performance.now() - started) / 1000,
  };
}
