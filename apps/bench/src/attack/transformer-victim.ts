/**
 * The attack benchmark's transformer victims (issue 15): a sequence classifier in Hugging Face layout
 * (the model kit's tiny-bert-spam / tiny-bert-brown, or a full-size build of the same tasks) loaded as
 * @xtrust/models' `OnnxClassifier` and attacked on the held-out test texts of the kit's own split, which
 * the model never saw in training. The split is re-made here through @xtrust/datasets with the settings
 * of models/transformers/export-corpora.mjs (testFraction 0.3, validationFraction 0.15, seed 1; Brown's
 * five nameable genres grouped by document; SpamAssassin bodies) — never read from the kit's git-ignored
 * out/data files — and checked against the test size the kit recorded in the folder's training.json.
 *
 * TOKI's keyword store for the TOKI-guided attack (000 §3.1) is identified from LIME explanations of the
 * victim itself on its training split (LIME scores its neighbourhoods through the classifier's batched
 * `scoreTokenMasks`), not borrowed from a bag-of-words model.
 */
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { firstWords, XtrustError, type WordEmbedding } from '@xtrust/core';
import { loadBrown, loadSpamAssassin, stratifiedSplit } from '@xtrust/datasets';
import { LimeExplainer } from '@xtrust/explainers';
import { OnnxClassifier } from '@xtrust/models';
import { KeywordStore, identifyKeywords } from '@xtrust/oracle';
import type { Classifier } from '@xtrust/core';

/** The kit's seeded split (models/transformers/export-corpora.mjs `SPLIT`; the oracle benchmark's settings). */
export const KIT_SPLIT = { testFraction: 0.3, validationFraction: 0.15, seed: 1 } as const;
/** Brown genres with nameable classes (the kit's tiny-bert-brown and the bag-of-words Brown case use the same five). */
export const BROWN_CLASSES = ['news', 'religion', 'hobbies', 'government', 'romance'] as const;
/** The labels a victim of each case must have (as a set; the order is the folder's id2label). */
export const CASE_LABELS: Readonly<Record<string, readonly string[]>> = { spam: ['ham', 'spam'], brown: BROWN_CLASSES };
/** Names standing for labels in TOKI's similarities (000 §3.1): "ham" is not in the embeddings. */
export const CASE_CLASS_NAMES: Readonly<Record<string, Readonly<Record<string, string>> | undefined>> = {
  spam: { ham: 'legitimate' },
  brown: undefined,
};
const CASE_TITLES: Readonly<Record<string, string>> = {
  spam: 'SpamAssassin (body)',
  brown: `Brown (${BROWN_CLASSES.join(', ')})`,
};

export interface SplitRow {
  readonly text: string;
  readonly label: string;
  readonly id: string;
}

/** One case on the kit's split: rows cut to the bench's word limit after splitting (the split does not depend on the text). */
export interface KitSplitCase {
  readonly name: string;
  readonly title: string;
  readonly train: SplitRow[];
  readonly validation: SplitRow[];
  readonly test: SplitRow[];
  readonly classNames?: Readonly<Record<string, string>>;
}

/**
 * The kit's train / validation / test split of case `spam` (SpamAssassin bodies) or `brown` (the five
 * genres, 5-sentence passages, grouped by document so no document is on both sides), re-made through
 * @xtrust/datasets exactly as export-corpora.mjs makes it; texts then cut to their first `words` words.
 */
export function kitSplitCase(name: string, words: number): KitSplitCase {
  const cut = (rows: readonly { id: string; text: string; label: string }[]): SplitRow[] =>
    rows.map((r) => ({ id: r.id, text: firstWords(r.text, words, { by: 'whitespace' }), label: r.label }));
  if (name === 'spam') {
    const s = stratifiedSplit(loadSpamAssassin({ headers: false }).rows, KIT_SPLIT);
    return {
      name,
      title: CASE_TITLES.spam,
      train: cut(s.train),
      validation: cut(s.validation),
      test: cut(s.test),
      classNames: CASE_CLASS_NAMES.spam,
    };
  }
  if (name === 'brown') {
    const five = loadBrown({ tags: false }).rows.filter((r) => (BROWN_CLASSES as readonly string[]).includes(r.label));
    const s = stratifiedSplit(five, { ...KIT_SPLIT, group: (r) => String((r.meta as { document: string }).document) });
    return { name, title: CASE_TITLES.brown, train: cut(s.train), validation: cut(s.validation), test: cut(s.test) };
  }
  throw new XtrustError(
    'INVALID_ARGUMENT',
    `unknown case "${name}" for a transformer victim (known: ${Object.keys(CASE_LABELS).join(', ')})`,
    { argument: 'cases' },
  );
}

/**
 * `--model` of the bench: one folder for every case (`DIR`), or one per case (`spam=DIR,brown=DIR`).
 * Every case run must have a folder; a folder for a case not run is refused (a typo, not silently unused).
 */
export function parseVictims(value: string, cases: readonly string[]): Record<string, string> {
  if (!value)
    throw new XtrustError('INVALID_ARGUMENT', '--model needs a folder or case=folder pairs', { argument: 'model' });
  const parts = value.split(',').filter(Boolean);
  if (parts.length === 1 && !parts[0].includes('=')) return Object.fromEntries(cases.map((c) => [c, parts[0]]));
  const out: Record<string, string> = {};
  for (const p of parts) {
    const eq = p.indexOf('=');
    if (eq <= 0 || eq === p.length - 1)
      throw new XtrustError(
        'INVALID_ARGUMENT',
        `--model: "${p}" is not case=folder (e.g. spam=models/transformers/fixtures/tiny-bert-spam)`,
        { argument: 'model' },
      );
    const c = p.slice(0, eq);
    if (!cases.includes(c))
      throw new XtrustError('INVALID_ARGUMENT', `--model: case "${c}" is not among --cases ${cases.join(',')}`, {
        argument: 'model',
      });
    out[c] = p.slice(eq + 1);
  }
  const missing = cases.filter((c) => !(c in out));
  if (missing.length > 0)
    throw new XtrustError(
      'INVALID_ARGUMENT',
      `--model: no folder for case ${missing.join(', ')} (give case=folder for every case of --cases)`,
      { argument: 'model' },
    );
  return out;
}

/** What the model kit recorded about a classifier's training (training.json), when the folder has it. */
export interface KitTraining {
  readonly corpus?: string;
  readonly test_accuracy?: number;
  readonly test_size?: number;
  readonly epochs?: number;
}

export interface TransformerVictim {
  readonly model: OnnxClassifier;
  readonly folder: string;
  /** The folder's last path component: names the victim in tables and record files. */
  readonly tag: string;
  /** Layers × hidden size from config.json, e.g. "2×128". */
  readonly size: string;
  readonly training: KitTraining | null;
}

/**
 * Loads `folder` as the victim of case `c`: its labels must be the case's labels, and when the folder
 * carries the kit's training.json, its corpus must be the case and its recorded test size the size of the
 * split re-made here — otherwise the attacked texts might be texts the model was trained on.
 */
export async function loadTransformerVictim(
  folder: string,
  c: KitSplitCase,
  options: { threads?: number } = {},
): Promise<TransformerVictim> {
  const dir = resolve(folder);
  if (!existsSync(join(dir, 'onnx', 'model.onnx')))
    throw new XtrustError(
      'FILE_NOT_FOUND',
      `--model ${folder}: no onnx/model.onnx there (expected a classifier folder in Hugging Face layout, e.g. models/transformers/fixtures/tiny-bert-${c.name})`,
      { file: join(dir, 'onnx', 'model.onnx') },
    );
  const expected = CASE_LABELS[c.name];
  let training: KitTraining | null = null;
  if (existsSync(join(dir, 'training.json')))
    training = JSON.parse(readFileSync(join(dir, 'training.json'), 'utf8')) as KitTraining;
  if (training?.corpus !== undefined && training.corpus !== c.name) {
    throw new XtrustError(
      'INVALID_ARGUMENT',
      `--model ${folder}: trained on the kit's "${training.corpus}" corpus, not on case "${c.name}"`,
      { argument: 'model' },
    );
  }
  if (training?.test_size !== undefined && training.test_size !== c.test.length) {
    throw new XtrustError(
      'INVALID_ARGUMENT',
      `--model ${folder}: the kit held out ${training.test_size} ${c.name} texts but the split re-made here has ${c.test.length}; the attacked texts would not be the model's held-out texts`,
      { argument: 'model' },
    );
  }
  const model = await OnnxClassifier.load(dir, { threads: options.threads });
  const got = [...model.labels].sort();
  if (got.length !== expected.length || got.some((l, i) => l !== [...expected].sort()[i])) {
    await model.release();
    throw new XtrustError(
      'INVALID_ARGUMENT',
      `--model ${folder}: labels ${model.labels.join(', ')} are not the labels of case ${c.name} (${expected.join(', ')})`,
      { argument: 'model' },
    );
  }
  let size = '?';
  try {
    const cfg = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')) as {
      num_hidden_layers?: number;
      hidden_size?: number;
    };
    if (cfg.num_hidden_layers && cfg.hidden_size) size = `${cfg.num_hidden_layers}×${cfg.hidden_size}`;
  } catch {
    // config.json was read by OnnxClassifier.load already; a size we cannot read is only cosmetic
  }
  return { model, folder: dir, tag: basename(dir), size, training };
}

/**
 * A committed fixture of the model kit (models/transformers/fixtures/<name>), looked for in the folders
 * above this module (source under bench/ or the build under dist/bench/bench/), or undefined.
 */
export function findKitFixture(name: string, from = dirname(fileURLToPath(import.meta.url))): string | undefined {
  let dir = from;
  for (let up = 0; up < 10; up++) {
    const candidate = join(dir, 'models', 'transformers', 'fixtures', name);
    if (existsSync(join(candidate, 'onnx', 'model.onnx'))) return candidate;
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return undefined;
}

export interface LimeStoreOptions {
  /** TOKI's embedding (one member; the attack's own counter-fitted vectors in the bench) and its θ_relate. */
  readonly embedding: WordEmbedding;
  readonly thetaRelate: number;
  /** Training texts sampled before explaining (000 §6.4 takes 2,000; fewer on a transformer for time). */
  readonly sampleSize: number;
  /** LIME's neighbourhood size per explanation. */
  readonly limeSamples: number;
  readonly seed: number;
  readonly classNames?: Readonly<Record<string, string>>;
  /** JSONL checkpoint of the explanations (a killed run resumes from it). */
  readonly checkpoint?: string;
  /** The store's JSON file: loaded when present (and the model's fingerprint matches), written after identification. */
  readonly cache?: string;
}

/**
 * TOKI's keyword store (000 §3.1, Eqs. 1–4) identified from LIME explanations (top 10 words, 000 §6.4)
 * of `model` on its own correctly predicted training texts. On a TokenScorer (OnnxClassifier) LIME scores
 * each neighbourhood in one `scoreTokenMasks` call: ids assembled from the word masks, batched by length.
 */
export async function limeKeywordStore(
  model: Classifier,
  train: readonly { text: string; label: string }[],
  o: LimeStoreOptions,
): Promise<{ store: KeywordStore; cached: boolean }> {
  if (o.cache && existsSync(o.cache))
    return { store: await KeywordStore.load(o.cache, { classifier: model }), cached: true };
  const explainer = new LimeExplainer({ numSamples: o.limeSamples, numFeatures: 10, seed: o.seed });
  const store = await identifyKeywords(
    model,
    train.map((r) => r.text),
    train.map((r) => r.label),
    {
      explainer: explainer as never,
      explainerOptions: { numSamples: o.limeSamples, numFeatures: 10, seed: o.seed },
      embeddings: [o.embedding],
      thetaRelate: o.thetaRelate,
      sampleSize: o.sampleSize,
      classNames: o.classNames,
      seed: o.seed,
      checkpoint: o.checkpoint,
      // as the bag-of-words Table 4 (attack/run.ts): class names alone, the configuration its figures were measured with
      oracle: 'toki-name',
    },
  );
  if (o.cache) await store.save(o.cache);
  return { store, cached: false };
}
