/**
 * The kit BERTs' side of the annotated pools (issue 47, deliverable 2): the full-size kit classifiers
 * (`models:build --stages mlm,classifiers --tasks spam,brown`: 4 × 256 encoders, 128 positions) and the
 * training texts they were fine-tuned on, as the oracle's keyword step sees them.
 *
 * What differs from bow-logistic's pools, and why:
 * - the texts are the kit's own training split (`out/data/<corpus>.jsonl`, split "train"), so the pool is
 *   the one `xtrust audit --model <folder> --train <that split>` builds; the file's digest is recorded so a
 *   rebuilt kit is noticed rather than scored against labels of another pool;
 * - each text is cut to the words the model sees (its position limit): LIME's weights for words past it
 *   are sampling noise around zero, which would only dilute each explanation's top 10;
 * - LIME runs on the int8 graph with adaptive stopping (`--lime-mode int8+adaptive`, the fast audit's
 *   keyword pass, whose keywords agree with exact LIME's at Jaccard 0.95 / 0.96 — transformer-audit):
 *   exact LIME 5,000 on 2 cores would take hours per pool.
 * Explanations are kept in a git-ignored cache file, written after every chunk, so a long pass resumes and
 * the scoring run reuses them instead of explaining again.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tokenize, type Explainer, type TextLimit } from '@xtrust/core';
import { LimeExplainer } from '@xtrust/explainers';
import { OnnxClassifier } from '@xtrust/models';
import { ROOT } from './kit-bert.js';

/** The kit classifier folder of each corpus whose pool is labelled. */
export const KIT_POOL_MODELS = {
  spam: 'models/transformers/out/bert-spam',
  brown: 'models/transformers/out/bert-brown',
} as const;
export type KitPoolCorpus = keyof typeof KIT_POOL_MODELS;
export const KIT_POOL_CORPORA = Object.keys(KIT_POOL_MODELS) as KitPoolCorpus[];

/** How a kit BERT's keyword texts are explained: the fast audit's keyword pass. */
export const KIT_POOL_LIME = 'int8+adaptive';

/** The kit's exported corpus file of `corpus` (models/transformers/export-corpora.mjs). */
export const kitDataFile = (corpus: KitPoolCorpus): string => `models/transformers/out/data/${corpus}.jsonl`;

/** Where a pool's explanations are cached (git-ignored). */
export const kitPoolCache = (corpus: KitPoolCorpus): string =>
  join(ROOT, 'apps/bench/results/annotated-pools-cache', `kit-bert-${corpus}.json`);

/** The kit's training texts of `corpus`, and the digest of the file they came from. */
export function kitTrainingTexts(corpus: KitPoolCorpus): {
  rows: { text: string; label: string }[];
  sha256: string;
} {
  const file = join(ROOT, kitDataFile(corpus));
  if (!existsSync(file))
    throw new Error(
      `${kitDataFile(corpus)} is missing: build the kit first (pnpm models:build --only base --stages mlm,classifiers --tasks ${corpus})`,
    );
  const bytes = readFileSync(file);
  const rows: { text: string; label: string }[] = [];
  for (const line of bytes.toString('utf8').split('\n')) {
    if (line.trim() === '') continue;
    const r = JSON.parse(line) as { text: string; label: string; split: string };
    if (r.split === 'train') rows.push({ text: r.text, label: r.label });
  }
  return { rows, sha256: createHash('sha256').update(bytes).digest('hex') };
}

/** The kit classifier of `corpus` on its int8 graph. */
export async function kitPoolModel(corpus: KitPoolCorpus, threads: number): Promise<OnnxClassifier> {
  const dir = join(ROOT, KIT_POOL_MODELS[corpus]);
  if (!existsSync(join(dir, 'onnx/model.onnx')))
    throw new Error(
      `${KIT_POOL_MODELS[corpus]} is missing: build the kit first (pnpm models:build --only base --stages mlm,classifiers --tasks ${corpus})`,
    );
  return OnnxClassifier.load(dir, { quantize: 'int8', threads, batchSize: 32 });
}

/**
 * `text` up to the end of the last word the model sees (`seenWords` of core's `tokenize`); the text itself
 * when the model sees it all.
 */
export function cutToSeen(model: TextLimit, text: string): string {
  const tokens = tokenize(text);
  const seen = model.seenWords(text);
  return seen >= tokens.length || seen === 0 ? text : text.slice(0, tokens[seen - 1].end);
}

/** LIME as the fast audit's keyword pass runs it (adaptive stopping; the graph's int8 is the model's). */
export function kitPoolExplainer(samples: number, seed: number): { explainer: Explainer; params: string } {
  return {
    explainer: new LimeExplainer({
      numSamples: samples,
      numFeatures: 10,
      seed,
      adaptive: true,
    }) as unknown as Explainer,
    params: `lime:${samples}:10:${seed}:${KIT_POOL_LIME}`,
  };
}
