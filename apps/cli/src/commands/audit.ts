import { basename, resolve } from 'node:path';
import { Command } from 'commander';
import { modelFingerprint } from '@xtrust/oracle';
import { runAudit } from '../audit.js';
import type { ProbedSummary } from '../report/probes.js';
import { checkClassNames, fileDigest, readLabelledFile } from '../data-files.js';
import { loadModel } from '../model-loader.js';
import { loadFlags, withModelOptions, type ModelFlags } from './model-options.js';
import { emit, formatAudit, writeAuditFiles } from '../output.js';
import { examples, withCommonOptions, withRunOptions, type RunFlags } from '../options.js';
import { attackPredictions, withAttackOptions, type Recipe } from './attack.js';
import { Progress } from '../progress.js';
import { RunDir } from '../run-dir.js';
import { auditSettings, withAuditSettings, withTokenCategoryOptions, type AuditSettingFlags } from './audit-options.js';
import { queuedAuditExplainer, withQueueOption } from './worker.js';
import { limeModeParts } from '../lime-mode.js';
import { runKeySettings } from '../audit-settings.js';

/** Options of `xtrust audit`. */
export interface AuditOptions extends AuditSettingFlags, ModelFlags, RunFlags {
  train: string;
  test: string;
  trustColumn?: string;
  attack?: Recipe;
  attackTexts: number;
  queue?: string;
  queueName?: string;
}

/** Audits the user's own model on their data: keywords, labelled predictions, report. */
export async function runUserAudit(
  options: AuditOptions,
  progress = new Progress(undefined, { quiet: options.quiet }),
) {
  const settings = auditSettings(options);
  // the audit's own predictions come from the same (int8 when asked) model the explanations score
  const model = await loadModel(options.model, {
    ...loadFlags(options),
    quantize: limeModeParts(settings.limeMode).quantize,
  });
  const labels = model.classifier.labels;
  checkClassNames(settings.classNames, labels, settings.classDescriptions);
  const columns = {
    textColumn: options.textColumn,
    labelColumn: options.labelColumn,
    trustColumn: options.trustColumn,
  };
  // The trust column is ground truth of test predictions; training files need not have it.
  const train = await readLabelledFile(options.train, { ...columns, trustColumn: undefined }, labels, '--train');
  const test = await readLabelledFile(options.test, columns, labels, '--test');
  const fingerprint = await modelFingerprint(model.classifier);
  const run = RunDir.open(
    options.out,
    'audit',
    {
      model: fingerprint,
      train: fileDigest(options.train),
      test: fileDigest(options.test),
      columns,
      ...runKeySettings(settings),
      attack: options.attack ?? null,
      attackTexts: options.attack ? options.attackTexts : null,
    },
    options.resume,
  );
  progress.note(
    `xtrust audit: ${model.kind} model ${options.model} (labels ${labels.join(', ')}); ${train.length} training and ${test.length} test texts${run.resumed ? ' (resuming)' : ''}`,
  );
  const output = await runAudit(
    {
      classifier: model.classifier,
      model: { source: resolve(options.model), kind: model.kind, fingerprint },
      dataset: `${basename(options.test)} (trained on ${basename(options.train)})`,
      train,
      test,
      explainer: await queuedAuditExplainer(options, settings),
      categoryProbes: options.categoryProbes,
      unrelatedCategories: options.unrelatedCategories,
    },
    settings,
    run,
    progress,
  );
  let summary: ProbedSummary = output.summary;
  let attacks: Awaited<ReturnType<typeof attackPredictions>>['examples'] | undefined;
  if (options.attack) {
    const a = await attackPredictions(
      options.attack,
      model.classifier,
      output.store,
      output.predictions,
      run,
      progress,
      { limit: options.attackTexts, seed: options.seed },
    );
    attacks = a.examples;
    summary = { ...summary, attack: { ...a.summary } };
  }
  const files = writeAuditFiles(run, summary, output.predictions, attacks);
  return { summary, files };
}

/** Registers `xtrust audit`. */
export function auditCommand(): Command {
  const c = new Command('audit').description(
    'audit your own model on your data: which correct predictions rest on the wrong words, and the HTML report',
  );
  withModelOptions(c, 'train-test');
  c.option(
    '--trust-column <name>',
    'optional ground truth of trustworthiness per test row (trustworthy/untrustworthy): adds Naive vs TOKI and ROC',
  );
  withAuditSettings(c);
  withTokenCategoryOptions(c);
  withQueueOption(c);
  withAttackOptions(c);
  withRunOptions(c, 'xtrust-report-audit');
  withCommonOptions(c);
  examples(c, [
    'xtrust audit --model ./my-model --train train.csv --test test.csv',
    'xtrust audit --model model/onnx/model.onnx --train train.jsonl --test test.jsonl --text-column body --label-column category',
    'xtrust audit --model ./bert-sst2 --train t.csv --test v.csv --class-names pos=positive,neg=negative --out runs/bert --resume',
    'xtrust audit --model ./bert-sst2 --train t.csv --test v.csv --lime-mode int8+adaptive --queue redis://10.0.0.5:6379',
  ]);
  return c.action(async (opts: AuditOptions) => {
    const r = await runUserAudit(opts);
    emit(opts.json, r, () => formatAudit(r.summary, r.files));
  });
}
