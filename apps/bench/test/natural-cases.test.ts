import { describe, expect, it } from 'vitest';
import { tokenCategory } from '@xtrust/datasets';
import { caseTokenSet, withSwappedHeaders } from '../src/oracle/case-data.js';
import { meetsNaturalBar } from '../src/oracle/natural-report.js';
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
});
