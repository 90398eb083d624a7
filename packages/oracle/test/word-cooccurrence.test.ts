import { describe, expect, it } from 'vitest';
import { WordCooccurrence, groupedWeights } from '../src/index.js';

const TEXTS = [
  'best regards from ann',
  'best regards from bob',
  'Best Regards, carl',
  'the best of times',
  'kind regards',
  'ann and bob',
  'bob and carl',
];

describe('WordCooccurrence', () => {
  const co = WordCooccurrence.fromTexts(TEXTS, ['best', 'regards', 'ann', 'bob', 'carl', 'from', 'kind'], {
    minJaccard: 0.5,
    minTexts: 2,
  });

  it('keeps the pairs whose text sets overlap by at least minJaccard (hand-counted)', () => {
    // best: texts 0,1,2,3; regards: 0,1,2,4 → 3 / 5 = 0.6 ≥ 0.5
    // from: 0,1 → with best 2/4 = 0.5, with regards 2/4 = 0.5; bob: 1,5,6 → with from 1/4
    // kind occurs once: below minTexts, never grouped
    expect(co.words).toEqual(['ann', 'best', 'bob', 'carl', 'from', 'regards']);
    expect(co.size).toBe(3);
    expect(co.groups(['regards', 'bob', 'Best', 'kind'])).toEqual([[0, 2], [1], [3]]);
    // from links best and regards transitively
    expect(co.groups(['from', 'carl', 'best'])).toEqual([[0, 2], [1]]);
  });

  it('round-trips through JSON and refuses bad settings or pairs', () => {
    const back = WordCooccurrence.fromJSON(JSON.parse(JSON.stringify(co.toJSON())));
    expect(back.groups(['regards', 'bob', 'best'])).toEqual(co.groups(['regards', 'bob', 'best']));
    expect(() => WordCooccurrence.fromTexts(TEXTS, ['best'], { minJaccard: 0, minTexts: 2 })).toThrow(/minJaccard/);
    expect(() => WordCooccurrence.fromTexts(TEXTS, ['best'], { minJaccard: 0.5, minTexts: 0 })).toThrow(/minTexts/);
    expect(() => WordCooccurrence.fromJSON({ ...co.toJSON(), pairs: [0, 99] })).toThrow(/pairs/);
  });

  it('the verdict weighs a group of unrelated words as one reason, each other word alone', () => {
    const fs = [
      { word: 'best', weight: 0.2 },
      { word: 'bob', weight: 0.25 },
      { word: 'regards', weight: 0.15 },
    ];
    expect(groupedWeights(fs, null).map((g) => g.weight)).toEqual([0.2, 0.25, 0.15]);
    const g = groupedWeights(fs, co).map((x) => x.weight);
    expect(g).toHaveLength(2);
    expect(g[0]).toBeCloseTo(0.35, 12);
    expect(g[1]).toBe(0.25);
    // each reason names its words, so a verdict can say which group decided it
    expect(groupedWeights(fs, co).map((x) => x.words)).toEqual([['best', 'regards'], ['bob']]);
  });
});
