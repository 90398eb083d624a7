/**
 * `--audit-mode exact|fast` (issue 30): the flag parses or fails naming the modes, --help says what each
 * does, and on the small fixture audit the fast mode (adaptive keyword pass, verdict-aware labelling)
 * gives exact's labels with fewer LIME samples per prediction, recorded in predictions.jsonl.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildFixture, tempDir, xtrust, xtrustAsync, type Fixture } from './helpers.js';

// 1,000 samples: below ~250 rows the verdict rule cannot check (no check before 200 rows, and a stop needs two)
const AUDIT = [
  '--train-sample',
  '120',
  '--test-sample',
  '0',
  '--samples',
  '1000',
  '--class-names',
  'ham=legitimate',
  '--quiet',
  '--json',
];
let fx: Fixture;
const runs: Record<string, { dir: string; summary: any; predictions: any[] }> = {};

const lines = (file: string) =>
  readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));

beforeAll(async () => {
  fx = await buildFixture();
  for (const mode of ['exact', 'fast']) {
    const dir = join(fx.dir, mode);
    const r = await xtrustAsync([
      'audit',
      '--model',
      fx.model,
      '--train',
      fx.train,
      '--test',
      fx.test,
      '--out',
      dir,
      '--audit-mode',
      mode,
      ...AUDIT,
    ]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    runs[mode] = { dir, summary: JSON.parse(r.stdout).summary, predictions: lines(join(dir, 'predictions.jsonl')) };
  }
  // the keyword pass by gradient × input (issue 30, a cheaper keyword pass), labels by verdict-aware LIME
  const dir = join(fx.dir, 'fast-gradient');
  const r = await xtrustAsync([
    'audit',
    '--model',
    fx.model,
    '--train',
    fx.train,
    '--test',
    fx.test,
    '--out',
    dir,
    '--audit-mode',
    'fast',
    '--keyword-method',
    'gradient',
    ...AUDIT,
  ]);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  runs.gradient = { dir, summary: JSON.parse(r.stdout).summary, predictions: lines(join(dir, 'predictions.jsonl')) };
}, 300_000);

describe('xtrust audit --audit-mode', () => {
  it("fast gives the exact audit's labels on the fixture (40 test predictions)", () => {
    expect(runs.fast.predictions.map((p) => p.verdict)).toEqual(runs.exact.predictions.map((p) => p.verdict));
    expect(runs.fast.summary.verdicts).toEqual(runs.exact.summary.verdicts);
  });

  it('fast records the LIME samples each prediction used (fewer on average than --samples); exact records none', () => {
    const used = runs.fast.predictions.map((p) => p.samples as number);
    expect(used.every((n) => Number.isInteger(n) && n >= 200 && n <= 1000)).toBe(true);
    expect(used.reduce((a, b) => a + b, 0) / used.length).toBeLessThan(1000);
    expect(runs.exact.predictions.every((p) => p.samples === undefined)).toBe(true);
  });

  it("names the modes in the summary's settings: fast runs the keyword pass adaptive", () => {
    expect(runs.exact.summary.settings).toMatchObject({ auditMode: 'exact', limeMode: 'exact' });
    expect(runs.fast.summary.settings).toMatchObject({ auditMode: 'fast', limeMode: 'adaptive' });
  });

  it('--keyword-method gradient builds the keyword store from gradient × input explanations; every prediction is still labelled with LIME', () => {
    const store = JSON.parse(readFileSync(join(runs.gradient.dir, 'keywords.json'), 'utf8'));
    expect(store.provenance.explainer.method).toBe('gradient');
    expect(runs.gradient.summary.settings).toMatchObject({ auditMode: 'fast', keywordMethod: 'gradient' });
    expect(runs.exact.summary.settings.keywordMethod).toBeUndefined();
    const lime = JSON.parse(readFileSync(join(runs.exact.dir, 'keywords.json'), 'utf8'));
    expect(lime.provenance.explainer.method).toBe('lime');
    // same predictions, labelled (the fixture's labels need not equal exact's: the pools differ)
    expect(runs.gradient.predictions.map((p) => p.predicted)).toEqual(runs.exact.predictions.map((p) => p.predicted));
    expect(runs.gradient.predictions.every((p) => p.verdict === 'incorrect' || typeof p.samples === 'number')).toBe(
      true,
    );
  });

  it("xtrust label --audit-mode fast with the exact audit's store gives its labels", async () => {
    const out = join(fx.dir, 'labels-fast');
    const r = await xtrustAsync([
      'label',
      '--model',
      fx.model,
      '--store',
      runs.exact.dir,
      '--test',
      fx.test,
      '--out',
      out,
      '--audit-mode',
      'fast',
      '--json',
      '--quiet',
    ]);
    expect(r.code).toBe(0);
    const labelled = lines(join(out, 'labels.jsonl'));
    expect(labelled.map((l) => l.verdict)).toEqual(runs.exact.predictions.map((p) => p.verdict));
    expect(labelled.every((l) => typeof l.samples === 'number')).toBe(true);
  });
});

describe('--audit-mode: parsing and help', () => {
  it('an unknown mode is one line, exit 2, naming the modes (audit, demo, keywords, label)', () => {
    for (const command of [
      ['audit', '--model', 'm', '--train', 'a.csv', '--test', 'b.csv'],
      ['demo'],
      ['keywords', '--model', 'm', '--train', 'a.csv'],
      ['label', '--model', 'm', '--store', 'x', '--test', 'b.csv'],
    ]) {
      const r = xtrust([...command, '--audit-mode', 'quick', '--out', join(tempDir(), 'x')]);
      expect(r.code).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toContain(`'--audit-mode <mode>' argument 'quick' is invalid. expected one of exact, fast`);
    }
  });

  it('an unknown --keyword-method is one line, exit 2, naming the methods', () => {
    const r = xtrust([
      'audit',
      '--model',
      'm',
      '--train',
      'a.csv',
      '--test',
      'b.csv',
      '--keyword-method',
      'shap',
      '--out',
      join(tempDir(), 'x'),
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('expected one of lime, omission, gradient, integrated-gradients, attention, got "shap"');
  });

  it('--help says what exact and fast do', () => {
    for (const command of ['audit', 'label']) {
      const help = xtrust([command, '--help']).stdout.replace(/\s+/g, ' ');
      expect(help).toContain('--audit-mode <mode>');
      expect(help).toMatch(/exact \(.*paper's computation/);
      expect(help).toMatch(/fast \(.*verdict is settled at 95 % confidence/);
    }
  });
});
