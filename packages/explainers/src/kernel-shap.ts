import { rng, type Classifier, type Explainer, type Explanation, type Rng } from '@xtrust/core';
import { explicitLabels, labelsFor, topLabelCount } from './labels.js';
import { solvePsd } from './least-squares.js';
import { ProbabilityGuard, checkInputs, makeScorer } from './model-calls.js';
import { intOption, seedOption } from './options.js';
import { shapleyExplanations, type ShapleyOptions } from './shapley-common.js';
import { textFeatures } from './text-features.js';

export type KernelShapOptions = ShapleyOptions & {
  /** Coalitions scored besides the empty and the full one. Default 2d + 2048 (shap's `auto`), capped at 2^d − 2. */
  numSamples?: number;
  /** Seed of the coalition sampler (each text restarts from it). Default 0. */
  seed?: number;
};

function binomial(n: number, k: number): number {
  let b = 1;
  for (let t = 1; t <= k; t++) b = (b * (n - k + t)) / t;
  return b;
}

/** The coalitions of Kernel SHAP and their kernel weights (rows×d binary, 1 = word kept). */
export interface Coalitions {
  masks: Uint8Array;
  weights: Float64Array;
  rows: number;
}

/**
 * Kernel SHAP's coalition design, as the reference `shap.KernelExplainer` draws it: subset sizes are
 * enumerated completely from the smallest (with their complements) while the budget covers them,
 * the rest sampled by the Shapley kernel's size distribution with paired complements; repeated draws
 * add weight instead of rows. Weights sum to 1.
 */
export function kernelShapCoalitions(d: number, budget: number, r: Rng): Coalitions {
  const numSizes = Math.ceil((d - 1) / 2);
  const numPaired = Math.floor((d - 1) / 2);
  const weightVector = new Float64Array(numSizes);
  let total = 0;
  for (let s = 1; s <= numSizes; s++) {
    weightVector[s - 1] = ((d - 1) / (s * (d - s))) * (s <= numPaired ? 2 : 1);
    total += weightVector[s - 1];
  }
  for (let s = 0; s < numSizes; s++) weightVector[s] /= total;
  const masks: number[][] = [];
  const weights: number[] = [];
  const pushMask = (on: Int32Array | number[], size: number, w: number, complement: boolean) => {
    const m = new Array<number>(d).fill(complement ? 1 : 0);
    for (let j = 0; j < size; j++) m[on[j]] = complement ? 0 : 1;
    masks.push(m);
    weights.push(w);
  };
  let left = budget;
  let full = 0;
  const remaining = Float64Array.from(weightVector);
  for (let s = 1; s <= numSizes; s++) {
    const paired = s <= numPaired;
    const n = binomial(d, s) * (paired ? 2 : 1);
    if (!((left * remaining[s - 1]) / n >= 1 - 1e-8)) break;
    full++;
    left -= n;
    if (remaining[s - 1] < 1) {
      const scale = 1 - remaining[s - 1];
      for (let t = 0; t < numSizes; t++) remaining[t] /= scale;
    }
    const w = weightVector[s - 1] / binomial(d, s) / (paired ? 2 : 1);
    // enumerate the s-combinations of d in lexicographic order
    const comb = Array.from({ length: s }, (_, j) => j);
    for (;;) {
      pushMask(comb, s, w, false);
      if (paired) pushMask(comb, s, w, true);
      let j = s - 1;
      while (j >= 0 && comb[j] === d - s + j) j--;
      if (j < 0) break;
      comb[j]++;
      for (let t = j + 1; t < s; t++) comb[t] = comb[t - 1] + 1;
    }
  }
  const nFixed = masks.length;
  if (full !== numSizes && left > 0) {
    const rem = Float64Array.from(weightVector);
    for (let t = 0; t < numPaired; t++) rem[t] /= 2;
    const tail = rem.subarray(full);
    let tailSum = 0;
    for (const v of tail) tailSum += v;
    const cdf = new Float64Array(tail.length);
    let acc = 0;
    for (let t = 0; t < tail.length; t++) cdf[t] = acc += tail[t] / tailSum;
    const used = new Map<string, [number, number]>();
    const pool = new Int32Array(d);
    for (let j = 0; j < d; j++) pool[j] = j;
    for (let draw = 0; left > 0 && draw < 4 * budget; draw++) {
      const u = r.float();
      let ind = 0;
      while (ind < cdf.length - 1 && u >= cdf[ind]) ind++;
      const size = ind + full + 1;
      for (let j = 0; j < size; j++) {
        const k = j + r.int(d - j);
        const tmp = pool[j];
        pool[j] = pool[k];
        pool[k] = tmp;
      }
      const chosen = Array.from(pool.subarray(0, size)).sort((a, b) => a - b);
      const key = chosen.join(',');
      const at = used.get(key);
      if (at === undefined) {
        const index = masks.length;
        pushMask(chosen, size, 1, false);
        left--;
        let comp = -1;
        if (left > 0 && size <= numPaired) {
          comp = masks.length;
          pushMask(chosen, size, 1, true);
          left--;
        }
        used.set(key, [index, comp]);
      } else {
        weights[at[0]] += 1;
        if (at[1] >= 0) weights[at[1]] += 1;
      }
    }
    let weightLeft = 0;
    for (let t = full; t < numSizes; t++) weightLeft += weightVector[t];
    let sampled = 0;
    for (let i = nFixed; i < weights.length; i++) sampled += weights[i];
    for (let i = nFixed; i < weights.length; i++) weights[i] *= weightLeft / sampled;
  }
  const rows = masks.length;
  const flat = new Uint8Array(rows * d);
  masks.forEach((m, i) => flat.set(m, i * d));
  return { masks: flat, weights: Float64Array.from(weights), rows };
}

/**
 * Shapley values from weighted coalition values by the constrained weighted least squares of Kernel
 * SHAP (Lundberg & Lee, 2017, Theorem 2): minimise Σ_S π(S)(v(S) − v(∅) − Σ_{i∈S} φ_i)² subject to
 * Σφ = v(F) − v(∅), solved by eliminating the last φ. No L1 regularisation.
 */
export function solveKernelShap(
  c: Coalitions,
  d: number,
  values: ArrayLike<number>,
  empty: number,
  full: number,
): Float64Array {
  const phi = new Float64Array(d);
  const delta = full - empty;
  if (d === 1) {
    phi[0] = delta;
    return phi;
  }
  const m = d - 1;
  const a = new Float64Array(m * m);
  const b = new Float64Array(m);
  const z = new Float64Array(m);
  for (let r = 0; r < c.rows; r++) {
    const w = c.weights[r];
    if (w === 0) continue;
    const base = r * d;
    const last = c.masks[base + m];
    const y = values[r] - empty - last * delta;
    for (let i = 0; i < m; i++) z[i] = c.masks[base + i] - last;
    for (let i = 0; i < m; i++) {
      const zi = z[i];
      if (zi === 0) continue;
      b[i] += w * zi * y;
      for (let j = i; j < m; j++) a[i * m + j] += w * zi * z[j];
    }
  }
  for (let i = 0; i < m; i++) for (let j = 0; j < i; j++) a[i * m + j] = a[j * m + i];
  const x = solvePsd(a, b, m);
  let sum = 0;
  for (let i = 0; i < m; i++) {
    phi[i] = x[i];
    sum += x[i];
  }
  phi[m] = delta - sum;
  return phi;
}

/**
 * Kernel SHAP over word presence (Lundberg & Lee, 2017, "A Unified Approach to Interpreting Model
 * Predictions"; reference `shap.KernelExplainer`): the value of a coalition of words is
 * p(label | text keeping only them); coalitions are drawn with the Shapley kernel under a seeded
 * budget and the Shapley values solved by constrained weighted least squares. When the budget covers
 * all 2^d − 2 proper coalitions the result equals the exact Shapley values. All coalitions of a text
 * go to the model in one call.
 */
export class KernelShapExplainer implements Explainer<KernelShapOptions> {
  readonly name = 'kernel-shap';
  constructor(private readonly defaults: KernelShapOptions = {}) {}

  async explain(
    classifier: Classifier,
    texts: readonly string[],
    options: KernelShapOptions = {},
  ): Promise<Explanation[]> {
    const o: KernelShapOptions = { ...this.defaults, ...options };
    checkInputs(classifier, texts, 'kernel-shap');
    const seed = seedOption(o.seed);
    if (o.numSamples !== undefined) intOption('numSamples', o.numSamples, 0, 1);
    const bow = o.bow ?? true;
    const k = classifier.labels.length;
    const explicit = explicitLabels(classifier.labels, o);
    const top = topLabelCount(k, o);
    const guard = new ProbabilityGuard('kernel-shap: classifier', k, o);
    // Computed once: a text repeated in the call is explained once (each text restarts from `seed`).
    const done = new Map<string, Explanation[]>();
    const out: Explanation[] = [];
    for (let i = 0; i < texts.length; i++) {
      const again = done.get(texts[i]);
      if (again) {
        out.push(...again);
        continue;
      }
      const tf = textFeatures(texts[i], bow, `texts[${i}]`);
      const d = tf.count;
      const cap = d <= 30 ? 2 ** d - 2 : Number.MAX_SAFE_INTEGER;
      const budget = Math.min(o.numSamples ?? 2 * d + 2048, cap);
      const c =
        d === 1
          ? { masks: new Uint8Array(0), weights: new Float64Array(0), rows: 0 }
          : kernelShapCoalitions(d, budget, rng(seed));
      // rows: full text, empty text, then the coalitions
      const rows = c.rows + 2;
      const masks = new Uint8Array(rows * d);
      masks.fill(1, 0, d);
      masks.set(c.masks, 2 * d);
      const scorer = makeScorer(classifier, tf, guard, o, bow ? null : '');
      const probs = await scorer.score(masks, rows);
      const full = probs.subarray(0, k);
      const empty = probs.subarray(k, 2 * k);
      const labels = labelsFor(full, 0, k, explicit, top);
      const values = labels.map((label) => {
        const v = new Float64Array(c.rows);
        for (let r = 0; r < c.rows; r++) v[r] = probs[(r + 2) * k + label];
        return solveKernelShap(c, d, v, empty[label], full[label]);
      });
      const made = shapleyExplanations(
        classifier,
        tf,
        'kernel-shap',
        { numSamples: budget, bow, scorer: scorer.kind },
        seed,
        full,
        empty,
        labels,
        values,
        {
          coalitions: c.rows,
          ...(scorer.kind === 'token-scorer' ? { modelRows: scorer.counts.sent } : {}),
        },
      );
      done.set(texts[i], made);
      out.push(...made);
    }
    return out;
  }
}
