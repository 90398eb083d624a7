import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  WORD_LIST_CORPORA,
  coverageTable,
  functionWordsIn,
  listsCoverage,
  loadWordLists,
  pooledRelatedness,
  relatednessAgainstLists,
  relatednessTable,
  wordListProblems,
  type WordLists,
} from '../src/oracle/relatedness-lists.js';

const LABELS: Record<(typeof WORD_LIST_CORPORA)[number], string[]> = {
  spam: ['spam', 'ham'],
  sotu: ['Democratic', 'Republican'],
  brown: ['news', 'religion', 'hobbies', 'government', 'romance'],
};

describe('the word lists a person wrote', () => {
  for (const corpus of WORD_LIST_CORPORA) {
    it(`${corpus}: every class has >= 50 related and >= 50 unrelated words, >= 20 function words among the unrelated, none in both, all lower case`, () => {
      const lists = loadWordLists(corpus);
      expect(Object.keys(lists)).toEqual(LABELS[corpus]);
      expect(wordListProblems(lists, { minRelated: 50, minUnrelated: 50, minFunctionWords: 20 })).toEqual([]);
      for (const { related, unrelated } of Object.values(lists)) {
        expect(related.length).toBeGreaterThanOrEqual(50);
        expect(unrelated.length).toBeGreaterThanOrEqual(50);
        expect(functionWordsIn(unrelated).length).toBeGreaterThanOrEqual(20);
        expect(functionWordsIn(related)).toEqual([]);
        const rel = new Set(related);
        expect(unrelated.filter((w) => rel.has(w))).toEqual([]);
        for (const w of [...related, ...unrelated]) expect(w).toMatch(/^[a-z]+$/);
      }
    });
  }

  it('wordListProblems names what breaks the rules', () => {
    const bad: WordLists = { x: { related: ['Tax', 'war', 'war'], unrelated: ['the', 'war'] } };
    const p = wordListProblems(bad, { minRelated: 2, minUnrelated: 2, minFunctionWords: 2 });
    expect(p).toEqual([
      'x: 1 function words among the unrelated (< 2)',
      'x: in both lists: war',
      'x.related: not a lower-case single word: Tax',
      'x.related: repeated: war',
    ]);
  });

  it('loadWordLists rejects a malformed file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'wl-'));
    writeFileSync(join(dir, 'spam.json'), JSON.stringify({ spam: { related: ['free'] } }));
    expect(() => loadWordLists('spam', dir)).toThrow(/spam\.unrelated must be an array of strings/);
    writeFileSync(join(dir, 'spam.json'), JSON.stringify({ spam: { related: ['free'], unrelated: ['the'] } }));
    expect(loadWordLists('spam', dir)).toEqual({ spam: { related: ['free'], unrelated: ['the'] } });
  });
});

describe('relatednessAgainstLists', () => {
  const lists: WordLists = {
    a: { related: ['r1', 'r2', 'r3', 'r4', 'r5'], unrelated: ['the', 'of', 'u1', 'u2'] },
    b: { related: ['s1', 's2'], unrelated: ['t1', 't2', 't3'] },
  };
  // a: r1 r2 r3 related (tp 3), r4 unrelated (fn 1), r5 not judged; "the" related (fp), "of" not judged, u1 u2 unrelated (tn 2)
  // b: nothing judged related: s1 s2 unrelated (fn 2), t1..t3 unrelated (tn 3)
  const pred = (label: string, w: string): boolean | undefined => {
    if (label === 'a') return w === 'r5' || w === 'of' ? undefined : ['r1', 'r2', 'r3', 'the'].includes(w);
    return false;
  };

  it('counts tp fp fn tn apart from the words it could not judge, and computes precision and recall of "related"', () => {
    const [a, b] = relatednessAgainstLists(lists, pred);
    expect(a.label).toBe('a');
    expect(a.counts).toEqual({ tp: 3, fp: 1, fn: 1, tn: 2, unjudged: 2, unjudgedRelated: 1, unjudgedUnrelated: 1 });
    expect(a.precision).toBe(3 / 4);
    expect(a.recall).toBe(3 / 4);
    expect(a.recallOfAll).toBe(3 / 5);
    expect(a.falsePositives).toEqual(['the']);
    expect(a.functionWordsCalledRelated).toEqual(['the']);
    expect(a.falseNegatives).toEqual(['r4']);
    expect(a.unjudgedWords).toEqual(['r5', 'of']);

    expect(b.counts).toEqual({ tp: 0, fp: 0, fn: 2, tn: 3, unjudged: 0, unjudgedRelated: 0, unjudgedUnrelated: 0 });
    expect(b.precision).toBeNull(); // called nothing related
    expect(b.recall).toBe(0);
    expect(b.recallOfAll).toBe(0);
  });

  it('a perfect judge scores 1 / 1; one that calls everything related has recall 1 and precision = share of related words', () => {
    const perfect = relatednessAgainstLists(lists, (label, w) => lists[label].related.includes(w));
    for (const r of perfect) expect([r.precision, r.recall, r.recallOfAll]).toEqual([1, 1, 1]);
    const all = relatednessAgainstLists(lists, () => true);
    expect(all.map((r) => [r.precision, r.recall])).toEqual([
      [5 / 9, 1],
      [2 / 5, 1],
    ]);
    expect(all[0].functionWordsCalledRelated).toEqual(['the', 'of']);
  });

  it('pools the classes (micro average) and prints a Markdown table', () => {
    const results = relatednessAgainstLists(lists, pred);
    const all = pooledRelatedness(results);
    expect(all.counts).toEqual({ tp: 3, fp: 1, fn: 3, tn: 5, unjudged: 2, unjudgedRelated: 1, unjudgedUnrelated: 1 });
    expect(all.precision).toBe(3 / 4);
    expect(all.recall).toBe(3 / 6);
    expect(all.recallOfAll).toBe(3 / 7);

    const t = relatednessTable(results, { prefix: 'x / ' }).split('\n');
    expect(t).toHaveLength(2 + 3);
    expect(t[0]).toContain('| precision | recall |');
    expect(t[2]).toBe('| x / a | 5 / 4 | 2 | 3 | 1 | 1 | 2 | 0.750 | 0.750 | 0.600 | 1: the | the |');
    expect(t[3]).toBe('| x / b | 2 / 3 | 0 | 0 | 0 | 2 | 3 | – | 0.000 | 0.000 | 0 |  |');
    expect(t[4]).toBe('| **all** | 7 / 7 | 2 | 3 | 1 | 3 | 5 | 0.750 | 0.500 | 0.429 | 1: the | the |');
    expect(relatednessTable(results.slice(0, 1), { showFalsePositives: 0 }).split('\n')).toHaveLength(3);
  });
});

describe('listsCoverage', () => {
  it('counts the listed words found in each class pool (lower-cased), naming the missing ones', () => {
    const lists: WordLists = {
      a: { related: ['x', 'y', 'z'], unrelated: ['the', 'q'] },
      b: { related: ['m'], unrelated: ['n'] },
    };
    const pools: Record<string, string[]> = { a: ['X', 'z', 'the', 'the', 'other'], b: [] };
    const cov = listsCoverage(lists, (label) => pools[label]);
    expect(cov).toEqual([
      {
        label: 'a',
        related: 3,
        relatedInPool: 2,
        unrelated: 2,
        unrelatedInPool: 1,
        relatedMissing: ['y'],
        unrelatedMissing: ['q'],
      },
      {
        label: 'b',
        related: 1,
        relatedInPool: 0,
        unrelated: 1,
        unrelatedInPool: 0,
        relatedMissing: ['m'],
        unrelatedMissing: ['n'],
      },
    ]);
    expect(coverageTable(cov).split('\n')[2]).toBe('| a | 2 / 3 | 1 / 2 |');
  });
});
