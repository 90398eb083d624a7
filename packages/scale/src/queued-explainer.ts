/**
 * An Explainer whose work runs on queue workers: each `explain` call becomes a run of chunk jobs, and
 * the explanations come back in text order, equal to what the same explainer would give locally (the
 * workers run the same method with the same options and seed). Code written for any Explainer — the
 * oracle's explainAll with its JSONL checkpoints, the CLI's audit — fans out without knowing it.
 */
import { createHash } from 'node:crypto';
import { XtrustError, type Classifier, type Explainer, type Explanation } from '@xtrust/core';
import { collect, enqueueAudit, type QueueConnection } from './queue.js';
import type { ModelOptions, TaskSpec } from './job.js';

export interface QueuedExplainerOptions extends QueueConnection {
  /** Model path the workers load (the same model the caller's classifier is: same file on a shared disk). */
  readonly model: string;
  /** How the workers load it (int8): the caller's classifier must be loaded the same way. */
  readonly modelOptions?: ModelOptions;
  /** Explanation method (`lime`, `omission`, …) and its options, seed included. */
  readonly method: string;
  readonly options?: Readonly<Record<string, unknown>>;
  /** Texts per job (default 8: a call of 32 texts keeps 4 workers busy). */
  readonly jobSize?: number;
  /** Give up waiting for one call's results after this long (default: wait). */
  readonly timeoutMs?: number;
  readonly onProgress?: (p: { results: number; total: number; failedChunks: number }) => void;
}

/** Rebuilds an Explanation from a worker's stored result (see tasks.ts explanationJson). */
function explanationOf(text: string, r: Record<string, unknown>): Explanation {
  return {
    text,
    method: r.method as string,
    params: r.params as Record<string, unknown>,
    ...(r.seed === null || r.seed === undefined ? {} : { seed: r.seed as number }),
    predictedLabel: r.predicted as string,
    explainedLabel: r.explained as string,
    features: (r.features as [string, number][]).map(([word, weight]) => ({ word, weight })),
    ...(r.probabilities ? { probabilities: r.probabilities as number[] } : {}),
    ...(r.diagnostics ? { diagnostics: r.diagnostics as Record<string, number> } : {}),
  };
}

export class QueuedExplainer implements Explainer {
  readonly name: string;
  constructor(private readonly o: QueuedExplainerOptions) {
    this.name = o.method;
  }

  async explain(
    classifier: Classifier,
    texts: readonly string[],
    options: Record<string, unknown> = {},
  ): Promise<Explanation[]> {
    if (texts.length === 0) return [];
    const task: TaskSpec = {
      kind: 'explain',
      model: this.o.model,
      ...(this.o.modelOptions?.quantize ? { modelOptions: { quantize: this.o.modelOptions.quantize } } : {}),
      explainer: { name: this.o.method, options: { ...(this.o.options ?? {}), ...options } },
    };
    // The run id is a digest of the work: calling again with the same texts (a resumed audit) finds the
    // results already in Redis instead of queueing the work twice.
    const runId = `x${createHash('sha256')
      .update(JSON.stringify({ task, labels: classifier.labels, texts }))
      .digest('hex')
      .slice(0, 32)}`;
    const instances = texts.map((text, i) => ({ id: String(i), text }));
    await enqueueAudit({ ...this.o, runId, task, instances, chunkSize: this.o.jobSize ?? 8 });
    const got = await collect({ ...this.o, runId });
    if (got.failures.length > 0) {
      throw new XtrustError(
        'INVALID_ARGUMENT',
        `queued ${this.o.method}: ${got.failures.length} job(s) failed — ${got.failures[0].reason}`,
        { runId, failures: got.failures },
      );
    }
    const out: Explanation[] = [];
    got.results.forEach((json, i) => {
      const r = JSON.parse(json) as {
        index: number;
        result?: Record<string, unknown> | Record<string, unknown>[];
        error?: string;
      };
      if (r.error !== undefined)
        throw new XtrustError('INVALID_ARGUMENT', `texts[${r.index}]: ${r.error}`, { argument: `texts[${r.index}]` });
      const many = Array.isArray(r.result) ? r.result : [r.result!];
      for (const one of many) out.push(explanationOf(texts[i], one));
    });
    return out;
  }
}
