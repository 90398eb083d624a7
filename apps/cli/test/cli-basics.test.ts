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
