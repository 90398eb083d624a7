// 003 Table 1 on a transformer: the pure parts of the run — relevance variants by hand, the vocabulary
// ideal, the resume logic (what a rerun still does, and a store with a torn last line), the random floor.
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  CLASS_WORDINGS,
  completePassages,
  ExplanationStore,
  pairedDifference,
  passageNdcg,
  pendingWork,
  randomRanking,
  vocabularyIdeal,
  zeroFunctionWords,
} from '../src/reproductions/ndcg-table1.js';

const L2 = (j: number) => Math.log2(1 + j);
const rel = new Map([
  ['a', 0.5],
  ['b', -0.2],
  ['c', 0.8],
  ['d', 0.9],
  ['e', 0.7],
]);

describe('passageNdcg: the relevance variants, by hand', () => {
  const text = ['a', 'b', 'c'];
  const ranked = ['b', 'a', 'c'];

  it('clips negative cosines to 0 (003 §4) or keeps them', () => {
    const clip = passageNdcg(ranked, text, rel, [1, 3], { negative: 'clip' });
    // gains 0, 0.5, 0.8; ideal c, a, b = 0.8, 0.5, 0
    expect(clip[1]).toBeCloseTo(0, 12);
    expect(clip[3]).toBeCloseTo((0 + 0.5 / L2(2) + 0.8 / L2(3)) / (0.8 + 0.5 / L2(2) + 0), 12);
    const keep = passageNdcg(ranked, text, rel, [1, 3], { negative: 'keep' });
    // gains −0.2, 0.5, 0.8; ideal 0.8, 0.5, −0.2
    expect(keep[1]).toBeCloseTo(-0.2 / 0.8, 12);
    expect(keep[3]).toBeCloseTo((-0.2 + 0.5 / L2(2) + 0.8 / L2(3)) / (0.8 + 0.5 / L2(2) - 0.2 / L2(3)), 12);
  });

  it('takes the ideal from the top words of a vocabulary when given (the explanation words it lacks widen the pool)', () => {
    const ideal = vocabularyIdeal(rel, 2);
    expect(ideal).toEqual(['d', 'c']);
    const s = passageNdcg(['c', 'a'], text, rel, [2], { negative: 'clip', idealWords: ideal });
    // gains 0.8, 0.5; ideal pool d, c (+ a from the explanation): 0.9, 0.8
    expect(s[2]).toBeCloseTo((0.8 + 0.5 / L2(2)) / (0.9 + 0.8 / L2(2)), 12);
    // from the text instead, the same list is the ideal ordering
    expect(passageNdcg(['c', 'a'], text, rel, [2], { negative: 'clip' })[2]).toBeCloseTo(1, 12);
  });

  it('drops ranked words without a relevance entry; unique removes repeats', () => {
    expect(passageNdcg(['zz', 'c', 'a'], text, rel, [2], { negative: 'clip' })[2]).toBeCloseTo(1, 12);
    // repeated "c" in the list: plain keeps it (ideal from the text's tokens c, c, a), unique drops it
    const withRepeat = ['c', 'c', 'a'];
    const text2 = ['c', 'a', 'c'];
    expect(passageNdcg(withRepeat, text2, rel, [3], { negative: 'clip' })[3]).toBeCloseTo(1, 12);
    expect(passageNdcg(withRepeat, text2, rel, [2], { negative: 'clip', unique: true })[2]).toBeCloseTo(1, 12);
  });

  it('sets function words to relevance 0 in the function-word variant', () => {
    const r = zeroFunctionWords(
      new Map([
        ['the', 0.66],
        ['tax', 0.4],
      ]),
      new Set(['the', 'of']),
    );
    expect([...r]).toEqual([
      ['the', 0],
      ['tax', 0.4],
    ]);
    // "the" first no longer scores: gains 0, 0.4 against the ideal tax, the
    expect(passageNdcg(['the', 'tax'], ['the', 'tax'], r, [2], { negative: 'clip' })[2]).toBeCloseTo(
      0.4 / L2(2) / 0.4,
      12,
    );
  });

  it('breaks ties in the vocabulary ideal by the word', () => {
    expect(
      vocabularyIdeal(
        new Map([
          ['y', 0.5],
          ['x', 0.5],
          ['z', 0.1],
        ]),
        2,
      ),
    ).toEqual(['x', 'y']);
  });
});

describe('resume: the work a rerun still does', () => {
  it('does the cheap methods over all passages first, then LIME and KernelSHAP passage by passage, skipping what is done', () => {
    const done = new Set(['0\tattention-last', '1\tlime', '0\tlime']);
    const work = pendingWork([0, 1], ['lime', 'attention-last', 'kernel-shap', 'ig'], (id, m) =>
      done.has(`${id}\t${m}`),
    );
    expect(work).toEqual([
      { id: 1, method: 'attention-last' },
      { id: 0, method: 'ig' },
      { id: 1, method: 'ig' },
      { id: 0, method: 'kernel-shap' },
      { id: 1, method: 'kernel-shap' },
    ]);
    expect(pendingWork([0, 1], ['lime'], () => true)).toEqual([]);
  });

  it('tables use only passages with every method', () => {
    const has = (id: number, m: string) => !(id === 1 && m === 'lime');
    expect(completePassages([0, 1, 2], ['lime', 'ig'], has)).toEqual([0, 2]);
  });

  const dir = mkdtempSync(join(tmpdir(), 'ndcg-store-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('stores each explanation as a line and reopens it; a torn last line is dropped (the file rewritten without it)', async () => {
    const s = await ExplanationStore.open(dir);
    s.add({
      id: 0,
      method: 'lime',
      seconds: 1.5,
      explained: 'news',
      features: [
        ['press', 0.3],
        ['the', -0.1],
      ],
    });
    s.add({ id: 1, method: 'lime', seconds: 1.2, explained: 'romance', features: [['love', 0.4]] });
    s.close();
    appendFileSync(join(dir, 'explanations.jsonl'), '{"id":2,"method":"lime","seco');
    const again = await ExplanationStore.open(dir);
    expect(again.truncated).toBe(true);
    expect(again.size).toBe(2);
    expect(again.has(0, 'lime') && again.has(1, 'lime') && !again.has(2, 'lime')).toBe(true);
    expect(again.get(0, 'lime')!.features[0]).toEqual(['press', 0.3]);
    expect(pendingWork([0, 1, 2], ['lime'], (id, m) => again.has(id, m))).toEqual([{ id: 2, method: 'lime' }]);
    again.add({ id: 2, method: 'lime', seconds: 1, explained: 'news', features: [] });
    again.close();
    const third = await ExplanationStore.open(dir);
    expect(third.truncated).toBe(false);
    expect(third.size).toBe(3);
    expect(
      readFileSync(join(dir, 'explanations.jsonl'), 'utf8')
        .split('\n')
        .filter((l) => l !== '').length,
    ).toBe(3);
  });
});

describe('the random floor, intervals and wordings', () => {
  it('shuffles the distinct words, the same for the same seed and passage', () => {
    const words = ['a', 'b', 'a', 'c', 'd', 'e'];
    const r = randomRanking(words, 1, 3);
    expect([...r].sort()).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(randomRanking(words, 1, 3)).toEqual(r);
  });

  it('gives a paired difference with its bootstrap interval (the mean of a − b)', () => {
    const d = pairedDifference([0.5, 0.6, 0.7], [0.4, 0.5, 0.6], 1);
    expect(d.mean).toBeCloseTo(0.1, 12);
    expect(d.lo).toBeCloseTo(0.1, 12);
    expect(d.hi).toBeCloseTo(0.1, 12);
    expect(Number.isNaN(pairedDifference([], [], 1).mean)).toBe(true);
  });

  it('has every genre in every wording', () => {
    for (const w of Object.values(CLASS_WORDINGS))
      expect(Object.keys(w).sort()).toEqual(['government', 'hobbies', 'news', 'religion', 'romance']);
  });
});
