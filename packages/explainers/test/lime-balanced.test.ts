import { rng } from '@xtrust/core';
import { describe, expect, it } from 'vitest';
import { LimeExplainer, sampleBalancedLimeMasks, sampleLimeMasks } from '../src/index.js';
import { LinearBowModel } from './models.js';

/** How often each of the d features is removed over rows 1..rows−1. */
function removals(s: { data: Uint8Array; rows: number; d: number }): number[] {
  const out = new Array(s.d).fill(0);
  for (let r = 1; r < s.rows; r++) for (let c = 0; c < s.d; c++) out[c] += 1 - s.data[r * s.d + c];
  return out;
}

describe('balanced LIME sampling (LimeOptions.sampler "balanced")', () => {
  it('draws each size of 1..d once per d rows, and removes a block of distinct features of that size', () => {
    const d = 7;
    const s = sampleBalancedLimeMasks(d, 1 + 3 * d, rng(3));
    expect(Array.from(s.data.subarray(0, d))).toEqual(new Array(d).fill(1));
    expect(s.kept[0]).toBe(d);
    for (let pass = 0; pass < 3; pass++) {
      const sizes: number[] = [];
      for (let r = 1 + pass * d; r <= (pass + 1) * d; r++) {
        let kept = 0;
        for (let c = 0; c < d; c++) kept += s.data[r * d + c];
        expect(kept).toBe(s.kept[r]);
        sizes.push(d - kept);
      }
      expect(sizes.sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    }
  });

  it('has the reference distribution per row: sizes uniform on [1, d], every feature removed as often', () => {
    const d = 4;
    const s = sampleBalancedLimeMasks(d, 20001, rng(7));
    const counts = removals(s);
    // E[size] / d = 2.5 / 4 of the 20,000 rows, as the independent sampler (lime.test.ts)
    for (const c of counts) expect(Math.abs(c / 20000 - 0.625)).toBeLessThan(0.015);
  });

  it("keeps any two features' removal counts within one of each other, unlike independent rows", () => {
    const d = 60;
    const spread = (xs: number[]) => Math.max(...xs) - Math.min(...xs);
    for (const rows of [2, 7, 61, 301, 1000]) {
      const s = sampleBalancedLimeMasks(d, rows, rng(rows));
      expect(spread(removals(s)), `${rows} rows`).toBeLessThanOrEqual(1);
    }
    // the reference sampler with the same seed and size: counts apart by tens
    expect(spread(removals(sampleLimeMasks(d, 301, rng(301))))).toBeGreaterThan(10);
  });

  it('is seeded: the same seed gives the same explanation, and the option is recorded', async () => {
    const model = new LinearBowModel({ great: 1.2, good: 0.6, bad: -0.9, awful: -1.4 });
    const text = 'a great film with good acting, a bad script and an awful ending, but great music';
    const lime = new LimeExplainer({ numSamples: 800, seed: 5, sampler: 'balanced' });
    const [a] = await lime.explain(model, [text]);
    const [b] = await lime.explain(model, [text]);
    expect(a.features).toEqual(b.features);
    expect(a.params.sampler).toBe('balanced');
    // a linear bag-of-words model: the four weighted words lead, in the order of their effect (great twice: 2.4 in logit)
    expect(a.features.slice(0, 4).map((f) => f.word)).toEqual(['great', 'awful', 'bad', 'good']);
    const [r] = await new LimeExplainer({ numSamples: 800, seed: 5 }).explain(model, [text]);
    expect(r.params.sampler).toBeUndefined();
  });

  it('refuses an unknown sampler by name', async () => {
    const model = new LinearBowModel({ good: 1 });
    await expect(new LimeExplainer({ sampler: 'sobol' as never }).explain(model, ['good and fine'])).rejects.toThrow(
      /sampler must be "random" or "balanced", got "sobol"/,
    );
  });
});
