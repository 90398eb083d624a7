import { rng } from '@xtrust/core';
import { expect } from 'vitest';

/** Seeded m×d Float32Array of standard normals. */
export function randomMatrix(seed: number, rows: number, cols: number): Float32Array {
  const r = rng(seed);
  const out = new Float32Array(rows * cols);
  for (let i = 0; i < out.length; i++) out[i] = r.normal();
  return out;
}

/**
 * Equal within 1e-4 relative, with an absolute floor for values that should be 0 (the two sides
 * sum in different orders, so a true 0 comes out as ±1e-9 on one side).
 */
export function expectClose(
  actual: ArrayLike<number>,
  expected: ArrayLike<number>,
  rel = 1e-4,
  abs = 1e-6,
  what = 'value',
): void {
  expect(actual.length, `${what}: length`).toBe(expected.length);
  for (let i = 0; i < expected.length; i++) {
    const a = actual[i];
    const e = expected[i];
    if (Number.isNaN(e)) {
      expect(Number.isNaN(a), `${what}[${i}] should be NaN`).toBe(true);
      continue;
    }
    const tol = rel * Math.max(Math.abs(a), Math.abs(e)) + abs;
    if (!(Math.abs(a - e) <= tol)) expect.fail(`${what}[${i}]: ${a} vs expected ${e} (tolerance ${tol})`);
  }
}

/** Euclidean distance matrix (n×n Float32Array) of the rows of x (n×d). */
export function euclideanDistances(x: Float32Array, n: number, d: number): Float32Array {
  const out = new Float32Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      let s = 0;
      for (let p = 0; p < d; p++) s += (x[i * d + p] - x[j * d + p]) ** 2;
      out[i * n + j] = out[j * n + i] = Math.sqrt(s);
    }
  }
  return out;
}

/** True when two labelings are the same partition (labels may be numbered differently). */
export function samePartition(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  if (a.length !== b.length) return false;
  const ab = new Map<number, number>();
  const ba = new Map<number, number>();
  for (let i = 0; i < a.length; i++) {
    const x = ab.get(a[i]);
    const y = ba.get(b[i]);
    if (x === undefined && y === undefined) {
      ab.set(a[i], b[i]);
      ba.set(b[i], a[i]);
    } else if (x !== b[i] || y !== a[i]) {
      return false;
    }
  }
  return true;
}
