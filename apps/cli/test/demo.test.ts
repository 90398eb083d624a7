import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { corpusVocabulary, leansOnTarget, loadSpamAssassin, SPAM_ASSASSIN_CLASS_DESCRIPTIONS } from '@xtrust/datasets';
import { scoredCaseTrigger } from '../src/scored-case.js';
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
    // a bundled corpus says what its classes are about (TOKI relates pool words through it), unless the user does
    expect(summary.settings.classDescriptions).toEqual({
      file: '(built in: SpamAssassin (with headers))',
      descriptions: SPAM_ASSASSIN_CLASS_DESCRIPTIONS,
    });
    const store = JSON.parse(readFileSync(join(out, 'keywords.json'), 'utf8'));
    expect(store.oracle.classDescriptions).toEqual(SPAM_ASSASSIN_CLASS_DESCRIPTIONS);
    // header removal decides few predictions (most are over-determined): far too few to score an oracle
    const truths = readFileSync(files.predictions, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l).trustworthy);
    const g = summary.groundTruth;
    expect(g.spurious).toBe('the headers');
    expect(truths.filter((t) => t === true).length).toBe(g.trustworthy);
    expect(truths.filter((t) => t === false).length).toBe(g.untrustworthy);
    expect(g.ambiguous['survives-but-spurious-alone-suffices']).toBeGreaterThan(g.trustworthy + g.untrustworthy);
    expect(summary.comparison).toMatchObject({ tooSmall: true, rows: [] });
    // category probes (CheckList): every audited text has a header block, probed by removal only
    const headers = summary.categoryProbes.categories.find((c: { category: string }) => c.category === 'mail-headers');
    expect(headers).toMatchObject({ texts: 30, without: 0, swap: null });
    expect(headers.removal.texts).toBe(30);
    expect(readFileSync(files.report, 'utf8')).toContain('<section id="category-probes">');
    // the scored check beside it: a planted trigger decides ≥ 100 of each, TOKI and Naive are scored with intervals
    const sc = summary.scoredCase;
    expect(sc).toMatchObject({
      band: 'everyday',
      target: 'spam',
      tooSmall: false,
      scored: { trustworthy: 150, untrustworthy: 150 },
    });
    // the trigger is an everyday word of the bodies, drawn with the audit's seed, not one spam already leans on
    const d = loadSpamAssassin({ headers: true });
    const bodies = d.rows.map((r) => ({ ...r, text: r.text.slice(r.meta!.bodyStart) }));
    const vocabulary = corpusVocabulary(bodies);
    expect(sc.trigger).toBe(scoredCaseTrigger(bodies, 'spam', summary.settings.seed));
    expect(vocabulary.ranked.slice(0, 3000)).toContain(sc.trigger);
    expect(leansOnTarget(vocabulary, sc.trigger, 'spam')).toBe(false);
    expect(sc.description).toContain(`"${sc.trigger}" (an everyday word`);
    expect(sc.groundTruth.untrustworthy).toBeGreaterThanOrEqual(100);
    expect(sc.rows.map((r: { method: string }) => r.method)).toEqual(['TOKI (toki)', 'Naive (θ_conf 0.9)']);
    for (const r of sc.rows) expect(r.gmeanLo).toBeLessThanOrEqual(r.gmean);
    const html = readFileSync(files.report, 'utf8');
    expect(html.includes('id="scored-check"')).toBe(true);
    expect(html.includes('the headers alone and the body alone each give the same class')).toBe(true);
    expect(existsSync(files.report)).toBe(true);
    expect(existsSync(join(out, 'model', 'model.json'))).toBe(true);

    // the human summary: accuracy, untrustworthy share, spurious words per class, the report's path
    const again = await xtrustAsync(['demo', '--out', out, '--resume', ...SMALL]);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/^accuracy +\d+\.\d %/m);
    expect(again.stdout).toMatch(/^untrustworthy +\d+\.\d % of correct predictions/m);
    expect(again.stdout).toMatch(/^ {2}ham +\S/m);
    expect(again.stdout).toMatch(/^ {2}spam +\S/m);
    expect(again.stdout).toContain('related to the class, described by (built in: SpamAssassin (with headers))');
    expect(again.stdout).toContain(`report                ${files.report}`);
    expect(again.stdout).toMatch(
      /^ground truth {10}For [\d,]+ of [\d,]+ correct predictions, the headers alone and the body alone each give the same class/m,
    );
    expect(again.stdout).toMatch(/^scored check {10}SpamAssassin bodies/m);
    expect(again.stdout).toMatch(
      /^ {2}TOKI \(toki\) +accuracy \d\.\d{3} {2}G-mean \d\.\d{3} \[\d\.\d{3}, \d\.\d{3}\]$/m,
    );
    // resumed from the finished run: same predictions
    expect(readFileSync(files.predictions, 'utf8')).toBe(readFileSync(join(out, 'predictions.jsonl'), 'utf8'));
  }, 300_000);
});
