import { describe, expect, it } from 'vitest';
import { tokenCategory } from '@xtrust/datasets';
import { caseTokenSet, withSwappedHeaders } from '../src/oracle/case-data.js';
import { meetsNaturalBar, naturalErrorsTable, naturalTable } from '../src/oracle/natural-report.js';
import type { CaseResult } from '../src/oracle/evaluate-case.js';

const mail = (id: string, label: string, from: string, body: string) => {
  const header = `From: ${from}\nSubject: hello\n\n`;
  return { id, label, text: header + body, meta: { bodyStart: header.length } };
};

describe('natural-shortcut cases (issue 48)', () => {
  it('the header twins carry another class’s header block in front of the same body', () => {
    const rows = [
      mail('h1', 'ham', 'ann@a.org', 'see you at lunch'),
      mail('h2', 'ham', 'bob@b.org', 'the minutes attached'),
      mail('s1', 'spam', 'win@x.biz', 'cheap pills now'),
    ];
    const out = withSwappedHeaders(rows, 5);
    expect(out.slice(0, 3)).toEqual(rows);
    expect(out.map((r) => r.id)).toEqual(['h1', 'h2', 's1', 'h1+headers', 'h2+headers', 's1+headers']);
    for (const twin of out.slice(3)) {
      const original = rows.find((r) => `${r.id}+headers` === twin.id)!;
      const start = (twin.meta as { bodyStart: number }).bodyStart;
      expect(twin.label).toBe(original.label);
      expect(twin.text.slice(start)).toBe(original.text.slice(original.meta.bodyStart));
      const donor = rows.find((r) => r.text.slice(0, r.meta.bodyStart) === twin.text.slice(0, start))!;
      expect(donor.label).not.toBe(twin.label);
    }
    expect(withSwappedHeaders(rows, 5)).toEqual(out);
  });

  it('a phrase case removes its words wherever they occur; a category case resolves its category', () => {
    const phrase = caseTokenSet({
      corpus: 'spam',
      trigger: 'have a great day',
      set: 'phrase',
      share: 1,
      words: 40,
      seed: 1,
    })!;
    const text = 'A day to remember: have fun';
    expect(phrase.spans(text).map((s) => text.slice(s.start, s.end))).toEqual(['A', 'day', 'have']);
    expect(caseTokenSet({ corpus: 'spam', trigger: 'papaya', share: 1, words: 40, seed: 1 })).toBeNull();
    const years = caseTokenSet(
      { corpus: 'sotu', set: 'category', category: 'years', share: 0, words: 20, seed: 1 },
      tokenCategory,
    )!;
    expect(years.spans('In 1990 and 2003 we spent 45 dollars').length).toBe(2);
    expect(() =>
      caseTokenSet({ corpus: 'sotu', set: 'category', category: 'years', share: 0, words: 20, seed: 1 }),
    ).toThrow(/category lookup/);
  });

  it('the bar: G-mean ≥ 0.85 and an interval entirely above Naive’s', () => {
    const row = (method: string, gmean: number, lo: number, hi: number, oracle?: string) => ({
      method,
      ...(oracle ? { oracle } : {}),
      metrics: { gmean } as never,
      gmeanCI: { lo, hi },
      unknown: 0,
    });
    const c = (t: number, lo: number, naiveHi: number) =>
      ({
        rows: [row('TOKI-lime', t, lo, t + 0.02, 'toki'), row('Naive (θ=0.9)', 0.5, 0.4, naiveHi)],
      }) as unknown as CaseResult;
    expect(meetsNaturalBar(c(0.9, 0.86, 0.6), 'toki')).toBe(true);
    expect(meetsNaturalBar(c(0.84, 0.8, 0.6), 'toki')).toBe(false);
    expect(meetsNaturalBar(c(0.9, 0.7, 0.75), 'toki')).toBe(false);
    expect(meetsNaturalBar(c(0.9, 0.86, 0.6), 'toki-cluster')).toBe(false);
  });

  it('the wrong-verdict table: one row per scored case whose default row carries the figures', () => {
    const errors = {
      falseAlarms: { count: 3, onSet: 1, onOtherCategory: 0, onOtherWords: 2, noReason: 0, words: [['squirrel', 2]] },
      missed: { count: 2, setRelated: 1, overruled: 0, belowBound: 1, notDecisionWords: 0, related: [['today', 1]] },
    };
    const scored = {
      name: 'spam/phrase/s1',
      status: 'scored',
      spec: { trigger: 'just do it today', target: 'spam' },
      scored: { trustworthy: 120, untrustworthy: 110 },
      rows: [{ method: 'TOKI-lime', oracle: 'toki', metrics: {}, gmeanCI: { lo: 0, hi: 1 }, unknown: 0, errors }],
    } as unknown as CaseResult;
    const small = { name: 'brown/x', status: 'too small', spec: {}, rows: [] } as unknown as CaseResult;
    const table = naturalErrorsTable([scored, small], 'toki').split('\n');
    expect(table.filter((l) => l.startsWith('| spam/'))).toEqual([
      '| spam/phrase/s1 | "just do it today" → spam | 3 / 120 | 1 | 0 | 2 (squirrel 2) | 2 / 110 | 1 (today 1) | 0 | 1 | 0 |',
    ]);
    expect(table.some((l) => l.includes('brown/x'))).toBe(false);
    expect(naturalErrorsTable([scored], 'toki-cluster')).toBe('');
  });

  it('the bar table: intervals for the first configuration and Naive, G-means for the others, small draws by name', () => {
    const row = (method: string, gmean: number, lo: number, hi: number, oracle?: string) => ({
      method,
      ...(oracle ? { oracle } : {}),
      metrics: { gmean },
      gmeanCI: { lo, hi },
      unknown: 0,
    });
    const scored = {
      name: 'sotu/x/s1',
      status: 'scored',
      spec: { trigger: 'a b c', target: 'Democratic' },
      rows: [
        row('TOKI-lime', 0.9, 0.87, 0.93, 'toki'),
        row('TOKI-lime', 0.8, 0.75, 0.85, 'toki-cluster'),
        row('Naive (θ=0.9)', 0.5, 0.4, 0.6),
      ],
    } as unknown as CaseResult;
    const small = { name: 'brown/y/s2', status: 'too small', spec: {}, rows: [] } as unknown as CaseResult;
    const lines = naturalTable([scored, small], ['toki', 'toki-cluster']).split('\n');
    expect(lines).toContain('| toki | 1 / 1 | 0.900 | 0.900 |');
    expect(lines).toContain(
      '| sotu/x/s1 | "a b c" → Democratic | 0.900 [0.870, 0.930] ✓ | 0.800 | 0.500 [0.400, 0.600] |',
    );
    expect(lines.at(-1)).toBe('Too small to score (1 draw): brown/y/s2.');
    expect(lines.some((l) => l.startsWith('| brown/y/s2'))).toBe(false);
  });
});
