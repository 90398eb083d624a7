import { describe, expect, it } from 'vitest';
import type { CaseResult, ScoredRow } from '../src/oracle/evaluate-case.js';
import {
  bandFigures,
  bandSummary,
  configurationSummary,
  drawnHeadline,
  familyTable,
} from '../src/oracle/family-report.js';

// Hand-made scored cases: G-means and intervals chosen so every figure is known in advance.
function row(method: string, oracle: string | undefined, g: number, lo: number, hi: number): ScoredRow {
  return {
    method,
    ...(oracle ? { oracle } : {}),
    metrics: { accuracy: g, precision: g, sensitivity: g, f1: g, specificity: g, gmean: g },
    gmeanCI: { lo, hi },
    unknown: 0,
  } as unknown as ScoredRow;
}
function drawn(band: string, toki: number, paper: number, naive: number, scored = true): CaseResult {
  return {
    name: `${band}-${toki}`,
    spec: { corpus: 'sotu', trigger: 'w', target: 'A', share: 1, words: 40, seed: 2000, band },
    status: scored ? 'scored' : 'too small',
    rows: scored
      ? [
          row('TOKI-lime', 'toki', toki, toki - 0.03, toki + 0.03),
          row('TOKI-lime', 'toki-paper', paper, paper - 0.03, paper + 0.03),
          row('Naive (θ=0.9)', undefined, naive, naive - 0.03, naive + 0.03),
        ]
      : [],
    keywords: [
      {
        oracle: 'toki',
        explainer: 'lime',
        keywordSeconds: 1,
        tokenCheckCost: { words: 2, modelTexts: 80, seconds: 0.5 },
        classes: [
          {
            label: 'A',
            pool: 10,
            keywords: 5,
            share: 0.5,
            trigger: {},
            top: [],
            tokenCheck: { trigger: {}, tested: 2, demoted: 1, retention: [0, 0, 0] },
          },
        ],
      },
    ],
  } as unknown as CaseResult;
}

const cases = [
  drawn('everyday', 0.95, 0.0, 0.2),
  drawn('everyday', 0.91, 0.5, 0.9),
  drawn('phrase', 0.88, 0.1, 0.3),
  drawn('everyday', 0, 0, 0, false),
  drawn('mid', 0.97, 0.9, 0.4),
  drawn('rare', 0.93, 0.8, 0.5),
  drawn('absent', 0.6, 0.7, 0.7),
];
const toki = (r: ScoredRow) => r.oracle === 'toki';

describe('drawn family figures', () => {
  it('per band group: draws, scored, median, 10th percentile, cases at target and above Naive', () => {
    const f = bandFigures(cases, ['everyday', 'phrase'], toki);
    expect(f).toEqual({ draws: 4, scored: 3, median: 0.91, p10: 0.88, atTarget: 3, naiveWeak: 1 + 1, aboveNaive: 2 });
    // Naive ≥ 0.8 on the second everyday case: not counted among the weak ones
    expect(bandFigures(cases, ['everyday'], toki).naiveWeak).toBe(1);
    const ra = bandFigures(cases, ['rare', 'absent'], toki);
    expect(ra.median).toBe(0.6);
    // absent: 0.6 [0.57, 0.63] against Naive 0.7 [0.67, 0.73] — below, so not above Naive
    expect(ra.aboveNaive).toBe(1);
    expect(ra.naiveWeak).toBe(2);
  });

  it('the test headline says partly when some targets hold and names the groups', () => {
    const h = drawnHeadline(cases, 'test', '2026-11-25');
    expect(h.met).toBe('partly');
    expect(h.xtrust).toContain('≥ 0.85 on 5 of 6 scored cases; median G-mean everyday 0.910');
    expect(h.notes).toContain('everyday median 0.910, 10th percentile 0.880 (3 scored cases)');
    expect(h.notes).toContain('≥ 0.85 on 5 of 6 scored cases (7 draws)');
    expect(h.peer).toMatch(/^same run: toki-paper median 0\.100 \/ /);
    expect(h.peer).toContain('(everyday / mid / rare/absent)');
    // BENCHMARKS.md's cells are read at a glance: every cell ≤ 30 words, the rest in the notes
    for (const headline of [h, drawnHeadline(cases, 'validation', 'x'), drawnHeadline(cases, 'test', 'x', '4 × 256')])
      for (const cell of [headline.question, headline.xtrust, headline.peer, headline.goal])
        expect(cell.split(/\s+/).length, cell).toBeLessThanOrEqual(30);
    expect(drawnHeadline(cases, 'validation', 'x').met).toBe('n/a');
  });

  it('a transformer run is met only on the full-size encoder, with ≥ 8 scored cases, half everyday, each ≥ 0.85', () => {
    const eight = [
      ...Array.from({ length: 4 }, () => drawn('everyday', 0.9, 0, 0.2)),
      ...Array.from({ length: 4 }, () => drawn('rare', 0.95, 0, 0.5)),
    ];
    expect(drawnHeadline(eight, 'test', 'x', '4 × 256').met).toBe('yes');
    expect(drawnHeadline(eight, 'test', 'x', '4 × 256').question).toContain('full-size kit BERT (4 × 256)');
    expect(drawnHeadline(eight, 'test', 'x', '2 × 128').met).toBe('partly'); // the fixture encoder never meets the full-size target
    expect(drawnHeadline(eight.slice(1), 'test', 'x', '4 × 256').met).toBe('partly'); // 7 scored
    expect(drawnHeadline([drawn('everyday', 0.5, 0, 0.2)], 'test', 'x', '4 × 256').met).toBe('no');
    expect(drawnHeadline([drawn('everyday', 0.5, 0, 0.2)], 'test', 'x', '2 × 128').met).toBe('no');
  });

  it('a transformer headline counts the cases once and names the lowest with its interval', () => {
    const x = drawnHeadline(
      [drawn('everyday', 0.9, 0, 0.2), drawn('rare', 0.84, 0.96, 0.1), drawn('mid', 0.95, 0, 0.3)],
      'test',
      'x',
      '4 × 256',
    );
    expect(
      x.xtrust.startsWith(
        'toki ≥ 0.85 on 2 of 3 scored cases (1 everyday; 3 draws), lowest 0.840; median everyday 0.900',
      ),
    ).toBe(true);
    expect(x.xtrust.match(/≥ 0\.85 on/g)).toHaveLength(1);
    expect(x.notes).toContain('Lowest: 0.840 [0.810, 0.870] on rare-0.84.');
  });

  it('tables: one row per band group and oracle, one per configuration with the check’s cost', () => {
    const t = bandSummary(cases);
    expect(t).toContain('| everyday (single word) | TOKI-lime [toki] | 3 (2) |');
    expect(t).toContain('| **rare + absent** | TOKI-lime [toki] | 2 (2) | 0.600');
    const c = configurationSummary(cases);
    expect(c).toContain('| toki | 6 | 5 | 0.600 |');
    expect(c).toContain('| 6 | 80, 0.50 |');
  });

  it('natural families: groups named for what they hold, a category case shown as its category', () => {
    // the natural families reuse band names: a boilerplate phrase in "phrase", a scattered set's words in "everyday"
    const natural = (c: CaseResult, spec: object) => ({ ...c, spec: { ...c.spec, ...spec } }) as CaseResult;
    const phrases = [natural(drawn('phrase', 0.9, 0, 0.2), { set: 'phrase', trigger: 'see you next week' })];
    expect(bandSummary(phrases)).toContain('| boilerplate phrase | TOKI-lime [toki] | 1 (1) | 0.900');
    expect(bandSummary(phrases)).not.toContain('two-word');
    const sets = [
      natural(drawn('everyday', 0.9, 0, 0.2), { set: 'scattered' }),
      natural(drawn('rare', 0.8, 0, 0.2), { set: 'scattered' }),
    ];
    const s = bandSummary(sets);
    expect(s).toContain('| scattered set of everyday words | TOKI-lime [toki] | 1 (1) | 0.900');
    expect(s).toContain('| **all scattered sets** | TOKI-lime [toki] | 2 (2) |');
    expect(s).not.toContain('single word');
    const category = (k: string, g: number) =>
      natural(drawn('category', g, 0, 0.2), {
        set: 'category',
        category: k,
        share: 0,
        trigger: undefined,
        target: undefined,
      });
    const cats = [
      category('years', 0.9),
      category('numbers', 0.8),
      category('numbers', 0.86),
      { ...category('urls', 0), status: 'too small', rows: [] } as CaseResult,
    ];
    const c = bandSummary(cats);
    expect(c).toContain('| category: numbers | TOKI-lime [toki] | 2 (2) |');
    expect(c).toContain('| category: years | TOKI-lime [toki] | 1 (1) | 0.900');
    expect(c).toContain('| **all categories** | TOKI-lime [toki] | 4 (3) |');
    // a group with no scored case is one line, not a line of dashes per configuration
    expect(c).toContain('| category: urls | every configuration | 1 (0) | — |');
    expect(c.match(/category: urls/g)).toHaveLength(1);
    const counted = cats.map(
      (x) =>
        ({
          ...x,
          counts: { trustworthy: 1000, untrustworthy: 120, ambiguous: { count: 30 } },
          scored: { trustworthy: 250, untrustworthy: 120 },
        }) as CaseResult,
    );
    const table = familyTable(counted);
    expect(table).toContain('| 1 | sotu | category: years (unplanted) | — | 40 | 1,000 / 120 (30) |');
    expect(table).not.toContain('undefined');
  });
});
