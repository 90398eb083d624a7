// The length-sorted scoring batches (scoreIdRows): duplicates run once, rows come back in their own
// order, and a positions budget (batchTokens) bounds rows × padded length without changing any result.
import { describe, expect, it } from 'vitest';
import { rng } from '@xtrust/core';
import { DEFAULT_BATCH_ACTIVATIONS, defaultBatchTokens, scoreIdRows, type PaddedBatch } from '../src/length-batches.js';
import type { IdRows } from '../src/masked-ids.js';

function idRows(rows: number[][]): IdRows {
  const offsets = new Int32Array(rows.length + 1);
  rows.forEach((r, i) => (offsets[i + 1] = offsets[i] + r.length));
  return { ids: Int32Array.from(rows.flat()), offsets, rows: rows.length };
}

/** A runner whose two logits depend only on a row's real ids (padding must not matter), recording each batch's shape. */
function recordingRunner(shapes: [number, number][]) {
  return async (b: PaddedBatch): Promise<Float32Array> => {
    shapes.push([b.batch, b.sequence]);
    const out = new Float32Array(b.batch * 2);
    for (let r = 0; r < b.batch; r++) {
      let sum = 0;
      let len = 0;
      for (let j = 0; j < b.sequence; j++) {
        if (b.attentionMask[r * b.sequence + j] === 1n) {
          sum += Number(b.inputIds[r * b.sequence + j]) * (j + 1);
          len++;
        }
      }
      out[r * 2] = (sum % 97) / 10;
      out[r * 2 + 1] = len / 10;
    }
    return out;
  };
}

describe('scoreIdRows', () => {
  it('a positions budget cuts the sorted rows into batches whose rows × padded length stays within it (hand-computed)', async () => {
    const shapes: [number, number][] = [];
    // lengths 5, 1, 4, 2, 3 → sorted 1, 2, 3, 4, 5; budget 6: [1, 2] (2 × 2), then [3] (adding 4 would be 2 × 4 = 8), [4], [5] alone
    const rows = idRows([[9, 8, 7, 6, 5], [3], [4, 4, 4, 4], [1, 2], [7, 7, 7]]);
    await scoreIdRows(rows, 2, recordingRunner(shapes), { batchSize: 32, batchTokens: 6, padId: 0 });
    expect(shapes).toEqual([
      [2, 2],
      [1, 3],
      [1, 4],
      [1, 5],
    ]);
  });

  it('batchSize still bounds the rows; a row longer than the budget runs alone', async () => {
    const shapes: [number, number][] = [];
    const rows = idRows([[1], [2], [3], [4], [5], Array.from({ length: 40 }, (_, i) => i + 1)]);
    await scoreIdRows(rows, 2, recordingRunner(shapes), { batchSize: 2, batchTokens: 10, padId: 0 });
    expect(shapes).toEqual([
      [2, 1],
      [2, 1],
      [1, 1],
      [1, 40],
    ]);
  });

  it('on random rows with duplicates, every budget gives the same probabilities as row batches, each batch within budget', async () => {
    const r = rng(3);
    const distinct = Array.from({ length: 40 }, () => Array.from({ length: 1 + r.int(60) }, () => 1 + r.int(500)));
    const rows = idRows(Array.from({ length: 150 }, () => distinct[r.int(distinct.length)]));
    const reference = await scoreIdRows(rows, 2, recordingRunner([]), { batchSize: 32, padId: 0 });
    for (const budget of [1, 37, 100, 256, 1024, Infinity]) {
      const shapes: [number, number][] = [];
      const stats = { rows: 0, distinct: 0, runs: 0, positions: 0, tokens: 0, runMs: 0 };
      const got = await scoreIdRows(
        rows,
        2,
        recordingRunner(shapes),
        { batchSize: 32, batchTokens: budget, padId: 0 },
        stats,
      );
      expect(Array.from(got)).toEqual(Array.from(reference));
      for (const [b, s] of shapes) expect(b === 1 || b * s <= budget).toBe(true);
      expect(shapes.reduce((n, [b]) => n + b, 0)).toBe(stats.distinct);
      expect(stats.distinct).toBeLessThanOrEqual(40);
      expect(stats.rows).toBe(150);
    }
  });
});

describe('scoreIdRows with batches in flight at once (concurrency)', () => {
  it("runs up to `concurrency` batches at a time and returns the same probabilities in the rows' order, whatever order they finish in", async () => {
    const r = rng(7);
    const distinct = Array.from({ length: 30 }, () => Array.from({ length: 1 + r.int(40) }, () => 1 + r.int(300)));
    const rows = idRows(Array.from({ length: 120 }, () => distinct[r.int(distinct.length)]));
    const reference = await scoreIdRows(rows, 2, recordingRunner([]), { batchSize: 4, padId: 0 });
    const inner = recordingRunner([]);
    for (const concurrency of [2, 3, 50]) {
      let inFlight = 0;
      let most = 0;
      let call = 0;
      // Later batches finish first: each waits less than the one before.
      const slow = async (b: PaddedBatch) => {
        inFlight++;
        most = Math.max(most, inFlight);
        const wait = 12 - (call++ % 12);
        await new Promise((done) => setTimeout(done, wait));
        inFlight--;
        return inner(b);
      };
      const stats = { rows: 0, distinct: 0, runs: 0, positions: 0, tokens: 0, runMs: 0 };
      const got = await scoreIdRows(rows, 2, slow, { batchSize: 4, padId: 0, concurrency }, stats);
      expect(Array.from(got)).toEqual(Array.from(reference));
      expect(most).toBe(Math.min(concurrency, stats.runs));
      expect(stats.rows).toBe(120);
    }
  });
});

describe('defaultBatchTokens', () => {
  it('is the activations bound over the model width: 1,024 positions at 768, 3,072 at 256; row batches only when the width is unknown', () => {
    expect(DEFAULT_BATCH_ACTIVATIONS).toBe(786_432);
    expect(defaultBatchTokens(768)).toBe(1024);
    expect(defaultBatchTokens(256)).toBe(3072);
    expect(defaultBatchTokens(100_000_000)).toBe(1);
    expect(defaultBatchTokens(undefined)).toBe(Infinity);
    expect(defaultBatchTokens(0)).toBe(Infinity);
  });
});
