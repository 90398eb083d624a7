import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { BIN, buildFixture, xtrustAsync, type Fixture } from './helpers.js';

let fx: Fixture;
beforeAll(async () => {
  fx = await buildFixture();
}, 120_000);

const settings = [
  '--train-sample',
  '240',
  '--test-sample',
  '0',
  '--samples',
  '400',
  '--class-names',
  'ham=legitimate',
  '--quiet',
];
const auditArgs = (out: string) => [
  'audit',
  '--model',
  fx.model,
  '--train',
  fx.train,
  '--test',
  fx.test,
  '--trust-column',
  'trust',
  '--out',
  out,
  ...settings,
];

/** Complete JSONL lines in a file (0 when it does not exist yet). */
function lines(path: string): string[] {
  if (!existsSync(path)) return [];
  const content = readFileSync(path, 'utf8');
  return content
    .slice(0, content.lastIndexOf('\n') + 1)
    .split('\n')
    .filter(Boolean);
}

/**
 * Starts the audit and kills it with SIGKILL (no chance to clean up) as soon as `file` holds at least
 * `atLeast` records. Resolves whether the kill happened before the run ended on its own.
 */
function runAndKill(args: string[], file: string, atLeast: number): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: 'ignore' });
    let killed = false;
    const poll = setInterval(() => {
      if (!killed && lines(file).length >= atLeast) {
        killed = true;
        child.kill('SIGKILL');
      }
    }, 10);
    child.on('exit', () => {
      clearInterval(poll);
      resolve(killed);
    });
  });
}

/** A summary without its timings (the only parts that may differ between two runs: the run's and the category probes'). */
function withoutTimings(path: string): unknown {
  const s = JSON.parse(readFileSync(path, 'utf8'));
  delete s.seconds;
  if (s.categoryProbes?.cost) delete s.categoryProbes.cost.seconds;
  return s;
}

/** The keyword store without its provenance (creation time and duration). */
function storeContent(path: string): unknown {
  const s = JSON.parse(readFileSync(path, 'utf8'));
  delete s.provenance;
  return s;
}

describe('a killed audit resumes without losing or repeating work', () => {
  it('kill -9 mid-way, --resume: the same outputs as an uninterrupted run', async () => {
    const whole = join(fx.dir, 'whole');
    const cut = join(fx.dir, 'cut');
    const uninterrupted = await xtrustAsync(auditArgs(whole));
    expect(uninterrupted.code).toBe(0);

    // killed while explaining training texts for keywords
    const keywordFile = join(cut, 'keywords.explanations.jsonl');
    expect(await runAndKill(auditArgs(cut), keywordFile, 1)).toBe(true);
    expect(JSON.parse(readFileSync(join(cut, 'run.json'), 'utf8')).status).toBe('running');
    expect(existsSync(join(cut, 'report.html'))).toBe(false);
    const before = lines(keywordFile).length;
    expect(before).toBeGreaterThan(0);
    expect(before).toBeLessThan(lines(join(whole, 'keywords.explanations.jsonl')).length);

    // killed again (best effort) while explaining test predictions
    await runAndKill([...auditArgs(cut), '--resume'], join(cut, 'predictions.explanations.jsonl'), 1);

    const resumed = await xtrustAsync([...auditArgs(cut), '--resume']);
    expect(resumed.stderr).toBe('');
    expect(resumed.code).toBe(0);

    expect(readFileSync(join(cut, 'predictions.jsonl'), 'utf8')).toBe(
      readFileSync(join(whole, 'predictions.jsonl'), 'utf8'),
    );
    expect(withoutTimings(join(cut, 'summary.json'))).toEqual(withoutTimings(join(whole, 'summary.json')));
    expect(storeContent(join(cut, 'keywords.json'))).toEqual(storeContent(join(whole, 'keywords.json')));
    // nothing repeated: each checkpoint holds each key once, and as many as the uninterrupted run's
    for (const name of ['keywords.explanations.jsonl', 'predictions.explanations.jsonl']) {
      const keys = lines(join(cut, name)).map((l) => JSON.parse(l).key);
      expect(new Set(keys).size).toBe(keys.length);
      expect(keys.length).toBe(lines(join(whole, name)).length);
    }
    expect(JSON.parse(readFileSync(join(cut, 'run.json'), 'utf8')).status).toBe('complete');
  }, 600_000);
});
