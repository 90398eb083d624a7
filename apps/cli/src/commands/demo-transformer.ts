import { existsSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { OnnxClassifier } from '@xtrust/models';
import { UsageError } from '../exit.js';

/** `xtrust demo --model bert`: the model kit's committed spam classifier (a 2-layer BERT, SpamAssassin bodies). */
export const DEMO_BERT = 'bert';
const KIT_SPAM_CLASSIFIER = join('models', 'transformers', 'fixtures', 'tiny-bert-spam');

/**
 * The kit's spam classifier folder, looked for in the folders above this module (the repository checkout
 * the CLI runs from, or a package that ships `models/`). UsageError when it is not there.
 */
export function kitSpamClassifier(from = dirname(fileURLToPath(import.meta.url))): string {
  let dir = from;
  for (let up = 0; up < 8; up++) {
    const candidate = join(dir, KIT_SPAM_CLASSIFIER);
    if (existsSync(join(candidate, 'config.json'))) return candidate;
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  throw new UsageError(
    `--model bert: the model kit's spam classifier (${KIT_SPAM_CLASSIFIER}) is not in any folder above ${from}; run the demo from an xtrust checkout (pnpm models:build rebuilds the kit), or pass --model <Hugging Face folder>`,
  );
}

/** Whether a demo `--model` value names a transformer (`bert` or a Hugging Face folder) rather than a built-in kind. */
export function isDemoTransformer(model: string, builtinKinds: readonly string[]): boolean {
  return !builtinKinds.includes(model);
}

/**
 * The demo's transformer classifier: `bert` (the kit's fixture) or a Hugging Face layout folder with
 * onnx/model.onnx, run by onnxruntime-node (an AttentionProvider when the graph outputs attentions, a
 * GradientProvider with onnx/model_grad.onnx). Its labels must cover the dataset's.
 */
export async function loadDemoTransformer(model: string, datasetLabels: readonly string[]): Promise<{ classifier: OnnxClassifier; folder: string }> {
  const folder = model === DEMO_BERT ? kitSpamClassifier() : resolve(model);
  if (!existsSync(folder) || !statSync(folder).isDirectory() || !existsSync(join(folder, 'onnx', 'model.onnx'))) {
    throw new UsageError(`--model ${model}: expected a built-in kind, "bert", or a Hugging Face folder with onnx/model.onnx`);
  }
  const classifier = await OnnxClassifier.load(folder);
  const missing = datasetLabels.filter((l) => !classifier.labels.includes(l));
  if (missing.length > 0 || classifier.labels.length !== datasetLabels.length) {
    await classifier.release();
    throw new UsageError(`--model ${model}: its labels (${classifier.labels.join(', ')}) are not the dataset's (${datasetLabels.join(', ')}); pick the --dataset it was trained on`);
  }
  return { classifier, folder };
}
