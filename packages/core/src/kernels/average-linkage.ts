import { XtrustError } from '../errors.js';
import { requireFinite, requireFloat32, requirePositiveInt } from './validate.js';

/**
 * An agglomerative clustering of n points in scipy's linkage convention: leaves are 0…n−1, merge i
 * creates cluster n+i from `merges[2i] < merges[2i+1]` at `heights[i]` (non-decreasing).
 */
export interface Dendrogram {
  readonly n: number;
  /** (n−1)×2 ids of the clusters merged by each step. */
  readonly merges: Int32Array;
  /** (n−1) merge heights: the average distance between the two merged clusters. */
  readonly heights: Float64Array;
  /** (n−1) sizes of the clusters the merges create. */
  readonly sizes: Int32Array;
  /**
   * Flat clusters: a label per point, 0…c−1 numbered by first appearance. The same partition as
   * ml-hclust's `cut(threshold)`: walking down from the root, every subtree whose height is ≤ the
   * threshold is one cluster (a point is a subtree of height 0).
   */
  cut(threshold: number): Int32Array;
}

/** Wraps merges already in scipy's convention into a Dendrogram. */
export function makeDendrogram(n: number, merges: Int32Array, heights: Float64Array): Dendrogram {
  const sizes = new Int32Array(Math.max(0, n - 1));
  const size = (c: number): number => (c < n ? 1 : sizes[c - n]);
  for (let i = 0; i < n - 1; i++) sizes[i] = size(merges[2 * i]) + size(merges[2 * i + 1]);
  return {
    n,
    merges,
    heights,
    sizes,
    cut(threshold: number): Int32Array {
      if (typeof threshold !== 'number' || Number.isNaN(threshold) || threshold < 0) {
        throw new XtrustError('INVALID_ARGUMENT', `threshold must be a number ≥ 0, got ${String(threshold)}`, {
          argument: 'threshold',
        });
      }
      // group[c]: the flat cluster that cluster c falls in, −1 while none (top-down, root first).
      const group = new Int32Array(2 * n - 1).fill(-1);
      let groups = 0;
      for (let i = n - 2; i >= 0; i--) {
        const c = n + i;
        if (group[c] < 0 && threshold >= heights[i]) group[c] = groups++;
        group[merges[2 * i]] = group[c];
        group[merges[2 * i + 1]] = group[c];
      }
      for (let p = 0; p < n; p++) if (group[p] < 0) group[p] = groups++;
      // Renumber by first appearance among the points.
      const rename = new Int32Array(groups).fill(-1);
      const labels = new Int32Array(n);
      let next = 0;
      for (let p = 0; p < n; p++) {
        const g = group[p];
        if (rename[g] < 0) rename[g] = next++;
        labels[p] = rename[g];
      }
      return labels;
    },
  };
}

/**
 * Checks of `averageLinkage(distances, n)`: an n×n finite, symmetric (within 1e-6 relative)
 * Float32Array. `scanValues: false` checks only type and shape (the native kernel scans values).
 */
export function checkDistanceMatrix(
  distances: unknown,
  n: unknown,
  scanValues = true,
): asserts distances is Float32Array {
  requireFloat32('distances', distances);
  requirePositiveInt('n', n);
  if (distances.length !== n * n) {
    throw new XtrustError(
      'DIMENSION_MISMATCH',
      `distances has ${distances.length} values; a square n×n matrix needs ${n * n} for n = ${n}`,
      { argument: 'distances' },
    );
  }
  if (!scanValues) return;
  requireFinite('distances', distances);
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const a = distances[i * n + j];
      const b = distances[j * n + i];
      if (Math.abs(a - b) > 1e-6 * Math.max(1, Math.abs(a), Math.abs(b))) {
        throw new XtrustError(
          'INVALID_ARGUMENT',
          `distances is not symmetric: [${i}][${j}] = ${a} but [${j}][${i}] = ${b}`,
          { argument: 'distances', row: i, column: j },
        );
      }
    }
  }
}

/**
 * Orders raw merges (pairs of "slots" in NN-chain order, the merged cluster living on in the second
 * slot) into scipy's convention: stable sort by height, then cluster ids through union–find.
 */
export function labelMerges(
  n: number,
  slotA: Int32Array,
  slotB: Int32Array,
  dist: Float64Array,
): { merges: Int32Array; heights: Float64Array } {
  const m = n - 1;
  const order = Array.from({ length: m }, (_, i) => i).sort((a, b) => dist[a] - dist[b] || a - b);
  const parent = new Int32Array(2 * n - 1);
  for (let i = 0; i < parent.length; i++) parent[i] = i;
  const find = (x: number): number => {
    let r = x;
    while (parent[r] !== r) r = parent[r];
    while (parent[x] !== r) {
      const nx = parent[x];
      parent[x] = r;
      x = nx;
    }
    return r;
  };
  const merges = new Int32Array(2 * m);
  const heights = new Float64Array(m);
  for (let t = 0; t < m; t++) {
    const s = order[t];
    const a = find(slotA[s]);
    const b = find(slotB[s]);
    merges[2 * t] = Math.min(a, b);
    merges[2 * t + 1] = Math.max(a, b);
    heights[t] = dist[s];
    parent[a] = n + t;
    parent[b] = n + t;
  }
  return { merges, heights };
}

/**
 * TS twin of the native `averageLinkage`: UPGMA by the nearest-neighbour chain, O(n²) time and
 * memory, giving the merges scipy's `linkage(method='average')` gives (ties: the chain's previous
 * element, then the smallest index). Reads the upper triangle of `distances` (n×n).
 */
export function averageLinkageTs(distances: Float32Array, n: number): Dendrogram {
  checkDistanceMatrix(distances, n);
  const d = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    d[i * n + i] = Infinity;
    for (let j = i + 1; j < n; j++) d[i * n + j] = d[j * n + i] = distances[i * n + j];
  }
  const size = new Int32Array(n).fill(1);
  const slotA = new Int32Array(Math.max(0, n - 1));
  const slotB = new Int32Array(Math.max(0, n - 1));
  const dist = new Float64Array(Math.max(0, n - 1));
  const chain = new Int32Array(n);
  let len = 0;
  for (let k = 0; k < n - 1; k++) {
    if (len === 0) {
      for (let i = 0; i < n; i++) {
        if (size[i] > 0) {
          chain[len++] = i;
          break;
        }
      }
    }
    let x: number;
    let y: number;
    let best: number;
    for (;;) {
      x = chain[len - 1];
      y = len > 1 ? chain[len - 2] : -1;
      best = y >= 0 ? d[x * n + y] : Infinity;
      const row = x * n;
      for (let i = 0; i < n; i++) {
        if (d[row + i] < best) {
          best = d[row + i];
          y = i;
        }
      }
      if (len > 1 && y === chain[len - 2]) break;
      chain[len++] = y;
    }
    len -= 2;
    if (x > y) [x, y] = [y, x];
    const nx = size[x];
    const ny = size[y];
    slotA[k] = x;
    slotB[k] = y;
    dist[k] = best;
    // x is gone; the merged cluster lives on in y.
    size[x] = 0;
    size[y] = nx + ny;
    for (let i = 0; i < n; i++) {
      if (size[i] === 0 || i === y) continue;
      const v = (nx * d[x * n + i] + ny * d[y * n + i]) / (nx + ny);
      d[y * n + i] = d[i * n + y] = v;
    }
    for (let i = 0; i < n; i++) d[x * n + i] = d[i * n + x] = Infinity;
  }
  const { merges, heights } = labelMerges(n, slotA, slotB, dist);
  return makeDendrogram(n, merges, heights);
}
