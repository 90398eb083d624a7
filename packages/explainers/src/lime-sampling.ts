import type { Rng } from '@xtrust/core';

/** LIME's neighbourhood of one text: binary rows over its d features, row 0 the unperturbed text. */
export interface LimeSamples {
  /** rows×d row-major, 1 = feature kept. */
  readonly data: Uint8Array;
  readonly rows: number;
  readonly d: number;
  /** Number of kept features in each row. */
  readonly kept: Int32Array;
}

/**
 * Samples LIME's neighbourhood as the reference `LimeTextExplainer.__data_labels_distances` does
 * (Ribeiro et al., 2016, §3.3): row 0 keeps every feature; every other row draws how many features
 * to remove uniformly from [1, d] (numpy's `randint(1, d + 1)`), then removes that many distinct
 * features chosen uniformly. Uses the seeded xtrust generator, so streams differ from numpy's.
 */
export function sampleLimeMasks(d: number, rows: number, r: Rng): LimeSamples {
  const data = new Uint8Array(rows * d).fill(1);
  const kept = new Int32Array(rows);
  kept[0] = d;
  // A persistent pool for partial Fisher–Yates: any permutation as the starting point still gives a
  // uniformly random subset, and no allocation happens per row. When more than half the features go,
  // the features to keep are drawn instead (a uniform subset either way), halving the draws.
  const pool = new Int32Array(d);
  for (let i = 0; i < d; i++) pool[i] = i;
  const half = d >> 1;
  for (let row = 1; row < rows; row++) {
    const removed = 1 + boundedInt(r, d);
    const base = row * d;
    const drawRemoved = removed <= half;
    const draws = drawRemoved ? removed : d - removed;
    if (!drawRemoved) data.fill(0, base, base + d);
    const mark = drawRemoved ? 0 : 1;
    for (let j = 0; j < draws; j++) {
      const k = j + boundedInt(r, d - j);
      const tmp = pool[j];
      pool[j] = pool[k];
      pool[k] = tmp;
      data[base + pool[j]] = mark;
    }
    kept[row] = d - removed;
  }
  return { data, rows, d, kept };
}

/**
 * LIME's neighbourhood drawn with balanced removals (issue 49: the same answer from fewer model calls):
 * every row has the reference sampler's distribution — row 0 the unperturbed text, then a number of
 * features to remove uniform on [1, d] and a uniformly random subset of that size — but the rows are not
 * independent. The sizes are drawn without replacement from 1..d (reshuffled when used up), and each row
 * removes the features removed least often so far, ties broken at random (a shuffled order walked block by
 * block; a block that runs past its end takes the rest, then starts a new shuffled pass without them), so
 * the features' removal counts never differ by more than one. A stratified design whose ridge targets the
 * same local model as independent rows, with less variance from which features happened to be drawn. Not
 * the reference's stream: an explanation made with it is compared with exact LIME in apps/bench.
 */
export function sampleBalancedLimeMasks(d: number, rows: number, r: Rng): LimeSamples {
  const data = new Uint8Array(rows * d).fill(1);
  const kept = new Int32Array(rows);
  kept[0] = d;
  const order = new Int32Array(d);
  for (let i = 0; i < d; i++) order[i] = i;
  shuffleRange(order, 0, d, r);
  const sizes = new Int32Array(d);
  for (let i = 0; i < d; i++) sizes[i] = i + 1;
  let nextSize = d; // used up: shuffled before the first row
  let at = 0; // order[at..d) are the features not yet removed in this pass
  for (let row = 1; row < rows; row++) {
    if (nextSize === d) {
      shuffleRange(sizes, 0, d, r);
      nextSize = 0;
    }
    const removed = sizes[nextSize++];
    const base = row * d;
    if (at + removed <= d) {
      for (let j = at; j < at + removed; j++) data[base + order[j]] = 0;
      at += removed;
    } else {
      // the rest of this pass, then `more` drawn from the features this pass had already removed
      for (let j = at; j < d; j++) data[base + order[j]] = 0;
      const more = removed - (d - at);
      for (let j = 0; j < more; j++) {
        const k = j + boundedInt(r, at - j);
        const t = order[j];
        order[j] = order[k];
        order[k] = t;
        data[base + order[j]] = 0;
      }
      // a new pass in which those `more` are already removed
      shuffleRange(order, more, d, r);
      at = more;
    }
    kept[row] = d - removed;
  }
  return { data, rows, d, kept };
}

/** Fisher–Yates over a[from..to) with the bounded generator below. */
function shuffleRange(a: Int32Array, from: number, to: number, r: Rng): void {
  for (let i = to - 1; i > from; i--) {
    const k = from + boundedInt(r, i - from + 1);
    const t = a[i];
    a[i] = a[k];
    a[k] = t;
  }
}

const TWO32 = 4294967296;

/**
 * Uniform integer in [0, n) for n ≤ 2^21 by Lemire's multiply-shift with rejection ("Fast Random
 * Integer Generation in an Interval", 2019): x·n is exact in a double, so it is unbiased and needs a
 * division only on the rare rejection path.
 */
function boundedInt(r: Rng, n: number): number {
  let m = r.nextUint32() * n;
  let low = m >>> 0; // ToUint32: m mod 2^32, exact for integers below 2^53
  if (low < n) {
    const t = TWO32 % n;
    while (low < t) {
      m = r.nextUint32() * n;
      low = m >>> 0;
    }
  }
  return Math.floor(m / TWO32);
}

/**
 * Cosine distance ×100 between each binary row and the all-ones row 0, as the reference computes with
 * `pairwise_distances(x, x[0], metric='cosine') * 100`: for a row keeping k of d features the cosine
 * similarity is k / (√k·√d) = √(k/d); an empty row has similarity 0 (scikit-learn's convention for a
 * zero vector), so distance 100.
 */
export function limeDistances(kept: Int32Array, d: number): Float64Array {
  const out = new Float64Array(kept.length);
  for (let i = 0; i < kept.length; i++) {
    const k = kept[i];
    out[i] = k === 0 ? 100 : (1 - Math.sqrt(k / d)) * 100;
  }
  return out;
}

/** The reference text kernel `sqrt(exp(-d² / width²))` (default width 25). */
export function limeKernel(distances: Float64Array, width: number): Float64Array {
  const out = new Float64Array(distances.length);
  const w2 = width * width;
  for (let i = 0; i < distances.length; i++) out[i] = Math.sqrt(Math.exp(-(distances[i] * distances[i]) / w2));
  return out;
}
