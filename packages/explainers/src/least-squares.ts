/**
 * Solves the symmetric positive semi-definite system A x = b (n×n) by Cholesky, treating a column whose
 * pivot vanishes as linearly dependent (its coefficient is 0) — the least-squares fit scikit-learn's
 * `Ridge(alpha=0)` falls back to (lstsq) for collinear columns gives the same predictions.
 */
export function solvePsd(a: Float64Array, b: Float64Array, n: number): Float64Array {
  const l = new Float64Array(n * n);
  const dead = new Uint8Array(n);
  for (let j = 0; j < n; j++) {
    let s = a[j * n + j];
    for (let p = 0; p < j; p++) s -= l[j * n + p] * l[j * n + p];
    const scale = Math.abs(a[j * n + j]);
    if (!(s > 1e-10 * scale) || scale === 0) {
      dead[j] = 1;
      continue;
    }
    const ljj = Math.sqrt(s);
    l[j * n + j] = ljj;
    for (let i = j + 1; i < n; i++) {
      let t = a[i * n + j];
      for (let p = 0; p < j; p++) t -= l[i * n + p] * l[j * n + p];
      l[i * n + j] = t / ljj;
    }
  }
  const x = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    if (dead[i]) continue;
    let s = b[i];
    for (let p = 0; p < i; p++) s -= l[i * n + p] * x[p];
    x[i] = s / l[i * n + i];
  }
  for (let i = n - 1; i >= 0; i--) {
    if (dead[i]) {
      x[i] = 0;
      continue;
    }
    let s = x[i];
    for (let p = i + 1; p < n; p++) s -= l[p * n + i] * x[p];
    x[i] = s / l[i * n + i];
  }
  return x;
}
