import { XtrustError, cosineMatrixTs, topKTs } from '@xtrust/core';
import { CosineIndex, backendInfo, cosineMatrix, topK, useBackend } from '@xtrust/native';
import { afterAll, describe, expect, it } from 'vitest';
import { expectClose, randomMatrix } from './helpers.js';

const hasNative = backendInfo().available.includes('cpu');
afterAll(() => {
  useBackend('auto');
});

/** Reference top-k by sorting a row of the TS cosine matrix (ties: smaller index first). */
function bruteTopK(q: Float32Array, c: Float32Array, dim: number, k: number) {
  const m = q.length / dim;
  const n = c.length / dim;
  const s = cosineMatrixTs(q, c, dim);
  const kk = Math.min(k, n);
  const indices = new Int32Array(m * kk);
  const scores = new Float32Array(m * kk);
  for (let i = 0; i < m; i++) {
    const order = Array.from({ length: n }, (_, j) => j).sort((a, b) => s[i * n + b] - s[i * n + a] || a - b);
    for (let t = 0; t < kk; t++) {
      indices[i * kk + t] = order[t];
      scores[i * kk + t] = s[i * n + order[t]];
    }
  }
  return { k: kk, indices, scores };
}

/** Same neighbours, allowing swaps only between scores that tie within 1e-5. */
function expectSameTopK(
  a: { k: number; indices: Int32Array; scores: Float32Array },
  b: { k: number; indices: Int32Array; scores: Float32Array },
) {
  expect(a.k).toBe(b.k);
  expectClose(a.scores, b.scores, 1e-4, 1e-6, 'scores');
  for (let i = 0; i < b.indices.length; i++) {
    if (a.indices[i] !== b.indices[i])
      expect(Math.abs(a.scores[i] - b.scores[i]), `index ${i}: ${a.indices[i]} vs ${b.indices[i]}`).toBeLessThan(1e-5);
  }
}

describe('TS twins', () => {
  it('cosineMatrixTs matches the definition, zero vectors give 0 (never NaN)', () => {
    const a = new Float32Array([3, 4, 0, 0, -1, 0]);
    const b = new Float32Array([1, 0, 0, 2, 0, 0]);
    const s = cosineMatrixTs(a, b, 2);
    expectClose(s, [0.6, 0.8, 0, 0, 0, 0, -1, 0, 0], 1e-6, 1e-7);
    expect(s.some(Number.isNaN)).toBe(false);
  });

  it('topKTs equals sorting the cosine matrix, including ties and k > n', () => {
    const c = randomMatrix(1, 40, 7);
    c.copyWithin(10 * 7, 3 * 7, 4 * 7); // row 10 duplicates row 3: a tie broken by the smaller index
    const q = randomMatrix(2, 9, 7);
    q.set(c.subarray(3 * 7, 4 * 7), 0); // query 0 is row 3 itself
    for (const k of [1, 5, 40, 100]) {
      const got = topKTs(q, c, 7, k);
      const want = bruteTopK(q, c, 7, k);
      expect(got.k).toBe(Math.min(k, 40));
      expect(Array.from(got.indices)).toEqual(Array.from(want.indices));
      expect(Array.from(got.scores)).toEqual(Array.from(want.scores));
    }
    const r = topKTs(q, c, 7, 2);
    expect([r.indices[0], r.indices[1]]).toEqual([3, 10]);
  });
});

describe.skipIf(!hasNative)('native CPU kernels equal the TS twins', () => {
  const shapes: [string, number, number, number][] = [
    ['random', 37, 53, 13],
    ['one row', 1, 29, 5],
    ['one column', 23, 31, 1],
    ['wide', 6, 16, 100],
    ['tall corpus', 3, 5000, 24],
  ];

  it.each(shapes)('cosineMatrix: %s', (_name, m, n, d) => {
    useBackend('cpu');
    const a = randomMatrix(m * 7 + d, m, d);
    const b = randomMatrix(n * 11 + d, n, d);
    expectClose(cosineMatrix(a, b, d), cosineMatrixTs(a, b, d), 1e-4, 1e-6, 'cosine');
  });

  it('cosineMatrix of a with itself is exactly symmetric', () => {
    useBackend('cpu');
    const a = randomMatrix(6, 301, 17);
    const s = cosineMatrix(a, a, 17);
    for (let i = 0; i < 301; i++)
      for (let j = 0; j < i; j++) if (s[i * 301 + j] !== s[j * 301 + i]) expect.fail(`[${i}][${j}] differs`);
    expectClose(s, cosineMatrixTs(a, a, 17), 1e-4, 1e-6);
  });

  it('cosineMatrix: zero vectors give 0, never NaN; a with itself gives 1 on the diagonal', () => {
    useBackend('cpu');
    const a = randomMatrix(5, 20, 9);
    a.fill(0, 4 * 9, 5 * 9);
    const s = cosineMatrix(a, a, 9);
    expect(s.some(Number.isNaN)).toBe(false);
    for (let j = 0; j < 20; j++) expect(s[4 * 20 + j]).toBe(0);
    for (let i = 0; i < 20; i++) if (i !== 4) expect(s[i * 20 + i]).toBeCloseTo(1, 5);
    expectClose(s, cosineMatrixTs(a, a, 9), 1e-4, 1e-6);
  });

  it.each(shapes)('topK: %s', (_name, m, n, d) => {
    useBackend('cpu');
    const q = randomMatrix(m + 3, m, d);
    const c = randomMatrix(n + 5, n, d);
    for (const k of [1, 10, n + 7]) expectSameTopK(topK(q, c, d, k), topKTs(q, c, d, k));
  });

  it('topK: duplicate corpus rows tie and keep index order; zero rows score 0', () => {
    useBackend('cpu');
    const c = randomMatrix(8, 300, 12);
    for (const j of [50, 120, 299]) c.copyWithin(j * 12, 7 * 12, 8 * 12);
    c.fill(0, 0, 12);
    const q = c.slice(7 * 12, 8 * 12);
    const r = topK(q, c, 12, 4);
    expect(Array.from(r.indices)).toEqual([7, 50, 120, 299]);
    expect(r.scores[0]).toBeCloseTo(1, 5);
    const all = topK(q, c, 12, 300);
    expect(all.scores.some(Number.isNaN)).toBe(false);
    expect(all.scores[all.indices.indexOf(0)]).toBe(0);
  });

  it('topK: many queries split across threads and corpus chunks agree', () => {
    useBackend('cpu');
    const q = randomMatrix(77, 700, 20);
    const c = randomMatrix(78, 9000, 20);
    expectSameTopK(topK(q, c, 20, 10), topKTs(q, c, 20, 10));
    const one = randomMatrix(79, 1, 20);
    expectSameTopK(topK(one, c, 20, 25), topKTs(one, c, 20, 25));
  });

  it('CosineIndex gives the same neighbours as topK', () => {
    useBackend('cpu');
    const c = randomMatrix(90, 2000, 16);
    const q = randomMatrix(91, 30, 16);
    const index = new CosineIndex(c, 16);
    expect(index.size).toBe(2000);
    expectSameTopK(index.topK(q, 8), topKTs(q, c, 16, 8));
  });
});

describe.each(['ts', 'cpu'] as const)('bad input (%s backend)', (b) => {
  const run = b === 'ts' || hasNative;
  const a = randomMatrix(1, 4, 3);
  it.skipIf(!run)('throws XtrustError naming the argument', () => {
    useBackend(b);
    const bad = (f: () => unknown, argument: string) => {
      try {
        f();
      } catch (e) {
        expect(e).toBeInstanceOf(XtrustError);
        expect((e as XtrustError).details.argument).toBe(argument);
        expect((e as XtrustError).message).toContain(argument.replace(/\[.*$/, ''));
        return;
      }
      expect.fail(`no error for ${argument}`);
    };
    bad(() => cosineMatrix(a, new Float32Array(5), 3), 'b');
    bad(() => cosineMatrix([1, 2, 3] as unknown as Float32Array, a, 3), 'a');
    bad(() => cosineMatrix(a, new Float64Array(6) as unknown as Float32Array, 3), 'b');
    bad(() => cosineMatrix(a, a, 0), 'dim');
    const nan = a.slice();
    nan[5] = NaN;
    bad(() => cosineMatrix(a, nan, 3), 'b');
    bad(() => topK(nan, a, 3, 2), 'queries');
    bad(() => topK(a, nan, 3, 2), 'corpus');
    bad(() => topK(a, a, 3, 0), 'k');
    bad(() => topK(a, a, 3, -1), 'k');
    bad(() => topK(a, a, 3, 1.5), 'k');
    bad(() => topK(a, new Float32Array(0), 3, 1), 'corpus');
    bad(() => topK(a, new Float32Array(7), 3, 1), 'corpus');
    const inf = a.slice();
    inf[0] = Infinity;
    bad(() => new CosineIndex(inf, 3), 'corpus');
  });
});
