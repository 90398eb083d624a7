/**
 * The worker side: takes chunk jobs from the queue, skips instances whose result is already stored (a
 * retried job resumes where the killed worker stopped), and writes each result under its instance id.
 */
import { UnrecoverableError, Worker, type Job } from 'bullmq';
import { isXtrustError } from '@xtrust/core';
import { checkPayload, runKeys, type JobPayload } from './job.js';
import { openRedis, probeRedis, redisUrl } from './redis.js';
import { redactUrl, redactor } from './redact.js';
import { DEFAULT_QUEUE, RUN_TTL_S } from './queue.js';
import { Resources, processInstances, resultJson, type ModelLoader } from './tasks.js';

export interface WorkerOptions {
  /** redis://… or rediss://… (default: XTRUST_REDIS_URL). Never logged with its password. */
  readonly redis?: string;
  readonly queueName?: string;
  /** Jobs processed at once by this process (default 1: the work is CPU-bound, run one process per core instead). */
  readonly concurrency?: number;
  /** How models are loaded (default: saved xtrust models). */
  readonly loadModel?: ModelLoader;
  /** Where log lines go (default: stderr). They are redacted before this is called. */
  readonly log?: (line: string) => void;
  /**
   * How long a job's lock lasts without renewal (default 30 s). A killed worker's job goes back to the
   * queue after about this long; a live worker renews it every half of it, so keep it well above the
   * longest stretch of one mini-batch.
   */
  readonly lockDurationMs?: number;
  /** How often stalled jobs are looked for (default 30 s). */
  readonly stalledIntervalMs?: number;
  /** Deadline of the first connection (default 5 s). */
  readonly connectTimeoutMs?: number;
}

export interface RunningWorker {
  /** Stops taking jobs, lets the current one finish, disconnects. */
  close(): Promise<void>;
  /** Jobs completed and failed by this worker so far. */
  readonly stats: { completed: number; failed: number; instances: number };
}

/** Connects (clear error when Redis is unusable) and starts processing jobs. */
export async function startWorker(o: WorkerOptions = {}): Promise<RunningWorker> {
  const url = redisUrl(o.redis);
  const clean = redactor(url);
  const log = (line: string) => (o.log ?? ((l: string) => process.stderr.write(`${l}\n`)))(clean(line));
  await probeRedis(url, { timeoutMs: o.connectTimeoutMs });
  const resources = new Resources(o.loadModel);
  const stats = { completed: 0, failed: 0, instances: 0 };
  const redis = openRedis(url, (m) => log(`redis: ${m}`));
  const queueName = o.queueName ?? DEFAULT_QUEUE;

  const processor = async (job: Job) => {
    let payload: JobPayload;
    try {
      payload = checkPayload(job.data);
    } catch (e) {
      // another version's payload never becomes valid by retrying
      throw new UnrecoverableError(clean((e as Error).message));
    }
    const keys = runKeys(payload.runId);
    const ids = payload.instances.map((x) => x.id);
    const have = ids.length ? await redis.hmget(keys.results, ...ids) : [];
    const todo = payload.instances.filter((_, i) => have[i] === null);
    log(
      `job ${job.id}: run ${payload.runId} chunk ${payload.chunk}, ${payload.task.kind}, ${todo.length}/${ids.length} instances to do (attempt ${job.attemptsMade + 1})`,
    );
    let doneHere = 0;
    let lastProgress = Date.now();
    try {
      await processInstances(payload.task, todo, resources, async (rs) => {
        if (rs.length === 0) return;
        const flat: string[] = [];
        for (const r of rs) flat.push(r.id, resultJson(r));
        // HSET per instance id: a result written twice (a job retried after a kill) is one entry
        await redis
          .multi()
          .hset(keys.results, ...flat)
          .expire(keys.results, RUN_TTL_S)
          .exec();
        stats.instances += rs.length;
        doneHere += rs.length;
        // progress is for people watching a dashboard: once a second is plenty, and each update costs a Redis script call
        if (Date.now() - lastProgress >= 1000) {
          lastProgress = Date.now();
          await job
            .updateProgress(Math.round((100 * (ids.length - todo.length + doneHere)) / Math.max(1, ids.length)))
            .catch(() => undefined);
        }
      });
    } catch (e) {
      const why = clean(e instanceof Error ? e.message : String(e));
      // a model that cannot be read or a bad setting will fail the same way on every try
      if (
        isXtrustError(e) &&
        ['FILE_UNREADABLE', 'FILE_NOT_FOUND', 'INVALID_ARGUMENT', 'INCOMPATIBLE', 'PARSE_ERROR', 'NOT_FOUND'].includes(
          e.code,
        )
      ) {
        throw new UnrecoverableError(why);
      }
      throw new Error(why);
    }
    return { instances: ids.length };
  };

  const worker = new Worker(queueName, processor, {
    connection: redis,
    concurrency: o.concurrency ?? 1,
    lockDuration: o.lockDurationMs ?? 30_000,
    stalledInterval: o.stalledIntervalMs ?? 30_000,
    // a job whose worker was killed several times in a row is still retried, not failed
    maxStalledCount: 5,
  });
  worker.on('completed', (job) => {
    stats.completed++;
    log(`job ${job.id} completed`);
  });
  worker.on('failed', (job, err) => {
    stats.failed++;
    log(`job ${job?.id ?? '?'} failed: ${clean(err.message)}`);
  });
  worker.on('error', (err) => log(`worker error: ${clean(err.message)}`));
  await worker.waitUntilReady();
  log(`xtrust worker on ${redactUrl(url)}, queue ${queueName}, concurrency ${o.concurrency ?? 1}, pid ${process.pid}`);
  return {
    stats,
    async close() {
      await worker.close();
      redis.disconnect();
    },
  };
}
