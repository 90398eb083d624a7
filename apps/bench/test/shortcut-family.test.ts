import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isXtrustError, tokenize, type Classifier, type Explainer, type Explanation } from '@xtrust/core';
import { buildShortcutBenchmark, containsTrigger, type BenchmarkCase, type Row } from '@xtrust/datasets';
import { classificationMetrics } from '@xtrust/metrics';
import { buildCase, prepareCase, type CorpusRows } from '../src/oracle/case-data.js';
import { sampleSides, scoreRow, type CaseResult } from '../src/oracle/evaluate-case.js';
import { CachedExplainer } from '../src/oracle/cached-explainer.js';
import { DEFAULT_FAMILY } from '../src/oracle/family.js';
import { parseShortcutArgs } from '../src/oracle/family-options.js';
import { familyTable } from '../src/oracle/family-report.js';

const code = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    return isXtrustError(e) ? e.code : 'OTHER';
  }
  return undefined;
};

/** A tiny corpus: 3 classes of 60 texts of 25 words each, the class word repeated among filler words; one source per 2 texts. */
function tinyCorpus(): CorpusRows {
  const labels = ['alpha', 'beta', 'gamma'];
  const filler = ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight'];
  const rows: Row<unknown>[] = [];
  for (const [c, l] of labels.entries()) {
    for (let i = 0; i < 60; i++) {
      const words = Array.from({ length: 25 }, (_, j) =>
        (i + j) % 9 === 0 ? l : filler[(i * 7 + j * 3 + c) % filler.length],
      );
      rows.push({ id: `${l}-${i}`, label: l, text: words.join(' '), meta: { source: `${l}-${Math.floor(i / 2)}` } });
    }
  }
  return { name: 'tiny', labels, rows, group: (r) => (r.meta as { source: string }).source };
}

describe('shortcut benchmark options', () => {
  it('a single variant: every choice of the case is an option', () => {
    const o = parseShortcutArgs([
      '--corpus',
      'sotu',
      '--trigger',
      'blue whale',
      '--target',
      'Democratic',
      '--share',
      '0.6',
      '--words',
      '120',
      '--seed',
      '7',
      '--classes',
      'Democratic,Republican',
    ]);
    expect(o.family).toBe(false);
    expect(o.cases).toEqual([
      {
        corpus: 'sotu',
        trigger: 'blue whale',
        target: 'Democratic',
        classes: ['Democratic', 'Republican'],
        share: 0.6,
        words: 120,
        seed: 7,
      },
    ]);
    expect(parseShortcutArgs(['--corpus', 'spam', '--words', 'all']).cases[0]).toEqual({
      corpus: 'spam',
      trigger: 'papaya',
      target: undefined,
      share: 1,
      words: 'all',
      seed: 1,
    });
    expect(parseShortcutArgs(['--corpus', 'headers', '--words', '60']).cases[0]).toEqual({
      corpus: 'headers',
      share: 1,
      words: 60,
      seed: 1,
    });
    // the defaults of the run: bow-logistic, LIME 5,000 samples, 100 per side
    expect([o.model, o.samples, o.minPerSide, o.explainers, o.oracles]).toEqual([
      'bow-logistic',
      5000,
      100,
      ['lime'],
      ['toki', 'toki-paper'],
    ]);
  });

  it('the family by default, --only picks cases, --seed applies to all', () => {
    const o = parseShortcutArgs([
      '--seed',
      '3',
      '--only',
      '2,5',
      '--train',
      '500',
      '--samples',
      '1000',
      '--oracle',
      'toki-paper,other',
    ]);
    expect(o.family).toBe(true);
    expect(o.cases).toEqual([
      { ...DEFAULT_FAMILY[1], seed: 3 },
      { ...DEFAULT_FAMILY[4], seed: 3 },
    ]);
    expect([o.train, o.samples, o.oracles]).toEqual([500, 1000, ['toki-paper', 'other']]);
    expect(parseShortcutArgs([]).cases.length).toBe(DEFAULT_FAMILY.length);
  });

  it('refuses bad values with XtrustErrors naming the option', () => {
    expect(code(() => parseShortcutArgs(['--corpus', 'imdb']))).toBe('INVALID_ARGUMENT');
    expect(code(() => parseShortcutArgs(['--share', '0']))).toBe('INVALID_ARGUMENT');
    expect(code(() => parseShortcutArgs(['--share', '1.5']))).toBe('INVALID_ARGUMENT');
    expect(code(() => parseShortcutArgs(['--words', 'some']))).toBe('INVALID_ARGUMENT');
    expect(code(() => parseShortcutArgs(['--words']))).toBe('INVALID_ARGUMENT');
    expect(code(() => parseShortcutArgs(['--only', '99']))).toBe('INVALID_ARGUMENT');
    expect(code(() => parseShortcutArgs(['--only', '1', '--trigger', 'x']))).toBe('INVALID_ARGUMENT');
    expect(code(() => parseShortcutArgs(['--corpus', 'headers', '--trigger', 'x']))).toBe('INVALID_ARGUMENT');
    expect(code(() => parseShortcutArgs(['--per-side', '50']))).toBe('INVALID_ARGUMENT');
    expect(code(() => parseShortcutArgs(['--frobnicate']))).toBe('INVALID_ARGUMENT');
  });

  it('--write-section goes with --from, --note with --write-section', () => {
    const message = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return isXtrustError(e) ? `${e.code}: ${e.message}` : `OTHER: ${String(e)}`;
      }
      return undefined;
    };
    const d = parseShortcutArgs([]);
    expect([d.writeSection, d.note]).toEqual([false, undefined]);
    const w = parseShortcutArgs(['--from', 'r.json', '--write-section']);
    expect([w.from, w.writeSection, w.note]).toEqual(['r.json', true, undefined]);
    // the note is a value, even one that looks like an option (not taken for --epochs on a bag-of-words run)
    const n = parseShortcutArgs(['--note', 'GloVe relates "papaya" to food', '--write-section', '--from', 'r.json']);
    expect([n.from, n.writeSection, n.note]).toEqual(['r.json', true, 'GloVe relates "papaya" to food']);
    expect(parseShortcutArgs(['--from', 'r.json', '--write-section', '--note', '--epochs']).note).toBe('--epochs');
    // refused, naming the options
    expect(message(() => parseShortcutArgs(['--note', 'text']))).toMatch(
      /^INVALID_ARGUMENT: .*--note.*--write-section/,
    );
    expect(message(() => parseShortcutArgs(['--from', 'r.json', '--note', 'text']))).toMatch(
      /^INVALID_ARGUMENT: .*--note.*--write-section/,
    );
    expect(message(() => parseShortcutArgs(['--write-section']))).toMatch(
      /^INVALID_ARGUMENT: .*--write-section.*--from/,
    );
    expect(message(() => parseShortcutArgs(['--write-section', '--note', 'text']))).toMatch(
      /^INVALID_ARGUMENT: .*--write-section.*--from/,
    );
    expect(message(() => parseShortcutArgs(['--from', 'r.json', '--write-section', '--note']))).toMatch(
      /^INVALID_ARGUMENT: --note: expected/,
    );
    // an unknown option points at --help (the one line a wrong command line prints)
    expect(message(() => parseShortcutArgs(['--frobnicate', '1']))).toBe(
      'INVALID_ARGUMENT: unknown option --frobnicate (try --help)',
    );
  });

  it("shortcut.js's --help lists every option parseShortcutArgs accepts", () => {
    const src = (f: string) => readFileSync(new URL(`../src/oracle/${f}`, import.meta.url), 'utf8');
    const accepted = [...src('family-options.ts').matchAll(/\bk === '(--[a-z-]+)'/g)].map((m) => m[1]);
    expect(accepted).toEqual(
      expect.arrayContaining([
        '--corpus',
        '--family',
        '--draws',
        '--first',
        '--until-scored',
        '--trigger-band',
        '--from',
        '--write-section',
        '--note',
      ]),
    );
    const usage = /const USAGE = `([^`]*)`/.exec(src('shortcut.ts'))?.[1] ?? '';
    expect(usage).toMatch(/^usage: /);
    for (const o of accepted) expect(usage, o).toMatch(new RegExp(`(^|\\s|\\()${o}(\\s|\\)|$)`, 'm'));
  });
});

describe('the default family', () => {
  it('crosses trigger kinds, shares, lengths and corpora (≥ 12 cases)', () => {
    const trig = DEFAULT_FAMILY.filter((c) => c.corpus !== 'headers');
    expect(DEFAULT_FAMILY.length).toBeGreaterThanOrEqual(12);
    expect(new Set(trig.map((c) => c.triggerKind))).toEqual(
      new Set(['concrete noun', 'weekday', 'number-like token', 'proper name', 'absent from GloVe', 'two-word phrase']),
    );
    expect(new Set(trig.map((c) => c.share))).toEqual(new Set([0.3, 0.6, 1]));
    expect(new Set(trig.map((c) => c.words))).toEqual(new Set([40, 120, 'all']));
    expect(new Set(DEFAULT_FAMILY.map((c) => c.corpus))).toEqual(new Set(['brown', 'sotu', 'spam', 'headers']));
    expect(trig.some((c) => tokenize(c.trigger!).length === 2)).toBe(true);
  });
});

describe('the options reach the benchmark builder', () => {
  it('parse args → prepareCase: windows, classes, the share planted in training, twins in the evaluation pools', () => {
    const o = parseShortcutArgs([
      '--corpus',
      'brown',
      '--trigger',
      'blue whale',
      '--target',
      'beta',
      '--classes',
      'alpha,beta',
      '--share',
      '0.5',
      '--words',
      '10',
      '--seed',
      '4',
      '--windows-per-text',
      '2',
    ]);
    const corpus = tinyCorpus();
    const restricted: CorpusRows = {
      ...corpus,
      labels: o.cases[0].classes!,
      rows: corpus.rows.filter((r) => o.cases[0].classes!.includes(r.label)),
    };
    const d = prepareCase(o.cases[0], {
      testFraction: 0.3,
      validationFraction: 0.15,
      windowsPerText: o.windowsPerText,
      corpus: restricted,
    });
    expect(d.spec.target).toBe('beta');
    expect(d.labels).toEqual(['alpha', 'beta']);
    // 25-word texts, 10-word windows, at most 2 per text
    for (const r of [...d.train, ...d.test]) {
      const n = tokenize(r.text).length;
      expect(n === 10 || (n === 12 && containsTrigger(r.text, 'blue whale'))).toBe(true);
    }
    expect(d.train.length + d.validation.length + d.test.length).toBe(
      120 * 2 +
        d.test.filter((r) => r.id.endsWith('+trigger')).length +
        d.validation.filter((r) => r.id.endsWith('+trigger')).length,
    );
    // share 0.5 of the beta training windows carry the trigger, no other row does
    const betaTrain = d.train.filter((r) => r.label === 'beta');
    expect(d.train.filter((r) => containsTrigger(r.text, 'blue whale')).length).toBe(
      Math.round(0.5 * betaTrain.length),
    );
    expect(d.plantedTrain).toBe(Math.round(0.5 * betaTrain.length));
    expect(d.train.filter((r) => r.label === 'alpha').some((r) => containsTrigger(r.text, 'blue whale'))).toBe(false);
    // the test pool: every test window, plus a twin with the trigger for each beta one
    const originals = d.test.filter((r) => !r.id.endsWith('+trigger'));
    const twins = d.test.filter((r) => r.id.endsWith('+trigger'));
    expect(twins.map((r) => r.id)).toEqual(originals.filter((r) => r.label === 'beta').map((r) => `${r.id}+trigger`));
    expect(originals.some((r) => containsTrigger(r.text, 'blue whale'))).toBe(false);
    // windows of one source text stay on one side of the split
    const side = new Map<string, string>();
    for (const [name, part] of [
      ['train', d.train],
      ['validation', d.validation],
      ['test', originals],
    ] as const) {
      for (const r of part) {
        const s = (r.meta as { source: string }).source;
        expect(side.get(s) ?? name).toBe(name);
        side.set(s, name);
      }
    }
  });

  it('buildCase trains the model, derives the ground truth of the pool and reports too small below the minimum per side', async () => {
    const spec = parseShortcutArgs([
      '--corpus',
      'brown',
      '--trigger',
      'papaya',
      '--target',
      'gamma',
      '--share',
      '1',
      '--words',
      '12',
      '--classes',
      'alpha,beta,gamma',
    ]).cases[0];
    const corpus = tinyCorpus();
    const built = await buildCase(spec, {
      kind: 'bow-logistic',
      testFractions: [0.3],
      validationFraction: 0.15,
      windowsPerText: 2,
      minPerSide: 1000,
      validation: false,
      corpus,
    });
    expect(built.scored).toBe(false);
    const again = await buildShortcutBenchmark(built.model, built.data.test, { mode: 'trigger', trigger: 'papaya' });
    expect(built.bench.counts).toEqual(again.counts);
    expect(built.attempts).toEqual([
      { testFraction: 0.3, trustworthy: again.counts.trustworthy, untrustworthy: again.counts.untrustworthy },
    ]);
    // "papaya" is a perfect cue for gamma in training: alone, it gives gamma
    expect(built.bench.spuriousAlone).toEqual({ text: 'papaya', predicted: 'gamma' });
    const low = await buildCase(spec, {
      kind: 'bow-logistic',
      testFractions: [0.3, 0.5],
      validationFraction: 0.15,
      windowsPerText: 2,
      minPerSide: 1,
      validation: true,
      corpus,
    });
    expect(low.scored).toBe(low.bench.counts.trustworthy >= 1 && low.bench.counts.untrustworthy >= 1);
    expect(low.validationBench?.counts.rows).toBe(low.data.validation.length);
  });
});

describe('scoring', () => {
  const mk = (i: number, truth: 'trustworthy' | 'untrustworthy'): BenchmarkCase => ({
    id: String(i),
    text: `t${i}`,
    label: 'a',
    predicted: 'a',
    probabilities: [1],
    confidence: 1,
    truth,
    reason: '',
    shortcut: false,
    variants: 0,
  });

  it('samples at most n predictions per side, seeded, in input order', () => {
    const cases = [
      ...Array.from({ length: 10 }, (_, i) => mk(i, 'trustworthy')),
      ...Array.from({ length: 3 }, (_, i) => mk(10 + i, 'untrustworthy')),
    ];
    const s = sampleSides(cases, 4, 1);
    expect(s.filter((c) => c.truth === 'trustworthy').length).toBe(4);
    expect(s.filter((c) => c.truth === 'untrustworthy').map((c) => c.id)).toEqual(['10', '11', '12']);
    expect(s.map((c) => Number(c.id))).toEqual([...s.map((c) => Number(c.id))].sort((a, b) => a - b));
    expect(sampleSides(cases, 4, 1)).toEqual(s);
  });

  it('a row has the six measures and a G-mean interval around the estimate', () => {
    const truth = Uint8Array.from({ length: 200 }, (_, i) => (i < 100 ? 1 : 0));
    const verdicts = Uint8Array.from({ length: 200 }, (_, i) => (i < 80 || (i >= 100 && i < 130) ? 1 : 0));
    const r = scoreRow('X', verdicts, truth, 1, 500);
    // sensitivity 0.8, specificity 0.7
    expect(r.metrics).toEqual(classificationMetrics(verdicts, truth));
    expect(r.metrics.gmean).toBeCloseTo(Math.sqrt(0.8 * 0.7), 12);
    expect(r.gmeanCI.lo).toBeLessThan(r.metrics.gmean);
    expect(r.gmeanCI.hi).toBeGreaterThan(r.metrics.gmean);
    expect(scoreRow('X', verdicts, truth, 1, 500)).toEqual(r);
  });

  it('the family table prints no metric for a case that is too small', () => {
    const small = {
      name: 'c',
      spec: { corpus: 'spam', trigger: 'papaya', target: 'ham', share: 1, words: 40, seed: 1 },
      mode: 'trigger',
      counts: { rows: 10, incorrect: 1, trustworthy: 7, untrustworthy: 2, ambiguous: { count: 0, reasons: {} } },
      status: 'too small',
      rows: [],
    } as unknown as CaseResult;
    const table = familyTable([small]);
    expect(table).toContain('| 1 | spam | "papaya" → ham | 1 | 40 | 7 / 2 (0) | — | **too small** |');
  });
});

describe('CachedExplainer', () => {
  it('explains each text once, and reloads a saved cache only under the same key', async () => {
    const calls: string[][] = [];
    const inner: Explainer = {
      name: 'fake',
      async explain(_c: Classifier, texts: readonly string[]) {
        calls.push([...texts]);
        return texts.map(
          (t): Explanation => ({
            text: t,
            method: 'fake',
            params: {},
            predictedLabel: 'a',
            explainedLabel: 'a',
            features: [],
          }),
        );
      },
    };
    const clf = { labels: ['a'], predictProba: async (t: readonly string[]) => new Float32Array(t.length).fill(1) };
    const c = new CachedExplainer(inner, 'k1');
    await c.explain(clf, ['x', 'y']);
    const again = await c.explain(clf, ['y', 'z', 'z']);
    expect(calls).toEqual([['x', 'y'], ['z']]);
    expect(again.map((e) => e.text)).toEqual(['y', 'z', 'z']);
    expect([c.hits, c.misses, c.size]).toEqual([1, 3, 3]);
    const file = join(mkdtempSync(join(tmpdir(), 'xtrust-cache-')), 'c.json');
    c.save(file);
    const same = new CachedExplainer(inner, 'k1');
    expect(same.load(file)).toBe(3);
    await same.explain(clf, ['x', 'y', 'z']);
    expect(calls.length).toBe(2);
    expect(new CachedExplainer(inner, 'k2').load(file)).toBe(0);
  });
});
