import { describe, expect, it } from 'vitest';
import { isXtrustError, type SentenceEncoder } from '@xtrust/core';
import {
  attackSuccessRate,
  averagePerturbedWords,
  countPerturbedWords,
  meanSentenceCosine,
  summarizeAttacks,
  type AttackOutcome,
} from '../src/index.js';

/** Bag-of-letters encoder: a text's vector counts the letters a and b. */
const letters: SentenceEncoder = {
  name: 'letters',
  dim: 2,
  encode: async (ts) =>
    Float32Array.from(
      ts.flatMap((t) => [[...t].filter((c) => c === 'a').length, [...t].filter((c) => c === 'b').length]),
    ),
};
const constant: SentenceEncoder = {
  name: 'constant',
  dim: 1,
  encode: async (ts) => new Float32Array(ts.length).fill(1),
};

const outcomes: AttackOutcome[] = [
  { original: 'the film is good', adversarial: 'the movie is good', success: true }, // 1 word
  { original: 'a b c d', adversarial: 'a x c y', success: true }, // 2 words
  { original: 'never mind', adversarial: null, success: false },
  { original: 'one two', adversarial: 'one three', success: false, perturbedWords: 1 },
];

describe('attack metrics (000 §6.3, Table 4)', () => {
  it('success rate = successful / total', () => {
    expect(attackSuccessRate(outcomes)).toBe(0.5);
  });
  it('counts perturbed words: position-wise for substitutions, Levenshtein otherwise', () => {
    expect(countPerturbedWords('the film is good', 'the movie is good')).toBe(1);
    expect(countPerturbedWords('the film, is good!', 'the film is good')).toBe(0); // punctuation is not a word
    expect(countPerturbedWords('a b c', 'a c')).toBe(1); // one deletion
    expect(countPerturbedWords('a b c', 'x a b c')).toBe(1); // one insertion
    expect(countPerturbedWords('Good', 'good')).toBe(1);
    expect(countPerturbedWords('Good', 'good', { lowercase: true })).toBe(0);
  });
  it('average perturbed words over successful attacks (default) or all; null when nothing to average', () => {
    expect(averagePerturbedWords(outcomes)).toBe(1.5);
    expect(averagePerturbedWords(outcomes, { over: 'all' })).toBe(1); // (1 + 2 + 0 + 1) / 4
    expect(averagePerturbedWords([{ original: 'x', success: false }])).toBeNull();
  });
  it('mean cosine between originals and adversarials under an encoder', async () => {
    // "ab" vs "aab": (1,1)·(2,1) / (√2·√5); "a" vs "b": 0
    const c = await meanSentenceCosine(letters, ['ab', 'a'], ['aab', 'b']);
    expect(c).toBeCloseTo((3 / Math.sqrt(10) + 0) / 2, 6);
    await expect(meanSentenceCosine(letters, [], [])).rejects.toSatisfy((e) => isXtrustError(e, 'INVALID_ARGUMENT'));
  });
  it('summarises one row of Table 4', async () => {
    const s = await summarizeAttacks(outcomes, [constant, letters]);
    expect(s.total).toBe(4);
    expect(s.successful).toBe(2);
    expect(s.successRate).toBe(0.5);
    expect(s.averagePerturbedWords).toBe(1.5);
    expect(s.cosine.constant).toBeCloseTo(1, 12);
    // "the film is good" (0 a, 0 b) is a zero vector: cosine 0; "a b c d" vs "a x c y": (1,1)·(1,0) / √2
    expect(s.cosine.letters).toBeCloseTo((0 + Math.SQRT1_2) / 2, 6);
    const none = await summarizeAttacks([{ original: 'x', success: false }], [letters]);
    expect(none.cosine.letters).toBeNull();
    expect(none.averagePerturbedWords).toBeNull();
  });
  it('validates outcomes', () => {
    const bad: unknown[] = [
      [],
      [{ original: 'x', success: true }],
      [{ original: 'x', success: 'yes' }],
      [{ original: 'x', success: false, perturbedWords: -1 }],
    ];
    for (const b of bad) {
      let caught: unknown;
      try {
        attackSuccessRate(b as AttackOutcome[]);
      } catch (e) {
        caught = e;
      }
      expect(isXtrustError(caught, 'INVALID_ARGUMENT')).toBe(true);
    }
  });
});
