import { XtrustError } from './errors.js';

/**
 * A seeded pseudo-random generator: xoshiro128** (Blackman & Vigna, 2018), 128-bit state seeded
 * from a 32-bit integer through SplitMix32 so that nearby seeds give unrelated streams. Pure 32-bit
 * integer arithmetic (Math.imul), so the stream is identical on every platform and backend.
 */
export interface Rng {
  /** The seed this generator was created with. */
  readonly seed: number;
  /** Next unsigned 32-bit integer. */
  nextUint32(): number;
  /** Uniform double in [0, 1) with 53 random bits. */
  float(): number;
  /** Uniform integer in [0, n). */
  int(n: number): number;
  /** Standard normal (Box–Muller, both halves used). */
  normal(): number;
  /** Fisher–Yates shuffle in place; returns the array. */
  shuffle<T>(items: T[]): T[];
  /** `k` distinct indices from [0, n), in selection order (partial Fisher–Yates, O(n)). */
  sampleIndices(n: number, k: number): Int32Array;
  /** A generator on an independent stream derived from this one (for parallel work). */
  fork(): Rng;
}

function splitmix32(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
}

const rotl = (x: number, k: number) => ((x << k) | (x >>> (32 - k))) >>> 0;

/** Creates a seeded generator (xoshiro128**). The seed must be an integer; it is taken modulo 2^32. */
export function rng(seed: number): Rng {
  if (!Number.isInteger(seed)) {
    throw new XtrustError('INVALID_ARGUMENT', `rng(seed): seed must be an integer, got ${String(seed)}`, {
      argument: 'seed',
    });
  }
  const sm = splitmix32(seed);
  const s = new Uint32Array([sm(), sm(), sm(), sm()]);
  if ((s[0] | s[1] | s[2] | s[3]) === 0) s[0] = 1; // the all-zero state is a fixed point
  let spare: number | null = null;

  const nextUint32 = () => {
    const result = Math.imul(rotl(Math.imul(s[1], 5) >>> 0, 7), 9) >>> 0;
    const t = (s[1] << 9) >>> 0;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 11);
    return result;
  };
  const float = () => ((nextUint32() >>> 5) * 67108864 + (nextUint32() >>> 6)) / 9007199254740992;
  const int = (n: number) => {
    if (!Number.isInteger(n) || n <= 0)
      throw new XtrustError('INVALID_ARGUMENT', `rng.int(n): n must be a positive integer, got ${n}`);
    if (n <= 0x100000000) {
      // Lemire-style rejection for an unbiased draw
      const limit = 0x100000000 - (0x100000000 % n);
      let x = nextUint32();
      while (x >= limit) x = nextUint32();
      return x % n;
    }
    return Math.floor(float() * n);
  };
  const gen: Rng = {
    seed: seed >>> 0,
    nextUint32,
    float,
    int,
    normal() {
      if (spare !== null) {
        const v = spare;
        spare = null;
        return v;
      }
      let u = 0;
      while (u === 0) u = float();
      const v = float();
      const r = Math.sqrt(-2 * Math.log(u));
      spare = r * Math.sin(2 * Math.PI * v);
      return r * Math.cos(2 * Math.PI * v);
    },
    shuffle<T>(items: T[]) {
      for (let i = items.length - 1; i > 0; i--) {
        const j = int(i + 1);
        const tmp = items[i];
        items[i] = items[j];
        items[j] = tmp;
      }
      return items;
    },
    sampleIndices(n: number, k: number) {
      if (k > n || k < 0)
        throw new XtrustError('INVALID_ARGUMENT', `rng.sampleIndices: cannot draw ${k} distinct indices from ${n}`);
      const pool = new Int32Array(n);
      for (let i = 0; i < n; i++) pool[i] = i;
      for (let i = 0; i < k; i++) {
        const j = i + int(n - i);
        const tmp = pool[i];
        pool[i] = pool[j];
        pool[j] = tmp;
      }
      return pool.slice(0, k);
    },
    fork() {
      return rng(nextUint32() | 0);
    },
  };
  return gen;
}
