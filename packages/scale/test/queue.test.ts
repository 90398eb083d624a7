/**
 * Scale-out against a real redis-server on 127.0.0.1: a worker killed with kill -9 mid-run loses and
 * repeats nothing, bad input fails clearly and only where it must. Kept small (150 LIME explanations
 * with 200 samples) so the file runs in well under a minute.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Explanation } from '@xtrust/core';
import { LimeExplainer } from '@xtrust/explainers';
import { BuiltinClassifier } from '@xtrust/models';
import {
  JOB_VERSION,
  QueuedExplainer,
  collect,
  enqueueAudit,
  makePayload,
  runKeys,
  runLocal,
  startWorker,
  type TaskSpec,
} from '../src/index.js';
import { fixture } from './fixture.js';
import { selfSignedCert, startRedis, freePort, type TestRedis } from './redis-server.js';

const pkg = join(dirname(fileURLToPath(import.meta.url)), '..');
const workerMain = join(pkg, 'dist', 'worker-main.js');

/** The kill -9 test runs a real worker process, so the package must be built (pnpm test builds first). */
function ensureBuilt(): void {
  if (existsSync(workerMain)) return;
  const r = spawnSync('npx', ['tsc', '-p', join(pkg, 'tsconfig.json')], { stdio: 'inherit' });
  if (r.status !== 0) throw new Error('could not build @xtrust/scale for the worker process');
}

interface Proc {
  proc: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function spawnWorker(args: string[], env: NodeJS.ProcessEnv = {}): Proc {
  const proc = spawn(process.execPath, [workerMain, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  let out = '';
  proc.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
  return { proc, output: () => out, exited };
}

async function until(f: () => Promise<boolean>, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (!(await f())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

let redis: TestRedis;
let modelDir: string;
let instances: { id: string; text: string; label: string }[];
const task = (): TaskSpec => ({
  kind: 'explain',
  model: modelDir,
  explainer: { name: 'lime', options: { numSamples: 200, numFeatures: 5, seed: 3 } },
});

beforeAll(async () => {
  ensureBuilt();
  redis = await startRedis();
  ({ modelDir, instances } = await fixture(150));
}, 120_000);

afterAll(async () => {
  await redis?.stop();
});

describe('queued audit', () => {
  it('a worker killed with kill -9 mid-run loses nothing: exactly one result per instance, identical to a local run', async () => {
    const runId = 'kill9';
    const queueName = 'q-kill9';
    const local = await runLocal(task(), instances);
    await enqueueAudit({ redis: redis.url, queueName, runId, task: task(), instances, chunkSize: 25 });
    // short locks so the killed worker's job is re-queued within a couple of seconds
    const fast = ['--queue', queueName, '--lock-ms', '2000', '--stalled-ms', '1000'];
    const first = spawnWorker(['--redis', redis.url, ...fast]);
    const client = new Redis(redis.url);
    try {
      await until(async () => (await client.hlen(runKeys(runId).results)) >= 10, 60_000, 'the first results');
      // mid-job: some results of a chunk stored, the rest not yet
      first.proc.kill('SIGKILL');
      expect(await first.exited).toBe(null);
      const before = await client.hlen(runKeys(runId).results);
      expect(before).toBeLessThan(instances.length);
      const second = spawnWorker(['--redis', redis.url, ...fast]);
      const third = spawnWorker(['--redis', redis.url, ...fast]);
      try {
        const got = await collect({ redis: redis.url, queueName, runId, timeoutMs: 90_000 });
        expect(got.failures).toEqual([]);
        expect(got.results.length).toBe(instances.length);
        expect(await client.hlen(runKeys(runId).results)).toBe(instances.length);
        const ids = got.results.map((r) => (JSON.parse(r) as { id: string }).id);
        expect(new Set(ids).size).toBe(instances.length);
        // compare one instance at a time so a mismatch prints one record, not 150
        const expected = instances.map((x) => local.get(x.id));
        const first = got.results.findIndex((r, i) => r !== expected[i]);
        expect(first === -1 ? null : { got: got.results[first], local: expected[first] }).toBe(null);
      } finally {
        second.proc.kill('SIGTERM');
        third.proc.kill('SIGTERM');
        await Promise.all([second.exited, third.exited]);
      }
    } finally {
      client.disconnect();
    }
  }, 150_000);

  it('QueuedExplainer gives the explanations the same explainer gives locally, and a second call reuses the stored results', async () => {
    const queueName = 'q-explainer';
    const w = await startWorker({ redis: redis.url, queueName, log: () => undefined });
    try {
      const options = { numSamples: 200, numFeatures: 5, seed: 9 };
      const classifier = await BuiltinClassifier.load(modelDir);
      const texts = instances.slice(0, 12).map((x) => x.text);
      const queued = new QueuedExplainer({
        redis: redis.url,
        queueName,
        model: modelDir,
        method: 'lime',
        options,
        jobSize: 5,
      });
      const canon = (e: Explanation) => ({
        ...e,
        probabilities: e.probabilities ? Array.from(e.probabilities) : undefined,
      });
      const local = (await new LimeExplainer(options).explain(classifier, texts)).map(canon);
      expect((await queued.explain(classifier, texts)).map(canon)).toEqual(local);
      const done = w.stats.instances;
      expect((await queued.explain(classifier, texts)).map(canon)).toEqual(local);
      expect(w.stats.instances).toBe(done);
    } finally {
      await w.close();
    }
  }, 60_000);

  it('fails a job whose model cannot be read with the reason, and other jobs continue', async () => {
    const queueName = 'q-model';
    const logs: string[] = [];
    const w = await startWorker({ redis: redis.url, queueName, log: (l) => logs.push(l) });
    try {
      await enqueueAudit({
        redis: redis.url,
        queueName,
        runId: 'bad-model',
        task: { ...task(), model: '/nonexistent/model-dir' },
        instances: instances.slice(0, 10),
        chunkSize: 5,
      });
      await enqueueAudit({
        redis: redis.url,
        queueName,
        runId: 'good-model',
        task: task(),
        instances: instances.slice(0, 10),
        chunkSize: 5,
      });
      const bad = await collect({ redis: redis.url, queueName, runId: 'bad-model', timeoutMs: 30_000 });
      const good = await collect({ redis: redis.url, queueName, runId: 'good-model', timeoutMs: 30_000 });
      expect(bad.results).toEqual([]);
      expect(bad.failures.map((f) => f.chunk)).toEqual([0, 1]);
      for (const f of bad.failures) expect(f.reason).toMatch(/cannot load model \/nonexistent\/model-dir/);
      expect(good.failures).toEqual([]);
      expect(good.results.length).toBe(10);
      expect(w.stats.failed).toBe(2); // unrecoverable: not retried three times
    } finally {
      await w.close();
    }
  }, 60_000);

  it('enqueueing a run again resumes it: nothing added twice, failed chunks retried once the cause is fixed', async () => {
    const queueName = 'q-resume';
    const w = await startWorker({ redis: redis.url, queueName, log: () => undefined });
    try {
      const later = join(mkdtempSync(join(tmpdir(), 'xtrust-scale-later-')), 'model');
      const run = {
        redis: redis.url,
        queueName,
        runId: 'resume',
        task: { ...task(), model: later },
        instances: instances.slice(0, 12),
        chunkSize: 4,
      };
      const first = await enqueueAudit(run);
      expect(first).toMatchObject({ chunks: 3, added: 3, retried: 0 });
      const failed = await collect({ redis: redis.url, queueName, runId: 'resume', timeoutMs: 30_000 });
      expect(failed.failures).toHaveLength(3);
      cpSync(modelDir, later, { recursive: true }); // the model shows up where the jobs look for it
      const again = await enqueueAudit(run);
      expect(again).toMatchObject({ chunks: 3, added: 0, retried: 3 });
      const done = await collect({ redis: redis.url, queueName, runId: 'resume', timeoutMs: 30_000 });
      expect(done.failures).toEqual([]);
      expect(done.results).toHaveLength(12);
      expect(await enqueueAudit(run)).toMatchObject({ added: 0, retried: 0 });
      await expect(enqueueAudit({ ...run, chunkSize: 5 })).rejects.toThrow(
        /queued with 12 instances in chunks of 4; now 12 in chunks of 5/,
      );
    } finally {
      await w.close();
    }
  }, 60_000);

  it('label and attack jobs with settings that cannot work fail once with the reason', async () => {
    const queueName = 'q-kinds';
    const w = await startWorker({ redis: redis.url, queueName, log: () => undefined });
    try {
      const few = instances.slice(0, 3);
      await enqueueAudit({
        redis: redis.url,
        queueName,
        runId: 'label-nostore',
        task: { kind: 'label', model: modelDir, label: { store: '/nonexistent/keywords.json', embeddings: ['glove'] } },
        instances: few,
      });
      await enqueueAudit({
        redis: redis.url,
        queueName,
        runId: 'attack-recipe',
        task: { kind: 'attack', model: modelDir, attack: { recipe: 'bogus' } },
        instances: few,
      });
      const label = await collect({ redis: redis.url, queueName, runId: 'label-nostore', timeoutMs: 30_000 });
      const attack = await collect({ redis: redis.url, queueName, runId: 'attack-recipe', timeoutMs: 30_000 });
      expect(label.failures).toHaveLength(1);
      expect(label.failures[0].reason).toMatch(/\/nonexistent\/keywords\.json/);
      expect(attack.failures).toHaveLength(1);
      expect(attack.failures[0].reason).toMatch(/unknown attack recipe "bogus"/);
      expect(w.stats.failed).toBe(2);
    } finally {
      await w.close();
    }
  }, 60_000);

  it('rejects a payload written by another xtrust version with the reason', async () => {
    const queueName = 'q-version';
    const w = await startWorker({ redis: redis.url, queueName, log: () => undefined });
    const q = new Queue(queueName, { connection: new Redis(redis.url, { maxRetriesPerRequest: null }) });
    try {
      const job = await q.add(
        'chunk',
        { ...makePayload('old', 0, task(), instances.slice(0, 2)), version: 0, xtrust: '0.0.1' },
        { attempts: 3 },
      );
      await until(
        async () => (await job.getState().then(() => q.getJob(job.id!)))?.failedReason !== undefined,
        20_000,
        'the job to fail',
      );
      const failed = await q.getJob(job.id!);
      expect(await failed!.getState()).toBe('failed');
      expect(failed!.failedReason).toContain(
        `version 0 was written by xtrust 0.0.1; this worker (xtrust 0.1.0) reads version ${JOB_VERSION}`,
      );
      expect(failed!.attemptsMade).toBe(1);
    } finally {
      await q.close();
      await w.close();
    }
  }, 40_000);

  it('Redis unreachable: a clear error, a non-zero exit, no hang', async () => {
    const port = await freePort();
    const url = `redis://user:hunter2@127.0.0.1:${port}`;
    const t0 = Date.now();
    await expect(
      enqueueAudit({ redis: url, runId: 'x', task: task(), instances: instances.slice(0, 1) }),
    ).rejects.toThrow(new RegExp(`cannot use Redis at redis://user:\\*\\*\\*@127\\.0\\.0\\.1:${port}.*ECONNREFUSED`));
    const w = spawnWorker(['--redis', url]);
    expect(await w.exited).toBe(1);
    expect(w.output()).toMatch(/xtrust worker: cannot use Redis at .*is redis-server running/);
    expect(w.output()).not.toContain('hunter2');
    expect(Date.now() - t0).toBeLessThan(15_000);
  }, 30_000);
});

describe('Redis with a password', () => {
  let secured: TestRedis;
  const password = 'p@ss w0rd:secret';
  beforeAll(async () => {
    secured = await startRedis({ password });
  });
  afterAll(async () => {
    await secured?.stop();
  });

  it('works with the password in the URL, which never shows in logs, payloads or errors', async () => {
    const queueName = 'q-auth';
    const logs: string[] = [];
    const w = await startWorker({ redis: secured.url, queueName, log: (l) => logs.push(l) });
    try {
      await enqueueAudit({
        redis: secured.url,
        queueName,
        runId: 'auth',
        task: task(),
        instances: instances.slice(0, 6),
        chunkSize: 3,
      });
      const got = await collect({ redis: secured.url, queueName, runId: 'auth', timeoutMs: 30_000 });
      expect(got.results.length).toBe(6);
      const client = new Redis(secured.url);
      const jobs = await client.keys('bull:*');
      const dump = (
        await Promise.all(
          jobs.map(async (k) => ((await client.type(k)) === 'hash' ? JSON.stringify(await client.hgetall(k)) : '')),
        )
      ).join('\n');
      client.disconnect();
      expect(dump).toContain('xtrust.scale.job');
      for (const text of [logs.join('\n'), dump, got.results.join('\n')]) {
        expect(text).not.toContain('w0rd');
        expect(text).not.toContain(encodeURIComponent(password));
      }
      expect(logs.join('\n')).toMatch(/xtrust worker on redis:\/\/:\*\*\*@127\.0\.0\.1/);
    } finally {
      await w.close();
    }
    const wrong = secured.url.replace(encodeURIComponent(password), 'wrong-guess');
    await expect(collect({ redis: wrong, runId: 'auth' })).rejects.toThrow(
      /cannot use Redis at .*\*\*\*.*(WRONGPASS|invalid).*check the user and password/,
    );
  }, 60_000);
});

describe('Redis over TLS (rediss://) with a password', () => {
  let tls: TestRedis;
  let cert: { key: string; cert: string };
  beforeAll(async () => {
    cert = selfSignedCert();
    tls = await startRedis({ password: 'tls-secret', tls: cert });
  });
  afterAll(async () => {
    delete process.env.XTRUST_REDIS_CA;
    await tls?.stop();
  });

  it('works when the server certificate is trusted through XTRUST_REDIS_CA, and says why when it is not', async () => {
    expect(tls.url.startsWith('rediss://')).toBe(true);
    delete process.env.XTRUST_REDIS_CA;
    await expect(collect({ redis: tls.url, runId: 'tls' })).rejects.toThrow(
      /cannot use Redis at rediss:\/\/:\*\*\*@127\.0\.0\.1:\d+: .*certificate.*XTRUST_REDIS_CA/,
    );
    process.env.XTRUST_REDIS_CA = cert.cert;
    const queueName = 'q-tls';
    const logs: string[] = [];
    const w = await startWorker({ redis: tls.url, queueName, log: (l) => logs.push(l) });
    try {
      await enqueueAudit({
        redis: tls.url,
        queueName,
        runId: 'tls',
        task: task(),
        instances: instances.slice(0, 4),
        chunkSize: 2,
      });
      const got = await collect({ redis: tls.url, queueName, runId: 'tls', timeoutMs: 30_000 });
      expect(got.results).toHaveLength(4);
      expect(logs.join('\n')).not.toContain('tls-secret');
    } finally {
      await w.close();
    }
  }, 60_000);
});
