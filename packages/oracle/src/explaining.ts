import { existsSync } from 'node:fs';
import { XtrustError, readJsonl, JsonlWriter, type Classifier, type Explainer, type Explanation } from '@xtrust/core';

/** Progress of a long phase: `done` of `total` units. */
export interface Progress {
  readonly phase: 'predict' | 'explain' | 'keywords' | 'label';
  readonly done: number;
  readonly total: number;
}

export interface ExplainAllOptions {
  /** Options handed to the explainer on every call (e.g. LIME's `{ samples: 5000 }`). */
  readonly explainerOptions?: Record<string, unknown>;
  /** Texts per explainer call (default 32): explainers batch internally, this bounds memory and progress granularity. */
  readonly batchSize?: number;
  /**
   * A JSONL file that receives each explanation as it is made; a rerun with the same file skips the
   * texts already explained there (a killed run resumes without losing or repeating work).
   */
  readonly checkpoint?: string;
  /**
   * The longest one explainer call should take, in seconds (default: no bound, `batchSize` texts per
   * call). With a checkpoint this bounds the work a killed run loses: an audit of a transformer at
   * LIME 5,000 spends half a minute per text, so 32 texts a call would lose up to a quarter of an hour.
   * The first call explains one text; each next one as many as fit in `batchSeconds` at the rate seen
   * so far, between 1 and `batchSize`. The explanations do not depend on it (each text is explained on
   * its own seed, whatever its batch).
   */
  readonly batchSeconds?: number;
  readonly onProgress?: (p: Progress) => void;
}

interface CheckpointRecord {
  key: string;
  explanation?: Explanation;
  /** Why the explainer refused this text (with `skipUnexplainable`). */
  error?: string;
}

/** Error codes with which an explainer refuses one text (not the whole run): such a text can be skipped. */
const PER_TEXT_CODES = new Set(['INVALID_ARGUMENT', 'EMPTY_TEXT', 'NO_KNOWN_WORDS']);

/** Explanations in input order; `null` where the explainer refused the text, with the reason in `failures`. */
export interface TolerantExplanations {
  readonly explanations: (Explanation | null)[];
  readonly failures: { readonly index: number; readonly reason: string }[];
}

/**
 * Explains `texts` with `explainer`, `batchSize` texts per call. Returns explanations in input order.
 * With a checkpoint, finished explanations are appended as they come and reused on a rerun; a record
 * whose text differs from the input at its key is refused, so a checkpoint never mixes two inputs.
 */
export async function explainAll(
  explainer: Explainer,
  classifier: Classifier,
  texts: readonly string[],
  keys: readonly string[],
  options: ExplainAllOptions = {},
): Promise<Explanation[]> {
  const r = await explainTolerant(explainer, classifier, texts, keys, options, false);
  return r.explanations as Explanation[];
}

/**
 * `explainAll` that survives texts the explainer refuses (a one-word text for LIME, an empty text):
 * when a batch fails with a per-text error (INVALID_ARGUMENT, EMPTY_TEXT, NO_KNOWN_WORDS), its texts are
 * explained one by one and those refused come back as `null` with the reason — one odd training text
 * must not end a keyword identification over thousands. Refusals are checkpointed too.
 */
export async function explainTolerant(
  explainer: Explainer,
  classifier: Classifier,
  texts: readonly string[],
  keys: readonly string[],
  options: ExplainAllOptions = {},
  skipUnexplainable = true,
): Promise<TolerantExplanations> {
  const batchSize = options.batchSize ?? 32;
  if (!Number.isInteger(batchSize) || batchSize <= 0)
    throw new XtrustError('INVALID_ARGUMENT', `batchSize must be a positive integer, got ${batchSize}`);
  const batchSeconds = options.batchSeconds;
  if (batchSeconds !== undefined && !(typeof batchSeconds === 'number' && batchSeconds > 0)) {
    throw new XtrustError(
      'INVALID_ARGUMENT',
      `batchSeconds must be a positive number of seconds, got ${JSON.stringify(batchSeconds)}`,
    );
  }
  if (keys.length !== texts.length)
    throw new XtrustError('DIMENSION_MISMATCH', `explainAll: ${texts.length} texts but ${keys.length} keys`);
  const out: (Explanation | null | undefined)[] = new Array(texts.length);
  const failures: { index: number; reason: string }[] = [];
  const position = new Map<string, number>();
  keys.forEach((k, i) => position.set(k, i));
  let writer: JsonlWriter | null = null;
  if (options.checkpoint) {
    if (existsSync(options.checkpoint)) {
      for await (const rec of readJsonl<CheckpointRecord>(options.checkpoint, { tolerateTruncatedTail: true })) {
        const i = position.get(rec.value.key);
        if (i === undefined) continue;
        if (rec.value.error !== undefined && skipUnexplainable) {
          out[i] = null;
          failures.push({ index: i, reason: rec.value.error });
          continue;
        }
        if (!rec.value.explanation) continue;
        if (rec.value.explanation.text !== texts[i]) {
          throw new XtrustError(
            'INCOMPATIBLE',
            `checkpoint ${options.checkpoint} line ${rec.line} explains another text for key ${rec.value.key}; use a fresh checkpoint file for new inputs`,
            { file: options.checkpoint, line: rec.line },
          );
        }
        out[i] = rec.value.explanation;
      }
    }
    writer = new JsonlWriter(options.checkpoint);
  }
  const todo: number[] = [];
  for (let i = 0; i < texts.length; i++) if (out[i] === undefined) todo.push(i);
  let done = texts.length - todo.length;
  options.onProgress?.({ phase: 'explain', done, total: texts.length });
  try {
    let size = batchSeconds === undefined ? batchSize : 1;
    let spent = 0;
    let timed = 0;
    for (let b = 0; b < todo.length; b += size) {
      if (batchSeconds !== undefined && timed > 0)
        size = Math.max(1, Math.min(batchSize, Math.floor((batchSeconds * timed) / spent)));
      const idx = todo.slice(b, b + size);
      const t0 = performance.now();
      const batch = idx.map((i) => texts[i]);
      let ex: (Explanation | null)[];
      try {
        ex = await explainBatch(explainer, classifier, batch, options.explainerOptions);
      } catch (e) {
        if (!skipUnexplainable || !perText(e)) throw e;
        // find the refused texts: explain this batch one text at a time
        ex = [];
        for (let j = 0; j < batch.length; j++) {
          try {
            ex.push((await explainBatch(explainer, classifier, [batch[j]], options.explainerOptions))[0]);
          } catch (e1) {
            if (!perText(e1)) throw e1;
            ex.push(null);
            failures.push({ index: idx[j], reason: (e1 as Error).message });
            if (writer) writer.write({ key: keys[idx[j]], error: (e1 as Error).message } satisfies CheckpointRecord);
          }
        }
      }
      for (let j = 0; j < idx.length; j++) {
        out[idx[j]] = ex[j];
        if (writer && ex[j]) writer.write({ key: keys[idx[j]], explanation: ex[j]! } satisfies CheckpointRecord);
      }
      spent += (performance.now() - t0) / 1000;
      timed += idx.length;
      done += idx.length;
      options.onProgress?.({ phase: 'explain', done, total: texts.length });
    }
  } finally {
    writer?.close();
  }
  failures.sort((a, b) => a.index - b.index);
  return { explanations: out as (Explanation | null)[], failures };
}

function perText(e: unknown): boolean {
  return e instanceof XtrustError && PER_TEXT_CODES.has(e.code);
}

async function explainBatch(
  explainer: Explainer,
  classifier: Classifier,
  batch: readonly string[],
  options: Record<string, unknown> | undefined,
): Promise<Explanation[]> {
  const ex = await explainer.explain(classifier, batch, options);
  if (ex.length !== batch.length) {
    throw new XtrustError(
      'BAD_MODEL_OUTPUT',
      `explainer ${explainer.name} returned ${ex.length} explanations for ${batch.length} texts`,
    );
  }
  return ex;
}
