import { XtrustError, isXtrustError } from '../errors.js';
import { cholesky } from '../linalg.js';
import { describe, requireFinite, requirePositiveInt } from './validate.js';

/**
 * One weighted ridge regression: `x` is rows×cols row-major, either float (Float32Array) or a binary
 * design as LIME makes it (Uint8Array, used as is). `sampleWeight` defaults to ones.
 */
export interface RidgeProblem {
  readonly x: Float32Array | Uint8Array;
  readonly rows: number;
  readonly cols: number;
  readonly y: Float32Array | Float64Array;
  readonly sampleWeight?: Float32Array | Float64Array;
  readonly alpha: number;
}

/** What scikit-learn's `Ridge(alpha, fit_intercept=True).fit(X, y, w)` gives, and what LIME reads from it. */
export interface RidgeFit {
  readonly coef: Float64Array;
  readonly intercept: number;
  /**
   * `score(X, y, w)`: weighted R² as sklearn's r2_score computes it — 1.0 for a perfect fit of a
   * constant y, 0.0 for an imperfect one, NaN for a single row.
   */
  readonly score: number;
  /** `predict(X[0:1])`. */
  readonly firstPrediction: number;
}

/**
 * Checks of `ridgeBatch(problems)`, naming `problems[i].field` in the error. `scanX: false` leaves
 * the NaN/∞ scan of float designs to the caller (the native kernel does it while centring).
 */
export function checkRidgeProblems(problems: unknown, scanX = true): asserts problems is readonly RidgeProblem[] {
  if (!Array.isArray(problems)) {
    throw new XtrustError(
      'INVALID_ARGUMENT',
      `problems must be an array of ridge problems, got ${describe(problems)}`,
      { argument: 'problems' },
    );
  }
  problems.forEach((p: RidgeProblem, i) => {
    const name = `problems[${i}]`;
    if (p === null || typeof p !== 'object')
      throw new XtrustError('INVALID_ARGUMENT', `${name} must be an object`, { argument: name });
    requirePositiveInt(`${name}.rows`, p.rows);
    requirePositiveInt(`${name}.cols`, p.cols);
    if (!(p.x instanceof Float32Array) && !(p.x instanceof Uint8Array)) {
      throw new XtrustError(
        'INVALID_ARGUMENT',
        `${name}.x must be a Float32Array or a binary Uint8Array, got ${describe(p.x)}`,
        { argument: `${name}.x` },
      );
    }
    if (p.x.length !== p.rows * p.cols) {
      throw new XtrustError(
        'DIMENSION_MISMATCH',
        `${name}.x has ${p.x.length} values, expected rows×cols = ${p.rows}×${p.cols}`,
        { argument: `${name}.x` },
      );
    }
    const vec = (field: 'y' | 'sampleWeight', v: unknown): void => {
      if (!(v instanceof Float32Array) && !(v instanceof Float64Array)) {
        throw new XtrustError(
          'INVALID_ARGUMENT',
          `${name}.${field} must be a Float32Array or Float64Array, got ${describe(v)}`,
          { argument: `${name}.${field}` },
        );
      }
      if (v.length !== p.rows) {
        throw new XtrustError(
          'DIMENSION_MISMATCH',
          `${name}.${field} has ${v.length} values, expected rows = ${p.rows}`,
          { argument: `${name}.${field}` },
        );
      }
      requireFinite(`${name}.${field}`, v);
    };
    vec('y', p.y);
    if (p.sampleWeight !== undefined) {
      vec('sampleWeight', p.sampleWeight);
      let sum = 0;
      for (let r = 0; r < p.rows; r++) {
        if (p.sampleWeight[r] < 0)
          throw new XtrustError('INVALID_ARGUMENT', `${name}.sampleWeight[${r}] is negative`, {
            argument: `${name}.sampleWeight`,
          });
        sum += p.sampleWeight[r];
      }
      if (!(sum > 0))
        throw new XtrustError('INVALID_ARGUMENT', `${name}.sampleWeight sums to 0`, {
          argument: `${name}.sampleWeight`,
        });
    }
    if (scanX && p.x instanceof Float32Array) requireFinite(`${name}.x`, p.x);
    if (typeof p.alpha !== 'number' || !(p.alpha >= 0) || !Number.isFinite(p.alpha)) {
      throw new XtrustError('INVALID_ARGUMENT', `${name}.alpha must be a finite number ≥ 0, got ${String(p.alpha)}`, {
        argument: `${name}.alpha`,
      });
    }
  });
}

/** sklearn's r2_score with sample weights (force_finite): 1 − Σw(y−p)² / Σw(y−ȳ)². */
export function weightedR2(num: number, den: number): number {
  if (den !== 0) return 1 - num / den;
  return num === 0 ? 1 : 0;
}

/** Solves the ridge normal equations, in place of `a` (n×n, upper part read) and `b` (n). */
function spdSolve(a: Float64Array, b: Float64Array, n: number, problem: number): void {
  // Mirror the upper triangle so cholesky (which reads the lower one) sees the whole matrix.
  for (let i = 0; i < n; i++) for (let j = 0; j < i; j++) a[i * n + j] = a[j * n + i];
  try {
    cholesky(a, n);
  } catch (e) {
    if (isXtrustError(e)) {
      throw new XtrustError(
        'INVALID_ARGUMENT',
        `problems[${problem}]: the ridge system is singular (alpha = 0 with collinear columns?)`,
        { argument: `problems[${problem}]` },
        { cause: e },
      );
    }
    throw e;
  }
  for (let i = 0; i < n; i++) {
    let s = b[i];
    for (let p = 0; p < i; p++) s -= a[i * n + p] * b[p];
    b[i] = s / a[i * n + i];
  }
  for (let i = n - 1; i >= 0; i--) {
    let s = b[i];
    for (let p = i + 1; p < n; p++) s -= a[p * n + i] * b[p];
    b[i] = s / a[i * n + i];
  }
}

function fitOne(p: RidgeProblem, index: number): RidgeFit {
  const { x, rows: n, cols: d, y, alpha } = p;
  const w = p.sampleWeight;
  let sw = 0;
  let ym = 0;
  const xm = new Float64Array(d);
  for (let r = 0; r < n; r++) {
    const wr = w ? w[r] : 1;
    sw += wr;
    ym += wr * y[r];
    for (let c = 0; c < d; c++) xm[c] += wr * x[r * d + c];
  }
  ym /= sw;
  for (let c = 0; c < d; c++) xm[c] /= sw;
  // Centred rows scaled by √w: the system is then ordinary ridge on (xs, ys).
  const xs = new Float64Array(n * d);
  const ys = new Float64Array(n);
  for (let r = 0; r < n; r++) {
    const s = Math.sqrt(w ? w[r] : 1);
    ys[r] = s * (y[r] - ym);
    for (let c = 0; c < d; c++) xs[r * d + c] = s * (x[r * d + c] - xm[c]);
  }
  const coef = new Float64Array(d);
  if (d <= n) {
    // Primal: (XsᵀXs + αI) β = Xsᵀys.
    const g = new Float64Array(d * d);
    for (let r = 0; r < n; r++) {
      const row = r * d;
      for (let i = 0; i < d; i++) {
        const v = xs[row + i];
        if (v === 0) continue;
        coef[i] += v * ys[r];
        const gi = i * d;
        for (let j = i; j < d; j++) g[gi + j] += v * xs[row + j];
      }
    }
    for (let i = 0; i < d; i++) g[i * d + i] += alpha;
    spdSolve(g, coef, d, index);
  } else {
    // Dual, as sklearn does when features outnumber samples: (XsXsᵀ + αI) a = ys, β = Xsᵀa.
    const k = new Float64Array(n * n);
    for (let i = 0; i < n; i++) {
      for (let j = i; j < n; j++) {
        let s = 0;
        for (let c = 0; c < d; c++) s += xs[i * d + c] * xs[j * d + c];
        k[i * n + j] = s;
      }
      k[i * n + i] += alpha;
    }
    const a = Float64Array.from(ys);
    spdSolve(k, a, n, index);
    for (let r = 0; r < n; r++) for (let c = 0; c < d; c++) coef[c] += xs[r * d + c] * a[r];
  }
  let intercept = ym;
  for (let c = 0; c < d; c++) intercept -= xm[c] * coef[c];
  let num = 0;
  let den = 0;
  let first = 0;
  for (let r = 0; r < n; r++) {
    let pred = intercept;
    for (let c = 0; c < d; c++) pred += x[r * d + c] * coef[c];
    if (r === 0) first = pred;
    const wr = w ? w[r] : 1;
    num += wr * (y[r] - pred) ** 2;
    den += wr * (y[r] - ym) ** 2;
  }
  // sklearn's r2_score is NaN (with a warning) for fewer than two samples.
  return { coef, intercept, score: n < 2 ? NaN : weightedR2(num, den), firstPrediction: first };
}

/**
 * TS twin of the native `ridgeBatch`: for every problem, exactly scikit-learn's
 * `Ridge(alpha, fit_intercept=True).fit(X, y, sample_weight)` (X and y centred by their weighted
 * means, Cholesky in double precision, the dual form when cols > rows), its weighted R² `score`
 * and its prediction for the first row.
 */
export function ridgeBatchTs(problems: readonly RidgeProblem[]): RidgeFit[] {
  checkRidgeProblems(problems);
  return problems.map(fitOne);
}
