/**
 * The auditing side: `enqueueAudit` splits a run into chunk jobs, `collect` waits for them and reads the
 * results back. Both are safe to call again for the same run id (a resume): job ids are deterministic,
 * so existing chunks are not added twice, failed chunks are retried, and results already stored stay.
 */
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { XtrustError } from '@xtrust/core';
import { checkRunId, jobId, makePayload, runKeys, type Instance, type TaskSpec } from './job.js';
import { openRedis, probeRedis, redisUrl } from './redis.js';
import { redactor } from './redact.js';

/** Seconds a run's results and metadata are kept after it was last enqueued. */
export const RUN_TTL_S = 7 * 24 * 3600;

/** Name of the BullMQ queue workers listen on unless told otherwise. */
export const DEFAULT_QUEUE = 'xtrust-audit';

export interface QueueConnection {
  /** redis://[user:password@]host:port[/db] or rediss://… (default: XTRUST_REDIS_URL). */
  readonly redis?: string;
  readonly queueName?: string;
  /** Deadline of the first connection (default 5 s). */
  readonly connectTimeoutMs?: number;
}

export interface EnqueueOptions extends QueueConnection {
  readonly runId: string;
  readonly task: TaskSpec;
  readonly instances: readonly Omit<Instance, 'index'>[] | readonly Instance[];
  /** Instances per job (default 100). */
  readonly chunkSize?: number;
  /** Tries per job before it is reported failed (default 3); a worker killed mid-job does not use one up (stalled jobs are re-queued). */
  readonly attempts?: number;
}

export interface EnqueueResult {
  readonly runId: string;
  readonly chunks: number;
  readonly total: number;
  /** Chunks added now (0 when the run was already queued). */
  readonly added: number;
  /** Failed chunks put back in the queue by this call. */
  readonly retried: number;
}

/** Connects (with a clear error when Redis is unusable) and runs `f` with the queue and a plain client. */
export async function withQueue<T>(c: QueueConnection, f: (queue: Queue, redis: Redis) => Promise<T>): Promise<T> {
  const url = redisUrl(c.redis);
  await probeRedis(url, { timeoutMs: c.connectTimeoutMs });
  const clean = redactor(url);
  let lastError = '';
  const redis = openRedis(url, (m) => (lastError = m));
  const queue = new Queue(c.queueName ?? DEFAULT_QUEUE, { connection: redis });
  queue.on('error', (e: Error) => (lastError = clean(e.message)));
  try {
    return await f(queue, redis);
  } catch (e) {
    if (e instanceof Error)
      e.message = clean(e.message) + (lastError && !e.message.includes(lastError) ? ` (Redis: ${lastError})` : '');
    throw e;
  } finally {
    await queue.close().catch(() => undefined);
    redis.disconnect();
  }
}

/** Splits the run into jobs of `chunkSize` instances and queues those not queued yet. */
export async function enqueueAudit(o: EnqueueOptions): Promise<EnqueueResult> {
  const runId = checkRunId(o.runId);
  const chunkSize = o.chunkSize ?? 100;
  if (!Number.isInteger(chunkSize) || chunkSize < 1)
    throw new XtrustError('INVALID_ARGUMENT', `chunkSize must be a positive integer, got ${chunkSize}`, {
      argument: 'chunkSize',
    });
  const seen = new Set<string>();
  const instances: Instance[] = o.instances.map((x, i) => {
    if (typeof x.id !== 'string' || x.id === '')
      throw new XtrustError('DATASET_ROW', `instances[${i}] has no id`, { row: i });
    if (seen.has(x.id))
      throw new XtrustError(
        'DATASET_ROW',
        `instances[${i}] repeats id ${JSON.stringify(x.id)}: ids are the result keys and must be unique`,
        { row: i },
      );
    seen.add(x.id);
    if (typeof x.text !== 'string') throw new XtrustError('DATASET_ROW', `instances[${i}] has no text`, { row: i });
    return { id: x.id, text: x.text, index: i, ...(x.label !== undefined ? { label: x.label } : {}) };
  });
  const chunks = Math.ceil(instances.length / chunkSize);
  return withQueue(o, async (queue, redis) => {
    const keys = runKeys(runId);
    const prior = await redis.get(keys.meta);
    if (prior) {
      const m = JSON.parse(prior) as { total: number; chunks: number; chunkSize: number };
      if (m.total !== instances.length || m.chunkSize !== chunkSize) {
        throw new XtrustError(
          'INCOMPATIBLE',
          `run ${runId} was queued with ${m.total} instances in chunks of ${m.chunkSize}; now ${instances.length} in chunks of ${chunkSize} — use another run id`,
          { runId },
        );
      }
    }
    await redis.set(
      keys.meta,
      JSON.stringify({
        total: instances.length,
        chunks,
        chunkSize,
        kind: o.task.kind,
        ids: instances.map((x) => x.id),
      }),
    );
    // a run nobody collects does not stay in Redis for ever (a week: time enough to resume an audit)
    await redis.expire(keys.meta, RUN_TTL_S);
    await redis.expire(keys.results, RUN_TTL_S);
    let added = 0;
    let retried = 0;
    for (let c = 0; c < chunks; c++) {
      const id = jobId(runId, c);
      const existing = await queue.getJob(id);
      if (existing) {
        if ((await existing.getState()) === 'failed') {
          await existing.retry('failed');
          retried++;
        }
        continue;
      }
      await queue.add('chunk', makePayload(runId, c, o.task, instances.slice(c * chunkSize, (c + 1) * chunkSize)), {
        jobId: id,
        attempts: o.attempts ?? 3,
        backoff: { type: 'exponential', delay: 1000 },
        removeOnComplete: { age: 7 * 24 * 3600 },
        removeOnFail: false,
      });
      added++;
    }
    return { runId, chunks, total: instances.length, added, retried };
  });
}

export interface CollectOptions extends QueueConnection {
  readonly runId: string;
  /** Give up waiting after this long (default: wait until every chunk completed or failed). */
  readonly timeoutMs?: number;
  /** Called about once a second with the number of stored results. */
  readonly onProgress?: (p: { results: number; total: number; failedChunks: number }) => void;
  /** How often the results are counted (default 250 ms). */
  readonly pollMs?: number;
  /** How often the chunks' states are read to notice failed chunks (default 1 s). */
  readonly stateCheckMs?: number;
}

export interface ChunkFailure {
  readonly chunk: number;
  readonly reason: string;
}

export interface CollectResult {
  readonly runId: string;
  readonly total: number;
  /** Stored result JSON in the run's instance order (an instance of a failed chunk is absent). */
  readonly results: readonly string[];
  /** Chunks that failed for good, with their reasons. */
  readonly failures: readonly ChunkFailure[];
}

/** Waits until every chunk of the run completed or failed for good, then returns the results in instance order. */
export async function collect(o: CollectOptions): Promise<CollectResult> {
  const runId = checkRunId(o.runId);
  const pollMs = o.pollMs ?? 250;
  return withQueue(o, async (queue, redis) => {
    const keys = runKeys(runId);
    const metaJson = await redis.get(keys.meta);
    if (!metaJson)
      throw new XtrustError(
        'NOT_FOUND',
        `run ${runId} is not in this Redis (was it enqueued here, under this run id?)`,
        { runId },
      );
    const meta = JSON.parse(metaJson) as { total: number; chunks: number; ids: string[] };
    const start = Date.now();
    const done = new Set<number>();
    const failures = new Map<number, string>();
    const stateEveryMs = o.stateCheckMs ?? 1000;
    let lastStates = -Infinity;
    for (;;) {
      // one HLEN per poll; the per-chunk states (to see failed chunks) only about once a second, so waiting costs Redis little
      const stored = await redis.hlen(keys.results);
      if (stored === meta.total) {
        o.onProgress?.({ results: stored, total: meta.total, failedChunks: failures.size });
        break;
      }
      if (Date.now() - lastStates >= stateEveryMs) {
        lastStates = Date.now();
        for (let c = 0; c < meta.chunks; c++) {
          if (done.has(c)) continue;
          const job = await queue.getJob(jobId(runId, c));
          const state = job ? await job.getState() : 'missing';
          if (state === 'completed' || state === 'missing') done.add(c);
          else if (state === 'failed') {
            done.add(c);
            failures.set(c, job?.failedReason ?? 'unknown');
          }
        }
        o.onProgress?.({ results: stored, total: meta.total, failedChunks: failures.size });
        // every chunk finished: read once more, since results may have landed since the HLEN above
        if (done.size === meta.chunks) break;
      }
      if (o.timeoutMs !== undefined && Date.now() - start > o.timeoutMs) {
        throw new XtrustError(
          'INCOMPATIBLE',
          `run ${runId}: ${stored}/${meta.total} results after ${o.timeoutMs} ms — are workers running on queue ${o.queueName ?? DEFAULT_QUEUE}?`,
          { runId, stored },
        );
      }
      await new Promise((r) => setTimeout(r, pollMs));
    }
    const values = meta.ids.length ? await redis.hmget(keys.results, ...meta.ids) : [];
    return {
      runId,
      total: meta.total,
      results: values.filter((v): v is string => v !== null),
      failures: [...failures].map(([chunk, reason]) => ({ chunk, reason })).sort((a, b) => a.chunk - b.chunk),
    };
  });
}

/** Removes a run's results, metadata and jobs (after its results were written to the run directory). */
export async function forgetRun(o: QueueConnection & { runId: string }): Promise<void> {
  const runId = checkRunId(o.runId);
  await withQueue(o, async (queue, redis) => {
    const keys = runKeys(runId);
    const meta = await redis.get(keys.meta);
    const chunks = meta ? (JSON.parse(meta) as { chunks: number }).chunks : 0;
    for (let c = 0; c < chunks; c++) await (await queue.getJob(jobId(runId, c)))?.remove().catch(() => undefined);
    await redis.del(keys.results, keys.meta);
  });
}
