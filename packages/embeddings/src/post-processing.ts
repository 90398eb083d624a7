import { XtrustError, type WordEmbedding } from '@xtrust/core';
import { StaticEmbedding } from './static-embedding.js';

/**
 * The top principal directions of `n` row vectors (row-major n×dim) after subtracting their mean:
 * power iteration on the dim×dim covariance with deflation (Gram–Schmidt against the directions already
 * found), from a fixed start vector, so the result is deterministic. Each direction is a unit vector,
 * its sign chosen so that its largest-magnitude coordinate is positive. Returns the mean and the
 * `count` directions (count×dim, row-major) with their eigenvalues (variance along each).
 */
export function principalDirections(
  vectors: Float32Array,
  n: number,
  dim: number,
  count: number,
): { mean: Float64Array; directions: Float64Array; variances: Float64Array } {
  if (!Number.isInteger(n) || n < 2)
    throw new XtrustError('INVALID_ARGUMENT', `principalDirections: need at least 2 vectors, got ${n}`);
  if (vectors.length !== n * dim)
    throw new XtrustError('DIMENSION_MISMATCH', `principalDirections: ${vectors.length} values are not ${n}×${dim}`);
  if (!Number.isInteger(count) || count < 0 || count > dim)
    throw new XtrustError(
      'INVALID_ARGUMENT',
      `principalDirections: count must be an integer in [0, ${dim}], got ${count}`,
    );
  const mean = new Float64Array(dim);
  for (let i = 0; i < n; i++) for (let d = 0; d < dim; d++) mean[d] += vectors[i * dim + d];
  for (let d = 0; d < dim; d++) mean[d] /= n;
  const cov = new Float64Array(dim * dim);
  const row = new Float64Array(dim);
  for (let i = 0; i < n; i++) {
    for (let d = 0; d < dim; d++) row[d] = vectors[i * dim + d] - mean[d];
    for (let a = 0; a < dim; a++) {
      const ra = row[a];
      if (ra === 0) continue;
      const base = a * dim;
      for (let b = a; b < dim; b++) cov[base + b] += ra * row[b];
    }
  }
  for (let a = 0; a < dim; a++) {
    for (let b = a; b < dim; b++) {
      cov[a * dim + b] /= n;
      cov[b * dim + a] = cov[a * dim + b];
    }
  }
  const directions = new Float64Array(count * dim);
  const variances = new Float64Array(count);
  const x = new Float64Array(dim);
  const y = new Float64Array(dim);
  for (let k = 0; k < count; k++) {
    // a fixed, non-symmetric start so no eigenvector is orthogonal to it by construction
    for (let d = 0; d < dim; d++) x[d] = 1 + d / dim;
    let lambda = 0;
    for (let it = 0; it < 5000; it++) {
      for (let j = 0; j < k; j++) {
        let dot = 0;
        for (let d = 0; d < dim; d++) dot += x[d] * directions[j * dim + d];
        for (let d = 0; d < dim; d++) x[d] -= dot * directions[j * dim + d];
      }
      let norm = 0;
      for (let d = 0; d < dim; d++) norm += x[d] * x[d];
      norm = Math.sqrt(norm);
      if (norm === 0) break;
      for (let d = 0; d < dim; d++) x[d] /= norm;
      for (let a = 0; a < dim; a++) {
        let s = 0;
        for (let b = 0; b < dim; b++) s += cov[a * dim + b] * x[b];
        y[a] = s;
      }
      let next = 0;
      for (let d = 0; d < dim; d++) next += x[d] * y[d];
      let change = 0;
      for (let d = 0; d < dim; d++) change += Math.abs(y[d] - next * x[d]);
      lambda = next;
      x.set(y);
      if (change <= 1e-12 * Math.max(1, Math.abs(next))) break;
    }
    for (let j = 0; j < k; j++) {
      let dot = 0;
      for (let d = 0; d < dim; d++) dot += x[d] * directions[j * dim + d];
      for (let d = 0; d < dim; d++) x[d] -= dot * directions[j * dim + d];
    }
    let norm = 0;
    let big = 0;
    for (let d = 0; d < dim; d++) {
      norm += x[d] * x[d];
      if (Math.abs(x[d]) > Math.abs(x[big])) big = d;
    }
    norm = Math.sqrt(norm) * (x[big] < 0 ? -1 : 1);
    for (let d = 0; d < dim; d++) directions[k * dim + d] = norm === 0 ? 0 : x[d] / norm;
    variances[k] = lambda;
  }
  return { mean, directions, variances };
}

export interface AllButTheTopOptions {
  /**
   * Principal directions removed after centring. Default max(1, round(dim / 100)), Mu & Viswanath's
   * rule of thumb (2018, "All-but-the-Top": D ≈ d/100).
   */
  readonly components?: number;
  /**
   * Words whose vectors estimate the mean and the directions. Default for a `StaticEmbedding`: its first
   * `sampleSize` rows (released vector files are ordered by frequency); other embeddings must be given words.
   */
  readonly words?: readonly string[];
  /** Rows taken from a StaticEmbedding when `words` is not given (default 20,000). */
  readonly sampleSize?: number;
}

/**
 * An embedding post-processed by "all-but-the-top" (Mu & Viswanath 2018): every vector has the
 * vocabulary mean μ subtracted and its components along the top D principal directions u_1…u_D of the
 * centred vocabulary removed, v' = (v − μ) − Σ_k (u_k·(v − μ)) u_k. Raw word vectors share a large common
 * component (GloVe's frequency direction), so every cosine — and above all the cosine of a cluster's
 * mean vector — is pulled up by it; removing it makes cosine measure the word-specific part. The
 * wrapper keeps the base's vocabulary and OOV behaviour; its name is `<base>+abtt<D>`.
 */
export class AllButTheTopEmbedding implements WordEmbedding {
  readonly name: string;
  readonly dim: number;

  private constructor(
    readonly base: WordEmbedding,
    readonly mean: Float64Array,
    /** D×dim unit directions, row-major. */
    readonly directions: Float64Array,
    readonly components: number,
  ) {
    this.name = `${base.name}+abtt${components}`;
    this.dim = base.dim;
  }

  /** Estimates μ and the top directions from the base's vocabulary (see options) and wraps the base. */
  static async fit(base: WordEmbedding, options: AllButTheTopOptions = {}): Promise<AllButTheTopEmbedding> {
    const dim = base.dim;
    const components = options.components ?? Math.max(1, Math.round(dim / 100));
    let words: string[];
    if (options.words) words = options.words.filter((w) => base.has(w));
    else if (base instanceof StaticEmbedding) {
      const n = Math.min(base.size, options.sampleSize ?? 20000);
      words = Array.from({ length: n }, (_, i) => base.wordAt(i));
    } else {
      throw new XtrustError(
        'INVALID_ARGUMENT',
        `all-but-the-top: embedding ${base.name} has no enumerable vocabulary; give the words that estimate its mean and principal directions`,
        { embedding: base.name },
      );
    }
    const unique = [...new Set(words)];
    if (unique.length < 2 || unique.length <= components) {
      throw new XtrustError(
        'INVALID_ARGUMENT',
        `all-but-the-top: ${unique.length} known words cannot estimate ${components} principal directions of ${base.name}`,
        { embedding: base.name },
      );
    }
    const vectors = await base.vectors(unique);
    const { mean, directions } = principalDirections(vectors, unique.length, dim, components);
    return new AllButTheTopEmbedding(base, mean, directions, components);
  }

  /** Wraps `base` with a given mean and directions (D×dim unit rows) — for tests and saved fits. */
  static fromParts(base: WordEmbedding, mean: ArrayLike<number>, directions: ArrayLike<number>): AllButTheTopEmbedding {
    const dim = base.dim;
    if (mean.length !== dim || directions.length % dim !== 0) {
      throw new XtrustError(
        'DIMENSION_MISMATCH',
        `all-but-the-top: mean of ${mean.length} and directions of ${directions.length} values do not fit dimension ${dim}`,
      );
    }
    return new AllButTheTopEmbedding(
      base,
      Float64Array.from(mean),
      Float64Array.from(directions),
      directions.length / dim,
    );
  }

  has(word: string): boolean {
    return this.base.has(word);
  }

  /** The base vectors, centred and with the top directions projected out (row-major, as the base's). */
  async vectors(words: readonly string[]): Promise<Float32Array> {
    const raw = await this.base.vectors(words);
    const dim = this.dim;
    const out = new Float32Array(raw.length);
    const v = new Float64Array(dim);
    for (let i = 0; i < words.length; i++) {
      for (let d = 0; d < dim; d++) v[d] = raw[i * dim + d] - this.mean[d];
      for (let k = 0; k < this.components; k++) {
        let dot = 0;
        for (let d = 0; d < dim; d++) dot += v[d] * this.directions[k * dim + d];
        for (let d = 0; d < dim; d++) v[d] -= dot * this.directions[k * dim + d];
      }
      for (let d = 0; d < dim; d++) out[i * dim + d] = v[d];
    }
    return out;
  }
}
