// The CUDA backend against the CPU kernels and the TS twins. Runs only where a CUDA device answers
// (`backendInfo().available` lists 'cuda'); elsewhere every case is skipped. On a machine with a GPU:
// `pnpm --filter @xtrust/native test`, or without the workspace's node_modules,
// `bash native/scripts/device-check.sh` (see native/README.md, "Backends").
import { cosineMatrixTs, topKTs, type TopKResult } from '@xtrust/core';
import { CosineIndex, backendInfo, cosineMatrix, topK, useBackend } from '@xtrust/native';
import { afterAll, describe, expect, it } from 'vitest';
import { expectClose, randomMatrix } from './helpers.js';

const hasCuda = backendInfo().available.includes('cuda');
afterAll(() => {
  useBackend('auto');
});

/** Runs f on the CPU backend and on CUDA; the backend is left on CUDA. */
function onBoth<T>(f: () => T): { cpu: T; cuda: T } {
  useBackend('cpu');
  const cpu = f();
  useBackend('cuda');
  return { cpu, cuda: f() };
}

/**
 * Same neighbours in the same order, except where two candidates' scores tie within `tie` (float32
 * dot products summed in another order can swap near-ties): then the scores must agree instead.
 */
function expectSameTopK(got: TopKResult, want: TopKResult, tie = 2e-6): void {
  expect(got.k).toBe(want.k);
  expectClose(got.scores, want.scores, 1e-4, 2e-6, 'scores');
  for (let i = 0; i < want.indices.length; i++) {
    if (got.indices[i] !== want.indices[i] && !(Math.abs(got.scores[i] - want.scores[i]) <= tie)) {
      expect.fail(
        `position ${i}: index ${got.indices[i]} (score ${got.scores[i]}) vs ${want.indices[i]} (score ${want.scores[i]})`,
      );
    }
  }
}

describe.skipIf(!hasCuda)('CUDA backend', () => {
  it('is chosen by auto and reports its device; kernels without a CUDA version stay on the CPU', () => {
    expect(useBackend('auto')).toBe('cuda');
    const info = backendInfo();
    expect(info.backend).toBe('cuda');
    expect(typeof info.device).toBe('string');
    expect((info.device ?? '').length).toBeGreaterThan(0);
    expect(info.kernels.cosineMatrix).toBe('cuda');
    expect(info.kernels.topK).toBe('cuda');
    expect(info.kernels.ridgeBatch).toBe('cpu');
    expect(info.kernels.averageLinkage).toBe('cpu');
  });

  const shapes: [string, number, number, number][] = [
    ['1×1 by 1', 1, 1, 1],
    ['d not a multiple of the 16-wide tile', 3, 5, 17],
    ['odd sizes', 37, 53, 13],
    ['wide', 6, 16, 300],
    // 5,000 query rows: two passes of at most 4,096 output rows each.
    ['two output passes by rows', 5000, 700, 24],
    // n = 70,000: at most 2^28 / n = 3,834 rows per pass, so 4,000 rows take two passes.
    ['two output passes by size', 4000, 70_000, 8],
  ];

  it.each(shapes)('cosineMatrix equals the CPU kernel and the TS twin: %s', (_name, m, n, d) => {
    const a = randomMatrix(m * 7 + d, m, d);
    const b = randomMatrix(n * 11 + d, n, d);
    const r = onBoth(() => cosineMatrix(a, b, d));
    expectClose(r.cuda, r.cpu, 1e-4, 2e-6, 'cuda vs cpu');
    if (m * n <= 100_000) expectClose(r.cuda, cosineMatrixTs(a, b, d), 1e-4, 2e-6, 'cuda vs ts');
  });

  it('cosineMatrix: zero vectors give 0 (never NaN), the diagonal of a with itself is 1', () => {
    const a = randomMatrix(5, 40, 9);
    a.fill(0, 4 * 9, 5 * 9);
    useBackend('cuda');
    const s = cosineMatrix(a, a, 9);
    expect(s.some(Number.isNaN)).toBe(false);
    for (let j = 0; j < 40; j++) expect(s[4 * 40 + j]).toBe(0);
    for (let i = 0; i < 40; i++) if (i !== 4) expect(Math.abs(s[i * 40 + i] - 1)).toBeLessThan(1e-5);
  });

  it('topK equals the CPU kernel for k = 1, 10, 64 (the device limit), 65 (handed to the CPU) and k > n', () => {
    const q = randomMatrix(3, 50, 20);
    const c = randomMatrix(4, 3000, 20);
    for (const k of [1, 10, 64, 65, 5000]) {
      const r = onBoth(() => topK(q, c, 20, k));
      expect(r.cuda.k).toBe(Math.min(k, 3000));
      expectSameTopK(r.cuda, r.cpu);
    }
    useBackend('cuda');
    expectSameTopK(topK(q, c, 20, 10), topKTs(q, c, 20, 10));
  });

  it('topK across query blocks (> 2,048 queries) and corpus chunks (> 65,536 rows) equals the CPU kernel', () => {
    const q = randomMatrix(11, 2100, 16);
    const c = randomMatrix(12, 70_000, 16);
    const r = onBoth(() => topK(q, c, 16, 10));
    expectSameTopK(r.cuda, r.cpu);
    // The running list carried from the first chunk must survive the second: a query whose best
    // neighbour sits in chunk one and whose second best sits in chunk two.
    const c2 = randomMatrix(13, 70_000, 16);
    const probe = c2.slice(100 * 16, 101 * 16);
    c2.set(
      probe.map((v, i) => v + (i === 0 ? 1e-3 : 0)),
      69_000 * 16,
    );
    const r2 = onBoth(() => topK(probe, c2, 16, 2));
    expect(Array.from(r2.cuda.indices)).toEqual([100, 69_000]);
    expectSameTopK(r2.cuda, r2.cpu);
  });

  it('topK: duplicate corpus rows tie and keep index order (also across chunks); zero rows score 0', () => {
    const d = 12;
    const c = randomMatrix(8, 70_000, d);
    for (const j of [50, 120, 66_000, 69_999]) c.copyWithin(j * d, 7 * d, 8 * d);
    c.fill(0, 0, d);
    const q = c.slice(7 * d, 8 * d);
    useBackend('cuda');
    const r = topK(q, c, d, 5);
    expect(Array.from(r.indices)).toEqual([7, 50, 120, 66_000, 69_999]);
    expect(Math.abs(r.scores[0] - 1)).toBeLessThan(1e-5);
    const small = c.subarray(0, 300 * d);
    const all = topK(q, small, d, 64);
    expect(all.scores.some(Number.isNaN)).toBe(false);
    const zero = all.indices.indexOf(0);
    if (zero >= 0) expect(all.scores[zero]).toBe(0);
  });

  it("CosineIndex on CUDA gives the CPU kernel's neighbours", () => {
    const c = randomMatrix(90, 20_000, 50);
    const q = randomMatrix(91, 300, 50);
    const index = new CosineIndex(c, 50);
    const r = onBoth(() => index.topK(q, 8));
    expectSameTopK(r.cuda, r.cpu);
  });

  it('is deterministic: the same inputs give the same bytes twice', () => {
    const q = randomMatrix(21, 500, 100);
    const c = randomMatrix(22, 40_000, 100);
    useBackend('cuda');
    const a = topK(q, c, 100, 10);
    const b = topK(q, c, 100, 10);
    expect(Buffer.from(a.indices.buffer).equals(Buffer.from(b.indices.buffer))).toBe(true);
    expect(Buffer.from(a.scores.buffer).equals(Buffer.from(b.scores.buffer))).toBe(true);
    const s1 = cosineMatrix(q.subarray(0, 50 * 100), c, 100);
    const s2 = cosineMatrix(q.subarray(0, 50 * 100), c, 100);
    expect(Buffer.from(s1.buffer).equals(Buffer.from(s2.buffer))).toBe(true);
  });
});
