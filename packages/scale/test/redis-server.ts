/**
 * Test set-up: a throw-away redis-server on 127.0.0.1 and a free port, nothing saved to disk. Installs
 * Debian's redis-server when it is missing and we are root (as in CI); otherwise says how to install it.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

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
  if (process.getuid?.() !== 0)
    throw new Error(
      'redis-server is not installed: apt-get install -y redis-server (the tests start their own on 127.0.0.1)',
    );
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  spawnSync('apt-get', ['update'], { stdio: 'ignore', env });
  const r = spawnSync('apt-get', ['install', '-y', '--no-install-recommends', 'redis-server'], {
    stdio: 'ignore',
    env,
  });
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

/** A self-signed certificate for 127.0.0.1 (key, cert) made with openssl in a temporary folder. */
export function selfSignedCert(): { key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), 'xtrust-tls-'));
  const key = join(dir, 'key.pem');
  const cert = join(dir, 'cert.pem');
  const r = spawnSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      key,
      '-out',
      cert,
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
    ],
    { stdio: 'ignore' },
  );
  if (r.status !== 0) throw new Error('openssl could not make a test certificate');
  return { key, cert };
}

/**
 * Starts redis-server (optionally with `requirepass`, optionally TLS-only with a self-signed certificate)
 * and resolves once it accepts connections.
 */
export async function startRedis(
  options: { password?: string; tls?: { key: string; cert: string } } = {},
): Promise<TestRedis> {
  ensureRedisServer();
  const port = await freePort();
  const args = options.tls
    ? [
        '--port',
        '0',
        '--tls-port',
        String(port),
        '--tls-cert-file',
        options.tls.cert,
        '--tls-key-file',
        options.tls.key,
        '--tls-ca-cert-file',
        options.tls.cert,
        '--tls-auth-clients',
        'no',
      ]
    : ['--port', String(port)];
  args.push('--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--protected-mode', 'yes');
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
    url: `${options.tls ? 'rediss' : 'redis'}://${auth}127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        if (proc.exitCode !== null) return resolve();
        proc.once('exit', () => resolve());
        proc.kill('SIGKILL');
      }),
  };
}
