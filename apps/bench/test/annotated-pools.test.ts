import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ANNOTATED_POOLS_DIR,
  labelCounts,
  loadAnnotatedPool,
  loadAnnotatedPools,
  scoreRelated,
  type LabelledWord,
} from '../src/oracle/annotated-pool-labels.js';
import { cutToSeen } from '../src/oracle/kit-bert-pools.js';

const good = {
  settings: {
    corpus: 'brown',
    model: 'bow-logistic',
    words: 60,
    seed: 1,
    train: 10,
    samples: 10,
    topK: 10,
    perClass: 3,
  },
  classNames: {},
  annotation: { rubric: 'r.md', annotator: 'a person', relatednessRun: false },
  classes: {
    religion: [
      { word: 'church', importance: 0.3, count: 4, label: 'related' },
      { word: 'spoon', importance: 0.2, count: 1, label: 'unrelated' },
      { word: 'lo', importance: 0.1, count: 2, label: 'unsure' },
    ],
    news: [{ word: 'reporter', importance: 0.3, count: 4, label: 'related' }],
  },
};

function write(obj: unknown): string {
  const dir = mkdtempSync(join(tmpdir(), 'pools-'));
  const f = join(dir, 'p.json');
  writeFileSync(f, JSON.stringify(obj));
  return f;
}

describe('annotated pools loader', () => {
  it('reads a labelled pool', () => {
    const p = loadAnnotatedPool(write(good));
    expect(p.classes.religion.map((w) => w.label)).toEqual(['related', 'unrelated', 'unsure']);
    expect(labelCounts(p.classes.religion)).toEqual({ related: 1, unrelated: 1, unsure: 1 });
  });

  it('refuses an unknown label, a repeated word, too many words, and labels written after a relatedness run', () => {
    const bad = (change: (o: typeof good) => void) => () => {
      const o = structuredClone(good);
      change(o);
      return loadAnnotatedPool(write(o));
    };
    expect(
      bad((o) => {
        (o.classes.religion[0] as { label: string }).label = 'maybe';
      }),
    ).toThrow(/label "maybe"/);
    expect(
      bad((o) => {
        o.classes.religion[1].word = 'church';
      }),
    ).toThrow(/twice/);
    expect(
      bad((o) => {
        o.settings.perClass = 2;
      }),
    ).toThrow(/more than perClass/);
    expect(
      bad((o) => {
        o.annotation.relatednessRun = true;
      }),
    ).toThrow(/relatednessRun/);
  });

  it('the committed files load, every class has its 100 words (at most, for a kit BERT), and unsure stays a minority', () => {
    const pools = loadAnnotatedPools();
    expect(pools.map((p) => `${p.settings.model}/${p.settings.corpus}`).sort()).toEqual([
      'bow-logistic/brown',
      'bow-logistic/headers',
      'bow-logistic/sotu',
      'bow-logistic/spam',
      'kit-bert/brown',
      'kit-bert/spam',
    ]);
    for (const p of pools)
      for (const words of Object.values(p.classes)) {
        // a kit BERT's pool from 200 training texts can hold fewer than 100 words that are not function words
        if (p.settings.model === 'bow-logistic') expect(words).toHaveLength(100);
        else expect(words.length).toBeGreaterThanOrEqual(50);
        expect(labelCounts(words).unsure).toBeLessThan(50);
      }
  });
});

describe('the validation pool', () => {
  it('loads apart from the test pools: bow-logistic on five other Brown genres, 100 words each', () => {
    const pools = loadAnnotatedPools(join(ANNOTATED_POOLS_DIR, 'validation'));
    expect(pools.map((p) => `${p.settings.model}/${p.settings.corpus}`)).toEqual(['bow-logistic/brown-other']);
    expect(Object.keys(pools[0].classes).sort()).toEqual(['adventure', 'editorial', 'learned', 'mystery', 'reviews']);
    for (const words of Object.values(pools[0].classes)) {
      expect(words).toHaveLength(100);
      expect(labelCounts(words).unsure).toBeLessThan(50);
    }
  });
});

describe('scoreRelated', () => {
  it('counts precision and recall of related, leaving unsure and unjudged words out', () => {
    const words: LabelledWord[] = [
      { word: 'a', importance: 1, count: 1, label: 'related' },
      { word: 'b', importance: 1, count: 1, label: 'related' },
      { word: 'c', importance: 1, count: 1, label: 'unrelated' },
      { word: 'd', importance: 1, count: 1, label: 'unrelated' },
      { word: 'e', importance: 1, count: 1, label: 'unsure' },
      { word: 'f', importance: 1, count: 1, label: 'unrelated' },
    ];
    const verdict: Record<string, boolean | undefined> = {
      a: true,
      b: false,
      c: true,
      d: false,
      e: true,
      f: undefined,
    };
    const s = scoreRelated(words, (w) => verdict[w]);
    expect(s).toMatchObject({ tp: 1, fp: 1, fn: 1, tn: 1, unjudged: 1, precision: 0.5, recall: 0.5 });
    expect(s.falsePositives).toEqual(['c']);
    expect(s.misses).toEqual(['b']);
  });
});

describe('cutToSeen', () => {
  const limit = (n: number) => ({ seenWords: () => n });
  it('keeps the text up to the end of the last word the model sees', () => {
    expect(cutToSeen(limit(2), 'alpha, beta  gamma delta')).toBe('alpha, beta');
    expect(cutToSeen(limit(1), 'alpha-beta gamma')).toBe('alpha');
  });
  it('returns the whole text when the model sees it all (or reports no word seen)', () => {
    expect(cutToSeen(limit(3), 'alpha beta gamma.')).toBe('alpha beta gamma.');
    expect(cutToSeen(limit(0), 'alpha beta')).toBe('alpha beta');
  });
});
