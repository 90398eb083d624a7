import { describe, expect, it } from 'vitest';
import { labelCounts, loadSotu, splitSentences } from '../src/index.js';

describe('loadSotu', () => {
  const sotu = loadSotu();

  it('keeps Democratic and Republican addresses and counts the paragraphs of the others', () => {
    expect(sotu.labels).toEqual(['Democratic', 'Republican']);
    expect(labelCounts(sotu)).toEqual({ Democratic: 5573, Republican: 5814 });
    expect(sotu.skipped).toEqual({
      count: 1335,
      reasons: {
        'party: Democratic-Republican': 590,
        'party: Federalist': 38,
        'party: National Union': 231,
        'party: Whig': 216,
        'party: Whig & Democratic': 174,
        'party: none': 86,
      },
    });
  });

  it('builds paragraphs of five sentences with stable ids', () => {
    const first = sotu.rows[0];
    expect(first.id).toBe('1829-andrew-jackson:0');
    expect(first.label).toBe('Democratic');
    expect(first.meta).toEqual({ year: 1829, president: 'Andrew Jackson', paragraph: 0, sentences: 5 });
    expect(
      first.text.startsWith(
        'Fellow Citizens of the Senate and of the House of Representatives: It affords me pleasure',
      ),
    ).toBe(true);
    expect(new Set(sotu.rows.map((r) => r.id)).size).toBe(sotu.rows.length);
    const bush = sotu.rows.find((r) => r.id === '1990-george-bush:0')!;
    expect(bush.label).toBe('Republican');
    expect(bush.text.startsWith('Mr. President, Mr. Speaker, Members of the United States Congress:')).toBe(true);
    expect(sotu.rows.some((r) => /\((applause|laughter)\.?\)/i.test(r.text))).toBe(false);
  });

  it('does not cut sentences at abbreviations', () => {
    expect(splitSentences('Mr. Smith went to Washington. He met Dr. Jones at 3.5 p.m. sharp! Then what?')).toEqual([
      'Mr. Smith went to Washington.',
      'He met Dr. Jones at 3.5 p.m. sharp!',
      'Then what?',
    ]);
  });
});
