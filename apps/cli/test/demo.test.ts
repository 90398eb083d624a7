import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir, xtrustAsync } from './helpers.js';

const SMALL = ['--train-sample', '60', '--test-sample', '30', '--samples', '150', '--quiet'];

describe('xtrust demo (small settings)', () => {
  it('trains on SpamAssassin with headers, audits, writes the report and prints the summary', async () => {
    const out = join(tempDir(), 'demo');
    const r = await xtrustAsync(['demo', '--out', out, '--json', ...SMALL]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const { summary, files } = JSON.parse(r.stdout);
    expect(summary.data.labels).toEqual(['ham', 'spam']);
    expect(summary.data.auditedTestRows).toBe(30);
    expect(summary.model.testAccuracy).toBeGreaterThan(0.9);
    expect(summary.settings.classNames).toEqual({ ham: 'legitimate' });
    // header removal gives ground truth, so Naive and TOKI are compared when both kinds occur
    const truths = readFileSync(files.predictions, 'utf8').trim().split('\n').map((l) => JSON.parse(l).trustworthy);
    expect(truths.filter((t) => t !== undefined).length).toBeGreaterThan(0);
    if (new Set(truths.filter((t) => t !== undefined)).size === 2) expect(summary.comparison.rows).toHaveLength(2);
    expect(existsSync(files.report)).toBe(true);
    expect(existsSync(join(out, 'model', 'model.json'))).toBe(true);

    // the human summary: accuracy, untrustworthy share, spurious words per class, the report's path
    const again = await xtrustAsync(['demo', '--out', out, '--resume', ...SMALL]);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/^accuracy +\d+\.\d %/m);
    expect(again.stdout).toMatch(/^untrustworthy +\d+\.\d % of correct predictions/m);
    expect(again.stdout).toMatch(/^ {2}ham +\S/m);
    expect(again.stdout).toMatch(/^ {2}spam +\S/m);
    expect(again.stdout).toContain(`report                ${files.report}`);
    // resumed from the finished run: same predictions
    expect(readFileSync(files.predictions, 'utf8')).toBe(readFileSync(join(out, 'predictions.jsonl'), 'utf8'));
  }, 300_000);
});
