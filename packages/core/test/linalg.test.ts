import { describe, expect, it } from 'vitest';
import { cholesky, choleskySolve, dot, matmul, matmulTransB, norm, softmaxRows, XtrustError } from '@xtrust/core';

describe('dense linear algebra', () => {
  it('multiplies matrices (hand-computed)', () => {
    const a = Float64Array.from([1, 2, 3, 4, 5, 6]); // 2×3
    const b = Float64Array.from([7, 8, 9, 10, 11, 12]); // 3×2
    expect([...matmul(a, b, 2, 3, 2)]).toEqual([58, 64, 139, 154]);
    const bt = Float32Array.from([7, 9, 11, 8, 10, 12]); // the same B, transposed (2×3)
    expect([...matmulTransB(Float32Array.from(a), bt, 2, 3, 2)]).toEqual([58, 64, 139, 154]);
  });

  it('keeps the array type of A', () => {
    expect(matmul(new Float32Array(4).fill(1), new Float32Array(4).fill(1), 2, 2, 2)).toBeInstanceOf(Float32Array);
  });

  it('rejects mismatched shapes', () => {
    expect(() => matmul(new Float64Array(5), new Float64Array(6), 2, 3, 2)).toThrow(XtrustError);
    expect(() => dot([1, 2], [1])).toThrow(/lengths 2 and 1/);
  });

  it('factorises and solves a positive-definite system (hand-computed)', () => {
    // A = [[4, 2], [2, 3]] = L Lᵀ with L = [[2, 0], [1, √2]]
    const l = cholesky(Float64Array.from([4, 2, 2, 3]), 2);
    expect(l[0]).toBe(2);
    expect(l[1]).toBe(0);
    expect(l[2]).toBe(1);
    expect(l[3]).toBeCloseTo(Math.SQRT2, 12);
    // A x = [10, 11] → x = [2, 1]... check: 4·2+2·1=10, 2·2+3·1=7 — use b = [10, 7]
    const x = choleskySolve(Float64Array.from([4, 2, 2, 3]), Float64Array.from([10, 7]), 2);
    expect(x[0]).toBeCloseTo(2, 12);
    expect(x[1]).toBeCloseTo(1, 12);
  });

  it('solves several right-hand sides at once', () => {
    const a = Float64Array.from([4, 2, 2, 3]);
    const x = choleskySolve(a, Float64Array.from([10, 4, 7, 2]), 2, 2); // columns [10,7] and [4,2]
    expect(x[0]).toBeCloseTo(2, 12);
    expect(x[2]).toBeCloseTo(1, 12);
    expect(x[1]).toBeCloseTo(1, 12); // 4·1 + 2·0 = 4, 2·1 + 3·0 = 2
    expect(x[3]).toBeCloseTo(0, 12);
    expect([...a]).toEqual([4, 2, 2, 3]);
  });

  it('refuses a matrix that is not positive definite', () => {
    expect(() => cholesky(Float64Array.from([1, 2, 2, 1]), 2)).toThrow(/not positive definite/);
  });

  it('computes norms and row softmax', () => {
    expect(norm([3, 4])).toBe(5);
    const m = softmaxRows(Float64Array.from([0, 0, 1000, 1000 + Math.log(3)]), 2, 2);
    expect(m[0]).toBeCloseTo(0.5, 12);
    expect(m[2]).toBeCloseTo(0.25, 12);
    expect(m[3]).toBeCloseTo(0.75, 12);
  });
});
