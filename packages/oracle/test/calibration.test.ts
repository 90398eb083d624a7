import { mkdtemp, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  calibrateThetaRelate,
  classifyPairs,
  randomPairs,
  relatedPairs,
  thresholdFromPairs,
  type CalibrationLexicon,
  type WordPair,
} from '../src/index.js';
import { HandEmbedding, at } from './fixtures.js';

describe('θ_relate calibration (§3.1)', () => {
  it('finds a threshold separating perfectly separable pairs, with all four scores 1', async () => {
    // related pairs 10°–40° apart (cos ≥ .766), unrelated 80°–100° apart (cos ≤ .174)
    const e = new HandEmbedding('sep', { a: at(0), b: at(10), c: at(40), d: at(80), f: at(100), g: at(180) });
    const related: WordPair[] = [
      ['a', 'b'],
      ['a', 'c'],
      ['b', 'c'],
    ];
    const unrelated: WordPair[] = [
      ['a', 'd'],
      ['a', 'f'],
      ['d', 'g'],
    ];
    const r = await thresholdFromPairs(e, related, unrelated);
    expect(r.thetaRelate).toBeGreaterThan(Math.cos((80 * Math.PI) / 180));
    expect(r.thetaRelate).toBeLessThanOrEqual(Math.cos((40 * Math.PI) / 180));
    expect([r.relatedPrecision, r.relatedRecall, r.unrelatedPrecision, r.unrelatedRecall]).toEqual([1, 1, 1, 1]);
  });

  it('balances recall of the two classes when they overlap (then precision matches too)', async () => {
    // similarities: related {.9, .7, .5, .3}, unrelated {.6, .4, .2, .1}
    const rel = Float64Array.from([0.3, 0.5, 0.7, 0.9]);
    const unr = Float64Array.from([0.1, 0.2, 0.4, 0.6]);
    const c = classifyPairs(rel, unr, 0.45);
    // at .45: related ≥ .45: 3 of 4 (recall .75); unrelated < .45: 3 of 4 (recall .75)
    expect(c).toEqual({ relatedPrecision: 0.75, relatedRecall: 0.75, unrelatedPrecision: 0.75, unrelatedRecall: 0.75 });
    const vec: Record<string, number[]> = { x: [1, 0] };
    const pairs = (sims: number[], tag: string) =>
      sims.map((s, i) => {
        vec[`${tag}${i}`] = [s, Math.sqrt(1 - s * s)];
        return ['x', `${tag}${i}`] as WordPair;
      });
    const related = pairs([0.9, 0.7, 0.5, 0.3], 'r');
    const unrelated = pairs([0.6, 0.4, 0.2, 0.1], 'u');
    const r = await thresholdFromPairs(new HandEmbedding('olap', vec), related, unrelated);
    expect(r.relatedRecall).toBeCloseTo(r.unrelatedRecall, 12);
    expect(r.relatedRecall).toBe(0.75);
    expect(r.thetaRelate).toBeGreaterThan(0.4);
    expect(r.thetaRelate).toBeLessThanOrEqual(0.5);
  });

  it('drops pairs with out-of-vocabulary words and counts them', async () => {
    const e = new HandEmbedding('oov', { a: at(0), b: at(10), c: at(90) });
    const r = await thresholdFromPairs(
      e,
      [
        ['a', 'b'],
        ['a', 'zz'],
      ],
      [
        ['a', 'c'],
        ['zz', 'c'],
      ],
    );
    expect(r.relatedPairs).toBe(1);
    expect(r.unrelatedPairs).toBe(1);
    expect(r.droppedOutOfVocabulary).toBe(2);
    await expect(thresholdFromPairs(e, [['zz', 'a']], [['a', 'c']])).rejects.toThrow(/knows no word pair/);
  });

  const lexicon: CalibrationLexicon = {
    mostFrequent: (n) =>
      [{ lemma: 'big' }, { lemma: 'big' }, { lemma: 'fast' }, { lemma: 'new_york' }, { lemma: 'happy' }].slice(0, n),
    synonyms: (w) =>
      ({ big: ['large', 'great', 'big', 'Large'], fast: ['quick', 'rapid', 'fast food'], happy: ['glad', 'large'] })[
        w
      ] ?? [],
  };

  it('pairs the most frequent words with their single-word synonyms, deduplicated', () => {
    expect(relatedPairs(lexicon, 3)).toEqual([
      ['big', 'large'],
      ['big', 'great'],
      ['fast', 'quick'],
      ['fast', 'rapid'],
      ['happy', 'glad'],
      ['happy', 'large'],
    ]);
    expect(relatedPairs(lexicon, 1)).toEqual([
      ['big', 'large'],
      ['big', 'great'],
    ]);
  });

  it('draws seeded random pairs that avoid the related pairs', () => {
    const vocab = ['big', 'large', 'great', 'fast', 'quick', 'rapid'];
    const related: WordPair[] = [
      ['big', 'large'],
      ['fast', 'quick'],
    ];
    const a = randomPairs(vocab, 8, related, 3);
    expect(randomPairs(vocab, 8, related, 3)).toEqual(a);
    expect(randomPairs(vocab, 8, related, 4)).not.toEqual(a);
    expect(a).toHaveLength(8);
    const keys = a.map(([x, y]) => [x, y].sort().join(' '));
    expect(new Set(keys).size).toBe(8);
    expect(keys).not.toContain('big large');
    expect(keys).not.toContain('fast quick');
    expect(a.every(([x, y]) => x !== y)).toBe(true);
  });

  describe('caching per embedding', () => {
    let saved: string | undefined;
    beforeEach(async () => {
      saved = process.env.XTRUST_CACHE_DIR;
      process.env.XTRUST_CACHE_DIR = await mkdtemp(join(tmpdir(), 'oracle-cache-'));
    });
    afterEach(() => {
      if (saved === undefined) delete process.env.XTRUST_CACHE_DIR;
      else process.env.XTRUST_CACHE_DIR = saved;
    });

    it('calibrates once and then reads the cached result', async () => {
      const e = new HandEmbedding('cal', {
        big: at(0),
        large: at(8),
        great: at(15),
        fast: at(60),
        quick: at(66),
        rapid: at(70),
        happy: at(120),
        glad: at(128),
      });
      const first = await calibrateThetaRelate(e, lexicon, { seed: 5, frequentWords: 3 });
      expect(first.relatedPairs).toBe(6);
      expect(first.unrelatedPairs).toBe(6);
      const files = await readdir(join(process.env.XTRUST_CACHE_DIR!, 'oracle'));
      expect(files).toHaveLength(1);
      expect(files[0]).toMatch(/^theta-relate-cal-d2-w3-s5-[0-9a-f]{12}\.json$/);
      const failing: CalibrationLexicon = {
        mostFrequent: () => {
          throw new Error('must not be called');
        },
        synonyms: () => [],
      };
      expect(await calibrateThetaRelate(e, failing, { seed: 5, frequentWords: 3 })).toEqual(first);
      await expect(calibrateThetaRelate(e, failing, { seed: 5, frequentWords: 3, cache: false })).rejects.toThrow(
        /must not be called/,
      );
      // the same name with other vectors is another embedding: no stale cache hit
      const moved = new HandEmbedding('cal', {
        big: at(1),
        large: at(8),
        great: at(15),
        fast: at(60),
        quick: at(66),
        rapid: at(70),
        happy: at(120),
        glad: at(128),
        good: at(3),
      });
      await expect(calibrateThetaRelate(moved, failing, { seed: 5, frequentWords: 3 })).rejects.toThrow(
        /must not be called/,
      );
    });
  });
});
