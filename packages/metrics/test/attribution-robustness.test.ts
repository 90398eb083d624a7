import { describe, expect, it } from 'vitest';
import { isXtrustError, type SentenceEncoder } from '@xtrust/core';
import {
  attributionDistance,
  attributionVector,
  aucR,
  meanRobustness,
  pairCosines,
  pearson,
  perplexityDistance,
  perplexityDistances,
  robustnessRatio,
  sampleRobustness,
  semanticDistance,
  sentenceDistances,
} from '../src/index.js';
import { code } from './error-code.js';

/** A 2-d "encoder": a text's vector is looked up in a table. */
function tableEncoder(table: Record<string, number[]>): SentenceEncoder {
  return { name: 'table', dim: 2, encode: async (ts) => Float32Array.from(ts.flatMap((t) => table[t])) };
}

describe('PCC and attribution distance (002 §4.2)', () => {
  it('hand-computed correlations', () => {
    expect(pearson([1, 2, 3], [2, 4, 6])).toBeCloseTo(1, 12);
    expect(pearson([1, 2, 3], [3, 2, 1])).toBeCloseTo(-1, 12);
    expect(pearson([1, 2, 3, 4], [1, 3, 2, 4])).toBeCloseTo(0.8, 12); // sxy = 4, sxx = syy = 5
    expect(pearson(Float32Array.of(1, 2, 3, 4), Float64Array.of(1, 3, 2, 4))).toBeCloseTo(0.8, 6);
    expect(pearson([1e-13, 2e-13, 3e-13], [2e-13, 4e-13, 7e-13])).toBeGreaterThan(0.98); // tiny scales are not "flat"
  });
  it('zero variance: both flat → 1, one flat → 0 (or options.flat), never NaN', () => {
    expect(pearson([0, 0, 0], [0, 0, 0])).toBe(1);
    expect(pearson([0.1, 0.1, 0.1], [0.3, 0.3, 0.3])).toBe(1);
    expect(pearson([1, 1, 1], [1, 2, 3])).toBe(0);
    expect(pearson([1, 2, 3], [5, 5, 5], { flat: -1 })).toBe(-1);
    expect(pearson([7], [3])).toBe(1);
    expect(attributionDistance([1, 1, 1], [1, 2, 3])).toBe(0.5);
  });
  it('d = 1 − (1 + PCC) / 2', () => {
    expect(attributionDistance([1, 2, 3, 4], [1, 3, 2, 4])).toBeCloseTo(0.1, 12);
    expect(attributionDistance([1, 2, 3], [3, 2, 1])).toBeCloseTo(1, 12);
    expect(attributionDistance([1, 2, 3], [10, 20, 30])).toBeCloseTo(0, 12);
  });
  it('validates lengths and values', () => {
    expect(code(() => pearson([1, 2], [1, 2, 3]))).toBe('DIMENSION_MISMATCH');
    expect(code(() => pearson([], []))).toBe('INVALID_ARGUMENT');
    expect(code(() => pearson([1, Number.NaN], [1, 2]))).toBe('INVALID_ARGUMENT');
    expect(code(() => pearson([1, 2], [1, 2], { flat: 2 }))).toBe('INVALID_ARGUMENT');
  });
  it('lays a word-level explanation onto token positions', () => {
    const v = attributionVector(
      ['the', 'cat', 'sat', 'the'],
      [
        { word: 'cat', weight: 0.5 },
        { word: 'the', weight: -0.2 },
      ],
    );
    expect(Array.from(v)).toEqual([-0.2, 0.5, 0, -0.2]);
  });
});

describe('input distances (002 Eqs. 5–6)', () => {
  it('Eq. 5: d_s = 1 − (cos + 1) / 2', () => {
    expect(semanticDistance(1)).toBe(0);
    expect(semanticDistance(-1)).toBe(1);
    expect(semanticDistance(0.98)).toBeCloseTo(0.01, 12);
    expect(semanticDistance(0.98, { form: 'one-minus-cosine' })).toBeCloseTo(0.02, 12);
    expect(code(() => semanticDistance(1.5))).toBe('INVALID_ARGUMENT');
  });
  it('sentence distances with one batched encode call', async () => {
    let calls = 0;
    const enc = tableEncoder({ a: [1, 0], b: [1, 1], c: [0, 1], z: [0, 0] });
    const counting: SentenceEncoder = {
      ...enc,
      encode: (ts) => {
        calls++;
        return enc.encode(ts);
      },
    };
    const d = await sentenceDistances(counting, ['a', 'a', 'a'], ['b', 'c', 'z']);
    expect(calls).toBe(1);
    expect(d[0]).toBeCloseTo(1 - (Math.SQRT1_2 + 1) / 2, 6);
    expect(d[1]).toBeCloseTo(0.5, 12);
    expect(d[2]).toBeCloseTo(0.5, 12); // zero embedding: cosine 0
  });
  it('a wrong-sized or NaN encoder output is BAD_MODEL_OUTPUT', async () => {
    const short: SentenceEncoder = { name: 's', dim: 2, encode: async () => new Float32Array(3) };
    await expect(pairCosines(short, ['a'], ['b'])).rejects.toSatisfy((e) => isXtrustError(e, 'BAD_MODEL_OUTPUT'));
    const nan: SentenceEncoder = { name: 'n', dim: 1, encode: async () => Float32Array.of(1, Number.NaN) };
    await expect(pairCosines(nan, ['a'], ['b'])).rejects.toSatisfy((e) => isXtrustError(e, 'BAD_MODEL_OUTPUT'));
    await expect(pairCosines(short, ['a'], [])).rejects.toSatisfy((e) => isXtrustError(e, 'DIMENSION_MISMATCH'));
  });
  it('Eq. 6: relative perplexity increase', async () => {
    expect(perplexityDistance(30, 20)).toBeCloseTo(0.5, 8);
    expect(perplexityDistance(10, 20)).toBeCloseTo(-0.5, 8);
    expect(perplexityDistance(30, 20, 0)).toBe(0.5);
    expect(code(() => perplexityDistance(0, 20))).toBe('INVALID_ARGUMENT');
    const pp = async (ts: readonly string[]) => ts.map((t) => t.length * 10);
    const d = await perplexityDistances(pp, ['ab', 'abcd'], ['abc', 'ab'], 0);
    expect(Array.from(d)).toEqual([0.5, -0.5]);
    await expect(perplexityDistances(async () => [1], ['a'], ['b'])).rejects.toSatisfy((e) =>
      isXtrustError(e, 'BAD_MODEL_OUTPUT'),
    );
  });
});

describe('robustness constant r and AUC_r (002 Eqs. 2, 4, §5)', () => {
  it('r(s) is the largest ratio over the perturbed samples; r(A, F) the mean', () => {
    expect(robustnessRatio(0.5, 0.01)).toBeCloseTo(50, 12);
    expect(sampleRobustness([0.2, 0.5], [0.1, 0.5])).toBeCloseTo(2, 12);
    expect(meanRobustness([1, 2, 3])).toBe(2);
    expect(code(() => robustnessRatio(0.5, 0))).toBe('INVALID_ARGUMENT');
    expect(code(() => meanRobustness([]))).toBe('INVALID_ARGUMENT');
  });
  it('AUC_r by the trapezoid rule, in any point order', () => {
    expect(aucR([0, 0.1, 0.2], [0, 10, 20])).toBeCloseTo(2, 12);
    expect(aucR([0.2, 0, 0.1], [20, 0, 10])).toBeCloseTo(2, 12);
    expect(aucR([0.1, 0.4], [3, 3])).toBeCloseTo(0.9, 12);
    expect(code(() => aucR([0.1], [3]))).toBe('INVALID_ARGUMENT');
    expect(code(() => aucR([0.1, 0.2], [3]))).toBe('DIMENSION_MISMATCH');
  });
  it("Figure 1's printed r values match d_s = 1 − cos, not Eq. 5 (which halves d_s and doubles r)", () => {
    // [PCC, SemS, r, decimals of SemS] as printed for the three CEA and three TEF examples
    const rows: Array<[number, number, number, number]> = [
      [0.02, 0.97, 14.9, 2],
      [-0.05, 0.98, 30, 2],
      [0.27, 0.98, 20, 2],
      [0.22, 0.9, 3.4, 1],
      [0.6, 0.8, 1.1, 1],
      [0.28, 0.91, 4, 2],
    ];
    for (const [pcc, sem, r, dec] of rows) {
      const h = 0.5 * 10 ** -dec;
      const range = (form: 'eq5' | 'one-minus-cosine') => {
        const dAttr = [1 - (1 + pcc + 0.005) / 2, 1 - (1 + pcc - 0.005) / 2];
        const ds = [semanticDistance(Math.min(1, sem + h), { form }), semanticDistance(sem - h, { form })];
        return [robustnessRatio(dAttr[0], ds[1]), robustnessRatio(dAttr[1], ds[0])];
      };
      const [lo1, hi1] = range('one-minus-cosine');
      expect(r).toBeGreaterThanOrEqual(lo1);
      expect(r).toBeLessThanOrEqual(hi1);
      const [lo5, hi5] = range('eq5');
      expect(r < lo5 || r > hi5).toBe(true);
    }
  });
});
