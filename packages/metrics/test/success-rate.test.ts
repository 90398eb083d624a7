import { describe, expect, it } from 'vitest';
import { isXtrustError } from '@xtrust/core';
import { standardMeasures, successRate, weightedMeasures, type ExplanationPair } from '../src/index.js';

const pairs: ExplanationPair[] = [
  { original: ['a', 'b', 'c', 'd'], perturbed: ['a', 'b', 'c', 'd'] }, // jaccard 1
  { original: ['a', 'b', 'c', 'd'], perturbed: ['a', 'b', 'c', 'x'], mapping: [['d', 'x']] }, // 3/5 = 0.6
  {
    original: ['a', 'b', 'c', 'd'],
    perturbed: ['a', 'x', 'y', 'z'],
    mapping: [
      ['b', 'x'],
      ['c', 'y'],
      ['d', 'z'],
    ],
  }, // 1/7
  { original: ['a', 'b', 'c', 'd'], perturbed: ['w', 'x', 'y', 'z'] }, // 0
];

describe('successRate (001 §5.2, Table 3)', () => {
  it('is the share of attacks whose similarity is strictly below τ', () => {
    const j = standardMeasures().jaccard;
    expect(successRate(pairs, j, 0.3)).toBe(0.5);
    expect(successRate(pairs, j, 0.6)).toBe(0.5); // 0.6 is not below 0.6
    expect(successRate(pairs, j, 0.61)).toBe(0.75);
    expect(successRate(pairs, j, 0)).toBe(0);
  });
  it('synonymity weighting lowers the success rate (Table 3 Base vs Synw)', () => {
    const w = weightedMeasures(() => 0.9).jaccard; // pair 3: (1 + 2.7)/7 = 0.53
    expect(successRate(pairs, w, 0.5)).toBe(0.25);
    expect(successRate(pairs, standardMeasures().jaccard, 0.5)).toBe(0.5);
  });
  it('validates its inputs', () => {
    const j = standardMeasures().jaccard;
    for (const bad of [
      () => successRate([], j, 0.5),
      () => successRate(pairs, j, Number.NaN),
      () => successRate(pairs, () => Number.NaN, 0.5),
    ]) {
      expect(() => bad()).toThrow();
      try {
        bad();
      } catch (e) {
        expect(isXtrustError(e, 'INVALID_ARGUMENT')).toBe(true);
      }
    }
  });
});

describe('successRateTable (001 Table 3 layout)', () => {
  it('rates per measure and τ, each pair measured once per measure', async () => {
    const { successRateTable } = await import('../src/index.js');
    let calls = 0;
    const j = standardMeasures().jaccard;
    const t = successRateTable(pairs, {
      jaccard: (q: ExplanationPair) => {
        calls++;
        return j(q);
      },
      kendall: standardMeasures().kendall,
    });
    expect(t.jaccard).toEqual([0.5, 0.5, 0.5, 0.5]); // 1, 0.6, 1/7, 0 against τ = 0.3 … 0.6
    expect(calls).toBe(4);
    expect(t.kendall).toEqual([0.5, 0.5, 0.5, 0.5]); // 1, 0.75, 0.25, 0
    expect(successRateTable(pairs, { j }, [0.65]).j).toEqual([0.75]);
  });
});
