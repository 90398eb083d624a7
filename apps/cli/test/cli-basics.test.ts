import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const bin = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'bin.js');

/** Runs the built CLI and returns its exit code and output. */
function xtrust(...args: string[]) {
  const r = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('xtrust bin', () => {
  it('--help lists the commands and exits 0', () => {
    const r = xtrust('--help');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('demo');
  });

  it('an unknown flag is one line, exit 2, with the closest flag suggested', () => {
    const r = xtrust('demo', '--sed', '1');
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe("xtrust: unknown option '--sed' (did you mean --seed?)");
  });

  it('an unknown command suggests the closest', () => {
    const r = xtrust('dmo');
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe("xtrust: unknown command 'dmo' (did you mean demo?)");
  });
});

describe('every command', () => {
  const commands = ['demo', 'audit', 'explain', 'keywords', 'label', 'attack', 'compare', 'gate', 'report', 'bench'];

  it.each(commands)('%s --help shows options and examples, with --json', (name) => {
    const r = xtrust(name, '--help');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Examples:');
    expect(r.stdout).toContain('--json');
    expect(r.stdout).toContain('--config');
  });

  it('a missing required option is one line, exit 2', () => {
    const r = xtrust('audit', '--train', 'a.csv', '--test', 'b.csv');
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("xtrust: required option '--model <path>' not specified\n");
  });

  it('an invalid option value names the option', () => {
    const r = xtrust('demo', '--samples', 'many');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^xtrust: option '--samples <n>' argument 'many' is invalid\. expected a positive integer/,
    );
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('with --json a failure is also JSON on stdout', () => {
    const r = xtrust('gate', '--run', '/nonexistent-run', '--max-untrustworthy', '0.1', '--json');
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout)).toEqual({
      error: { message: '/nonexistent-run is not an xtrust run directory (no run.json)', exitCode: 2 },
    });
    const u = xtrust('demo', '--sed', '1', '--json');
    expect(JSON.parse(u.stdout).error).toEqual({ message: "unknown option '--sed'", exitCode: 2 });
  });

  it('--version prints the version', () => {
    const r = xtrust('--version');
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe('0.1.0');
  });
});
