/**
 * Test set-up: a throw-away redis-server on 127.0.0.1 and a free port, nothing saved to disk. Installs
 * Debian's redis-server when it is missing and we are root (as in CI); otherwise says how to install it.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

export interface TestRedis {
  readonly port: number;
  /** redis://127.0.0.1:port, or with the password when one was set. */
  readonly url: string;
  stop(): Promise<void>;
}

function hasRedis(): boolean {
  return spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;
}

/** Makes sure `redis-server` runs here, installing Debian's package as root when needed. */
export function ensureRedisServer(): void {
  if (hasRedis()) return;
  if (process.getuid?.() !== 0) throw new Error('redis-server is not installed: apt-get install -y redis-server (the tests start their own on 127.0.0.1)');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  spawnSync('apt-get', ['update'], { stdio: 'ignore', env });
  const r = spawnSync('apt-get', ['install', '-y', '--no-install-recommends', 'redis-server'], { stdio: 'ignore', env });
  if (r.status !== 0 || !hasRedis()) throw new Error('could not install redis-server with apt-get');
}

/** A port nobody listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.unref();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** Starts redis-server (optionally with `requirepass`) and resolves once it accepts connections. */
export async function startRedis(options: { password?: string } = {}): Promise<TestRedis> {
  ensureRedisServer();
  const port = await freePort();
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--protected-mode', 'yes'];
  if (options.password) args.push('--requirepass', options.password);
  const proc: ChildProcess = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  await new Promise<void>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`redis-server did not start: ${out}`)), 10_000);
    proc.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    });
    proc.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited with ${code}: ${out}`));
    });
  });
  const auth = options.password ? `:${encodeURIComponent(options.password)}@` : '';
  return {
    port,
    url: `redis://${auth}127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        if (proc.exitCode !== null) return resolve();
        proc.once('exit', () => resolve());
        proc.kill('SIGKILL');
      }),
  };
}
