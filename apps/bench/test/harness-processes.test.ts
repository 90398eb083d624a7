// The bench harness's child processes (src/harness/processes.ts) and timing (src/harness/timing.ts), on
// tiny `node -e` children.
import { describe, expect, it } from 'vitest';
import { runChild, startWorkers, stopWorkers, workersReady, WORKER_READY } from '../src/harness/processes.js';
import { timed, timedSync } from '../src/harness/timing.js';

describe('runChild', () => {
  it('captures stdout, keeps the end of stderr, and reports the exit code without rejecting', async () => {
    const r = await runChild(
      ['-e', "process.stdout.write('a'.repeat(100000) + 'end'); console.error('xyz'); process.exit(3)"],
      {
        stdout: 'capture',
        tailChars: 2,
      },
    );
    expect(r.code).toBe(3);
    expect(r.signal).toBeNull();
    // the whole output, even when it is larger than a pipe's buffer
    expect(r.stdout).toHaveLength(100003);
    expect(r.stdout.endsWith('end')).toBe(true);
    // 'xyz\n' cut to its last 2 characters
    expect(r.stderrTail).toBe('z\n');
    expect(r.timedOut).toBe(false);
    expect(r.wall).toBeGreaterThan(0);
    expect(r.cpu).toBeGreaterThanOrEqual(0);
  });

  it('ignores stdout unless asked, passes cwd and env, and keeps the pid in `live` only while it runs', async () => {
    const live = new Set<number>();
    const p = runChild(['-e', 'console.log(process.cwd()); console.error(process.env.XT_TEST)'], {
      cwd: '/',
      env: { XT_TEST: 'seen' },
      live,
    });
    expect(live.size).toBe(1);
    const r = await p;
    expect(live.size).toBe(0);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderrTail).toBe('seen\n');
    const c = await runChild(['-e', 'console.log(process.cwd())'], { cwd: '/', stdout: 'capture' });
    expect(c.stdout).toBe('/\n');
  });

  it('stops a child past its limit with SIGTERM and says so', async () => {
    let told = 0;
    const r = await runChild(['-e', 'setTimeout(() => {}, 60000)'], { limitS: 0.2, onTimeout: () => told++ });
    expect(r.timedOut).toBe(true);
    expect(r.signal).toBe('SIGTERM');
    expect(r.code).toBeNull();
    expect(told).toBe(1);
  });
});

describe('workers', () => {
  const worker = `console.error('starting'); setTimeout(() => console.error('${WORKER_READY} test'), 50); setInterval(() => {}, 1000)`;

  it('starts n processes with extra environment, waits until each is ready, and stops them', async () => {
    const ws = await workersReady(
      startWorkers(2, ['-e', `if (process.env.XT_W !== 'y') process.exit(5); ${worker}`], { XT_W: 'y' }),
    );
    expect(ws).toHaveLength(2);
    expect(ws.every((w) => w.exitCode === null)).toBe(true);
    await stopWorkers(ws);
    expect(ws.every((w) => w.signalCode === 'SIGTERM')).toBe(true);
    // stopping workers that have already exited returns at once
    await stopWorkers(ws);
  });

  it('rejects with the log of a worker that exits before it is ready', async () => {
    const ws = startWorkers(1, ['-e', "console.error('no redis'); process.exit(2)"]);
    await expect(workersReady(ws)).rejects.toThrow(/worker exited \(2\) before it was ready: no redis/);
  });
});

describe('timed / timedSync', () => {
  it("return the work's value with its wall and CPU seconds", async () => {
    const a = await timed(async () => 7);
    expect(a.value).toBe(7);
    const s = timedSync(() => {
      let x = 0;
      for (let i = 0; i < 1e6; i++) x += i;
      return x;
    });
    // 0 + 1 + … + 999,999
    expect(s.value).toBe(499999500000);
    for (const t of [a, s]) {
      expect(t.wall).toBeGreaterThanOrEqual(0);
      expect(t.cpu).toBeGreaterThanOrEqual(0);
    }
  });
});
