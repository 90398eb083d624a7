import { Command } from 'commander';
import { modelFingerprint } from '@xtrust/oracle';
import { identifyStore, poolsOf } from '../audit.js';
import { auditExplainer, runKeySettings } from '../audit-settings.js';
import { loadEnsemble } from '../ensemble.js';
import { checkClassNames, fileDigest, readLabelledFile } from '../data-files.js';
import { loadModel } from '../model-loader.js';
import { emit } from '../output.js';
import { examples, withCommonOptions, withRunOptions, type RunFlags } from '../options.js';
import { Progress } from '../progress.js';
import { CHECKPOINT_SECONDS, RunDir } from '../run-dir.js';
import { limeModeParts } from '../lime-mode.js';
import { auditSettings, withAuditSettings, type AuditSettingFlags } from './audit-options.js';
import { loadFlags, withModelOptions, type ModelFlags } from './model-options.js';

/** Options of `xtrust keywords`. */
export interface KeywordsOptions extends AuditSettingFlags, ModelFlags, RunFlags {
  train: string;
}

/** Builds a keyword store (TOKI §3.1) for the model from its training data and saves it as <out>/keywords.json. */
export async function runKeywords(
  options: KeywordsOptions,
  progress = new Progress(undefined, { quiet: options.quiet }),
) {
  const settings = auditSettings(options);
  const model = await loadModel(options.model, {
    ...loadFlags(options),
    quantize: limeModeParts(settings.limeMode).quantize,
  });
  const classifier = model.classifier;
  checkClassNames(settings.classNames, classifier.labels, settings.classDescriptions);
  const train = await readLabelledFile(
    options.train,
    { textColumn: options.textColumn, labelColumn: options.labelColumn },
    classifier.labels,
    '--train',
  );
  const { testSample: _unused, thetaConf: _unused2, ...keyed } = runKeySettings(settings);
  const run = RunDir.open(
    options.out,
    'keywords',
    { model: await modelFingerprint(classifier), train: fileDigest(options.train), ...keyed },
    options.resume,
  );
  const { embeddings, thetaRelate } = await loadEnsemble(progress, settings.ensemble);
  const store = await identifyStore(classifier, train, settings, {
    explainer: auditExplainer(settings),
    embeddings,
    thetaRelate,
    run,
    progress,
    batchSeconds: CHECKPOINT_SECONDS,
  });
  run.complete();
  const pools = poolsOf(store, 20);
  return { store: run.path('keywords.json'), pools };
}

/** Registers `xtrust keywords`. */
export function keywordsCommand(): Command {
  const c = new Command('keywords').description(
    "build and save a keyword store (TOKI's word pools and keywords per class) from training data",
  );
  withModelOptions(c, 'train');
  withAuditSettings(c);
  withRunOptions(c, 'xtrust-keywords');
  withCommonOptions(c);
  examples(c, [
    'xtrust keywords --model xtrust-report/model --train train.csv --out runs/keywords',
    'xtrust keywords --model ./hf-model --train train.jsonl --class-names ham=legitimate --train-sample 2000 --samples 5000',
  ]);
  return c.action(async (opts: KeywordsOptions) => {
    const r = await runKeywords(opts);
    emit(opts.json, r, () =>
      [
        ...Object.entries(r.pools).flatMap(([label, p]) => [
          `${label}${p.className !== label ? ` (as "${p.className}")` : ''}`,
          `  keywords   ${p.keywords.map((w) => w.word).join(', ') || '–'}`,
          `  spurious   ${p.spurious.map((w) => w.word).join(', ') || '–'}`,
        ]),
        `store ${r.store}`,
      ].join('\n'),
    );
  });
}
