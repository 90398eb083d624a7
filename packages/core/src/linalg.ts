import { XtrustError } from './errors.js';

/** Float32Array or Float64Array: the numeric storage of xtrust's dense math. */
export type FloatArray = Float32Array | Float64Array;

function need(cond: boolean, message: string): void {
  if (!cond) throw new XtrustError('DIMENSION_MISMATCH', message);
}

/**
 * C = A·B for row-major A (m×k) and B (k×n). Writes into `out` (m×n) when given, otherwise into a
 * new array of A's type. i-k-j loop order so the inner loop streams over rows of B and C.
 */
export function matmul<T extends FloatArray>(a: T, b: FloatArray, m: number, k: number, n: number, out?: T): T {
  need(a.length === m * k, `matmul: A has ${a.length} values, expected ${m}×${k}`);
  need(b.length === k * n, `matmul: B has ${b.length} values, expected ${k}×${n}`);
  const c = out ?? new (a.constructor as new (len: number) => T)(m * n);
  need(c.length === m * n, `matmul: out has ${c.length} values, expected ${m}×${n}`);
  c.fill(0);
  for (let i = 0; i < m; i++) {
    const ci = i * n;
    for (let p = 0; p < k; p++) {
      const aip = a[i * k + p];
      if (aip === 0) continue;
      const bp = p * n;
      for (let j = 0; j < n; j++) c[ci + j] += aip * b[bp + j];
    }
  }
  return c;
}

/** C = A·Bᵀ for row-major A (m×k) and B (n×k): dot products of every row of A with every row of B. */
export function matmulTransB<T extends FloatArray>(a: T, b: FloatArray, m: number, k: number, n: number, out?: T): T {
  need(a.length === m * k, `matmulTransB: A has ${a.length} values, expected ${m}×${k}`);
  need(b.length === n * k, `matmulTransB: B has ${b.length} values, expected ${n}×${k}`);
  const c = out ?? new (a.constructor as new (len: number) => T)(m * n);
  for (let i = 0; i < m; i++) {
    for (let j = 0; j < n; j++) {
      let s = 0;
      for (let p = 0; p < k; p++) s += a[i * k + p] * b[j * k + p];
      c[i * n + j] = s;
    }
  }
  return c;
}

/** Dot product of two equally long vectors (accumulated in double). */
export function dot(a: ArrayLike<number>, b: ArrayLike<number>): number {
  need(a.length === b.length, `dot: lengths ${a.length} and ${b.length} differ`);
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

/** Euclidean norm. */
export function norm(a: ArrayLike<number>): number {
  return Math.sqrt(dot(a, a));
}

/**
 * In-place Cholesky factorisation A = L·Lᵀ of a symmetric positive-definite n×n matrix (row-major,
 * double precision); the lower triangle of `a` becomes L, the strict upper triangle is zeroed.
 * Throws INVALID_ARGUMENT when A is not positive definite.
 */
export function cholesky(a: Float64Array, n: number): Float64Array {
  need(a.length === n * n, `cholesky: matrix has ${a.length} values, expected ${n}×${n}`);
  for (let j = 0; j < n; j++) {
    let d = a[j * n + j];
    for (let p = 0; p < j; p++) d -= a[j * n + p] * a[j * n + p];
    if (!(d > 0)) {
      throw new XtrustError('INVALID_ARGUMENT', `cholesky: matrix is not positive definite (pivot ${j} is ${d})`, {
        pivot: j,
      });
    }
    const ljj = Math.sqrt(d);
    a[j * n + j] = ljj;
    for (let i = j + 1; i < n; i++) {
      let s = a[i * n + j];
      for (let p = 0; p < j; p++) s -= a[i * n + p] * a[j * n + p];
      a[i * n + j] = s / ljj;
    }
    for (let i = 0; i < j; i++) a[i * n + j] = 0;
  }
  return a;
}

/**
 * Solves A·x = b for symmetric positive-definite A (n×n) by Cholesky; `b` may hold several
 * right-hand sides as an n×r row-major matrix. A and b are not modified.
 */
export function choleskySolve(a: Float64Array, b: Float64Array, n: number, r = 1): Float64Array {
  need(b.length === n * r, `choleskySolve: right-hand side has ${b.length} values, expected ${n}×${r}`);
  const l = cholesky(Float64Array.from(a), n);
  const x = Float64Array.from(b);
  for (let c = 0; c < r; c++) {
    for (let i = 0; i < n; i++) {
      let s = x[i * r + c];
      for (let p = 0; p < i; p++) s -= l[i * n + p] * x[p * r + c];
      x[i * r + c] = s / l[i * n + i];
    }
    for (let i = n - 1; i >= 0; i--) {
      let s = x[i * r + c];
      for (let p = i + 1; p < n; p++) s -= l[p * n + i] * x[p * r + c];
      x[i * r + c] = s / l[i * n + i];
    }
  }
  return x;
}

/** Numerically stable softmax of each row of an n×k matrix, in place. */
export function softmaxRows<T extends FloatArray>(m: T, n: number, k: number): T {
  for (let r = 0; r < n; r++) {
    let max = -Infinity;
    for (let c = 0; c < k; c++) max = Math.max(max, m[r * k + c]);
    let sum = 0;
    for (let c = 0; c < k; c++) {
      const e = Math.exp(m[r * k + c] - max);
      m[r * k + c] = e;
      sum += e;
    }
    for (let c = 0; c < k; c++) m[r * k + c] /= sum;
  }
  return m;
}
