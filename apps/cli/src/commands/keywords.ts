import { Command } from 'commander';
import { modelFingerprint, normalizeWord, reasonSentence } from '@xtrust/oracle';
import { identifyStore, poolsOf } from '../audit.js';
import { auditExplainer, runKeySettings } from '../audit-settings.js';
import { loadEnsemble } from '../ensemble.js';
import { checkClassNames, fileDigest, readLabelledFile } from '../data-files.js';
import { loadModel } from '../model-loader.js';
import { emit } from '../output.js';
import { leanedSentence, relatedShareSentence } from '../report/render.js';
import { examples, withCommonOptions, withRunOptions, type RunFlags } from '../options.js';
import { Progress } from '../progress.js';
import { CHECKPOINT_SECONDS, RunDir } from '../run-dir.js';
import { limeModeParts } from '../lime-mode.js';
import { auditSettings, withAuditSettings, type AuditSettingFlags } from './audit-options.js';
import { loadFlags, withModelOptions, type ModelFlags } from './model-options.js';

/** Options of `xtrust keywords`. */
export interface KeywordsOptions extends AuditSettingFlags, ModelFlags, RunFlags {
  train: string;
  /** A word to explain: why it is or is not a keyword of each class. */
  why?: string;
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
  if (options.why === undefined) return { store: run.path('keywords.json'), pools };
  // per class, the reason's sentence, or null for a word outside the pool (or whose reason was not kept)
  const word = normalizeWord(options.why);
  const why: Record<string, string | null> = {};
  for (const label of store.labels) {
    const r = store.hasPool(label) ? store.why(label, word) : undefined;
    why[label] = r ? reasonSentence(r, store.oracle.meaning ?? {}) : null;
  }
  return { store: run.path('keywords.json'), pools, why: { word, classes: why } };
}

/** Registers `xtrust keywords`. */
export function keywordsCommand(): Command {
  const c = new Command('keywords').description(
    "build and save a keyword store (TOKI's word pools and keywords per class) from training data",
  );
  withModelOptions(c, 'train');
  withAuditSettings(c);
  withRunOptions(c, 'xtrust-keywords');
  c.option('--why <word>', 'say why the word is or is not a keyword of each class');
  withCommonOptions(c);
  examples(c, [
    'xtrust keywords --model xtrust-report/model --train train.csv --out runs/keywords',
    'xtrust keywords --model ./hf-model --train train.jsonl --class-names ham=legitimate --train-sample 2000 --samples 5000',
    'xtrust keywords --model xtrust-report/model --train train.csv --out runs/keywords --resume --why offer',
  ]);
  return c.action(async (opts: KeywordsOptions) => {
    const r = await runKeywords(opts);
    emit(opts.json, r, () =>
      [
        ...Object.entries(r.pools).flatMap(([label, p]) => [
          `${label}${p.className !== label ? ` (as "${p.className}")` : ''}`,
          `  keywords   ${p.keywords.map((w) => w.word).join(', ') || '–'}`,
          `  spurious   ${p.spurious.map((w) => w.word).join(', ') || '–'}`,
          ...(p.related ? [`  related    ${relatedShareSentence(p.related)}`] : []),
          ...(p.leanedFunctionWords?.length || p.phraseFunctionWords?.length
            ? [`  model      ${leanedSentence(p.leanedFunctionWords, p.phraseFunctionWords)}`]
            : []),
          ...(r.why
            ? [`  why "${r.why.word}"  ${r.why.classes[label] ?? 'not in the pool (or no reason recorded)'}`]
            : []),
        ]),
        `store ${r.store}`,
      ].join('\n'),
    );
  });
}
