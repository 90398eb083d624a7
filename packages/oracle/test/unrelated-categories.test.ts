import { describe, expect, it } from 'vitest';
import {
  categoryWords,
  groupedWeights,
  checkOracle,
  labelExplanations,
  ORACLES,
  reasonSpans,
  WordCooccurrence,
  type UnrelatedCategory,
} from '../src/index.js';
import { COMPUTER_HAND, computerStore, explanation } from './fixtures.js';

/** A category of the spans a pattern matches, as @xtrust/datasets' patternSet makes them. */
function pattern(name: string, re: RegExp, relatedClasses?: string[]): UnrelatedCategory {
  return {
    name,
    relatedClasses,
    spans(text) {
      return [...text.matchAll(new RegExp(re.source, 'g'))].map((m) => ({
        start: m.index!,
        end: m.index! + m[0].length,
      }));
    },
  };
}

const numbers = pattern('numbers', /\d+/);
const urls = pattern('urls', /https?:\/\/\S+/);

describe('categoryWords', () => {
  it('maps each word that is a category token wherever it occurs, first listed category first', () => {
    const text = 'Call 555 or visit http://www.cnet.com/2024 today; com is also a word';
    const m = categoryWords(text, 'spam', [urls, numbers]);
    // 2024 lies in the URL: urls is listed first; "com" also occurs outside the URL → left to relatedness
    expect(Object.fromEntries(m)).toEqual({ '555': 1, http: 0, www: 0, cnet: 0, '2024': 0 });
    expect(Object.fromEntries(categoryWords(text, 'spam', [numbers, urls]))).toMatchObject({ '2024': 0, '555': 0 });
  });

  it('with outermost nesting, a token covered by two categories is the longer span’s', () => {
    const text = 'Call 555 or visit http://www.cnet.com/2024 today';
    // numbers listed first: under `first` 2024 is a number, under `outermost` it is part of the URL
    expect(categoryWords(text, 'spam', [numbers, urls]).get('2024')).toBe(0);
    const m = categoryWords(text, 'spam', [numbers, urls], 'outermost');
    expect(Object.fromEntries(m)).toEqual({ '555': 0, http: 1, www: 1, cnet: 1, com: 1, '2024': 1 });
    // equal spans: the first listed keeps the token
    const digits = pattern('digits', /\d+/);
    expect(categoryWords('see 42', 'spam', [digits, numbers], 'outermost').get('42')).toBe(0);
  });

  it('a category reason’s removal takes every covering category, or (outermost) the named ones only', () => {
    const text = 'at 555 see http://x.org/77 now';
    const at = (spans: readonly { start: number; end: number }[]) =>
      spans.map((s) => text.slice(s.start, s.end)).sort();
    const first = categoryWords(text, 'spam', [numbers, urls]);
    // "77" is a number inside the URL: under `first` its removal takes the numbers and the URL with them
    expect(at(reasonSpans(text, 'spam', ['77'], first, [numbers, urls]))).toEqual(['555', '77', 'http://x.org/77']);
    const outer = categoryWords(text, 'spam', [numbers, urls], 'outermost');
    expect(at(reasonSpans(text, 'spam', ['555'], outer, [numbers, urls], 'outermost'))).toEqual(['555', '77']);
    expect(at(reasonSpans(text, 'spam', ['77', 'org'], outer, [numbers, urls], 'outermost'))).toEqual([
      'http://x.org/77',
    ]);
    expect(reasonSpans(text, 'spam', ['see'], outer, [numbers, urls], 'outermost')).toEqual([]);
  });

  it('OracleConfig.categoryNesting is first, outermost or null', () => {
    expect(() => checkOracle({ ...ORACLES.toki, categoryNesting: 'outermost' })).not.toThrow();
    expect(() => checkOracle({ ...ORACLES.toki, categoryNesting: 'inner' as never })).toThrow(/categoryNesting/);
  });

  it('skips a category for the classes it is a right reason for, and a text with no occurrence', () => {
    const sport = pattern('numbers', /\d+/, ['results']);
    expect(categoryWords('won 3 to 1', 'results', [sport]).size).toBe(0);
    expect(Object.fromEntries(categoryWords('won 3 to 1', 'news', [sport]))).toEqual({ '3': 0, '1': 0 });
    expect(categoryWords('no digits here', 'news', [numbers]).size).toBe(0);
  });
});

describe('groupedWeights with categories', () => {
  it('joins a category and the words travelling with its tokens: categories never split a reason', () => {
    // "regards" travels with "best" (Jaccard 0.6), and "best" is a category token: one reason with or without the category
    const co = WordCooccurrence.fromTexts(
      ['best regards', 'best regards', 'best regards x', 'best y', 'regards z'],
      ['best', 'regards'],
      {
        minJaccard: 0.5,
        minTexts: 2,
      },
    );
    const fs = [
      { word: 'best', weight: 0.2 },
      { word: 'regards', weight: 0.15 },
      { word: 'other', weight: 0.25 },
      { word: '2001', weight: 0.1 },
    ];
    const cats = new Map([
      ['best', 0],
      ['2001', 0],
    ]);
    expect(groupedWeights(fs, co).map((g) => g.words)).toEqual([['best', 'regards'], ['other'], ['2001']]);
    const joined = groupedWeights(fs, co, cats);
    expect(joined.map((g) => g.words)).toEqual([['best', 'regards', '2001'], ['other']]);
    expect(joined[0].weight).toBeCloseTo(0.45, 12);
  });

  it('weighs all words of one category as one reason, the others alone (hand-computed)', () => {
    const fs = [
      { word: 'a', weight: 0.2 },
      { word: 'b', weight: 0.15 },
      { word: 'c', weight: 0.1 },
      { word: 'd', weight: 0.05 },
    ];
    const g = groupedWeights(
      fs,
      null,
      new Map([
        ['a', 0],
        ['c', 0],
        ['d', 1],
      ]),
    ).map((x) => x.weight);
    expect(g).toHaveLength(3);
    expect(g[0]).toBeCloseTo(0.3, 12);
    expect(g[1]).toBe(0.05);
    expect(g[2]).toBe(0.15);
  });
});

const hand = COMPUTER_HAND;

/** The hand-checked store of trust-labels.test.ts (keywords of "computer": file, extension) under a verdict rule. */
function store(verdictRule: 'sum' | 'decisive-word') {
  return computerStore([hand], {
    oracle: { ...ORACLES['toki-paper'], verdictRule, cooccurrence: null, functionWordsNeverKeywords: false },
  });
}

describe('labelExplanations with unrelated categories', () => {
  const ext = pattern('extensions', /extension/);

  it('a keyword that is a category token counts as unrelated and is reported with its category', async () => {
    const s = await store('sum');
    expect(s.keywords('computer')).toContain('extension');
    const e = explanation('computer', { file: 0.3, extension: 0.5 }, 'the file extension');
    const [plain] = await labelExplanations(s, [e], { embeddings: [hand] });
    expect(plain.verdict).toBe('trustworthy');
    expect(plain.categories).toBeUndefined();
    const [cat] = await labelExplanations(s, [e], { embeddings: [hand], unrelatedCategories: [ext] });
    expect(cat.verdict).toBe('untrustworthy'); // IS_rel .3 < IS_unr .5
    expect(cat.isUnr).toBeCloseTo(0.5, 12);
    expect(cat.categories).toEqual([{ category: 'extensions', words: ['extension'], weight: 0.5 }]);
  });

  it('decisive-word weighs the category as one reason where each of its words alone is light', async () => {
    const s = await store('decisive-word');
    // margin (0.8 − 0.2) / 2 = 0.3; the numbers 0.2 + 0.15 = 0.35 > 0.3 together, each alone below
    const e = {
      ...explanation('computer', { file: 0.4, '1999': 0.2, '2001': 0.15 }, 'file 1999 2001'),
      probabilities: [0.8, 0.2],
    };
    const [alone] = await labelExplanations(s, [e], { embeddings: [hand] });
    expect(alone.verdict).toBe('trustworthy');
    const [grouped] = await labelExplanations(s, [e], { embeddings: [hand], unrelatedCategories: [numbers] });
    expect(grouped.verdict).toBe('untrustworthy');
    expect(grouped.categories?.[0].category).toBe('numbers');
    expect(grouped.categories?.[0].weight).toBeCloseTo(0.35, 12);
  });

  it('refuses a category without a spans function, naming what it expected', async () => {
    const s = await store('sum');
    await expect(
      labelExplanations(s, [explanation('computer', { file: 0.3 })], {
        embeddings: [hand],
        unrelatedCategories: [{ name: 'x' } as unknown as UnrelatedCategory],
      }),
    ).rejects.toThrow(/spans\(text\)/);
  });
});
