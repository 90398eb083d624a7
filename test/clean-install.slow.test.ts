import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run, type Ran } from './helpers/spawn.js';

// A newcomer's first run, on the committed state of this checkout: a fresh `git clone` into a temporary
// folder, the README's install command under a fresh HOME (so nothing this machine's user has
// configured or already dismissed — turbo's telemetry notice, ~/.npmrc — hides a notice), and one turbo
// run through the root scripts. Only npm's cache and pnpm's store are shared, to avoid downloading.

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The last line a command prints on stdout, run in this checkout with this process's environment. */
async function stdoutOf(cmd: string, args: readonly string[]): Promise<string> {
  const r = await run(cmd, args, root);
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed in ${root}: ${r.stderr}`);
  return r.stdout.trim().split('\n').at(-1)!.trim();
}

/** The lines of a command's output that match a notice (so a failure shows those lines, not the whole log). */
function linesMatching(r: Ran, notice: RegExp): string[] {
  return `${r.stdout}${r.stderr}`.split('\n').filter((line) => notice.test(line));
}

/**
 * This process's environment as a fresh shell would have it: without what `pnpm test` and vitest add
 * (npm_* settings, node_modules/.bin on PATH, TURBO_TELEMETRY_DISABLED from the root script: inherited,
 * it would make the telemetry check pass whatever the clone's scripts say) and with a new HOME.
 */
function freshEnv(home: string, npmCache: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^(npm_|pnpm_|turbo_|xdg_|vitest|node_options$|do_not_track$|init_cwd$)/i.test(key)) continue;
    env[key] = value;
  }
  env.PATH = (process.env.PATH ?? '')
    .split(delimiter)
    .filter((p) => !p.includes('node_modules'))
    .join(delimiter);
  env.HOME = home;
  env.npm_config_cache = npmCache;
  return env;
}

describe('a fresh clone of this repository', () => {
  let tmp = '';
  let home = '';
  let install: Ran;
  let turbo: Ran;

  beforeAll(async () => {
    const head = await stdoutOf('git', ['rev-parse', 'HEAD']);
    const npmCache = await stdoutOf('npm', ['config', 'get', 'cache']);
    const storeDir = await stdoutOf('npx', ['-y', 'pnpm@10', 'store', 'path']);
    tmp = mkdtempSync(join(tmpdir(), 'xtrust-clean-install-'));
    home = join(tmp, 'home');
    mkdirSync(home);
    const clone = join(tmp, 'xtrust');
    for (const args of [
      ['clone', '--quiet', '--no-checkout', root, clone],
      ['-C', clone, 'checkout', '--quiet', '--detach', head],
    ]) {
      const r = await run('git', args, tmp);
      if (r.status !== 0) throw new Error(`git ${args.join(' ')} failed: ${r.stderr}`);
    }
    const env = freshEnv(home, npmCache);
    install = await run('npx', ['-y', 'pnpm@10', 'install', '--frozen-lockfile', '--store-dir', storeDir], clone, env);
    turbo = await run('npx', ['-y', 'pnpm@10', 'turbo', 'run', 'build', '--dry'], clone, env);
  }, 600_000);

  afterAll(() => {
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it('installs with --frozen-lockfile, every dependency build script decided (no "Ignored build scripts" box)', () => {
    expect(install.status, `${install.stdout}${install.stderr}`).toBe(0);
    expect(linesMatching(install, /^Done in /)).toHaveLength(1);
    expect(linesMatching(install, /Ignored build scripts|approve-builds/)).toEqual([]);
  });

  it('advertises no pnpm or npm update (the README pins pnpm 10)', () => {
    expect(linesMatching(install, /Update available|New (major|minor|patch) version of npm/)).toEqual([]);
  });

  it('runs turbo through the root scripts with its telemetry off: no notice, no telemetry id written', () => {
    expect(turbo.status, `${turbo.stdout}${turbo.stderr}`).toBe(0);
    expect(linesMatching(turbo, /^Packages in Scope\s*$/)).toHaveLength(1);
    // any line naming telemetry, but pnpm's echo of the script ("> TURBO_TELEMETRY_DISABLED=1 turbo …")
    expect(linesMatching(turbo, /^(?!> ).*telemetry/i)).toEqual([]);
    expect(existsSync(join(home, '.config', 'turborepo', 'telemetry.json'))).toBe(false);
  });
});
