import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { InferenceSession } from 'onnxruntime-node';
import { XtrustError } from '@xtrust/core';
import type { PaddedBatch } from './length-batches.js';

/**
 * The code each pool thread runs (CommonJS: an `eval` worker needs no file of its own, so the pool works
 * the same from the built package and from its TypeScript sources under the test runner). It loads one
 * onnxruntime session of the graph and answers `run` messages with the logits, transferred back.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const ort = require(workerData.ortPath);
const ready = ort.InferenceSession.create(workerData.model, workerData.options);
parentPort.on('message', async (m) => {
  try {
    const session = await ready;
    if (m.type === 'load') return parentPort.postMessage({ id: m.id });
    if (m.type === 'release') { await session.release(); return parentPort.postMessage({ id: m.id }); }
    const dims = [m.batch, m.sequence];
    const feeds = {};
    for (const name of session.inputNames) {
      const data = name === 'input_ids' ? m.inputIds : name === 'attention_mask' ? m.attentionMask : new BigInt64Array(m.batch * m.sequence);
      feeds[name] = new ort.Tensor('int64', data, dims);
    }
    const out = (await session.run(feeds, [workerData.output]))[workerData.output];
    const logits = Float32Array.from(out.data);
    parentPort.postMessage({ id: m.id, logits, dims: out.dims }, [logits.buffer]);
  } catch (e) {
    parentPort.postMessage({ id: m.id, error: String((e && e.message) || e) });
  }
});
`;

interface Pending {
  resolve: (m: { logits?: Float32Array; dims?: readonly number[] }) => void;
  reject: (e: Error) => void;
}

/** One pool thread: its worker, the calls it has not answered yet. */
class PoolThread {
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  private failure: Error | null = null;

  constructor(
    private readonly worker: Worker,
    private readonly name: string,
  ) {
    worker.on('message', (m: { id: number; error?: string; logits?: Float32Array; dims?: readonly number[] }) => {
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      this.idleCheck();
      if (m.error !== undefined)
        p.reject(
          new XtrustError('BAD_MODEL_OUTPUT', `${this.name}: onnxruntime failed in a pool thread: ${m.error}`, {
            source: this.name,
          }),
        );
      else p.resolve(m);
    });
    const fail = (e: Error) => {
      this.failure = new XtrustError(
        'BAD_MODEL_OUTPUT',
        `${this.name}: a session pool thread stopped: ${e.message}`,
        { source: this.name },
        { cause: e },
      );
      for (const p of this.pending.values()) p.reject(this.failure);
      this.pending.clear();
    };
    worker.on('error', fail);
    // A thread that is gone answers nothing: a later call must reject, not wait forever.
    worker.on('exit', (code) => {
      if (!this.failure) fail(new Error(`exit code ${code}`));
    });
    // An idle pool must not keep the process alive; a call in flight must (see idleCheck).
    worker.unref();
  }

  get busy(): number {
    return this.pending.size;
  }

  call(
    message: Record<string, unknown>,
    transfer: ArrayBuffer[] = [],
  ): Promise<{ logits?: Float32Array; dims?: readonly number[] }> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      if (this.pending.size === 1) this.worker.ref();
      this.worker.postMessage({ ...message, id }, transfer);
    });
  }

  private idleCheck(): void {
    if (this.pending.size === 0) this.worker.unref();
  }

  terminate(): Promise<number> {
    return this.worker.terminate();
  }
}

/**
 * Several onnxruntime sessions of one graph, each in its own worker thread with its own intra-op threads,
 * scoring batches in parallel. On a small transformer, separate batches on single-thread sessions use
 * the cores better than one batch on a session with every core: the transformer audit measured 11.3 s of
 * CPU per explanation on single-thread sessions against 16.1 s on one two-thread session, for the same
 * bytes out (BENCHMARKS.md, *Transformer audit*). onnxruntime-node runs a session's `run` on the calling
 * thread, so two sessions in one thread take turns; worker threads are what lets them overlap.
 */
export class SessionPool {
  private constructor(
    private readonly threads: PoolThread[],
    readonly name: string,
  ) {}

  /**
   * Starts `size` threads, each loading the graph (`model`: a file path, or the graph's bytes — the int8
   * graph is made in memory) with `options` (sessionOptions(): the intra-op threads each, the tuning).
   * Resolves once every session has loaded; a graph onnxruntime cannot load rejects with FILE_UNREADABLE.
   */
  static async create(
    model: string | Uint8Array,
    size: number,
    options: InferenceSession.SessionOptions,
    output: string,
    name: string,
  ): Promise<SessionPool> {
    if (!Number.isInteger(size) || size < 1)
      throw new XtrustError('INVALID_ARGUMENT', `${name}: sessions must be a positive integer, got ${size}`, {
        argument: 'sessions',
      });
    const ortPath = createRequire(import.meta.url).resolve('onnxruntime-node');
    const threads = Array.from(
      { length: size },
      () =>
        new PoolThread(
          new Worker(WORKER_SOURCE, { eval: true, workerData: { ortPath, model, options, output } }),
          name,
        ),
    );
    const pool = new SessionPool(threads, name);
    try {
      await Promise.all(threads.map((t) => t.call({ type: 'load' })));
    } catch (e) {
      await pool.release();
      throw new XtrustError(
        'FILE_UNREADABLE',
        `${name}: onnxruntime cannot load the graph in a pool thread: ${(e as Error).message}`,
        { file: typeof model === 'string' ? model : '(graph bytes)' },
        { cause: e },
      );
    }
    return pool;
  }

  /** Sessions in the pool. */
  get size(): number {
    return this.threads.length;
  }

  /** The batch's logits (row-major, with their dims) from the least busy session; the batch's arrays are moved to that thread. */
  async run(batch: PaddedBatch): Promise<{ logits: Float32Array; dims: readonly number[] }> {
    const thread = this.threads.reduce((a, b) => (b.busy < a.busy ? b : a));
    const m = await thread.call(
      {
        type: 'run',
        inputIds: batch.inputIds,
        attentionMask: batch.attentionMask,
        batch: batch.batch,
        sequence: batch.sequence,
      },
      [batch.inputIds.buffer as ArrayBuffer, batch.attentionMask.buffer as ArrayBuffer],
    );
    return { logits: m.logits!, dims: m.dims! };
  }

  /** Frees the sessions and stops the threads. */
  async release(): Promise<void> {
    await Promise.all(this.threads.map((t) => t.call({ type: 'release' }).catch(() => undefined)));
    await Promise.all(this.threads.map((t) => t.terminate()));
  }
}
