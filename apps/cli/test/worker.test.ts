/**
 * `xtrust worker` and `xtrust audit --queue` against a real redis-server on 127.0.0.1: a queued audit
 * ends with the same run directory contents as a local one (in --lime-mode int8+adaptive and --audit-mode
 * fast too), and an unreachable Redis is one clear line
 * and exit code 2, without hanging.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, SMALL_AUDIT, buildFixture, tempDir, xtrustAsync, type Fixture } from './helpers.js';
import { kitFixture } from '../../../models/transformers/fixture-paths.js';
// the throw-away redis-server of @xtrust/scale's tests (installs Debian's redis-server as root when missing)
import { freePort, startRedis, type TestRedis } from '../../../packages/scale/test/redis-server.js';

let redis: TestRedis;
let fx: Fixture;
const workers: ChildProcess[] = [];

beforeAll(async () => {
  redis = await startRedis({ password: 'cli-secret' });
  fx = await buildFixture();
}, 120_000);

afterAll(async () => {
  for (const w of workers) w.kill('SIGTERM');
  await redis?.stop();
});

describe('xtrust worker and audit --queue', () => {
  it('a queued audit writes the same predictions as a local audit, and the password shows nowhere', async () => {
    let logs = '';
    for (let i = 0; i < 2; i++) {
      const w = spawn(process.execPath, [BIN, 'worker', '--redis', redis.url, '--queue-name', 'cli-test'], {
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      w.stderr!.on('data', (d: Buffer) => (logs += d.toString()));
      workers.push(w);
    }
    const queuedDir = join(tempDir(), 'queued');
    const localDir = join(tempDir(), 'local');
    const args = ['audit', '--model', fx.model, '--train', fx.train, '--test', fx.test, ...SMALL_AUDIT];
    const [q, l] = await Promise.all([
      xtrustAsync([...args, '--out', queuedDir, '--queue', redis.url, '--queue-name', 'cli-test', '--json']),
      xtrustAsync([...args, '--out', localDir, '--json']),
    ]);
    expect(q.stderr).toBe('');
    expect(q.code).toBe(0);
    expect(l.code).toBe(0);
    const read = (dir: string) => readFileSync(join(dir, 'predictions.jsonl'), 'utf8');
    expect(read(queuedDir)).toBe(read(localDir));
    expect(logs).toMatch(/xtrust worker: job .* completed/);
    for (const text of [logs, q.stdout, q.stderr, readFileSync(join(queuedDir, 'run.json'), 'utf8')])
      expect(text).not.toContain('cli-secret');
  }, 240_000);

  it('--lime-mode travels with the jobs: a queued int8+adaptive audit of a transformer equals the local one', async () => {
    const bert = kitFixture('tiny-bert-spam');
    const queueName = 'cli-int8';
    for (let i = 0; i < 2; i++)
      workers.push(
        spawn(process.execPath, [BIN, 'worker', '--redis', redis.url, '--queue-name', queueName, '--quiet'], {
          stdio: 'ignore',
        }),
      );
    const args = [
      'audit',
      '--model',
      bert,
      '--train',
      fx.train,
      '--test',
      fx.test,
      '--train-sample',
      '20',
      '--test-sample',
      '6',
      '--samples',
      '200',
      '--class-names',
      'ham=legitimate',
      '--quiet',
      '--lime-mode',
      'int8+adaptive',
    ];
    const queuedDir = join(tempDir(), 'queued');
    const localDir = join(tempDir(), 'local');
    const [q, l] = await Promise.all([
      xtrustAsync([...args, '--out', queuedDir, '--queue', redis.url, '--queue-name', queueName]),
      xtrustAsync([...args, '--out', localDir]),
    ]);
    expect(q.stderr).toBe('');
    expect(q.code).toBe(0);
    expect(l.code).toBe(0);
    // the workers explained with int8 and adaptive LIME: a worker ignoring either would give other words and weights
    const read = (dir: string) => readFileSync(join(dir, 'predictions.jsonl'), 'utf8');
    expect(read(queuedDir)).toBe(read(localDir));
    // and the jobs in Redis say so (BullMQ keeps completed jobs a week)
    const cli = (...a: string[]) =>
      spawnSync(
        'redis-cli',
        ['-h', '127.0.0.1', '-p', String(redis.port), '-a', 'cli-secret', '--no-auth-warning', ...a],
        { encoding: 'utf8' },
      ).stdout.trim();
    const ids = cli('ZRANGE', `bull:${queueName}:completed`, '0', '-1').split('\n').filter(Boolean);
    expect(ids.length).toBeGreaterThan(0);
    for (const id of ids) {
      const { task } = JSON.parse(cli('HGET', `bull:${queueName}:${id}`, 'data'));
      expect(task.modelOptions).toEqual({ quantize: 'int8' });
      expect(task.explainer).toMatchObject({ name: 'lime', options: { adaptive: true, numSamples: 200 } });
    }
  }, 300_000);

  it("--audit-mode fast through the queue gives the local fast audit's labels: the workers make the adaptive keyword pass, the verdict-aware labelling stays local", async () => {
    const bert = kitFixture('tiny-bert-spam');
    const queueName = 'cli-audit-fast';
    for (let i = 0; i < 2; i++)
      workers.push(
        spawn(process.execPath, [BIN, 'worker', '--redis', redis.url, '--queue-name', queueName, '--quiet'], {
          stdio: 'ignore',
        }),
      );
    // 1,000 samples: rounds of 50 from 200 rows, so the verdict rule can stop early
    const args = [
      'audit',
      '--model',
      bert,
      '--train',
      fx.train,
      '--test',
      fx.test,
      '--train-sample',
      '20',
      '--test-sample',
      '6',
      '--samples',
      '1000',
      '--class-names',
      'ham=legitimate',
      '--quiet',
      '--audit-mode',
      'fast',
    ];
    const queuedDir = join(tempDir(), 'queued');
    const localDir = join(tempDir(), 'local');
    const [q, l] = await Promise.all([
      xtrustAsync([...args, '--out', queuedDir, '--queue', redis.url, '--queue-name', queueName]),
      xtrustAsync([...args, '--out', localDir]),
    ]);
    expect(q.stderr).toBe('');
    expect(q.code).toBe(0);
    expect(l.code).toBe(0);
    const read = (dir: string) => readFileSync(join(dir, 'predictions.jsonl'), 'utf8');
    const predictions = (dir: string) =>
      read(dir)
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { verdict: string; samples?: number });
    // the same labels, and the same explanations and samples used: the whole file is equal
    expect(predictions(queuedDir).map((p) => p.verdict)).toEqual(predictions(localDir).map((p) => p.verdict));
    expect(read(queuedDir)).toBe(read(localDir));
    // the same keywords (the store's provenance has its own timings and dates)
    const classes = (dir: string) => JSON.parse(readFileSync(join(dir, 'keywords.json'), 'utf8')).classes;
    expect(classes(queuedDir)).toEqual(classes(localDir));
    // every judged prediction records the samples its verdict took (capped at --samples); some are judged
    const judged = predictions(queuedDir).filter((p) => p.verdict !== 'incorrect');
    expect(judged.length).toBeGreaterThan(0);
    for (const p of judged) expect(p.samples).toBeLessThanOrEqual(1000);
    // the keyword pass went through the workers, adaptive (--audit-mode fast's keyword LIME)
    const cli = (...a: string[]) =>
      spawnSync(
        'redis-cli',
        ['-h', '127.0.0.1', '-p', String(redis.port), '-a', 'cli-secret', '--no-auth-warning', ...a],
        { encoding: 'utf8' },
      ).stdout.trim();
    const ids = cli('ZRANGE', `bull:${queueName}:completed`, '0', '-1').split('\n').filter(Boolean);
    expect(ids.length).toBeGreaterThan(0);
    for (const id of ids)
      expect(JSON.parse(cli('HGET', `bull:${queueName}:${id}`, 'data')).task.explainer).toMatchObject({
        name: 'lime',
        options: { adaptive: true, numSamples: 1000 },
      });
  }, 300_000);

  it('Redis unreachable: one line naming the redacted URL, exit code 2, no hang', async () => {
    const url = `redis://:hunter2@127.0.0.1:${await freePort()}`;
    const t0 = Date.now();
    const w = await xtrustAsync(['worker', '--redis', url]);
    expect(w.code).toBe(2);
    expect(w.stderr.trim().split('\n')).toHaveLength(1);
    expect(w.stderr).toMatch(/^xtrust: cannot use Redis at redis:\/\/:\*\*\*@127\.0\.0\.1:\d+: .*ECONNREFUSED/);
    const a = await xtrustAsync([
      'audit',
      '--model',
      fx.model,
      '--train',
      fx.train,
      '--test',
      fx.test,
      ...SMALL_AUDIT,
      '--out',
      join(tempDir(), 'x'),
      '--queue',
      url,
    ]);
    expect(a.code).toBe(2);
    expect(a.stderr).toMatch(/cannot use Redis at redis:\/\/:\*\*\*@/);
    for (const text of [w.stderr, a.stderr, a.stdout]) expect(text).not.toContain('hunter2');
    expect(Date.now() - t0).toBeLessThan(60_000);
  }, 120_000);
});
