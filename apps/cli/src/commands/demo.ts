import { existsSync } from 'node:fs';
import { Command, InvalidArgumentError } from 'commander';
import {
  BROWN_GENRE_DESCRIPTIONS,
  buildShortcutBenchmark,
  loadBrown,
  loadSotu,
  loadSpamAssassin,
  sample,
  SOTU_PARTY_DESCRIPTIONS,
  SPAM_ASSASSIN_CLASS_DESCRIPTIONS,
  stratifiedSplit,
  type Row,
} from '@xtrust/datasets';
import { BuiltinClassifier, BUILTIN_KINDS, evaluateAccuracy, trainClassifier, type BuiltinKind } from '@xtrust/models';
import { GloveEmbedding } from '@xtrust/embeddings';
import { runAudit, unrelatedCategoriesOf } from '../audit.js';
import { groundTruthCounts, type AuditRow, type GroundTruthCounts } from '../audit-records.js';
import { runKeySettings, type AuditSettings } from '../audit-settings.js';
import { runScoredCase } from '../scored-case.js';
import { emit, formatAudit, writeAuditFiles, type AuditFiles } from '../output.js';
import { checkClassNames } from '../data-files.js';
import { examples, fractionArg, withCommonOptions, withRunOptions } from '../options.js';
import { attackPredictions, withAttackOptions, type Recipe } from './attack.js';
import { auditSettings, withAuditSettings, withTokenCategoryOptions, type AuditSettingFlags } from './audit-options.js';
import type { ProbedSummary } from '../report/probes.js';
import { DEMO_BERT, isDemoTransformer, loadDemoTransformer } from './demo-transformer.js';
import { Progress } from '../progress.js';
import { int8NeedsOnnx, limeModeParts } from '../lime-mode.js';
import { RunDir } from '../run-dir.js';

/** The bundled corpora the demo can audit. */
export const DEMO_DATASETS = ['spamassassin', 'brown', 'sotu'] as const;
export type DemoDataset = (typeof DEMO_DATASETS)[number];

/** Options of `xtrust demo` (each a flag; see README). */
export interface DemoOptions extends AuditSettingFlags {
  dataset: DemoDataset;
  /** A built-in kind, `bert` (the model kit's spam classifier) or a Hugging Face folder. */
  model: BuiltinKind | string;
  testFraction: number;
  out: string;
  attack?: Recipe;
  attackTexts: number;
  /** Run the planted-trigger check beside the audit (default true; --no-scored-check skips it). */
  scoredCheck: boolean;
  resume: boolean;
  json: boolean;
  quiet: boolean;
}

interface DemoData {
  name: string;
  labels: readonly string[];
  rows: readonly Row<unknown>[];
  group?: (r: Row<unknown>) => string;
  classNames: Record<string, string>;
  /** What each class is about (@xtrust/datasets' built-in descriptions): TOKI's descriptions unless `--class-descriptions` gives others. */
  descriptions: Readonly<Record<string, string>>;
  /** The corpus for the scored check, without a shortcut of its own (SpamAssassin: the bodies). */
  plain: { name: string; rows: readonly Row<unknown>[] };
}

/** The demo corpus: SpamAssassin with headers (a natural shortcut), Brown genres, or State of the Union parties. */
function demoData(dataset: DemoDataset, transformer = false): DemoData {
  if (dataset === 'spamassassin' && transformer) {
    // The kit's transformers read bodies (a header block would fill their 128-token window).
    const d = loadSpamAssassin({ headers: false });
    return {
      name: 'SpamAssassin (bodies)',
      labels: d.labels,
      rows: d.rows as Row<unknown>[],
      classNames: { ham: 'legitimate' },
      descriptions: SPAM_ASSASSIN_CLASS_DESCRIPTIONS,
      plain: { name: 'SpamAssassin bodies', rows: d.rows as Row<unknown>[] },
    };
  }
  if (dataset === 'spamassassin') {
    const d = loadSpamAssassin({ headers: true });
    // "ham" is jargon; an embedding relates words to "legitimate" far better.
    const bodies = d.rows.map((r) => ({ ...r, text: r.text.slice(r.meta!.bodyStart) })) as Row<unknown>[];
    return {
      name: 'SpamAssassin (with headers)',
      labels: d.labels,
      rows: d.rows as Row<unknown>[],
      classNames: { ham: 'legitimate' },
      descriptions: SPAM_ASSASSIN_CLASS_DESCRIPTIONS,
      plain: { name: 'SpamAssassin bodies', rows: bodies },
    };
  }
  if (dataset === 'brown') {
    const d = loadBrown({ tags: false });
    // Passages of one document stay on one side of the split.
    return {
      name: 'Brown corpus genres',
      labels: d.labels,
      rows: d.rows as Row<unknown>[],
      group: (r) => (r.meta as { document: string }).document,
      classNames: {},
      descriptions: BROWN_GENRE_DESCRIPTIONS,
      plain: { name: 'Brown corpus genres', rows: d.rows as Row<unknown>[] },
    };
  }
  const d = loadSotu();
  return {
    name: 'State of the Union (party)',
    labels: d.labels,
    rows: d.rows as Row<unknown>[],
    classNames: {},
    descriptions: SOTU_PARTY_DESCRIPTIONS,
    plain: { name: 'State of the Union paragraphs', rows: d.rows as Row<unknown>[] },
  };
}

function gloveVectors(t: { words: readonly string[]; matrix: Float32Array; dim: number }) {
  return { words: t.words, vectors: t.matrix, dim: t.dim };
}

/** The built-in model of a run: reloaded from the run directory when resuming, else trained and saved there. */
async function demoModel(
  run: RunDir,
  kind: BuiltinKind,
  train: readonly Row<unknown>[],
  labels: readonly string[],
  seed: number,
  progress: Progress,
): Promise<{ classifier: BuiltinClassifier; reloaded: boolean }> {
  const dir = run.path('model');
  if (run.resumed && existsSync(run.path('model/model.json'))) {
    try {
      return { classifier: await BuiltinClassifier.load(dir), reloaded: true };
    } catch {
      // A save cut short by a kill: train again (training is seeded, so the model is the same).
    }
  }
  progress.note(`training ${kind} on ${train.length} texts…`);
  // The averaged-vector MLP takes its word vectors as a matrix (models never loads an embedding itself).
  const vectors = kind === 'embedding-mlp' ? gloveVectors((await GloveEmbedding.load()).table()) : undefined;
  const classifier = await trainClassifier(
    kind,
    train.map((r) => ({ text: r.text, label: r.label })),
    {
      seed,
      labels,
      vectors,
      onEpoch: (e) =>
        progress.note(
          `  epoch ${e.epoch}: training loss ${e.trainLoss.toFixed(4)}${e.validationAccuracy === null ? '' : `, validation accuracy ${(100 * e.validationAccuracy).toFixed(2)} %`}`,
        ),
    },
  );
  await classifier.save(dir);
  return { classifier, reloaded: false };
}

/** What `xtrust demo` prints with --json. */
export interface DemoResult {
  summary: ProbedSummary;
  files: AuditFiles;
}

/** The main job on bundled data: train a built-in model, audit it, write the report. */
export async function runDemo(
  options: DemoOptions,
  progress = new Progress(undefined, { quiet: options.quiet }),
): Promise<DemoResult> {
  const { quantize } = limeModeParts(options.limeMode);
  const transformer = isDemoTransformer(options.model, BUILTIN_KINDS);
  // checked before training or loading anything: a built-in model has no ONNX graph to quantise
  if (quantize && !transformer)
    throw int8NeedsOnnx(
      options.model,
      'a built-in kind',
      `--model ${DEMO_BERT} or a Hugging Face folder (run by onnxruntime-node)`,
    );
  const tf = transformer
    ? await loadDemoTransformer(options.model, options.dataset, demoData(options.dataset, true), { quantize })
    : null;
  const data = tf?.data ?? demoData(options.dataset);
  const given = auditSettings(options, data.classNames);
  // a bundled corpus says what its classes are about, as a user's --class-descriptions file would
  const settings: AuditSettings = given.classDescriptions
    ? given
    : {
        ...given,
        classDescriptions: {
          file: `(built in: ${data.name})`,
          // a kit transformer may hold fewer labels than its corpus (loadDemoTransformer restricts the data)
          descriptions: Object.fromEntries(
            data.labels.flatMap((l) => (l in data.descriptions ? [[l, data.descriptions[l]]] : [])),
          ),
        },
      };
  checkClassNames(settings.classNames, data.labels, settings.classDescriptions);
  const run = RunDir.open(
    options.out,
    'demo',
    {
      dataset: options.dataset,
      model: options.model,
      testFraction: options.testFraction,
      ...runKeySettings(settings),
      attack: options.attack ?? null,
      attackTexts: options.attack ? options.attackTexts : null,
      scoredCheck: options.scoredCheck,
    },
    options.resume,
  );
  progress.note(
    `xtrust demo: ${data.name}, model ${options.model}, seed ${options.seed}; keyword identification on ${options.trainSample} training texts, ${options.testSample} test predictions, LIME ${options.samples} samples${settings.limeMode !== 'exact' ? ` (${settings.limeMode})` : ''}${run.resumed ? ' (resuming)' : ''}`,
  );
  progress.note(`  bigger (the paper's scale): xtrust demo --train-sample 2000 --test-sample 1000 --samples 5000`);
  const split = stratifiedSplit(
    data.rows,
    tf?.split
      ? { ...tf.split, group: data.group }
      : { testFraction: options.testFraction, seed: options.seed, group: data.group },
  );
  const { classifier, reloaded } = tf
    ? { classifier: tf.classifier, reloaded: false }
    : await demoModel(run, options.model as BuiltinKind, split.train, data.labels, options.seed, progress);
  const accuracy = await evaluateAccuracy(
    classifier,
    split.test.map((r) => ({ text: r.text, label: r.label })),
  );
  progress.note(
    `model ${options.model}${reloaded ? ' (reloaded from the run)' : ''}: test accuracy ${(100 * accuracy.accuracy).toFixed(2)} % on ${split.test.length} held-out texts`,
  );

  const tested =
    options.testSample > 0 && options.testSample < split.test.length
      ? sample(split.test, options.testSample, options.seed)
      : split.test;
  let truth: Map<string, boolean> | null = null;
  let groundTruth: GroundTruthCounts | undefined;
  if (options.dataset === 'spamassassin' && !tf) {
    // Ground truth of the natural shortcut, by intervention on both sides (issue 14): untrustworthy when
    // removing the header block flips the prediction, trustworthy when it survives and the headers alone
    // give another class; most predictions are over-determined (both halves give the class) and undecided.
    const bench = await buildShortcutBenchmark(classifier, tested, { mode: 'headers' });
    truth = new Map(bench.cases.map((c) => [c.id, c.truth === 'trustworthy']));
    groundTruth = groundTruthCounts(bench);
  }
  const test: AuditRow[] = tested.map((r) => ({
    text: r.text,
    label: r.label,
    ...(truth?.has(r.id) ? { trustworthy: truth.get(r.id)! } : {}),
  }));
  const output = await runAudit(
    {
      classifier,
      model: tf
        ? {
            source: tf.folder,
            kind: `transformer (onnxruntime-node${quantize ? ', int8' : ''})`,
            testAccuracy: accuracy.accuracy,
            testTexts: split.test.length,
            note: tf.split
              ? "the kit's held-out test split (models/transformers/export-corpora.mjs)"
              : 'a split of the demo (--test-fraction, --seed): it may overlap the texts the model was trained on',
          }
        : {
            source: `built-in ${options.model}, trained by xtrust demo`,
            kind: options.model,
            testAccuracy: accuracy.accuracy,
            testTexts: split.test.length,
          },
      dataset: data.name,
      train: split.train.map((r) => ({ text: r.text, label: r.label })),
      test,
      testTotal: split.test.length,
      categoryProbes: options.categoryProbes,
      unrelatedCategories: options.unrelatedCategories,
    },
    { ...settings, testSample: 0 },
    run,
    progress,
  );
  let summary: ProbedSummary = {
    ...output.summary,
    settings: { ...output.summary.settings, testSample: options.testSample },
    ...(groundTruth ? { groundTruth } : {}),
  };
  if (options.scoredCheck && tf) {
    // the check trains its own model on a planted-trigger corpus; a transformer cannot be trained here
    progress.note(
      'scored check skipped: it trains its own model on a planted-trigger corpus, and a transformer folder is audited as given',
    );
  } else if (options.scoredCheck) {
    // a planted-trigger case scored beside the audit: the headers decide too few predictions to score an oracle
    const train = async (rows: readonly { text: string; label: string }[]) =>
      trainClassifier(options.model as BuiltinKind, rows, {
        seed: options.seed,
        labels: data.labels,
        vectors: options.model === 'embedding-mlp' ? gloveVectors((await GloveEmbedding.load()).table()) : undefined,
      });
    const scoredCase = await runScoredCase(
      {
        corpus: data.plain.name,
        labels: data.labels,
        rows: data.plain.rows,
        group: data.group,
        model: options.model,
        train,
        testFraction: options.testFraction,
        unrelatedCategories: unrelatedCategoriesOf(options.unrelatedCategories),
      },
      settings,
      run,
      progress,
    );
    summary = { ...summary, scoredCase };
  }
  let attacks: Awaited<ReturnType<typeof attackPredictions>>['examples'] | undefined;
  if (options.attack) {
    const a = await attackPredictions(options.attack, classifier, output.store, output.predictions, run, progress, {
      limit: options.attackTexts,
      seed: options.seed,
    });
    attacks = a.examples;
    summary = { ...summary, attack: { ...a.summary } };
  }
  const files = writeAuditFiles(run, summary, output.predictions, attacks);
  return { summary, files };
}

function datasetArg(value: string): DemoDataset {
  if (!(DEMO_DATASETS as readonly string[]).includes(value))
    throw new InvalidArgumentError(`expected one of ${DEMO_DATASETS.join(', ')}`);
  return value as DemoDataset;
}

function modelKindArg(value: string): BuiltinKind | string {
  if ((BUILTIN_KINDS as readonly string[]).includes(value) || value === DEMO_BERT) return value;
  if (existsSync(value)) return value;
  throw new InvalidArgumentError(
    `expected one of ${BUILTIN_KINDS.join(', ')}, ${DEMO_BERT}, or a Hugging Face model folder`,
  );
}

/** Registers `xtrust demo`. */
export function demoCommand(): Command {
  const c = new Command('demo').description(
    'the main job on bundled data: train a built-in model, audit its trustworthiness, write the HTML report',
  );
  c.option('--dataset <name>', `bundled corpus: ${DEMO_DATASETS.join(' | ')}`, datasetArg, 'spamassassin')
    .option(
      '--model <kind>',
      `built-in model: ${BUILTIN_KINDS.join(' | ')}; or ${DEMO_BERT} (the model kit's BERT spam classifier) or a Hugging Face folder, audited as given`,
      modelKindArg,
      'bow-logistic',
    )
    .option('--test-fraction <f>', 'share of each label held out for testing', fractionArg, 0.2);
  withAuditSettings(c);
  withTokenCategoryOptions(c);
  c.option(
    '--no-scored-check',
    'skip the planted-trigger case scored beside the audit (TOKI and Naive against a known ground truth)',
  );
  withAttackOptions(c);
  withRunOptions(c, 'xtrust-report');
  withCommonOptions(c);
  examples(c, [
    'xtrust demo',
    'xtrust demo --dataset brown --out runs/brown',
    'xtrust demo --train-sample 2000 --test-sample 1000 --samples 5000',
    'xtrust demo --resume --json',
    'xtrust demo --attack toki --attack-texts 20',
    'xtrust demo --model bert',
    'xtrust demo --model bert --lime-mode int8+adaptive',
  ]);
  return c.action(async (opts: DemoOptions) => {
    const r = await runDemo(opts);
    emit(opts.json, r, () => formatAudit(r.summary, r.files));
  });
}
