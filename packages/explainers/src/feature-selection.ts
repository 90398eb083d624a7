import { XtrustError } from '@xtrust/core';
import { solvePsd } from './least-squares.js';

/** Feature selection methods of the reference `LimeBase.feature_selection`. */
export type FeatureSelection = 'auto' | 'none' | 'forward_selection' | 'highest_weights' | 'lasso_path';
export const FEATURE_SELECTIONS: readonly FeatureSelection[] = [
  'auto',
  'none',
  'forward_selection',
  'highest_weights',
  'lasso_path',
];

/** `auto` as the reference resolves it: forward selection for at most 6 features, highest weights otherwise. */
export function resolveFeatureSelection(
  method: FeatureSelection,
  numFeatures: number,
): Exclude<FeatureSelection, 'auto'> {
  if (!FEATURE_SELECTIONS.includes(method)) {
    throw new XtrustError(
      'INVALID_ARGUMENT',
      `featureSelection must be one of ${FEATURE_SELECTIONS.join(', ')}, got ${String(method)}`,
      { argument: 'featureSelection' },
    );
  }
  if (method !== 'auto') return method;
  return numFeatures <= 6 ? 'forward_selection' : 'highest_weights';
}

/**
 * The weighted, centred second moments of a binary design: with w the sample weights, m the weighted
 * column means, G = Σ_r w_r (x_r − m)(x_r − m)ᵀ (d×d, full). Binary rows make it O(rows · kept²).
 */
export interface WeightedGram {
  readonly d: number;
  readonly gram: Float64Array;
  readonly mean: Float64Array;
  readonly sumWeights: number;
}

export function weightedGram(data: Uint8Array, rows: number, d: number, weights: Float64Array): WeightedGram {
  return new WeightedMoments(d, 0).add(data, rows, weights, []).gram();
}

/**
 * Raw weighted moments of a binary design that grows by rows — Σw, Σw·x, Σw·x·xᵀ and, per target column
 * y, Σw·y, Σw·y², Σw·x·y — from which the centred Gram matrix and cross-moments of all rows added so far
 * come in O(d²) (`gram`, `cross`). Adding r rows costs O(r · min(kept, removed)²), so a neighbourhood scored in rounds
 * (LIME's adaptive sample count) re-selects its features after each round without going over the earlier
 * rows again.
 */
export class WeightedMoments {
  private readonly raw: Float64Array;
  private readonly sx: Float64Array;
  private sw = 0;
  private readonly sy: Float64Array;
  private readonly syy: Float64Array;
  private readonly sxy: Float64Array[];
  /** Σw·e over the rows added through their removed words (e = 1 − x), and their Σw. */
  private readonly se: Float64Array;
  private swRemoved = 0;
  private readonly kept: Int32Array;
  private readonly removed: Int32Array;

  /** `d` columns, `targets` target columns (0 when only the Gram matrix is wanted). */
  constructor(
    readonly d: number,
    readonly targets: number,
  ) {
    this.raw = new Float64Array(d * d);
    this.sx = new Float64Array(d);
    this.sy = new Float64Array(targets);
    this.syy = new Float64Array(targets);
    this.sxy = Array.from({ length: targets }, () => new Float64Array(d));
    this.se = new Float64Array(d);
    this.kept = new Int32Array(d);
    this.removed = new Int32Array(d);
  }

  /** Adds `rows` rows (rows×d binary `data`, their `weights`, and each target's values for those rows). */
  add(data: Uint8Array, rows: number, weights: ArrayLike<number>, ys: readonly ArrayLike<number>[]): this {
    const { d, raw, sx, se, kept, removed } = this;
    for (let r = 0; r < rows; r++) {
      const w = weights[r];
      this.sw += w;
      const base = r * d;
      let nk = 0;
      let nr = 0;
      for (let c = 0; c < d; c++) {
        if (data[base + c] !== 0) {
          kept[nk++] = c;
          sx[c] += w;
        } else removed[nr++] = c;
      }
      // x xᵀ = 11ᵀ − 1eᵀ − e1ᵀ + e eᵀ for the removed words' indicator e = 1 − x: a row with more kept
      // than removed words adds w·e eᵀ to `raw` and w·e to `se` (gram() adds back the rest), so a row
      // costs min(kept, removed)² — a quarter of kept² on average under LIME's uniform removal count.
      const useRemoved = nr < nk;
      const idx = useRemoved ? removed : kept;
      const n = useRemoved ? nr : nk;
      if (useRemoved) {
        this.swRemoved += w;
        for (let a = 0; a < nr; a++) se[removed[a]] += w;
      }
      for (let a = 0; a < n; a++) {
        const gi = idx[a] * d;
        for (let b = a; b < n; b++) raw[gi + idx[b]] += w;
      }
      for (let t = 0; t < this.targets; t++) {
        const wy = w * ys[t][r];
        this.sy[t] += wy;
        this.syy[t] += wy * ys[t][r];
        const sxy = this.sxy[t];
        for (let a = 0; a < nk; a++) sxy[kept[a]] += wy;
      }
    }
    return this;
  }

  /** The centred Gram matrix of the rows added so far: G = Σ w (x − m)(x − m)ᵀ = Σ w x xᵀ − Σw · m mᵀ. */
  gram(): WeightedGram {
    const { d, raw, sw, se, swRemoved } = this;
    const gram = new Float64Array(d * d);
    const mean = new Float64Array(d);
    for (let i = 0; i < d; i++) mean[i] = this.sx[i] / sw;
    for (let i = 0; i < d; i++) {
      for (let j = i; j < d; j++) {
        // Σ w x xᵀ: the kept-word rows' part in raw, plus the removed-word rows' Σw (11ᵀ − 1eᵀ − e1ᵀ + e eᵀ)
        const v = raw[i * d + j] + swRemoved - se[i] - se[j] - sw * mean[i] * mean[j];
        gram[i * d + j] = v;
        gram[j * d + i] = v;
      }
    }
    return { d, gram, mean, sumWeights: sw };
  }

  /** Target `t`'s centred cross-moments, as `weightedCross` returns them: b = Σ w x (y − ȳ), yy = Σ w (y − ȳ)². */
  cross(t: number): { b: Float64Array; yy: number } {
    const ym = this.sy[t] / this.sw;
    const b = new Float64Array(this.d);
    for (let c = 0; c < this.d; c++) b[c] = this.sxy[t][c] - this.sx[c] * ym;
    return { b, yy: Math.max(0, this.syy[t] - this.sw * ym * ym) };
  }
}

/** Weighted centred cross-moments with a target: b = Σ w (x − m)(y − ȳ), and yy = Σ w (y − ȳ)². */
export function weightedCross(
  data: Uint8Array,
  rows: number,
  g: WeightedGram,
  weights: Float64Array,
  y: ArrayLike<number>,
): { b: Float64Array; yy: number } {
  const d = g.d;
  let ym = 0;
  for (let r = 0; r < rows; r++) ym += weights[r] * y[r];
  ym /= g.sumWeights;
  const b = new Float64Array(d);
  let yy = 0;
  for (let r = 0; r < rows; r++) {
    const wy = weights[r] * (y[r] - ym);
    yy += wy * (y[r] - ym);
    const base = r * d;
    for (let c = 0; c < d; c++) if (data[base + c] !== 0) b[c] += wy;
  }
  // Σ w (x − m)(y − ȳ) = Σ w x (y − ȳ) since Σ w (y − ȳ) = 0.
  return { b, yy };
}

/**
 * The reference `LimeBase.forward_selection`: greedily add the feature whose unregularised weighted
 * least-squares fit (with intercept) on the features chosen so far plus it has the highest weighted
 * R², `numFeatures` times (ties: the lowest index, as the reference's strict `>`). Works on the
 * centred Gram matrix, so each candidate costs O(s³) for s chosen features instead of a refit on all rows.
 */
export function forwardSelection(g: WeightedGram, b: Float64Array, yy: number, numFeatures: number): Int32Array {
  const d = g.d;
  const steps = Math.min(numFeatures, d);
  const used: number[] = [];
  const isUsed = new Uint8Array(d);
  for (let step = 0; step < steps; step++) {
    const s = used.length + 1;
    const a = new Float64Array(s * s);
    const rhs = new Float64Array(s);
    for (let i = 0; i < s - 1; i++) {
      for (let j = 0; j < s - 1; j++) a[i * s + j] = g.gram[used[i] * d + used[j]];
      rhs[i] = b[used[i]];
    }
    let best = 0;
    let max = -100000000;
    for (let f = 0; f < d; f++) {
      if (isUsed[f]) continue;
      for (let i = 0; i < s - 1; i++) {
        a[i * s + s - 1] = g.gram[used[i] * d + f];
        a[(s - 1) * s + i] = g.gram[f * d + used[i]];
      }
      a[(s - 1) * s + s - 1] = g.gram[f * d + f];
      rhs[s - 1] = b[f];
      const beta = solvePsd(a, rhs, s);
      let explained = 0;
      for (let i = 0; i < s; i++) explained += beta[i] * rhs[i];
      const sse = Math.max(0, yy - explained);
      const score = yy !== 0 ? 1 - sse / yy : sse === 0 ? 1 : 0;
      if (score > max) {
        max = score;
        best = f;
      }
    }
    used.push(best);
    isUsed[best] = 1;
  }
  return Int32Array.from(used);
}

/**
 * The reference's `highest_weights`: the `numFeatures` features with the largest |coef| of a ridge fit
 * (alpha 0.01) on all features, times the unperturbed row (all ones); ties keep index order.
 */
export function highestWeights(coef: ArrayLike<number>, numFeatures: number): Int32Array {
  const idx = Array.from({ length: coef.length }, (_, i) => i);
  idx.sort((a, b) => Math.abs(coef[b]) - Math.abs(coef[a]) || a - b);
  return Int32Array.from(idx.slice(0, Math.min(numFeatures, coef.length)));
}

/**
 * The reference's `lasso_path` selection: the LARS-lasso path (Efron, Hastie, Johnstone & Tibshirani,
 * 2004, "Least Angle Regression", with the lasso modification; scikit-learn's `lars_path(method='lasso')`)
 * of the weighted, centred data, walked back from its least regularised end to the last step with at
 * most `numFeatures` non-zero coefficients; those features, in index order. Computed in Gram form:
 * G = XᵀX and b = Xᵀy of the weighted centred data are all it needs.
 */
export function lassoPathSelection(g: WeightedGram, b: Float64Array, numFeatures: number): Int32Array {
  const d = g.d;
  const G = g.gram;
  const beta = new Float64Array(d);
  const inActive = new Uint8Array(d);
  const active: number[] = [];
  const signs: number[] = [];
  let c0 = 0;
  for (let j = 0; j < d; j++) c0 = Math.max(c0, Math.abs(b[j]));
  const all = () => Int32Array.from({ length: d }, (_, i) => i);
  if (!(c0 > 0)) return all(); // a path of one point: the reference keeps every feature
  const tol = c0 * 1e-12;
  const c = new Float64Array(d);
  let chosen: Int32Array | null = null;
  let firstStep: Int32Array | null = null;
  let drop = false;
  for (let iter = 0; iter < 8 * d + 16; iter++) {
    for (let j = 0; j < d; j++) {
      let s = b[j];
      for (const l of active) s -= G[j * d + l] * beta[l];
      c[j] = s;
    }
    let C: number;
    if (!drop) {
      if (active.length === d) break;
      let jBest = -1;
      for (let j = 0; j < d; j++) if (!inActive[j] && (jBest < 0 || Math.abs(c[j]) > Math.abs(c[jBest]))) jBest = j;
      C = Math.abs(c[jBest]);
      if (C <= tol) break;
      active.push(jBest);
      signs.push(c[jBest] >= 0 ? 1 : -1);
      inActive[jBest] = 1;
    } else {
      C = 0;
      for (const l of active) C = Math.max(C, Math.abs(c[l]));
      if (C <= tol || active.length === 0) break;
    }
    drop = false;
    // Equiangular direction: w = A_A · G_AA⁻¹ s_A, A_A = (s_Aᵀ G_AA⁻¹ s_A)^(-1/2).
    const n = active.length;
    const gaa = new Float64Array(n * n);
    for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) gaa[i * n + j] = G[active[i] * d + active[j]];
    const x = solvePsd(gaa, Float64Array.from(signs), n);
    let ss = 0;
    for (let i = 0; i < n; i++) ss += signs[i] * x[i];
    if (!(ss > 0)) break;
    const AA = 1 / Math.sqrt(ss);
    for (let i = 0; i < n; i++) x[i] *= AA;
    let gamma = C / AA;
    for (let j = 0; j < d; j++) {
      if (inActive[j]) continue;
      let a = 0;
      for (let i = 0; i < n; i++) a += G[j * d + active[i]] * x[i];
      const g1 = (C - c[j]) / (AA - a);
      const g2 = (C + c[j]) / (AA + a);
      if (g1 > 1e-15 && g1 < gamma) gamma = g1;
      if (g2 > 1e-15 && g2 < gamma) gamma = g2;
    }
    let dropAt = -1;
    for (let i = 0; i < n; i++) {
      const z = -beta[active[i]] / x[i];
      if (z > 1e-15 && z < gamma) {
        gamma = z;
        dropAt = i;
      }
    }
    for (let i = 0; i < n; i++) beta[active[i]] += gamma * x[i];
    if (dropAt >= 0) {
      beta[active[dropAt]] = 0;
      inActive[active[dropAt]] = 0;
      active.splice(dropAt, 1);
      signs.splice(dropAt, 1);
      drop = true;
    }
    const nz: number[] = [];
    for (let j = 0; j < d; j++) if (beta[j] !== 0) nz.push(j);
    if (firstStep === null) firstStep = Int32Array.from(nz);
    if (nz.length <= numFeatures) chosen = Int32Array.from(nz);
  }
  return chosen ?? firstStep ?? all();
}
