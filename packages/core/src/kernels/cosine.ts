import { requireFinite, requireFloat32, requirePositiveInt, rowsOf } from './validate.js';

/**
 * Unit-length copies of the rows of a row-major matrix (norms in double precision). A zero row stays
 * zero, so every cosine involving it is 0, never NaN.
 */
export function normalizeRows(a: Float32Array, dim: number): Float32Array {
  const out = new Float32Array(a.length);
  for (let r = 0; r < a.length; r += dim) {
    let s = 0;
    for (let d = 0; d < dim; d++) s += a[r + d] * a[r + d];
    if (s === 0) continue;
    const inv = 1 / Math.sqrt(s);
    for (let d = 0; d < dim; d++) out[r + d] = a[r + d] * inv;
  }
  return out;
}

/**
 * Checks of `cosineMatrix(a, b, dim)`; returns [m, n]. `scanValues: false` leaves the NaN/∞ scan to
 * the caller (the native kernels do it in their first pass).
 */
export function checkCosineArgs(a: unknown, b: unknown, dim: unknown, scanValues = true): [number, number] {
  requireFloat32('a', a);
  requireFloat32('b', b);
  requirePositiveInt('dim', dim);
  const m = rowsOf('a', a, dim);
  const n = rowsOf('b', b, dim);
  if (scanValues) {
    requireFinite('a', a);
    if (b !== a) requireFinite('b', b);
  }
  return [m, n];
}

/**
 * TS twin of the native `cosineMatrix`: cosine similarities of every row of `a` (m×dim) with every
 * row of `b` (n×dim), as a row-major m×n Float32Array. Zero vectors have similarity 0 with anything.
 */
export function cosineMatrixTs(a: Float32Array, b: Float32Array, dim: number): Float32Array {
  const [m, n] = checkCosineArgs(a, b, dim);
  const na = normalizeRows(a, dim);
  const nb = b === a ? na : normalizeRows(b, dim);
  const out = new Float32Array(m * n);
  // Blocks of b's rows stay in cache while every row of a passes over them.
  const block = 256;
  for (let j0 = 0; j0 < n; j0 += block) {
    const j1 = Math.min(n, j0 + block);
    for (let i = 0; i < m; i++) {
      const ai = i * dim;
      const oi = i * n;
      for (let j = j0; j < j1; j++) {
        const bj = j * dim;
        let s = 0;
        for (let d = 0; d < dim; d++) s += na[ai + d] * nb[bj + d];
        out[oi + j] = s;
      }
    }
  }
  return out;
}
