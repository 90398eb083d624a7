import { XtrustError } from '../errors.js';
import { normalizeRows } from './cosine.js';
import { requireFinite, requireFloat32, requirePositiveInt, rowsOf } from './validate.js';

/** The k best corpus rows of every query: row-major m×k, best first (ties: smaller index first). */
export interface TopKResult {
  /** Neighbours per query: min(k, corpus rows). */
  readonly k: number;
  /** m×k corpus row indices. */
  readonly indices: Int32Array;
  /** m×k cosine similarities, non-increasing along each row. */
  readonly scores: Float32Array;
}

export interface TopKOptions {
  /** The corpus rows are already unit length (or zero): skip normalising them. */
  readonly corpusNormalized?: boolean;
}

/**
 * Checks of `topK(queries, corpus, dim, k)`; returns [m, n, k clipped to n]. The scan flags say
 * whether to look for NaN/∞ here (the native kernels do it in their first pass).
 */
export function checkTopKArgs(
  queries: unknown,
  corpus: unknown,
  dim: unknown,
  k: unknown,
  scanQueries = true,
  scanCorpus = true,
): [number, number, number] {
  requireFloat32('queries', queries);
  requireFloat32('corpus', corpus);
  requirePositiveInt('dim', dim);
  if (typeof k !== 'number' || !Number.isInteger(k) || k <= 0) {
    throw new XtrustError('INVALID_ARGUMENT', `k must be a positive integer, got ${String(k)}`, { argument: 'k' });
  }
  const m = rowsOf('queries', queries, dim);
  const n = rowsOf('corpus', corpus, dim);
  if (n === 0) throw new XtrustError('INVALID_ARGUMENT', 'corpus must hold at least one row', { argument: 'corpus' });
  if (scanQueries) requireFinite('queries', queries);
  if (scanCorpus) requireFinite('corpus', corpus);
  return [m, n, Math.min(k, n)];
}

/** True when candidate (s, j) ranks below (t, l): lower score, or equal score and larger index. */
function worse(s: number, j: number, t: number, l: number): boolean {
  return s < t || (s === t && j > l);
}

/**
 * TS twin of the native `topK`: for every query, the k corpus rows of highest cosine similarity.
 * The corpus is walked in blocks that stay in cache while every query passes over them; each query
 * keeps a k-entry min-heap, so the m×n similarity matrix is never materialised.
 */
export function topKTs(
  queries: Float32Array,
  corpus: Float32Array,
  dim: number,
  k: number,
  options: TopKOptions = {},
): TopKResult {
  const [m, n, kk] = checkTopKArgs(queries, corpus, dim, k);
  const q = normalizeRows(queries, dim);
  const c = options.corpusNormalized ? corpus : normalizeRows(corpus, dim);
  const hs = new Float64Array(m * kk).fill(-Infinity);
  const hi = new Int32Array(m * kk).fill(0x7fffffff);
  const block = 512;
  for (let j0 = 0; j0 < n; j0 += block) {
    const j1 = Math.min(n, j0 + block);
    for (let i = 0; i < m; i++) {
      const qi = i * dim;
      const h = i * kk;
      for (let j = j0; j < j1; j++) {
        const cj = j * dim;
        let s = 0;
        for (let d = 0; d < dim; d++) s += q[qi + d] * c[cj + d];
        s = Math.fround(s);
        if (!worse(hs[h], hi[h], s, j)) continue;
        // Replace the root (the worst kept) and sift down.
        let p = 0;
        for (;;) {
          const l = 2 * p + 1;
          if (l >= kk) break;
          let w = l;
          const r = l + 1;
          if (r < kk && worse(hs[h + r], hi[h + r], hs[h + l], hi[h + l])) w = r;
          if (!worse(hs[h + w], hi[h + w], s, j)) break;
          hs[h + p] = hs[h + w];
          hi[h + p] = hi[h + w];
          p = w;
        }
        hs[h + p] = s;
        hi[h + p] = j;
      }
    }
  }
  // Each heap, sorted best first.
  const indices = new Int32Array(m * kk);
  const scores = new Float32Array(m * kk);
  const order = new Array<number>(kk);
  for (let i = 0; i < m; i++) {
    const h = i * kk;
    for (let t = 0; t < kk; t++) order[t] = t;
    order.sort((a, b) => (worse(hs[h + a], hi[h + a], hs[h + b], hi[h + b]) ? 1 : -1));
    for (let t = 0; t < kk; t++) {
      indices[h + t] = hi[h + order[t]];
      scores[h + t] = hs[h + order[t]];
    }
  }
  return { k: kk, indices, scores };
}
