import { XtrustError, averageLinkageTs, cosineMatrixTs, type Dendrogram } from '@xtrust/core';
import { averageLinkage, backendInfo, useBackend } from '@xtrust/native';
import { agnes, type Cluster } from 'ml-hclust';
import { afterAll, describe, expect, it } from 'vitest';
import { euclideanDistances, expectClose, randomMatrix, samePartition } from './helpers.js';

const hasNative = backendInfo().available.includes('cpu');
afterAll(() => {
  useBackend('auto');
});

function toRows(d: Float32Array, n: number): number[][] {
  return Array.from({ length: n }, (_, i) => Array.from(d.subarray(i * n, (i + 1) * n)));
}

/** ml-hclust's partition as a label per point. */
function hclustLabels(tree: Cluster, n: number, threshold: number): Int32Array {
  const labels = new Int32Array(n).fill(-1);
  tree.cut(threshold).forEach((c, g) => {
    for (const i of c.indices()) labels[i] = g;
  });
  return labels;
}

function hclustHeights(tree: Cluster): number[] {
  const h: number[] = [];
  tree.traverse((c) => {
    if (!c.isLeaf) h.push(c.height);
  });
  return h.sort((a, b) => a - b);
}

/** Thresholds between consecutive merge heights (and below/above all of them). */
function thresholds(heights: ArrayLike<number>): number[] {
  const h = Array.from(heights);
  const out = [0, h[h.length - 1] + 1];
  for (const q of [0.1, 0.3, 0.5, 0.7, 0.9, 0.97, 0.995]) {
    const i = Math.floor(q * (h.length - 1));
    out.push((h[i] + h[i + 1]) / 2);
  }
  return out;
}

function checkAgainstHclust(dg: Dendrogram, d: Float32Array, n: number) {
  const tree = agnes(toRows(d, n), { method: 'average', isDistanceMatrix: true });
  expectClose(dg.heights, hclustHeights(tree), 1e-5, 1e-6, 'heights');
  for (let i = 1; i < n - 1; i++) expect(dg.heights[i]).toBeGreaterThanOrEqual(dg.heights[i - 1]);
  for (const t of thresholds(dg.heights)) {
    expect(samePartition(dg.cut(t), hclustLabels(tree, n, t)), `threshold ${t}`).toBe(true);
  }
}

function cosineDistances(x: Float32Array, n: number, dim: number): Float32Array {
  const s = cosineMatrixTs(x, x, dim);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) s[i * n + j] = i === j ? 0 : 1 - s[i * n + j];
    for (let j = 0; j < i; j++) s[i * n + j] = s[j * n + i];
  }
  return s;
}

describe('averageLinkageTs against ml-hclust', () => {
  it('euclidean distances of 300 seeded random points', () => {
    const x = randomMatrix(42, 300, 5);
    const d = euclideanDistances(x, 300, 5);
    checkAgainstHclust(averageLinkageTs(d, 300), d, 300);
  });

  it('cosine distances of 200 points, with duplicate points', () => {
    const x = randomMatrix(43, 200, 8);
    for (const j of [10, 20, 150]) x.copyWithin(j * 8, 5 * 8, 6 * 8);
    const d = cosineDistances(x, 200, 8);
    const dg = averageLinkageTs(d, 200);
    expect(dg.heights[0]).toBeCloseTo(0, 6);
    checkAgainstHclust(dg, d, 200);
  });

  it('scipy conventions: ids, sizes, cut at the extremes', () => {
    const d = new Float32Array([0, 1, 4, 5, 1, 0, 3, 6, 4, 3, 0, 2, 5, 6, 2, 0]);
    const dg = averageLinkageTs(d, 4);
    expect(Array.from(dg.merges)).toEqual([0, 1, 2, 3, 4, 5]);
    expectClose(dg.heights, [1, 2, 4.5], 1e-12, 0);
    expect(Array.from(dg.sizes)).toEqual([2, 2, 4]);
    expect(Array.from(dg.cut(0))).toEqual([0, 1, 2, 3]);
    expect(Array.from(dg.cut(1))).toEqual([0, 0, 1, 2]);
    expect(Array.from(dg.cut(10))).toEqual([0, 0, 0, 0]);
    expect(() => dg.cut(-1)).toThrow(XtrustError);
    expect(averageLinkageTs(new Float32Array([0]), 1).merges.length).toBe(0);
  });
});

describe.skipIf(!hasNative)('native averageLinkage', () => {
  it('equals ml-hclust on 300 seeded random points', () => {
    useBackend('cpu');
    const x = randomMatrix(44, 300, 6);
    const d = euclideanDistances(x, 300, 6);
    checkAgainstHclust(averageLinkage(d, 300), d, 300);
  });

  it('equals the TS twin (merges and heights) on cosine distances with duplicates', () => {
    useBackend('cpu');
    const x = randomMatrix(45, 500, 10);
    for (const j of [1, 2, 300]) x.copyWithin(j * 10, 0, 10);
    const d = cosineDistances(x, 500, 10);
    const a = averageLinkage(d, 500);
    const b = averageLinkageTs(d, 500);
    expectClose(a.heights, b.heights, 1e-5, 1e-6, 'heights');
    expect(Array.from(a.merges)).toEqual(Array.from(b.merges));
    for (const t of thresholds(b.heights)) expect(Array.from(a.cut(t))).toEqual(Array.from(b.cut(t)));
  });

  it('handles one and two points', () => {
    useBackend('cpu');
    expect(averageLinkage(new Float32Array([0]), 1).heights.length).toBe(0);
    const two = averageLinkage(new Float32Array([0, 2, 2, 0]), 2);
    expect(Array.from(two.merges)).toEqual([0, 1]);
    expect(two.heights[0]).toBe(2);
  });
});

describe.each(['ts', 'cpu'] as const)('averageLinkage bad input (%s backend)', (b) => {
  it.skipIf(b === 'cpu' && !hasNative)('throws XtrustError naming distances or n', () => {
    useBackend(b);
    const bad = (f: () => unknown, argument: string, text: RegExp) => {
      try {
        f();
      } catch (e) {
        expect(e).toBeInstanceOf(XtrustError);
        expect((e as XtrustError).details.argument).toBe(argument);
        expect((e as XtrustError).message).toMatch(text);
        return;
      }
      expect.fail(`no error for ${argument}`);
    };
    const d = euclideanDistances(randomMatrix(1, 6, 2), 6, 2);
    bad(() => averageLinkage(d, 5), 'distances', /square/);
    bad(() => averageLinkage(d.subarray(0, 30), 6), 'distances', /square/);
    bad(() => averageLinkage(Array.from(d) as unknown as Float32Array, 6), 'distances', /Float32Array/);
    bad(() => averageLinkage(d, 0), 'n', /positive integer/);
    const asym = d.slice();
    asym[1 * 6 + 4] += 0.5;
    bad(() => averageLinkage(asym, 6), 'distances', /symmetric/);
    const nan = d.slice();
    nan[7] = NaN;
    bad(() => averageLinkage(nan, 6), 'distances', /finite/);
  });
});
