/** A throw-away redis-server on 127.0.0.1 for the scale benchmark (Debian's redis-server; nothing saved to disk). */
import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';

export async function startRedis(): Promise<{ url: string; pid: number; stop: () => void }> {
  if (spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status !== 0)
    throw new Error('redis-server is not installed (apt-get install -y redis-server)');
  const port = await new Promise<number>((resolve, reject) => {
    const s = createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => resolve(p));
    });
  });
  const proc = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  );
  await new Promise<void>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error('redis-server did not start')), 10_000);
    proc.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  return { url: `redis://127.0.0.1:${port}`, pid: proc.pid!, stop: () => proc.kill('SIGKILL') };
}
