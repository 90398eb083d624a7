import { existsSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { OnnxClassifier } from '@xtrust/models';
import { UsageError } from '../exit.js';
import { defaultThreads } from '../model-loader.js';

/** `xtrust demo --model bert`: the model kit's committed classifier of the dataset (a small trained BERT). */
export const DEMO_BERT = 'bert';
const KIT_FIXTURES = join('models', 'transformers', 'fixtures');
/** The kit's classifier fixture of each demo dataset (none for State of the Union). */
const KIT_CLASSIFIERS: Readonly<Record<string, string>> = { spamassassin: 'tiny-bert-spam', brown: 'tiny-bert-brown' };
/**
 * The kit's seeded split (models/transformers/export-corpora.mjs, the oracle benchmark's settings): with
 * it the demo's test texts are the kit's held-out texts, so the reported accuracy is honest.
 */
export const KIT_SPLIT = { testFraction: 0.3, validationFraction: 0.15, seed: 1 } as const;

/**
 * A kit classifier folder, looked for in the folders above this module (the repository checkout the CLI
 * runs from, or a package that ships `models/`). UsageError when it is not there.
 */
export function kitClassifier(name: string, from = dirname(fileURLToPath(import.meta.url))): string {
  const rel = join(KIT_FIXTURES, name);
  let dir = from;
  for (let up = 0; up < 8; up++) {
    const candidate = join(dir, rel);
    if (existsSync(join(candidate, 'config.json'))) return candidate;
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  throw new UsageError(
    `--model bert: the model kit's classifier ${rel} is not in any folder above ${from}; run the demo from an xtrust checkout (pnpm models:build rebuilds the kit), or pass --model <Hugging Face folder>`,
  );
}

/** Whether a demo `--model` value names a transformer (`bert` or a Hugging Face folder) rather than a built-in kind. */
export function isDemoTransformer(model: string, builtinKinds: readonly string[]): boolean {
  return !builtinKinds.includes(model);
}

/** The part of the demo's data a transformer needs: its rows and labels. */
export interface TransformerDemoData<D extends { labels: readonly string[]; rows: readonly { label: string }[] }> {
  readonly classifier: OnnxClassifier;
  readonly folder: string;
  /** The dataset restricted to the model's labels (e.g. the kit's five Brown genres). */
  readonly data: D;
  /** The kit's split for `bert`; undefined for a user's folder (the demo's own split then). */
  readonly split?: typeof KIT_SPLIT;
}

/**
 * The demo's transformer classifier: `bert` (the kit's fixture for the dataset) or a Hugging Face folder
 * with onnx/model.onnx, run by onnxruntime-node (an AttentionProvider when the graph outputs attentions, a
 * GradientProvider with onnx/model_grad.onnx). Its labels must be labels of the dataset; the data is
 * restricted to them. `quantize: 'int8'` (`--lime-mode int8`) runs its matrix products in int8.
 */
export async function loadDemoTransformer<D extends { labels: readonly string[]; rows: readonly { label: string }[] }>(
  model: string,
  dataset: string,
  data: D,
  options: { quantize?: 'int8' } = {},
): Promise<TransformerDemoData<D>> {
  let folder: string;
  if (model === DEMO_BERT) {
    const name = KIT_CLASSIFIERS[dataset];
    if (!name)
      throw new UsageError(
        `--model bert: the model kit has no classifier for --dataset ${dataset} (it has ${Object.keys(KIT_CLASSIFIERS).join(', ')})`,
      );
    folder = kitClassifier(name);
  } else folder = resolve(model);
  if (!existsSync(folder) || !statSync(folder).isDirectory() || !existsSync(join(folder, 'onnx', 'model.onnx'))) {
    throw new UsageError(
      `--model ${model}: expected a built-in kind, "bert", or a Hugging Face folder with onnx/model.onnx`,
    );
  }
  const classifier = await OnnxClassifier.load(folder, { quantize: options.quantize, threads: defaultThreads() });
  const foreign = classifier.labels.filter((l) => !data.labels.includes(l));
  if (foreign.length > 0) {
    await classifier.release();
    throw new UsageError(
      `--model ${model}: its labels (${classifier.labels.join(', ')}) are not labels of --dataset ${dataset} (${data.labels.join(', ')}); pick the dataset it was trained on`,
    );
  }
  const keep = new Set(classifier.labels);
  const restricted = { ...data, labels: [...classifier.labels], rows: data.rows.filter((r) => keep.has(r.label)) };
  return { classifier, folder, data: restricted, split: model === DEMO_BERT ? KIT_SPLIT : undefined };
}
