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
  readonly onProgress?: (p: Progress) => void;
}

interface CheckpointRecord {
  key: string;
  explanation: Explanation;
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
  const batchSize = options.batchSize ?? 32;
  if (!Number.isInteger(batchSize) || batchSize <= 0) throw new XtrustError('INVALID_ARGUMENT', `batchSize must be a positive integer, got ${batchSize}`);
  if (keys.length !== texts.length) throw new XtrustError('DIMENSION_MISMATCH', `explainAll: ${texts.length} texts but ${keys.length} keys`);
  const out: (Explanation | undefined)[] = new Array(texts.length);
  const position = new Map<string, number>();
  keys.forEach((k, i) => position.set(k, i));
  let writer: JsonlWriter | null = null;
  if (options.checkpoint) {
    if (existsSync(options.checkpoint)) {
      for await (const rec of readJsonl<CheckpointRecord>(options.checkpoint, { tolerateTruncatedTail: true })) {
        const i = position.get(rec.value.key);
        if (i === undefined) continue;
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
  for (let i = 0; i < texts.length; i++) if (!out[i]) todo.push(i);
  let done = texts.length - todo.length;
  options.onProgress?.({ phase: 'explain', done, total: texts.length });
  try {
    for (let b = 0; b < todo.length; b += batchSize) {
      const idx = todo.slice(b, b + batchSize);
      const batch = idx.map((i) => texts[i]);
      const ex = await explainer.explain(classifier, batch, options.explainerOptions);
      if (ex.length !== batch.length) {
        throw new XtrustError('BAD_MODEL_OUTPUT', `explainer ${explainer.name} returned ${ex.length} explanations for ${batch.length} texts`);
      }
      for (let j = 0; j < idx.length; j++) {
        out[idx[j]] = ex[j];
        if (writer) writer.write({ key: keys[idx[j]], explanation: ex[j] } satisfies CheckpointRecord);
      }
      done += idx.length;
      options.onProgress?.({ phase: 'explain', done, total: texts.length });
    }
  } finally {
    writer?.close();
  }
  return out as Explanation[];
}
