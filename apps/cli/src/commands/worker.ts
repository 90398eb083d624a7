/**
 * `xtrust worker --redis <url>`: takes explanation, labelling and attack jobs from the queue until
 * stopped (Ctrl-C / SIGTERM finish the current job first). `--queue <url>` on `xtrust audit` sends
 * the audit's explanations to these workers (see withQueueOption). Both are thin: the queue, job
 * format, retries and idempotent results are @xtrust/scale's.
 */
import { resolve } from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import type { Explainer } from '@xtrust/core';
import {
  DEFAULT_QUEUE,
  QueuedExplainer,
  REDIS_CA_ENV,
  REDIS_URL_ENV,
  probeRedis,
  redisUrl,
  startWorker,
} from '@xtrust/scale';
import { auditLimeOptions, type AuditSettings } from '../audit-settings.js';
import { limeModeParts } from '../lime-mode.js';
import { defaultThreads, loadModel, type Runtime } from '../model-loader.js';
import { examples, positiveIntArg } from '../options.js';

/** Options of `xtrust worker`. */
export interface WorkerCommandOptions {
  redis?: string;
  queueName: string;
  concurrency: number;
  runtime: Runtime;
  /** onnxruntime intra-op threads per model; undefined: the cores shared among --concurrency jobs. */
  threads?: number;
  quiet: boolean;
}

function positive(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('expected a positive integer');
  return n;
}

/** Registers `xtrust worker`. */
export function workerCommand(): Command {
  const c = new Command('worker')
    .description('process audit jobs from a Redis queue (BullMQ): run one per core on as many machines as you like')
    .option(
      '--redis <url>',
      `redis://[user:password@]host:port[/db] or rediss:// for TLS, trusting the CA file in $${REDIS_CA_ENV} when set (default: $${REDIS_URL_ENV}; the password is never printed)`,
    )
    .option('--queue-name <name>', 'queue to take jobs from', DEFAULT_QUEUE)
    .option(
      '--concurrency <n>',
      'jobs at once in this process (the work is CPU-bound: prefer one process per core)',
      positive,
      1,
    )
    .option('--runtime <name>', 'how Hugging Face model folders run: auto | onnx | transformers', 'auto')
    .option(
      '--threads <n>',
      `threads each job's ONNX forward passes use (default: the cores divided among --concurrency jobs; with one worker per core, pass 1)`,
      positiveIntArg,
    )
    .option('--quiet', 'no log lines', false);
  examples(c, [
    'xtrust worker --redis redis://10.0.0.5:6379',
    'XTRUST_REDIS_URL=rediss://:secret@queue.internal:6380 xtrust worker --concurrency 1',
    'xtrust worker --threads 1 & xtrust worker --threads 1   # two workers on a 2-core machine',
  ]);
  return c.action(async (opts: WorkerCommandOptions) => {
    const threads = opts.threads ?? Math.max(1, Math.floor(defaultThreads() / opts.concurrency));
    const worker = await startWorker({
      redis: opts.redis,
      queueName: opts.queueName,
      concurrency: opts.concurrency,
      // the same loader as `xtrust audit`, so a worker runs exactly the model the audit names (int8 when the job says so)
      loadModel: async (path, options) =>
        (await loadModel(path, { runtime: opts.runtime, quantize: options?.quantize, threads })).classifier,
      log: opts.quiet ? () => undefined : (line) => process.stderr.write(`xtrust worker: ${line}\n`),
    });
    await new Promise<void>((done) => {
      const stop = () => {
        process.stderr.write('xtrust worker: stopping after the current job\n');
        void worker.close().then(done);
      };
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
  });
}

/** Flags `--queue <url>` and `--queue-name` for commands whose explanations may run on workers. */
export function withQueueOption(c: Command): Command {
  return c
    .option(
      '--queue <url>',
      'run the explanations on `xtrust worker` processes through this Redis (redis:// or rediss://); workers must read --model at the same path',
    )
    .option('--queue-name <name>', 'queue the workers listen on', DEFAULT_QUEUE);
}

/**
 * The audit's LIME explainer run by queue workers when `--queue` is given (undefined otherwise): same
 * method, options, seed and `--lime-mode` as the local one — the jobs carry LIME's `adaptive` and the
 * model's int8 quantisation, which each worker applies when it loads the model — so the run directory
 * ends the same either way. Checks Redis first, so a wrong URL fails before any work, not after the
 * embeddings have loaded.
 */
export async function queuedAuditExplainer(
  options: { queue?: string; queueName?: string; model: string },
  settings: Pick<AuditSettings, 'samples' | 'topK' | 'seed' | 'limeMode'>,
): Promise<Explainer | undefined> {
  if (!options.queue) return undefined;
  await probeRedis(redisUrl(options.queue));
  const { quantize } = limeModeParts(settings.limeMode);
  return new QueuedExplainer({
    redis: options.queue,
    queueName: options.queueName,
    model: resolve(options.model),
    ...(quantize ? { modelOptions: { quantize } } : {}),
    method: 'lime',
    options: auditLimeOptions(settings),
  });
}
