/**
 * The transformer path of the shortcut benchmark family (`--model kit-bert`, issue 15 deliverable 4): a
 * case's training and validation rows are written as JSONL, the model kit's `finetune.py` fine-tunes its
 * BERT encoder (default: the committed tiny-bert-mlm fixture, 2 layers × 128) on them with
 * /usr/bin/python3 + PyTorch, and the resulting Hugging Face folder is loaded with @xtrust/models
 * OnnxClassifier, which the benchmark then uses exactly like a bag-of-words model (ground truth by
 * intervention, LIME through the classifier's token scorer, oracle scoring).
 *
 * Fine-tuned folders are cached under a key that hashes the rows, the labels, the encoder's files and
 * the settings (epochs, seed, threads), so a rerun of the same case never retrains.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { XtrustError } from '@xtrust/core';
import type { Row } from '@xtrust/datasets';
import { OnnxClassifier } from '@xtrust/models';

/** The model kind of the transformer path (`--model kit-bert`). */
export const KIT_BERT = 'kit-bert';
/** Debian's interpreter, the one the kit's set-up installs torch into (the `python3` first on PATH may be another). */
export const PYTHON = '/usr/bin/python3';
/** Repository root (this file is apps/bench/dist/oracle/kit-bert.js, or src/ under vitest). */
export const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../../..');
export const FINETUNE_SCRIPT = join(ROOT, 'models/transformers/finetune.py');
/** The committed masked-LM fixture: the default encoder. */
export const DEFAULT_ENCODER = join(ROOT, 'models/transformers/fixtures/tiny-bert-mlm');
/** Where fine-tuned folders go without --cache (git-ignored). */
export const DEFAULT_KIT_CACHE = join(ROOT, 'apps/bench/results/kit-bert-cache');
/** The encoder files that decide what fine-tuning produces (weights, shape, tokenizer). */
export const ENCODER_FILES = [
  'config.json',
  'vocab.txt',
  'tokenizer.json',
  'tokenizer_config.json',
  'special_tokens_map.json',
  'onnx/model.onnx',
] as const;
/** Part of the cache key: bumped when the rows' format or a setting's meaning changes, so older folders are not reused. */
const CACHE_FORMAT = 1;

export interface KitBertSettings {
  /** A kit masked-LM folder (finetune.py --encoder). */
  readonly encoder: string;
  readonly epochs: number;
  readonly seed: number;
  /** torch threads for fine-tuning (part of the key: results are identical only for the same count) and onnxruntime threads for inference. */
  readonly threads: number;
  /** Fine-tuned folders are cached as `<cacheDir>/<key>`. */
  readonly cacheDir: string;
  /** The interpreter (default /usr/bin/python3). */
  readonly python?: string;
  /**
   * Where the fine-tuning runs: 'cpu' (default) here, by finetune.py; another torch device (e.g. 'cuda')
   * on a lent machine. The device is part of the key (a GPU's weights are not the CPU's), and a folder
   * missing for such a key is not trained here: its rows go to `queue` and the case is deferred
   * (DeferredFineTune) until `kit-bert-queue.js` has brought the folder back.
   */
  readonly device?: string;
  /** With a device other than cpu: the JSONL queue of fine-tunings to run there (kit-bert-queue.ts). */
  readonly queue?: string;
}

/** One fine-tuning waiting for a device (a line of the queue file). */
export interface QueuedFineTune {
  readonly key: string;
  /** The rows file (written next to the folder, `<key>.rows.jsonl`). */
  readonly rows: string;
  readonly labels: readonly string[];
  /** The cache folder the result must land in. */
  readonly out: string;
  readonly encoder: string;
  readonly epochs: number;
  readonly seed: number;
  readonly threads: number;
  readonly device: string;
}

/** A case whose transformer is queued for a device (KitBertSettings.device): skipped now, run once the folder is back. */
export class DeferredFineTune extends Error {
  constructor(
    readonly key: string,
    readonly queue: string,
  ) {
    super(`kit-bert: the fine-tuning ${key} is queued in ${queue} for another device; the case is deferred`);
    this.name = 'DeferredFineTune';
  }
}

/** What the fine-tuning gave, for the report. */
export interface KitBertInfo {
  /** The fine-tuned folder (shownPath). */
  readonly folder: string;
  readonly key: string;
  /** The encoder folder (shownPath). */
  readonly encoder: string;
  /** Layers × hidden size of the encoder, e.g. "2 × 128". */
  readonly size: string;
  readonly epochs: number;
  /** The epoch kept (best validation accuracy). */
  readonly bestEpoch: number;
  readonly validationAccuracy: number;
  readonly rows: { readonly train: number; readonly validation: number };
  /** Texts longer than the position limit (cut to `maxLength` word pieces, as transformers.js cuts them). */
  readonly truncated: { readonly train: number; readonly validation: number };
  readonly maxLength: number;
  /** Wall seconds of the fine-tuning process (when it ran; a cached folder keeps the time it took then). */
  readonly seconds: number;
  /** Whether the folder came from the cache. */
  readonly cached: boolean;
  /** Where the weights were trained: "cpu" (here), or the device finetune.py --shards-out named, its weights travelling as int8 (absent in results stored before devices existed: cpu). */
  readonly trainedOn?: string;
}

/** A path as the report shows it: relative to the repository root when inside it (results files stay machine-independent). */
export function shownPath(p: string): string {
  const r = relative(ROOT, resolve(p));
  return r && !r.startsWith('..') && !isAbsolute(r) ? r : resolve(p);
}

/** A twin row of an evaluation pool (triggeredTwins: id `<id>+trigger`), not a text of the split itself. */
export const isTwin = (row: Pick<Row<unknown>, 'id'>): boolean => row.id.endsWith('+trigger');

/**
 * finetune.py's --rows: every training row, and the validation split's own rows (its evaluation-pool
 * twins left out: they exist to give the ground truth an untrustworthy side, and the epoch is chosen on
 * the split's texts as they are). One `{"text","label","split"}` a line, in input order.
 */
export function finetuneRows(
  train: readonly Pick<Row<unknown>, 'id' | 'text' | 'label'>[],
  validation: readonly Pick<Row<unknown>, 'id' | 'text' | 'label'>[],
): string {
  const line = (r: Pick<Row<unknown>, 'text' | 'label'>, split: string) =>
    JSON.stringify({ text: r.text, label: r.label, split });
  return `${[
    ...train.map((r) => line(r, 'train')),
    ...validation.filter((r) => !isTwin(r)).map((r) => line(r, 'validation')),
  ].join('\n')}\n`;
}

/** sha256 of the encoder files that decide the fine-tuned weights (FILE_NOT_FOUND names a missing one). */
export function encoderDigest(folder: string): string {
  const h = createHash('sha256');
  for (const f of ENCODER_FILES) {
    const p = join(folder, f);
    if (!existsSync(p))
      throw new XtrustError(
        'FILE_NOT_FOUND',
        `--encoder ${folder}: ${f} is missing (expected a kit masked-LM folder such as models/transformers/fixtures/tiny-bert-mlm)`,
        { file: p },
      );
    h.update(`${f}\0`).update(readFileSync(p)).update('\0');
  }
  return h.digest('hex');
}

/** The cache key of a fine-tuned folder: rows, labels, encoder files and settings (not the cache folder or the interpreter). */
export function kitBertKey(
  rowsJsonl: string,
  labels: readonly string[],
  encoderSha: string,
  settings: Pick<KitBertSettings, 'epochs' | 'seed' | 'threads' | 'device'>,
): string {
  const h = createHash('sha256');
  // the device enters the key only when it is not the CPU, so the CPU folders made before it existed keep their keys
  const device = settings.device && settings.device !== 'cpu' ? { device: settings.device } : {};
  h.update(
    JSON.stringify({
      format: CACHE_FORMAT,
      labels,
      encoder: encoderSha,
      epochs: settings.epochs,
      seed: settings.seed,
      threads: settings.threads,
      ...device,
    }),
  );
  h.update('\0').update(rowsJsonl);
  return h.digest('hex').slice(0, 20);
}

/** finetune.py's arguments (labels comma-separated: a label with a comma cannot be passed, INVALID_ARGUMENT). */
export function finetuneArgs(
  rowsFile: string,
  labels: readonly string[],
  out: string,
  settings: Pick<KitBertSettings, 'encoder' | 'epochs' | 'seed' | 'threads'>,
): string[] {
  for (const l of labels) {
    if (l.includes(',') || l.trim() !== l || l === '')
      throw new XtrustError(
        'INVALID_ARGUMENT',
        `label ${JSON.stringify(l)}: finetune.py takes the labels comma-separated, so a label must be non-empty, without commas or surrounding spaces`,
        { argument: 'labels' },
      );
  }
  return [
    FINETUNE_SCRIPT,
    '--rows',
    rowsFile,
    '--labels',
    labels.join(','),
    '--out',
    out,
    '--encoder',
    settings.encoder,
    '--epochs',
    String(settings.epochs),
    '--seed',
    String(settings.seed),
    '--threads',
    String(settings.threads),
  ];
}

/** BACKEND_UNAVAILABLE unless `python` imports torch (the kit's set-up installs it). */
export function requireTorch(python: string = PYTHON): void {
  const r = spawnSync(python, ['-c', 'import torch, numpy'], { encoding: 'utf8' });
  if (r.error || r.status !== 0) {
    const why = r.error ? r.error.message : (r.stderr || '').trim().split('\n').pop();
    throw new XtrustError(
      'BACKEND_UNAVAILABLE',
      `--model kit-bert fine-tunes with ${python} and PyTorch, which it cannot run here (${why}): run \`bash models/transformers/setup.sh\` (installs python3-torch, python3-onnx and OpenBLAS with apt)`,
      { python },
    );
  }
}

interface TrainingJson {
  epochs: number;
  best_epoch: number;
  validation_accuracy: number;
  rows: { train: number; validation: number };
  truncated: { train: number; validation: number };
  max_length: number;
  /** finetune.py --from-shards: where the weights were trained and how they travelled. */
  weights?: { trained_on: string; travelled_as: string; dequantized_validation_accuracy: number };
}

/** A cached folder is complete when its graph and training.json are there (finetune.py renames a finished folder into place). */
const complete = (folder: string) =>
  existsSync(join(folder, 'onnx/model.onnx')) && existsSync(join(folder, 'training.json'));

/**
 * The case's transformer: from the cache when a folder with this key exists, else fine-tuned by
 * finetune.py (its log goes to stderr), then loaded with OnnxClassifier on `threads` onnxruntime threads.
 */
export async function kitBertClassifier(
  train: readonly Row<unknown>[],
  validation: readonly Row<unknown>[],
  labels: readonly string[],
  settings: KitBertSettings,
  log?: (line: string) => void,
): Promise<{ classifier: OnnxClassifier; info: KitBertInfo }> {
  const rows = finetuneRows(train, validation);
  const encoderSha = encoderDigest(settings.encoder);
  const ownKey = kitBertKey(rows, labels, encoderSha, settings);
  // a folder fine-tuned here (on the CPU) for the same rows and settings serves a device run too: it is the reference computation
  const cpuKey = kitBertKey(rows, labels, encoderSha, { ...settings, device: undefined });
  const key = ownKey !== cpuKey && complete(join(settings.cacheDir, cpuKey)) ? cpuKey : ownKey;
  const folder = join(settings.cacheDir, key);
  const timing = join(folder, 'bench-finetune.json');
  let cached = complete(folder);
  let seconds: number;
  if (cached) {
    seconds = existsSync(timing) ? (JSON.parse(readFileSync(timing, 'utf8')) as { seconds: number }).seconds : NaN;
    log?.(`  kit-bert: fine-tuned folder ${folder} from the cache`);
  } else if (settings.device && settings.device !== 'cpu') {
    if (!settings.queue)
      throw new XtrustError(
        'INVALID_ARGUMENT',
        `kit-bert: fine-tuning on ${settings.device} needs a queue file (--finetune-queue FILE)`,
        { argument: 'queue' },
      );
    mkdirSync(settings.cacheDir, { recursive: true });
    const rowsFile = `${folder}.rows.jsonl`;
    writeFileSync(`${rowsFile}.${process.pid}.tmp`, rows);
    renameSync(`${rowsFile}.${process.pid}.tmp`, rowsFile);
    const entry: QueuedFineTune = {
      key,
      rows: rowsFile,
      labels,
      out: folder,
      encoder: settings.encoder,
      epochs: settings.epochs,
      seed: settings.seed,
      threads: settings.threads,
      device: settings.device,
    };
    const queued = existsSync(settings.queue)
      ? readFileSync(settings.queue, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((l) => (JSON.parse(l) as QueuedFineTune).key)
      : [];
    if (!queued.includes(key)) appendFileSync(settings.queue, `${JSON.stringify(entry)}\n`);
    log?.(`  kit-bert: ${key} queued for ${settings.device} in ${settings.queue}`);
    throw new DeferredFineTune(key, settings.queue);
  } else {
    const python = settings.python ?? PYTHON;
    requireTorch(python);
    mkdirSync(settings.cacheDir, { recursive: true });
    const rowsFile = `${folder}.rows.jsonl`;
    writeFileSync(`${rowsFile}.${process.pid}.tmp`, rows);
    renameSync(`${rowsFile}.${process.pid}.tmp`, rowsFile);
    const args = finetuneArgs(rowsFile, labels, folder, settings);
    log?.(`  kit-bert: ${python} ${args.join(' ')}`);
    const t0 = performance.now();
    // the script's progress goes to our stderr: stdout is the benchmark's Markdown
    const r = spawnSync(python, args, { stdio: ['ignore', 2, 2] });
    seconds = (performance.now() - t0) / 1000;
    if (r.error || r.status !== 0)
      throw new Error(
        `finetune.py failed (${r.error ? r.error.message : `exit status ${r.status}`}); its messages are above. Command: ${python} ${args.join(' ')}`,
      );
    if (!complete(folder))
      throw new Error(`finetune.py exited 0 but ${folder} has no onnx/model.onnx or training.json`);
    writeFileSync(timing, `${JSON.stringify({ seconds, python, args })}\n`);
    cached = false;
  }
  const t = JSON.parse(readFileSync(join(folder, 'training.json'), 'utf8')) as TrainingJson;
  const cfg = JSON.parse(readFileSync(join(folder, 'config.json'), 'utf8')) as {
    num_hidden_layers: number;
    hidden_size: number;
  };
  const classifier = await OnnxClassifier.load(folder, { threads: settings.threads, name: `kit-bert ${key}` });
  const info: KitBertInfo = {
    folder: shownPath(folder),
    key,
    encoder: shownPath(settings.encoder),
    size: `${cfg.num_hidden_layers} × ${cfg.hidden_size}`,
    epochs: t.epochs,
    bestEpoch: t.best_epoch,
    // a folder exported from int8 shards reports the accuracy of the weights it holds
    validationAccuracy: t.weights?.dequantized_validation_accuracy ?? t.validation_accuracy,
    rows: t.rows,
    truncated: t.truncated,
    maxLength: t.max_length,
    seconds,
    cached,
    trainedOn: t.weights ? `${t.weights.trained_on}; weights as int8 rows, dequantized` : 'cpu',
  };
  return { classifier, info };
}
