import { describe, expect, it } from 'vitest';
import {
  footrule,
  jaccard,
  kendall,
  rbo,
  standardMeasures,
  weightedFootrule,
  weightedJaccard,
  weightedKendall,
  weightedRbo,
  type Syn,
} from '../src/index.js';

/**
 * Table 1 of 001_3eb24fee3e674c02.txt (repeated as Table 1 of 004_87dc91cae9faa268.txt): an adversarial
 * example of the Symptoms-to-Diagnosis data set. Perturbation: really → real, sick → sickly,
 * worried → alarmed. Printed standard row: 0.40 0 0.35 0.40 0.48 0.54.
 */
const A = ['rash', 'body', 'worried', 'really', 'sick', 'feeling', 'over'];
const B = ['body', 'rash', 'alarmed', 'feeling', 'sickly', 'over', 'real'];
const M = new Map([
  ['worried', 'alarmed'],
  ['really', 'real'],
  ['sick', 'sickly'],
]);

const round2 = (x: number) => Math.round(x * 100) / 100;

describe('Table 1, standard row', () => {
  it('Jaccard 0.40: |{rash, body, feeling, over}| / 10', () => {
    expect(jaccard(A, B)).toBe(0.4);
  });
  it('Kendall 0: all seven positions dissonant', () => {
    expect(kendall(A, B)).toBe(0);
  });
  it('Spearman 0.35: F = 5 + 3 · 3.5 = 15.5 over ⌊49/2⌋ = 24', () => {
    expect(footrule(A, B)).toBeCloseTo(1 - 15.5 / 24, 12);
    expect(round2(footrule(A, B))).toBe(0.35);
  });
  it('RBO_EXT 0.7 → 0.48 and 0.9 → 0.54 to two decimals', () => {
    expect(round2(rbo(A, B, 0.7))).toBe(0.48);
    expect(round2(rbo(A, B, 0.9))).toBe(0.54);
    expect(rbo(A, B, 0.7)).toBeCloseTo(0.4807005, 7);
    expect(rbo(A, B, 0.9)).toBeCloseTo(0.5398990714, 9);
  });
  it('RBO_EXT 0.5 = 0.3938 (printed 0.40): the one printed value RBO_EXT, RBO truncated and the authors\u2019 code all miss', () => {
    // X_d = 0, 2, 2, 2, 2, 3, 4 → 0.5·(0.5 + 1/6 + 1/16 + 1/40 + 1/64 + 1/112) + (4/7)/128
    const exact = 0.5 * (0.5 + 1 / 6 + 1 / 16 + 1 / 40 + 1 / 64 + 1 / 112) + 4 / 7 / 128;
    expect(rbo(A, B, 0.5)).toBeCloseTo(exact, 12);
    expect(Math.abs(rbo(A, B, 0.5) - 0.4)).toBeLessThan(0.0065);
  });
  it('the measure set used for success rates gives the same row', () => {
    const row = Object.values(standardMeasures()).map((m) => round2(m({ original: A, perturbed: B })));
    expect(row).toEqual([0.4, 0, 0.35, 0.39, 0.48, 0.54]);
  });
});

describe('Table 1, weighted row (Syn values are not printed in the paper)', () => {
  // The paper's GloVe-Twitter Syn values are not given. Values inferred from the printed weighted
  // Jaccard (0.64) and Kendall (0.23): Syn(worried, alarmed) + Syn(sick, sickly) ≈ 1.61 and
  // Syn(really, real) ≈ 0.79. These two measures are then mutually consistent.
  const syn: Syn = (a, b) =>
    a === b ? 1 : (({ worried: 0.8, sick: 0.81, really: 0.79 } as Record<string, number>)[a] ?? 0);

  it('Jaccard 0.64 = (4 + 2.4) / 10 with Eq. 3 (union denominator)', () => {
    expect(weightedJaccard(A, B, M, syn)).toBeCloseTo(0.64, 12);
  });
  it('Kendall 0.23 = 1 − (5 + 0.2 + 0.19) / 7 (only same-rank mapped pairs weighted)', () => {
    expect(round2(weightedKendall(A, B, M, syn))).toBe(0.23);
  });
  it('Spearman with the same Syn: 1 − (5 + 3/0.79) / 24 = 0.63 (printed 0.59 needs Syn(really, real) ≈ 0.62)', () => {
    expect(weightedFootrule(A, B, M, syn)).toBeCloseTo(1 - (5 + 3 / 0.79) / 24, 12);
  });
  it('weighted RBO0.5 cannot reach the printed 0.88: even Syn ≡ 1 gives 0.476, since A[1] ≠ B[1] and nothing maps them', () => {
    const one: Syn = () => 1;
    expect(weightedRbo(A, B, M, one, 0.5)).toBeCloseTo(0.4755208333, 9);
    expect(weightedRbo(A, B, M, one, 0.5)).toBeLessThan(0.88);
    expect(weightedRbo(A, B, M, syn, 0.5)).toBeGreaterThan(rbo(A, B, 0.5));
  });
});
