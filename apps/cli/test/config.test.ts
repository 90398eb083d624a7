import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { applyConfig, readConfig } from '../src/config.js';
import { UsageError } from '../src/exit.js';
import { intArg } from '../src/options.js';
import { Progress } from '../src/progress.js';
import { tempDir, xtrust } from './helpers.js';

/** A command like xtrust's: an integer option with a default, a string option, a boolean flag. */
function command(): Command {
  return new Command('demo')
    .option('--seed <n>', 'seed', intArg, 0)
    .option('--out <dir>', 'out', 'xtrust-report')
    .option('--resume', 'resume', false)
    .exitOverride();
}

function parsed(args: string[], config: Record<string, unknown>): Record<string, unknown> {
  const c = command();
  c.parse(args, { from: 'user' });
  applyConfig(c, config, 'xtrust.config.json', [c]);
  return c.opts();
}

describe('config precedence: flag > config > default', () => {
  it('a config value replaces a default, a flag beats the config', () => {
    expect(parsed([], {})).toEqual({ seed: 0, out: 'xtrust-report', resume: false });
    expect(parsed([], { seed: 7, out: 'runs/a', resume: true })).toEqual({ seed: 7, out: 'runs/a', resume: true });
    expect(parsed(['--seed', '3'], { seed: 7 })).toMatchObject({ seed: 3 });
  });

  it("a command's own section wins over the top level; flag spelling works too", () => {
    expect(parsed([], { seed: 1, demo: { seed: 2 } })).toMatchObject({ seed: 2 });
    expect(parsed([], { demo: { seed: 4, out: 'x' } })).toMatchObject({ seed: 4, out: 'x' });
  });

  it('config values go through the same validation as flags', () => {
    expect(() => parsed([], { seed: -1 })).toThrow(/non-negative integer/);
    expect(() => parsed([], { resume: 'yes' })).toThrow(UsageError);
  });

  it('unknown keys are refused with the closest option named', () => {
    expect(() => parsed([], { sed: 1 })).toThrow(/unknown option "sed" \(did you mean seed\?\)/);
    expect(() => parsed([], { demo: { outt: 'x' } })).toThrow(/did you mean out\?/);
  });

  it('reads ./xtrust.config.json when present, and refuses a missing --config file or bad JSON', () => {
    const dir = tempDir();
    expect(readConfig(undefined, dir)).toEqual({ path: null, values: {} });
    writeFileSync(join(dir, 'xtrust.config.json'), '{"seed": 5}');
    expect(readConfig(undefined, dir).values).toEqual({ seed: 5 });
    expect(() => readConfig('nope.json', dir)).toThrow(/does not exist/);
    writeFileSync(join(dir, 'bad.json'), '{seed');
    expect(() => readConfig('bad.json', dir)).toThrow(/not valid JSON/);
  });

  it('the CLI applies the config file of the working directory (exit 2 on a bad key)', () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'sub'));
    writeFileSync(join(dir, 'xtrust.config.json'), JSON.stringify({ gate: { maxUntrustworthy: 0.2, run: 'nowhere' } }));
    const r = xtrust(['gate', '--json'], { cwd: dir });
    // --max-untrustworthy came from the config: the gate got as far as reading the run
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('xtrust: nowhere is not an xtrust run directory (no run.json)\n');
    writeFileSync(join(dir, 'xtrust.config.json'), JSON.stringify({ gate: { maxUntrustworthi: 0.2 } }));
    const bad = xtrust(['gate'], { cwd: dir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(
      /^xtrust: .*"gate" has no option "maxUntrustworthi" \(did you mean maxUntrustworthy\?\)\n$/,
    );
  });
});

describe('progress', () => {
  it('writes plain lines with count, rate and ETA when not on a terminal', () => {
    const out: string[] = [];
    const p = new Progress({ isTTY: false, write: (l) => out.push(l) }, { intervalMs: 0 });
    const t = p.start('explain', 4);
    t.update(0);
    t.update(2);
    t.stop();
    expect(out[0]).toMatch(/^explain 0\/4 \(/);
    expect(out.at(-1)).toMatch(/^explain 2\/4 \(/);
    expect(out.join('')).toMatch(/\/s|ETA| s\)/);
  });

  it('is silent with quiet', () => {
    const out: string[] = [];
    const p = new Progress({ isTTY: false, write: (l) => out.push(l) }, { quiet: true });
    p.note('x');
    p.start('y', 1).update(1);
    expect(out).toEqual([]);
  });
});
