import { describe, expect, it } from 'vitest';
import { BROWN_GENRES, detokenize, labelCounts, loadBrown, parseBrownDocument } from '../src/index.js';

describe('loadBrown', () => {
  const brown = loadBrown();

  it('labels 500 documents with the 15 genre names and cuts them into 5-sentence passages', () => {
    expect(brown.labels).toEqual([
      'news',
      'editorial',
      'reviews',
      'religion',
      'hobbies',
      'lore',
      'belles lettres',
      'government',
      'learned',
      'fiction',
      'mystery',
      'science fiction',
      'adventure',
      'romance',
      'humor',
    ]);
    expect(brown.rows.length).toBe(11672);
    expect(labelCounts(brown)).toEqual({
      news: 941,
      editorial: 608,
      reviews: 357,
      religion: 352,
      hobbies: 851,
      lore: 997,
      'belles lettres': 1473,
      government: 619,
      learned: 1580,
      fiction: 862,
      mystery: 786,
      'science fiction': 192,
      adventure: 942,
      romance: 898,
      humor: 214,
    });
    expect(new Set(brown.rows.map((r) => r.meta!.document)).size).toBe(500);
    expect(brown.skipped).toEqual({ count: 0, reasons: {} });
    expect(brown.rows.filter((r) => r.meta!.sentences < 5).length).toBeLessThanOrEqual(500);
  });

  it('detokenises without tags and keeps the tags in meta.tokens', () => {
    const first = brown.rows[0];
    expect(first.id).toBe('ca01:0');
    expect(first.label).toBe('news');
    expect(
      first.text.startsWith(
        `The Fulton County Grand Jury said Friday an investigation of Atlanta's recent primary election produced "no evidence" that any irregularities took place. The jury further said`,
      ),
    ).toBe(true);
    // "Jr." followed by the sentence's "." reads as one period
    expect(first.text).toContain('won by Mayor-nominate Ivan Allen Jr. "Only a relative handful');
    expect(first.meta!.tokens!.slice(0, 3)).toEqual([
      { word: 'The', tag: 'at' },
      { word: 'Fulton', tag: 'np-tl' },
      { word: 'County', tag: 'nn-tl' },
    ]);
    for (const r of brown.rows.slice(0, 2000)) expect(r.text).not.toMatch(/\/(at|nn|vbd|in)\b| [,.;:?!]/);
    expect(brown.rows.find((r) => r.id === 'cr09:0')!.label).toBe('humor');
  });

  it('honours sentencesPerPassage and tags: false', () => {
    const one = loadBrown({ sentencesPerPassage: 1, tags: false });
    expect(one.rows.length).toBe(57340);
    expect(one.rows[0].meta).toEqual({ document: 'ca01', passage: 0, sentences: 1 });
    expect(() => loadBrown({ sentencesPerPassage: 0 })).toThrow(/positive integer/);
  });
});

describe('Brown text', () => {
  it('parses word/tag at the last slash', () => {
    expect(parseBrownDocument('\n\n\tA/at 1/2/cd inch/nn ./.\n', 'x')).toEqual([
      [
        { word: 'A', tag: 'at' },
        { word: '1/2', tag: 'cd' },
        { word: 'inch', tag: 'nn' },
        { word: '.', tag: '.' },
      ],
    ]);
    expect(() => parseBrownDocument('\tbroken\n', 'ca99')).toThrow('ca99:1: token "broken" is not word/tag');
  });

  it('puts spaces where a reader expects them', () => {
    expect(detokenize(['He', 'said', ',', '``', 'Go', '(', 'now', ')', "''", '.'])).toBe('He said, "Go (now)".');
    expect(detokenize(['a', "'", 'quoted', "'", 'word', '?'])).toBe("a 'quoted' word?");
    expect(Object.keys(BROWN_GENRES).join('')).toBe('abcdefghjklmnpr');
  });
});
