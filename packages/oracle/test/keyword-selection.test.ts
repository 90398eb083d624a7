import { describe, expect, it } from 'vitest';
import { agnes } from 'ml-hclust';
import { rng } from '@xtrust/core';
import { clusterByCosine, selectKeywords } from '../src/index.js';
import { HandEmbedding, at } from './fixtures.js';

/** ml-hclust's partition at `threshold`, as cluster ids numbered by first point (the reference; O(n³)). */
function referenceCut(vectors: Float32Array, n: number, dim: number, threshold: number): Int32Array {
  const unit: number[][] = [];
  for (let i = 0; i < n; i++) {
    const v = Array.from(vectors.subarray(i * dim, i * dim + dim));
    const norm = Math.hypot(...v);
    unit.push(v.map((x) => x / norm));
  }
  const dist = unit.map((a, i) =>
    unit.map((b, j) => (i === j ? 0 : Math.max(0, 1 - a.reduce((s, x, d) => s + x * b[d], 0)))),
  );
  const tree = agnes(dist, { method: 'average', isDistanceMatrix: true });
  const raw = new Int32Array(n).fill(-1);
  tree.cut(threshold).forEach((c, id) => c.indices().forEach((p) => (raw[p] = id)));
  const seen = new Map<number, number>();
  return raw.map((r) => {
    if (!seen.has(r)) seen.set(r, seen.size);
    return seen.get(r)!;
  });
}

describe('Eq. 3: average-linkage clustering of a pool on cosine distance', () => {
  it('matches ml-hclust agnes (average) partitions on random clustered vectors at several cuts', () => {
    const g = rng(7);
    const dim = 8;
    const n = 120;
    const centres = Array.from({ length: 6 }, () => Array.from({ length: dim }, () => g.normal()));
    const vectors = new Float32Array(n * dim);
    for (let i = 0; i < n; i++) {
      const c = centres[i % 6];
      for (let d = 0; d < dim; d++) vectors[i * dim + d] = c[d] + 0.35 * g.normal();
    }
    for (const t of [0.05, 0.1, 0.2, 0.3, 0.45, 0.7]) {
      const ours = clusterByCosine(vectors, n, dim, t);
      expect(Array.from(ours), `cut at ${t}`).toEqual(Array.from(referenceCut(vectors, n, dim, t)));
    }
  });

  it('keeps words apart when their distance exceeds θ_dist and joins them below', () => {
    // cos distance between 0° and 40° is 1 − cos 40° = 0.234: one cluster at 0.3, two at 0.2
    const v = new Float32Array([...at(0), ...at(40)]);
    expect(Array.from(clusterByCosine(v, 2, 2, 0.3))).toEqual([0, 0]);
    expect(Array.from(clusterByCosine(v, 2, 2, 0.2))).toEqual([0, 1]);
  });
});

describe('Eq. 4: keyword selection by cluster-mean similarity to the class name', () => {
  // class "computer" along 0°; "file" at 20° (cos .94), "extension" at 55° (cos .574 < θ_relate .6)
  // but only 35° from file (distance .18 < θ_dist .3): indirectly related, kept through its cluster.
  const glove = new HandEmbedding('hand', {
    computer: at(0),
    file: at(20),
    extension: at(55),
    banana: at(120),
    apple: at(125),
  });

  it('keeps the cluster of an indirectly related word and drops the unrelated cluster', async () => {
    const r = await selectKeywords(['file', 'extension', 'banana', 'apple'], glove, 'computer', 0.3, 0.6);
    expect(Array.from(r.ballots)).toEqual([1, 1, 0, 0]);
    expect(r.clusterCount).toBe(2);
    expect(r.relatedClusters).toBe(1);
    // the cluster {file, extension}: mean direction 37.5°, cos .793 ≥ .6
    expect(Array.from(r.clusters)).toEqual([0, 0, 1, 1]);
  });

  it('with a cut too fine to join them, the indirectly related word is lost (why clustering matters)', async () => {
    const r = await selectKeywords(['file', 'extension', 'banana', 'apple'], glove, 'computer', 0.1, 0.6);
    expect(Array.from(r.ballots)).toEqual([1, 0, 0, 0]);
  });

  it('abstains on words the embedding lacks, and on the whole class when its name is unknown', async () => {
    const r = await selectKeywords(['file', 'zzyzx'], glove, 'computer', 0.3, 0.6);
    expect(Array.from(r.ballots)).toEqual([1, -1]);
    const none = await selectKeywords(['file'], glove, 'astronomy', 0.3, 0.6);
    expect(none.classNameKnown).toBe(false);
    expect(Array.from(none.ballots)).toEqual([-1]);
  });

  it('averages the words of a multi-word class name', async () => {
    // "banana_computer" → mean of 0° and 120° = 60° direction; banana/apple (≈122°) cos ≈ .47, file (20°) cos .77
    const r = await selectKeywords(['file', 'banana', 'apple'], glove, 'banana_computer', 0.3, 0.6);
    expect(Array.from(r.ballots)).toEqual([1, 0, 0]);
  });
});
