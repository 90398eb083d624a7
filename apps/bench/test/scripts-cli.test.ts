// Every bench script, built and run as a user runs it: `--help` prints its options and exits 0; a mistyped
// option prints one line (no stack trace) and exits 2. The scripts are the files of src/ that parse their
// command line with the harness; no other file of src/ may read process.argv itself.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';

const APP = resolve(dirname(new URL(import.meta.url).pathname), '..');
const SRC = join(APP, 'src');
const DIST = join(APP, 'dist');
const ROOT = resolve(APP, '../..');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? sources(p) : p.endsWith('.ts') ? [relative(SRC, p)] : [];
  });
}
const files = sources(SRC).filter((f) => !f.startsWith('harness/'));
const text = (f: string) => readFileSync(join(SRC, f), 'utf8');
/** Scripts: files that parse a command line through the harness. */
const scripts = files.filter((f) => /\b(parseOrExit|runScript)\(/.test(text(f))).map((f) => f.replace(/\.ts$/, '.js'));

/** Options a few scripts must list (the help is generated from the declaration; these guard the wiring). */
const MUST_LIST: Record<string, string[]> = {
  'index.js': ['--only', '--skip', '--quick', '--list', '--render', '--lime-src', '--out'],
  'report.js': ['--sections', '--out', '--pages'],
  'attack/run.js': ['--task', '--cases', '--model', '--rho', '--store-samples', '--bow'],
  'transformer-audit/run.js': [
    '--model',
    '--fraction',
    '--fast-mode',
    '--queue-mode',
    '--workers',
    '--remeasure',
    '--fresh',
  ],
  'transformer-lime/run.js': [
    '--lime-src',
    '--model',
    '--large',
    '--modes',
    '--sessions',
    '--only-stored',
    '--earlier',
  ],
  'scale/run.js': ['--instances', '--chunk', '--repeats', '--kill-instances'],
  'oracle/shortcut.js': ['--family', '--draws', '--trigger-band', '--oracle', '--write-section'],
  'oracle/select.js': ['--explain-only', '--only'],
};

function run(script: string, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [join(DIST, script), ...args], {
      cwd: ROOT,
      env: { ...process.env, LIME_SRC: '' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

/** The built scripts are older than their sources (or missing): build the bench once. */
function stale(): boolean {
  return (
    scripts.some((s) => {
      const js = join(DIST, s);
      return !existsSync(js) || statSync(js).mtimeMs < statSync(join(SRC, s.replace(/\.js$/, '.ts'))).mtimeMs;
    }) ||
    sources(join(SRC, 'harness')).some((f) => {
      const js = join(DIST, 'harness', f.replace(/\.ts$/, '.js'));
      return !existsSync(js) || statSync(js).mtimeMs < statSync(join(SRC, 'harness', f)).mtimeMs;
    })
  );
}

beforeAll(() => {
  if (!stale()) return;
  // tsc emits even when another part of the package does not typecheck; the scripts checked here must exist after it
  spawnSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', join(APP, 'tsconfig.json')], {
    stdio: 'ignore',
  });
  for (const s of scripts)
    if (!existsSync(join(DIST, s))) throw new Error(`apps/bench/dist/${s} is missing after building the bench`);
}, 240_000);

describe('bench scripts on the command line', () => {
  it('finds the scripts, and no other file reads the command line itself', () => {
    for (const s of [
      'index.js',
      'report.js',
      'attack/run.js',
      'transformer-audit/run.js',
      'transformer-lime/run.js',
      'transformer-lime/stopping.js',
      'transformer-lime/candidates.js',
      'transformer-lime/profile.js',
      'lime-parity/run.js',
      'explainers-speed/run.js',
      'native/run.js',
      'reproductions/ndcg.js',
      'reproductions/synonymity.js',
      'scale/run.js',
      'oracle/shortcut.js',
      'oracle/select.js',
      'oracle/speed.js',
      'oracle/word-list-agreement.js',
    ]) {
      expect(scripts).toContain(s);
    }
    for (const f of files)
      expect(text(f), f).not.toMatch(/(process\.)?argv\.(indexOf|includes)\(|process\.argv\[[2-9]/);
  });

  it('--help lists the options and exits 0; a mistyped option is one line on stderr and exit 2', async () => {
    const results: string[] = [];
    // a few at a time: each start loads onnxruntime and the native addon
    for (let i = 0; i < scripts.length; i += 4) {
      await Promise.all(
        scripts.slice(i, i + 4).map(async (s) => {
          const help = await run(s, ['--help']);
          expect(help.code, `${s} --help: ${help.stderr}`).toBe(0);
          expect(help.stdout, s).toMatch(/^usage: /);
          expect(help.stdout, s).toContain('\noptions:\n');
          expect(help.stdout, s).toContain('-h, --help');
          for (const o of MUST_LIST[s] ?? []) expect(help.stdout, `${s} --help lists ${o}`).toContain(`${o}`);

          const wrong = await run(s, ['--no-such-option', '1']);
          expect(wrong.code, `${s}: ${wrong.stderr}`).toBe(2);
          expect(wrong.stdout, s).toBe('');
          const lines = wrong.stderr.trimEnd().split('\n');
          expect(lines, `${s}: ${wrong.stderr}`).toHaveLength(1);
          expect(lines[0]).toBe(`${s}: unknown option --no-such-option (try --help)`);
          results.push(s);
        }),
      );
    }
    expect(results.sort()).toEqual([...scripts].sort());
  }, 180_000);

  it('reports a bad value as one line and exit 2', async () => {
    for (const [s, args, message] of [
      ['attack/run.js', ['--n', 'many'], 'attack/run.js: --n must be an integer, got "many"'],
      [
        'transformer-audit/run.js',
        ['--fraction', '2'],
        'transformer-audit/run.js: --fraction: must be in (0, 1], got "2"',
      ],
      ['index.js', ['--only', 'nope'], 'index.js: --only: unknown benchmark "nope"; known: '],
      ['transformer-lime/run.js', ['--model', 'x'], 'transformer-lime/run.js: --lime-src DIR is required (try --help)'],
    ] as const) {
      const r = await run(s, [...args]);
      expect(r.code, `${s}: ${r.stderr}`).toBe(2);
      expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(r.stderr.startsWith(message), r.stderr).toBe(true);
    }
  }, 120_000);
});
