/**
 * A worker process without the CLI: `node dist/worker-main.js [--redis URL] [--queue NAME]
 * [--concurrency N] [--lock-ms N] [--stalled-ms N]`, the URL also from XTRUST_REDIS_URL. Used by the
 * tests and benchmarks; users run `xtrust worker`, which calls the same `startWorker`.
 */
import { startWorker } from './worker.js';
import { redactor } from './redact.js';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const url = arg('redis');
const num = (s: string | undefined) => (s === undefined ? undefined : Number(s));
try {
  const w = await startWorker({
    redis: url,
    queueName: arg('queue'),
    concurrency: num(arg('concurrency')),
    lockDurationMs: num(arg('lock-ms')),
    stalledIntervalMs: num(arg('stalled-ms')),
  });
  const stop = async () => {
    await w.close();
    process.exit(0);
  };
  // benchmarks ask a worker for its CPU time (all threads, native kernels included) without stopping it
  process.on('SIGUSR2', () => {
    const u = process.cpuUsage();
    process.stderr.write(`cpu-us ${u.user + u.system}\n`);
  });
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
} catch (e) {
  process.stderr.write(
    `xtrust worker: ${redactor(url ?? process.env.XTRUST_REDIS_URL)(e instanceof Error ? e.message : String(e))}\n`,
  );
  process.exit(1);
}
