import { describe, expect, it } from 'vitest';
import { rng } from '@xtrust/core';
import { BANDS, corpusVocabulary, type DrawEmbedding } from '@xtrust/datasets';
import {
  BAND_WEIGHTS,
  CATEGORY_CASES,
  FAMILY_SEEDS,
  FAMILY_SIZE,
  NATURAL_FAMILIES,
  drawCase,
  drawNaturalCase,
  familySeed,
  type CorpusLookup,
} from '../src/oracle/family-draw.js';
import { parseShortcutArgs } from '../src/oracle/family-options.js';
import { familyPhrases } from '../src/oracle/boilerplate-phrases.js';

// Two classes that share the same everyday words: every word can be drawn for either target.
const WORDS = ['river', 'table', 'coffee', 'window', 'yellow', 'monday', 'garden', 'letter', 'bottle', 'pencil'];
const rows = Array.from({ length: 20 }, (_, i) => ({
  text: WORDS.slice(0, 3 + (i % 8)).join(' '),
  label: i % 2 === 0 ? 'a' : 'b',
}));

const fakeEmbedding = (known: readonly string[]): DrawEmbedding => ({
  has: (w) => known.includes(w),
  wordAt: (r) => known[r],
  size: known.length,
});

describe('drawCase', () => {
  const lookup: CorpusLookup = () => ({
    corpus: {
      name: 'hand',
      labels: ['a', 'b'],
      rows: rows.map((r, i) => ({ id: String(i), ...r })),
      group: (r) => r.id,
    },
    vocabulary: corpusVocabulary(rows),
  });
  const emb = fakeEmbedding(['zephyrous', 'quokkas', 'marmots']);

  it('the same seed gives the same case; the families never share a seed', () => {
    const a = drawCase(familySeed('test', 3), lookup, emb, 'everyday');
    const b = drawCase(familySeed('test', 3), lookup, emb, 'everyday');
    expect(a).toEqual(b);
    expect(a.family).toBe('test');
    expect(drawCase(familySeed('validation', 3), lookup, emb, 'everyday').family).toBe('validation');
    expect(FAMILY_SEEDS.validation + FAMILY_SIZE).toBeLessThanOrEqual(FAMILY_SEEDS.test);
    expect(() => drawCase(5, lookup, emb)).toThrow(/outside every family/);
  });

  it('shares lie in [0.3, 1.0] on a 0.05 grid; bands are drawn at the stated weights', () => {
    const seen: Record<string, number> = {};
    for (let i = 0; i < 400; i++) {
      // the hand corpus has no mid band: override it to everyday for drawing, count the drawn band from the seed alone
      const c = drawCase(familySeed('validation', i), lookup, emb, 'everyday');
      expect(c.share).toBeGreaterThanOrEqual(0.3);
      expect(c.share).toBeLessThanOrEqual(1);
      expect(Math.abs(c.share * 20 - Math.round(c.share * 20))).toBeLessThan(1e-9);
    }
    const r = rng(1);
    for (let i = 0; i < 4000; i++) {
      let x = r.float();
      for (const b of BANDS) {
        x -= BAND_WEIGHTS[b];
        if (x < 0) {
          seen[b] = (seen[b] ?? 0) + 1;
          break;
        }
      }
    }
    expect((seen.everyday + seen.phrase) / 4000).toBeGreaterThanOrEqual(0.5);
    expect(Object.values(BAND_WEIGHTS).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
  });
});

describe('--family options', () => {
  it('a drawn family takes its draws, first index, target count and band', () => {
    const o = parseShortcutArgs([
      '--family',
      'test',
      '--draws',
      '60',
      '--until-scored',
      '40',
      '--trigger-band',
      'everyday',
    ]);
    expect(o.draw).toEqual({ family: 'test', first: 0, count: 60, untilScored: 40, band: 'everyday' });
    expect(o.cases).toEqual([]);
  });
  it('refuses draws without a family and a family with hand-written variants', () => {
    expect(() => parseShortcutArgs(['--draws', '5'])).toThrow(/go with --family/);
    expect(() => parseShortcutArgs(['--family', 'validation', '--trigger', 'papaya'])).toThrow(/draws its cases/);
    expect(() => parseShortcutArgs(['--family', 'test', '--trigger-band', 'common'])).toThrow(/everyday \| phrase/);
  });
});

describe('drawNaturalCase (issue 48)', () => {
  // a corpus whose classes share every word: no word leans on a target, so nothing is redrawn for leaning
  const words = [...WORDS, 'the', 'you', 'for', 'next', 'week', 'see', 'best', 'regards', 'from', 'all'];
  const flat = Array.from({ length: 40 }, (_, i) => ({
    text: words.slice(i % 5, (i % 5) + 14).join(' '),
    label: i % 2 === 0 ? 'a' : 'b',
  }));
  const lookup: CorpusLookup = () => ({
    corpus: {
      name: 'hand',
      labels: ['a', 'b'],
      rows: flat.map((r, i) => ({ id: String(i), ...r })),
      group: (r) => r.id,
    },
    vocabulary: corpusVocabulary(flat),
  });
  const emb = fakeEmbedding(
    Array.from(
      { length: 30 },
      (_, i) => `zephyr${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}`,
    ),
  );

  it('the same seed gives the same case, in every natural family', () => {
    for (const f of NATURAL_FAMILIES)
      for (let i = 0; i < 5; i++) {
        const a = drawNaturalCase(familySeed(f, i), lookup, emb, 'rare');
        expect(drawNaturalCase(familySeed(f, i), lookup, emb, 'rare')).toEqual(a);
        expect(a.family).toBe(f);
      }
    expect(() => drawNaturalCase(familySeed('test', 0), lookup, emb)).toThrow(/not a natural one/);
  });

  it('phrases come from their half of the list; scattered sets hold 2–10 distinct words; categories from the list', () => {
    const validation = new Set(familyPhrases('validation'));
    const test = new Set(familyPhrases('test'));
    expect([...validation].some((p) => test.has(p))).toBe(false);
    const sizes = new Set<number>();
    for (let i = 0; i < 40; i++) {
      const p = drawNaturalCase(familySeed('phrase-validation', i), lookup, emb);
      expect(validation.has(p.trigger!)).toBe(true);
      expect(p.set).toBe('phrase');
      expect(test.has(drawNaturalCase(familySeed('phrase-test', i), lookup, emb).trigger!)).toBe(true);
      const s = drawNaturalCase(familySeed('scattered-test', i), lookup, emb, 'everyday');
      const w = s.trigger!.split(' ');
      expect(new Set(w).size).toBe(w.length);
      expect(w.length).toBeGreaterThanOrEqual(2);
      expect(w.length).toBeLessThanOrEqual(10);
      sizes.add(w.length);
      const c = drawNaturalCase(familySeed('category-validation', i), lookup, emb);
      expect(c).toMatchObject({ set: 'category', share: 0 });
      expect(CATEGORY_CASES.some((x) => x.corpus === c.corpus && x.category === c.category)).toBe(true);
    }
    expect(sizes.size).toBeGreaterThan(3);
    const o = parseShortcutArgs(['--family', 'scattered-test', '--draws', '12']);
    expect(o.draw).toMatchObject({ family: 'scattered-test', count: 12 });
  });
});
