import { Command } from 'commander';
import type { Explanation } from '@xtrust/core';
import { EXPLAINER_NAMES, explainerByName } from '@xtrust/explainers';
import { explainAll, modelFingerprint } from '@xtrust/oracle';
import { progressBridge } from '../audit.js';
import { fileDigest, readTexts } from '../data-files.js';
import { UsageError } from '../exit.js';
import { loadModel } from '../model-loader.js';
import { emit, toJsonl } from '../output.js';
import { examples, intArg, positiveIntArg, withCommonOptions, withRunOptions, type RunFlags } from '../options.js';
import { Progress } from '../progress.js';
import { CHECKPOINT_SECONDS, RunDir } from '../run-dir.js';
import { loadFlags, withModelOptions, type ModelFlags } from './model-options.js';
import { DEFAULT_LIME_MODE, limeModeParts, limeOptionsOf, withLimeModeOption, type LimeMode } from '../lime-mode.js';

/** Options of `xtrust explain`. */
export interface ExplainOptions extends ModelFlags, RunFlags {
  text?: string[];
  input?: string;
  method: string;
  samples: number;
  topK: number;
  seed: number;
  limeMode: LimeMode;
}

/** The explainer's options from the flags (LIME's neighbourhood, word count and mode; a seed for the stochastic ones). */
function explainerOptions(o: ExplainOptions): Record<string, unknown> {
  if (o.method === 'lime')
    return { numSamples: o.samples, numFeatures: o.topK, seed: o.seed, ...limeOptionsOf(o.limeMode) };
  if (o.method === 'kernel-shap') return { numSamples: o.samples, seed: o.seed };
  return {};
}

/**
 * Explains texts given with --text (printed) or a file given with --input (each explanation appended
 * to <out>/explanations.jsonl as it is made, so `--resume` continues a long file).
 */
export async function runExplain(
  options: ExplainOptions,
  progress = new Progress(undefined, { quiet: options.quiet }),
): Promise<{ explanations: Explanation[]; file?: string }> {
  if (!options.text?.length && !options.input)
    throw new UsageError('explain needs --text "<text>" (repeatable) or --input <file>');
  if (options.text?.length && options.input) throw new UsageError('give --text or --input, not both');
  if (!(EXPLAINER_NAMES as readonly string[]).includes(options.method))
    throw new UsageError(`--method ${options.method} is not one of ${EXPLAINER_NAMES.join(', ')}`);
  const limeMode = options.limeMode ?? DEFAULT_LIME_MODE;
  if (limeMode !== DEFAULT_LIME_MODE && options.method !== 'lime')
    throw new UsageError(`--lime-mode ${limeMode} is a mode of --method lime, not of --method ${options.method}`);
  const model = await loadModel(options.model, { ...loadFlags(options), quantize: limeModeParts(limeMode).quantize });
  const explainer = explainerByName(options.method, explainerOptions(options));
  if (options.text?.length) {
    const explanations = await explainer.explain(model.classifier, options.text);
    return { explanations: explanations.map((e) => ({ ...e, features: e.features.slice(0, options.topK) })) };
  }
  const texts = await readTexts(options.input!, options.textColumn);
  const run = RunDir.open(
    options.out,
    'explain',
    {
      model: await modelFingerprint(model.classifier),
      input: fileDigest(options.input!),
      method: options.method,
      ...explainerOptions(options),
      topK: options.topK,
      limeMode,
    },
    options.resume,
  );
  const bridge = progressBridge(progress, options.method);
  const explanations = await explainAll(
    explainer,
    model.classifier,
    texts,
    texts.map((_, i) => String(i)),
    {
      checkpoint: run.path('explanations.checkpoint.jsonl'),
      batchSeconds: CHECKPOINT_SECONDS,
      onProgress: bridge.onProgress,
    },
  );
  bridge.stop();
  const file = run.writeFile('explanations.jsonl', toJsonl(explanations));
  run.complete();
  return { explanations, file };
}

/** The human lines of an explanation: predicted label and its top words. */
export function formatExplanation(e: Explanation, topK: number): string {
  const words = e.features.slice(0, topK).map((f) => `${f.word} ${f.weight >= 0 ? '+' : ''}${f.weight.toFixed(4)}`);
  const text = e.text.length > 80 ? `${e.text.slice(0, 77)}…` : e.text;
  return `"${text.replace(/\s+/g, ' ')}"\n  predicted ${e.predictedLabel}, explaining ${e.explainedLabel} (${e.method}): ${words.join(', ')}`;
}

/** Registers `xtrust explain`. */
export function explainCommand(): Command {
  const c = new Command('explain').description(
    'explain predictions: the words each prediction rests on, with their weights',
  );
  withModelOptions(c, 'none');
  c.option('--text <text...>', 'texts to explain')
    .option('--input <file>', 'a file of texts: .txt (one a line), or .csv/.jsonl with --text-column')
    .option('--method <name>', EXPLAINER_NAMES.join(' | '), 'lime')
    .option('--samples <n>', 'LIME / Kernel SHAP samples', positiveIntArg, 1000)
    .option('--top-k <n>', 'words shown per explanation', positiveIntArg, 10)
    .option('--seed <n>', 'seed of the stochastic explainers', intArg, 0);
  withLimeModeOption(c);
  withRunOptions(c, 'xtrust-explain');
  withCommonOptions(c);
  examples(c, [
    'xtrust explain --model xtrust-report/model --text "win a free prize now"',
    'xtrust explain --model model.onnx --input texts.csv --text-column body --method omission --out runs/explain --resume',
    'xtrust explain --model ./bert-folder --input texts.jsonl --samples 5000 --lime-mode int8+adaptive',
  ]);
  return c.action(async (opts: ExplainOptions) => {
    const r = await runExplain(opts);
    emit(opts.json, r, () =>
      [
        ...r.explanations.map((e) => formatExplanation(e, opts.topK)),
        ...(r.file ? [`explanations ${r.file}`] : []),
      ].join('\n'),
    );
  });
}
