import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import type { Explainer } from '@xtrust/core';
import { LimeExplainer } from '@xtrust/explainers';
import { required } from '../config.js';
import { labelRows, unrelatedCategoriesOf, verdictCounts } from '../audit.js';
import { withUnrelatedCategoriesOption } from './audit-options.js';
import { ensembleOfStore, loadEnsemble } from '../ensemble.js';
import { fileDigest, readLabelledFile, readTexts } from '../data-files.js';
import { loadModel } from '../model-loader.js';
import { emit, toJsonl } from '../output.js';
import { examples, intArg, positiveIntArg, withCommonOptions, withRunOptions, type RunFlags } from '../options.js';
import { Progress } from '../progress.js';
import { CHECKPOINT_SECONDS, RunDir } from '../run-dir.js';
import { loadStore, storeFile } from './attack.js';
import {
  DEFAULT_LIME_MODE,
  LIME_MODE_HELP,
  LIME_MODES,
  limeModeArg,
  limeModeParts,
  limeOptionsOf,
  type LimeMode,
} from '../lime-mode.js';
import { loadFlags, withModelOptions, type ModelFlags } from './model-options.js';
import { DEFAULT_AUDIT_MODE, verdictSamplingOf, withAuditModeOption, type AuditMode } from '../audit-mode.js';

/** Options of `xtrust label`. */
export interface LabelOptions extends ModelFlags, RunFlags {
  store: string;
  test: string;
  unlabelled: boolean;
  samples?: number;
  seed?: number;
  limeMode?: LimeMode;
  auditMode?: AuditMode;
  /** `--unrelated-categories`: undefined for all, false for none, else the names. */
  unrelatedCategories?: string[] | false;
}

/** The `--lime-mode` a store was built with (stores from before the flag: exact, or adaptive when LIME's options say so). */
export function storeLimeMode(file: string): LimeMode {
  let params: Record<string, unknown> = {};
  try {
    params =
      (JSON.parse(readFileSync(file, 'utf8')) as { provenance?: { explainer?: { params?: Record<string, unknown> } } })
        .provenance?.explainer?.params ?? {};
  } catch {
    // an unreadable store is reported by loadStore, with the reason
  }
  if (typeof params.limeMode === 'string' && (LIME_MODES as readonly string[]).includes(params.limeMode))
    return params.limeMode as LimeMode;
  return params.adaptive ? 'adaptive' : DEFAULT_LIME_MODE;
}

/** Labels the model's test predictions with a saved keyword store (TOKI §3.2); labels.jsonl in the run directory. */
export async function runLabel(options: LabelOptions, progress = new Progress(undefined, { quiet: options.quiet })) {
  // the store's own mode by default: an int8 store was built on (and fingerprinted with) the int8 model
  const limeMode = options.limeMode ?? storeLimeMode(storeFile(options.store));
  const model = await loadModel(options.model, { ...loadFlags(options), quantize: limeModeParts(limeMode).quantize });
  const classifier = model.classifier;
  const store = await loadStore(options.store, classifier); // refuses a store of another model
  const test = options.unlabelled
    ? (await readTexts(options.test, options.textColumn)).map((text) => ({ text, label: '' }))
    : await readLabelledFile(
        options.test,
        { textColumn: options.textColumn, labelColumn: options.labelColumn },
        classifier.labels,
        '--test',
      );
  // The store's own explainer settings by default: labels then use the explanations keywords came from.
  const params = store.provenance.explainer.params as { numSamples?: number; seed?: number };
  const samples = options.samples ?? params.numSamples ?? 1000;
  const seed = options.seed ?? store.provenance.seed;
  const auditMode = options.auditMode ?? DEFAULT_AUDIT_MODE;
  // the key names the audit mode only when it is not exact, so a run directory from before the flag still resumes
  const key = {
    store: store.fingerprint,
    test: fileDigest(options.test),
    unlabelled: options.unlabelled,
    samples,
    seed,
    topK: store.topK,
    limeMode,
    ...(auditMode === 'exact' ? {} : { auditMode }),
  };
  const run = RunDir.open(options.out, 'label', key, options.resume);
  // The store's own ensemble: its keywords were decided by these members' votes.
  const { embeddings } = await loadEnsemble(progress, ensembleOfStore(store));
  const explainer = new LimeExplainer({
    numSamples: samples,
    numFeatures: store.topK,
    seed,
    ...limeOptionsOf(limeMode),
  }) as unknown as Explainer;
  const predictions = await labelRows(store, classifier, test, {
    explainer,
    embeddings,
    run,
    progress,
    unlabelled: options.unlabelled,
    batchSeconds: CHECKPOINT_SECONDS,
    verdictSampling: verdictSamplingOf(auditMode),
    unrelatedCategories: unrelatedCategoriesOf(options.unrelatedCategories),
  });
  const { counts, untrustworthyShare, untrustworthyByCategory, untrustworthyByBound, overruledByRemoval } =
    verdictCounts(predictions);
  const file = run.writeFile('labels.jsonl', toJsonl(predictions.map(({ features: _f, ...p }) => p)));
  run.complete();
  return {
    verdicts: counts,
    untrustworthyShare,
    untrustworthyByCategory,
    untrustworthyByBound,
    overruledByRemoval,
    labels: file,
  };
}

/** Registers `xtrust label`. */
export function labelCommand(): Command {
  const c = new Command('label').description(
    'label test predictions trustworthy or untrustworthy with a saved keyword store',
  );
  withModelOptions(c, 'test');
  required(c, '--store <path>', 'keyword store: keywords.json or a keywords/demo/audit run directory')
    .option(
      '--unlabelled',
      'the texts have no true label (production data: .txt, or .csv/.jsonl with --text-column): every prediction is labelled',
      false,
    )
    .option('--samples <n>', "LIME samples (default: the store's)", positiveIntArg)
    .option('--seed <n>', "LIME seed (default: the store's)", intArg)
    .option('--lime-mode <mode>', `${LIME_MODE_HELP} (default: the store's)`, limeModeArg);
  withAuditModeOption(
    c,
    "exact (every prediction explained at --samples, the paper's computation) | fast (each prediction's LIME stops once its verdict is settled at 95 % confidence; approximate, agreement measured in apps/bench)",
  );
  withUnrelatedCategoriesOption(c);
  withRunOptions(c, 'xtrust-labels');
  withCommonOptions(c);
  examples(c, [
    'xtrust label --model xtrust-report/model --store xtrust-report --test new.csv --out runs/labels',
    'xtrust label --model ./my-model --store runs/keywords --test incoming.txt --unlabelled',
  ]);
  return c.action(async (opts: LabelOptions) => {
    const r = await runLabel(opts);
    emit(
      opts.json,
      r,
      () =>
        `${Object.entries(r.verdicts)
          .map(([v, n]) => `${v} ${n}`)
          .join(
            ', ',
          )}; untrustworthy ${r.untrustworthyShare === null ? '–' : `${(100 * r.untrustworthyShare).toFixed(1)} %`} of correct predictions\nlabels ${r.labels}`,
    );
  });
}
