import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Classifier, Explainer, Explanation } from '@xtrust/core';
import { explainAll } from '../src/index.js';
import { LinearBow, LinearContributionExplainer } from './fixtures.js';

const coef = { goal: [1, -1], bread: [-1, 1] };
const model = new LinearBow(['sports', 'food'], coef);
const texts = ['goal', 'bread', 'goal goal', 'bread goal bread', 'goal bread goal', 'bread bread'];
const keys = texts.map((_, i) => `t${i}`);

/** Explains like LinearContributionExplainer but fails on its `failAt`-th call (a crash mid-run). */
class CrashingExplainer implements Explainer {
  readonly name = 'linear-contribution';
  calls = 0;
  explained: string[] = [];
  private readonly inner = new LinearContributionExplainer(coef);
  constructor(private readonly failAt: number) {}
  async explain(classifier: Classifier, batch: readonly string[]): Promise<Explanation[]> {
    this.calls++;
    if (this.calls === this.failAt) throw new Error('killed');
    this.explained.push(...batch);
    return this.inner.explain(classifier, batch);
  }
}

describe('explainAll with a checkpoint', () => {
  it('resumes after a crash without losing or repeating work', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'oracle-ckpt-')), 'explanations.jsonl');
    const first = new CrashingExplainer(2);
    await expect(explainAll(first, model, texts, keys, { batchSize: 2, checkpoint: file })).rejects.toThrow(/killed/);
    expect((await readFile(file, 'utf8')).trim().split('\n')).toHaveLength(2);
    const second = new CrashingExplainer(0);
    const progress: number[] = [];
    const out = await explainAll(second, model, texts, keys, {
      batchSize: 2,
      checkpoint: file,
      onProgress: (p) => progress.push(p.done),
    });
    expect(second.explained).toEqual(texts.slice(2)); // the first two came from the checkpoint
    expect(progress[0]).toBe(2);
    expect(out.map((e) => e.text)).toEqual(texts);
    expect(out).toEqual(await new LinearContributionExplainer(coef).explain(model, texts));
    expect((await readFile(file, 'utf8')).trim().split('\n')).toHaveLength(6);
  });

  it('refuses a checkpoint made for other texts under the same keys', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'oracle-ckpt-')), 'explanations.jsonl');
    await explainAll(new LinearContributionExplainer(coef), model, texts, keys, { checkpoint: file });
    const other = texts.map((t) => `${t} goal`);
    await expect(
      explainAll(new LinearContributionExplainer(coef), model, other, keys, { checkpoint: file }),
    ).rejects.toThrow(/explains another text for key t0/);
  });

  it('checks the explainer answers one explanation per text', async () => {
    const short: Explainer = { name: 'short', explain: async () => [] };
    await expect(explainAll(short, model, texts, keys)).rejects.toThrow(/returned 0 explanations for 6 texts/);
  });

  it('batchSeconds: starts with one text a call, then sizes calls by the rate seen, with the same explanations', async () => {
    /** Records each call's size; `delayMs` per text makes it slow. */
    class Recording implements Explainer {
      readonly name = 'linear-contribution';
      sizes: number[] = [];
      private readonly inner = new LinearContributionExplainer(coef);
      constructor(private readonly delayMs: number) {}
      async explain(classifier: Classifier, batch: readonly string[]): Promise<Explanation[]> {
        this.sizes.push(batch.length);
        if (this.delayMs > 0) await new Promise((r) => setTimeout(r, this.delayMs * batch.length));
        return this.inner.explain(classifier, batch);
      }
    }
    const many = Array.from({ length: 40 }, (_, i) => texts[i % texts.length]);
    const manyKeys = many.map((_, i) => `m${i}`);
    const want = await new LinearContributionExplainer(coef).explain(model, many);
    // a fast explainer: one text, then full batches
    const fast = new Recording(0);
    expect(await explainAll(fast, model, many, manyKeys, { batchSize: 16, batchSeconds: 1e6 })).toEqual(want);
    expect(fast.sizes).toEqual([1, 16, 16, 7]);
    // ≥ 20 ms a text against a 1 ms bound: one text a call, each checkpointed as it comes
    const slow = new Recording(20);
    const file = join(await mkdtemp(join(tmpdir(), 'oracle-ckpt-')), 'explanations.jsonl');
    expect(
      await explainAll(slow, model, many.slice(0, 5), manyKeys.slice(0, 5), { batchSeconds: 0.001, checkpoint: file }),
    ).toEqual(want.slice(0, 5));
    expect(slow.sizes).toEqual([1, 1, 1, 1, 1]);
    expect((await readFile(file, 'utf8')).trim().split('\n')).toHaveLength(5);
    await expect(explainAll(fast, model, texts, keys, { batchSeconds: 0 })).rejects.toThrow(
      /batchSeconds must be a positive number of seconds, got 0/,
    );
  });
});
