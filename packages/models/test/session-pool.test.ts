// Parallel scoring sessions (OnnxClassifierOptions.sessions, session-pool.ts): the kit's tiny-bert-spam
// scored through two worker-thread sessions gives the same bytes as one session, float and int8, on
// LIME-style masks of corpus texts; bad settings are named; a released pool lets the process exit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rng, tokenize } from '@xtrust/core';
import { loadSpamAssassin } from '@xtrust/datasets';
import { OnnxClassifier } from '../src/index.js';
import { kitFixture } from '../../../models/transformers/fixture-paths.js';

/** LIME-style masks: each row keeps each word with probability 1/2 (row 0 keeps all). */
function masks(words: number, rows: number, seed: number): Uint8Array {
  const r = rng(seed);
  const m = new Uint8Array(rows * words);
  for (let i = 0; i < m.length; i++) m[i] = i < words || r.float() < 0.5 ? 1 : 0;
  return m;
}

describe('OnnxClassifier with parallel scoring sessions', () => {
  const texts = loadSpamAssassin()
    .rows.map((row) => row.text)
    .filter((t) => tokenize(t).length >= 30)
    .slice(0, 3)
    .map((t) => t.split(/\s+/).slice(0, 120).join(' '));
  const dir = kitFixture('tiny-bert-spam');
  let one: OnnxClassifier;
  let two: OnnxClassifier;
  beforeAll(async () => {
    one = await OnnxClassifier.load(dir, { threads: 1 });
    two = await OnnxClassifier.load(dir, { threads: 2, sessions: 2 });
  });
  afterAll(async () => {
    await one?.release();
    await two?.release();
  });

  it('scores token masks of corpus texts to the same bytes as one session, with batches in flight on both', async () => {
    for (const [i, text] of texts.entries()) {
      const m = masks(tokenize(text).length, 300, i + 1);
      const a = await one.scoreTokenMasks(text, m, 300);
      const runsBefore = two.scoringStats.runs;
      const b = await two.scoreTokenMasks(text, m, 300);
      expect(
        Buffer.from(b.buffer, b.byteOffset, b.byteLength).equals(Buffer.from(a.buffer, a.byteOffset, a.byteLength)),
      ).toBe(true);
      expect(two.scoringStats.runs - runsBefore).toBeGreaterThan(2);
    }
    const p = await two.predictProba(texts);
    expect(Array.from(p)).toEqual(Array.from(await one.predictProba(texts)));
  });

  it('int8 through the pool equals int8 on one session', async () => {
    const q1 = await OnnxClassifier.load(dir, { threads: 1, quantize: 'int8' });
    const q2 = await OnnxClassifier.load(dir, { threads: 2, sessions: 2, quantize: 'int8' });
    try {
      const m = masks(tokenize(texts[0]).length, 200, 9);
      expect(Array.from(await q2.scoreTokenMasks(texts[0], m, 200))).toEqual(
        Array.from(await q1.scoreTokenMasks(texts[0], m, 200)),
      );
    } finally {
      await q1.release();
      await q2.release();
    }
  });

  it('names a bad sessions count', async () => {
    await expect(OnnxClassifier.load(dir, { sessions: 0 })).rejects.toThrow(/sessions/);
    await expect(OnnxClassifier.load(dir, { sessions: 1.5 })).rejects.toThrow(/sessions/);
  });
});
