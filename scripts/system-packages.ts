import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/**
 * Vitest global set-up: the Debian packages some tests need (redis-server for the queue tests; with the
 * slow tests, Chromium for the report's browser test and Debian's torch + threaded OpenBLAS for the
 * ONNX-vs-PyTorch test), installed with apt-get **once, before any test worker starts**, when they are
 * missing and we are root (as in CI on a fresh machine).
 *
 * Why here and not in each test's own set-up (which still checks, and still installs as a fallback): two
 * workers running apt-get at once collide on dpkg's lock, and a minutes-long synchronous install inside a
 * worker blocks its event loop past vitest's 60 s RPC timeout ("Timeout calling onTaskUpdate"), which fails
 * the run even though every test passed. Not root: nothing is installed; the tests that need a package say
 * how to install it.
 */
interface Need {
  readonly packages: readonly string[];
  readonly present: () => boolean;
  readonly slowOnly: boolean;
  readonly recommends: boolean;
}

const runs = (cmd: string, args: readonly string[]) => spawnSync(cmd, args, { stdio: 'ignore' }).status === 0;

const NEEDS: readonly Need[] = [
  {
    packages: ['redis-server'],
    present: () => runs('redis-server', ['--version']),
    slowOnly: false,
    recommends: false,
  },
  // the browser test installed chromium with its recommended packages (fonts): kept so
  { packages: ['chromium'], present: () => existsSync('/usr/bin/chromium'), slowOnly: true, recommends: true },
  {
    packages: ['python3-torch', 'python3-numpy', 'libopenblas0-pthread'],
    present: () =>
      runs('/usr/bin/python3', ['-c', 'import torch, numpy']) && runs('dpkg', ['-s', 'libopenblas0-pthread']),
    slowOnly: true,
    recommends: false,
  },
];

export function setup(): void {
  const slow = process.env.XTRUST_SLOW_TESTS === '1' || process.env.CI === 'true';
  const missing = NEEDS.filter((n) => (slow || !n.slowOnly) && !n.present());
  if (missing.length === 0 || process.getuid?.() !== 0 || !existsSync('/usr/bin/apt-get')) return;
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const apt = (args: readonly string[]) => spawnSync('apt-get', args, { stdio: ['ignore', 'ignore', 'inherit'], env });
  process.stderr.write(`[system packages] installing with apt-get: ${missing.flatMap((n) => n.packages).join(' ')}\n`);
  apt(['update']);
  for (const recommends of [false, true]) {
    const packages = missing.filter((n) => n.recommends === recommends).flatMap((n) => n.packages);
    if (packages.length === 0) continue;
    const r = apt(['install', '-y', ...(recommends ? [] : ['--no-install-recommends']), ...packages]);
    // a failed install is reported by the tests that need the package, with how to install it
    if (r.status !== 0)
      process.stderr.write(`[system packages] apt-get install ${packages.join(' ')} exited with ${r.status}\n`);
  }
}
