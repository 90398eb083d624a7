import { describe, expect, it } from 'vitest';
import { AllButTheTopEmbedding, StaticEmbedding, principalDirections, rowNorms } from '../src/index.js';

/**
 * A 3-d toy vocabulary whose vectors share a large common component (z = 5), like GloVe's common
 * direction: a = (3,1,5), b = (1,1,5), c = (3,2,5), d = (1,2,5).
 * Mean μ = (2, 1.5, 5); centred: a' = (1,−.5,0), b' = (−1,−.5,0), c' = (1,.5,0), d' = (−1,.5,0).
 * Covariance (÷4): var x = 1, var y = 0.25, cov xy = 0, z constant → u1 = (1,0,0) (variance 1),
 * u2 = (0,1,0) (variance 0.25).
 */
function toy(): StaticEmbedding {
  const words = ['a', 'b', 'c', 'd'];
  const matrix = Float32Array.from([3, 1, 5, 1, 1, 5, 3, 2, 5, 1, 2, 5]);
  return new StaticEmbedding('toy', { words, dim: 3, matrix, norms: rowNorms(matrix, 3) });
}

async function cos(
  e: { vectors(w: readonly string[]): Promise<Float32Array>; dim: number },
  x: string,
  y: string,
): Promise<number> {
  const v = await e.vectors([x, y]);
  const d = e.dim;
  let s = 0;
  let nx = 0;
  let ny = 0;
  for (let k = 0; k < d; k++) {
    s += v[k] * v[d + k];
    nx += v[k] ** 2;
    ny += v[d + k] ** 2;
  }
  return s / Math.sqrt(nx * ny);
}

describe('all-but-the-top post-processing (Mu & Viswanath 2018) on a hand-computed example', () => {
  it('finds the mean and the principal directions with their variances', () => {
    const matrix = Float32Array.from([3, 1, 5, 1, 1, 5, 3, 2, 5, 1, 2, 5]);
    const p = principalDirections(matrix, 4, 3, 2);
    expect(Array.from(p.mean)).toEqual([2, 1.5, 5]);
    expect(p.variances[0]).toBeCloseTo(1, 10);
    expect(p.variances[1]).toBeCloseTo(0.25, 10);
    expect(Array.from(p.directions.slice(0, 3)).map((x) => (Math.abs(x) < 1e-9 ? 0 : x))).toEqual([1, 0, 0]);
    expect(Array.from(p.directions.slice(3, 6)).map((x) => (Math.abs(x) < 1e-9 ? 0 : x))).toEqual([0, 1, 0]);
  });

  it('raw cosines are inflated by the common component; centring and removing the top direction give the hand values', async () => {
    const raw = toy();
    // raw: cos(a,b) = (3·1 + 1·1 + 25) / (√35 · √27) = 29 / √945
    expect(await cos(raw, 'a', 'b')).toBeCloseTo(29 / Math.sqrt(945), 6); // 0.9434
    // centring only (D = 0): cos(a',b') = (−1 + .25) / 1.25 = −0.6; cos(a',c') = 0.6; cos(a',d') = −1
    const centred = await AllButTheTopEmbedding.fit(raw, { components: 0 });
    expect(centred.name).toBe('toy+abtt0');
    expect(await cos(centred, 'a', 'b')).toBeCloseTo(-0.6, 6);
    expect(await cos(centred, 'a', 'c')).toBeCloseTo(0.6, 6);
    expect(await cos(centred, 'a', 'd')).toBeCloseTo(-1, 6);
    // D = 1 removes u1 = (1,0,0): a'' = b'' = (0,−.5,0), c'' = d'' = (0,.5,0)
    const abtt = await AllButTheTopEmbedding.fit(raw, { components: 1 });
    expect(abtt.name).toBe('toy+abtt1');
    expect(Array.from(await abtt.vectors(['a', 'c'])).map((x) => (Math.abs(x) < 1e-6 ? 0 : x))).toEqual([
      0, -0.5, 0, 0, 0.5, 0,
    ]);
    expect(await cos(abtt, 'a', 'b')).toBeCloseTo(1, 6);
    expect(await cos(abtt, 'a', 'c')).toBeCloseTo(-1, 6);
    expect(abtt.has('a')).toBe(true);
    expect(abtt.has('zebra')).toBe(false);
  });

  it('defaults to D = max(1, round(dim/100)) and refuses what it cannot estimate', async () => {
    expect((await AllButTheTopEmbedding.fit(toy())).components).toBe(1);
    await expect(AllButTheTopEmbedding.fit(toy(), { components: 4 })).rejects.toThrow(
      /4 known words cannot estimate 4 principal directions/,
    );
    const notStatic = {
      name: 'fn',
      dim: 3,
      has: () => true,
      vectors: async (w: readonly string[]) => new Float32Array(w.length * 3),
    };
    await expect(AllButTheTopEmbedding.fit(notStatic)).rejects.toThrow(/no enumerable vocabulary/);
    expect(() => principalDirections(new Float32Array(3), 1, 3, 1)).toThrow(/at least 2 vectors/);
  });
});
