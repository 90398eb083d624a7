/**
 * Scale-out figures for BENCHMARKS.md (issue 9): an audit of LIME explanations in jobs of 100
 * instances through @xtrust/scale (BullMQ on a local redis-server), with 1 and 2 worker processes,
 * against the same work in one local process (`runLocal`, the code a worker runs); and a kill -9 of a
 * worker during a 1,000-instance audit, checked against the local run's results.
 *
 *   pnpm turbo run build --filter=@xtrust/bench... && node apps/bench/dist/scale/run.js
 *     [--instances 1000] [--chunk 100] [--samples 5000] [--repeats 3] [--kill-instances 1000] [--kill-samples 500]
 */
import type { ChildProcess } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { Redis } from 'ioredis';
import { firstWords, rng } from '@xtrust/core';
import { loadSpamAssassin } from '@xtrust/datasets';
import { trainClassifier } from '@xtrust/models';
import { Resources, collect, enqueueAudit, runKeys, runLocal, type TaskSpec } from '@xtrust/scale';
import { defineScript, parseOrExit } from '../harness/options.js';
import { runChild, startWorkers, stopWorkers, workersReady } from '../harness/processes.js';
import { median, procCpuSeconds, timed } from '../harness/timing.js';
import { startRedis } from './redis.js';

const o = parseOrExit(
  defineScript({
    usage: 'node apps/bench/dist/scale/run.js [options]',
    summary:
      'Jobs of LIME explanations through @xtrust/scale (BullMQ on a throw-away local redis-server) with 1 and 2 workers against the same work in one local process, and a kill -9 of a worker during an audit.',
    options: {
      instances: {
        kind: 'integer',
        min: 1,
        default: 1000,
        help: 'LIME explanations timed (SpamAssassin, first 100 words)',
      },
      chunk: { kind: 'integer', min: 1, default: 100, help: 'instances per job' },
      samples: { kind: 'integer', min: 2, default: 5000, help: 'LIME samples per explanation' },
      repeats: { kind: 'integer', min: 1, default: 3, help: 'timed runs of each side (medians with min–max)' },
      'kill-instances': {
        kind: 'integer',
        min: 1,
        default: 1000,
        help: 'instances of the audit a worker is killed in',
      },
      'kill-samples': { kind: 'integer', min: 2, default: 500, help: 'LIME samples in that audit' },
      'local-child': {
        kind: 'string',
        placeholder: 'FILE',
        help: 'internal: run the local side in this fresh process from FILE ({task, instances}) and print its seconds',
      },
    },
  }),
);
const N = o.instances;
const CHUNK = o.chunk;
const SAMPLES = o.samples;
const REPEATS = o.repeats;
const KILL_N = o['kill-instances'];
const KILL_SAMPLES = o['kill-samples'];
const log = (s: string) => process.stderr.write(`[${new Date().toISOString().slice(11, 19)}] ${s}\n`);
const workerMain = join(dirname(fileURLToPath(import.meta.resolve('@xtrust/scale'))), 'worker-main.js');

/**
 * n worker processes sharing the machine's cores: each gets cores / n kernel threads (XTRUST_THREADS),
 * as the README advises — n processes with all-core thread pools each would fight over the same cores.
 */
function startScaleWorkers(n: number, url: string, queue: string, extra: string[] = []): ChildProcess[] {
  const threads = String(Math.max(1, Math.floor(cpus().length / n)));
  return startWorkers(n, [workerMain, '--redis', url, '--queue', queue, ...extra], { XTRUST_THREADS: threads });
}

/**
 * `--local-child FILE`: the local side in a fresh process, like a worker (same heap state, same JIT
 * warm-up of 50 instances), printing the seconds of the timed run. FILE holds {task, instances}.
 */
async function localChild(file: string): Promise<void> {
  const { task, instances } = JSON.parse(readFileSync(file, 'utf8')) as {
    task: TaskSpec;
    instances: { id: string; text: string }[];
  };
  const resources = new Resources();
  await runLocal(task, instances.slice(0, 50), resources);
  const { wall, cpu } = await timed(() => runLocal(task, instances, resources));
  process.stdout.write(`${wall} ${cpu}\n`);
}

/** CPU seconds (user + system, all threads) a process has used, from /proc (Linux). */
const procCpu = (pid: number) => procCpuSeconds(pid, 'own');

/** A worker's CPU seconds so far, asked over SIGUSR2 (worker-main answers with `cpu-us N`). */
function workerCpu(w: ChildProcess): Promise<number> {
  return new Promise((resolve) => {
    const on = (d: Buffer) => {
      const m = /cpu-us (\d+)/.exec(d.toString());
      if (m) {
        w.stderr!.off('data', on);
        resolve(Number(m[1]) / 1e6);
      }
    };
    w.stderr!.on('data', on);
    w.kill('SIGUSR2');
  });
}

/** The local side in a fresh process (`--local-child FILE`): the seconds it printed. */
async function localInChild(file: string): Promise<{ wall: number; cpu: number }> {
  const r = await runChild([fileURLToPath(import.meta.url), '--local-child', file], {
    stdout: 'capture',
    echo: 'stderr',
  });
  if (r.code !== 0) throw new Error(`local child exited ${r.code}`);
  const [wall, cpu] = r.stdout.trim().split(' ').map(Number);
  return { wall, cpu };
}

async function main(): Promise<void> {
  if (o['local-child']) return localChild(o['local-child']);
  const redis = await startRedis();
  try {
    const data = loadSpamAssassin({ headers: false });
    const order = rng(11).shuffle(data.rows.map((_, i) => i));
    const train = order.slice(0, 2000).map((i) => ({ text: data.rows[i].text, label: data.rows[i].label }));
    const model = await trainClassifier('bow-logistic', train, { seed: 1 });
    const modelDir = join(mkdtempSync(join(tmpdir(), 'xtrust-scale-bench-')), 'model');
    await model.save(modelDir);
    const pool = order
      .slice(2000)
      .map((i) => ({
        id: `m${i}`,
        text: firstWords(data.rows[i].text, 100, { by: 'whitespace' }),
        label: data.rows[i].label,
      }))
      .filter((x) => new Set(x.text.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? []).size >= 3);
    const instances = pool.slice(0, N);
    const task: TaskSpec = {
      kind: 'explain',
      model: modelDir,
      explainer: { name: 'lime', options: { numSamples: SAMPLES, numFeatures: 10, seed: 1 } },
    };
    log(
      `${cpus().length} cores; ${instances.length} SpamAssassin e-mails (first 100 words), bow-logistic, LIME ${SAMPLES} samples, jobs of ${CHUNK}`,
    );

    const work = join(dirname(modelDir), 'work.json');
    writeFileSync(work, JSON.stringify({ task, instances }));
    const times: Record<string, number[]> = { local: [], q1: [], q2: [] };
    const cpu: Record<string, number[]> = { local: [], q1: [], q2: [] };
    const parts: Record<string, { workers: number; redis: number; collector: number }[]> = { q1: [], q2: [] };
    let run = 0;
    const queued = async (workers: number): Promise<{ wall: number; cpu: number }> => {
      const queue = `bench-${workers}-${run}`;
      const ws = await workersReady(startScaleWorkers(workers, redis.url, queue));
      await enqueueAudit({
        redis: redis.url,
        queueName: queue,
        runId: `warm${run}`,
        task,
        instances: instances.slice(0, 50),
        chunkSize: 50,
      });
      await collect({ redis: redis.url, queueName: queue, runId: `warm${run}`, pollMs: 50 });
      // CPU of everything the queued run uses: workers, redis-server, and this process enqueueing and collecting
      const w0 = (await Promise.all(ws.map(workerCpu))).reduce((a, b) => a + b, 0);
      const r0 = procCpu(redis.pid);
      const me0 = process.cpuUsage();
      const t0 = performance.now();
      await enqueueAudit({ redis: redis.url, queueName: queue, runId: `r${run}`, task, instances, chunkSize: CHUNK });
      const got = await collect({ redis: redis.url, queueName: queue, runId: `r${run}`, pollMs: 50 });
      const s = (performance.now() - t0) / 1000;
      const me = process.cpuUsage(me0);
      const w1 = (await Promise.all(ws.map(workerCpu))).reduce((a, b) => a + b, 0);
      const r1 = procCpu(redis.pid);
      parts[workers === 1 ? 'q1' : 'q2'].push({
        workers: w1 - w0,
        redis: r1 - r0,
        collector: (me.user + me.system) / 1e6,
      });
      run++;
      await stopWorkers(ws);
      if (got.results.length !== instances.length)
        throw new Error(
          `queued run: ${got.results.length}/${instances.length} results; failures ${JSON.stringify(got.failures)}`,
        );
      return { wall: s, cpu: w1 - w0 + (r1 - r0) + (me.user + me.system) / 1e6 };
    };
    for (let r = 0; r < REPEATS; r++) {
      for (const [k, r] of [
        ['local', await localInChild(work)],
        ['q1', await queued(1)],
        ['q2', await queued(2)],
      ] as const) {
        times[k].push(r.wall);
        cpu[k].push(r.cpu);
      }
      log(
        `repeat ${r + 1}/${REPEATS}: local ${times.local[r].toFixed(2)} s, 1 worker ${times.q1[r].toFixed(2)} s, 2 workers ${times.q2[r].toFixed(2)} s`,
      );
    }
    const ml = median(times.local);
    const m1 = median(times.q1);
    const m2 = median(times.q2);
    const jobs = Math.ceil(instances.length / CHUNK);
    const range = (xs: number[]) =>
      `${median(xs).toFixed(2)} s (${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)})`;
    console.log(
      `${instances.length} LIME explanations (${SAMPLES} samples, SpamAssassin, first 100 words), ${jobs} jobs of ${CHUNK}; medians of ${REPEATS} runs (min–max); every side in its own fresh process, warmed up on 50 instances before timing; with 2 workers each runs its kernels on cores / 2 threads (XTRUST_THREADS)\n`,
    );
    const cl = median(cpu.local);
    const c1 = median(cpu.q1);
    const c2 = median(cpu.q2);
    console.log(
      '| run | wall time | explanations / s (wall) | wall vs local | CPU time (all processes) | CPU overhead vs local |',
    );
    console.log('| --- | --- | --- | --- | --- | --- |');
    console.log(
      `| local, one fresh process (runLocal, warmed up like a worker) | ${range(times.local)} | ${(instances.length / ml).toFixed(1)} | 1× | ${range(cpu.local)} | — |`,
    );
    console.log(
      `| queue, 1 worker process | ${range(times.q1)} | ${(instances.length / m1).toFixed(1)} | ${(ml / m1).toFixed(2)}× | ${range(cpu.q1)} | ${(((c1 - cl) / cl) * 100).toFixed(1)} % |`,
    );
    console.log(
      `| queue, 2 worker processes | ${range(times.q2)} | ${(instances.length / m2).toFixed(1)} | ${(ml / m2).toFixed(2)}× | ${range(cpu.q2)} | ${(((c2 - cl) / cl) * 100).toFixed(1)} % |`,
    );
    const load = loadavg()[0];
    const part = (k: string, f: 'workers' | 'redis' | 'collector') => median(parts[k].map((p) => p[f])).toFixed(2);
    console.log(
      `\nCPU of the queued runs by process (medians): 1 worker — worker ${part('q1', 'workers')} s, redis-server ${part('q1', 'redis')} s, enqueueing + collecting process ${part('q1', 'collector')} s; 2 workers — workers ${part('q2', 'workers')} s, redis-server ${part('q2', 'redis')} s, collecting ${part('q2', 'collector')} s.`,
    );
    console.log(
      `\nQueue overhead with 1 worker: **${(((c1 - cl) / cl) * 100).toFixed(1)} % in CPU time** (worker + redis-server + the collecting process, vs the local process; target < 5 %), ${(((c1 - cl) / jobs) * 1000).toFixed(0)} ms of CPU per job of ${CHUNK}; ${(((m1 - ml) / ml) * 100).toFixed(1)} % in wall time. ` +
        `2 workers vs 1: ${(m1 / m2).toFixed(2)}× in wall time on ${cpus().length} cores. Load average ${load.toFixed(1)} at the end: on a shared machine wall times swing by tens of percent between runs, CPU time much less — read the overhead from CPU time.`,
    );

    // kill -9 during a 1,000-instance audit
    const killSet = pool.slice(0, KILL_N);
    const killTask: TaskSpec = {
      ...task,
      explainer: { name: 'lime', options: { numSamples: KILL_SAMPLES, numFeatures: 10, seed: 5 } },
    };
    const t0 = performance.now();
    const local = await runLocal(killTask, killSet);
    const localS = (performance.now() - t0) / 1000;
    const queue = 'bench-kill';
    const fast = ['--lock-ms', '5000', '--stalled-ms', '2000'];
    const ws = await workersReady(startScaleWorkers(2, redis.url, queue, fast));
    const t1 = performance.now();
    await enqueueAudit({
      redis: redis.url,
      queueName: queue,
      runId: 'kill',
      task: killTask,
      instances: killSet,
      chunkSize: CHUNK,
    });
    const client = new Redis(redis.url);
    const key = runKeys('kill').results;
    while ((await client.hlen(key)) < killSet.length * 0.3) await new Promise((r) => setTimeout(r, 20));
    const atKill = await client.hlen(key);
    ws[0].kill('SIGKILL');
    const replacement = startScaleWorkers(1, redis.url, queue, fast);
    const got = await collect({ redis: redis.url, queueName: queue, runId: 'kill', pollMs: 50 });
    const queuedS = (performance.now() - t1) / 1000;
    const stored = await client.hlen(key);
    client.disconnect();
    await stopWorkers([...ws, ...replacement]);
    const identical =
      got.results.length === killSet.length && got.results.every((r, i) => r === local.get(killSet[i].id));
    console.log(
      `\nkill -9 of one of 2 workers at ${atKill}/${killSet.length} results (LIME ${KILL_SAMPLES} samples, jobs of ${CHUNK}), a replacement started: **${got.results.length} results** (${stored} keys stored, ${got.failures.length} failed jobs), **${identical ? 'identical' : 'NOT identical'}** to the local run with the same seed; queued ${queuedS.toFixed(1)} s vs local ${localS.toFixed(1)} s.`,
    );
    if (!identical || got.results.length !== killSet.length) process.exitCode = 1;
  } finally {
    redis.stop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
