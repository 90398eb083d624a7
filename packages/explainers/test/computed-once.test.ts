// Issue 30, "computed once": over a TokenScorer, each distinct perturbation mask of a text reaches the
// model once — duplicate rows, the all-absent row, rows an earlier round scored — and a text repeated in
// one call is explained once. Counted on the model's side.
import { tokenize } from '@xtrust/core';
import { describe, expect, it } from 'vitest';
import { KernelShapExplainer, LimeExplainer } from '../src/index.js';
import { LinearBowModel, stringsOnly } from './models.js';

/** LinearBowModel that also counts the all-present and all-absent rows it is sent. */
class CountingModel extends LinearBowModel {
  allPresent = 0;
  allAbsent = 0;
  keys = new Set<string>();
  repeats = 0;
  override async scoreTokenMasks(text: string, masks: Uint8Array, rows: number): Promise<Float32Array> {
    const T = tokenize(text).length;
    for (let r = 0; r < rows; r++) {
      const row = masks.subarray(r * T, (r + 1) * T);
      const kept = row.reduce((a, b) => a + b, 0);
      if (kept === T) this.allPresent++;
      if (kept === 0) this.allAbsent++;
      const key = `${text}|${row.join('')}`;
      if (this.keys.has(key)) this.repeats++;
      this.keys.add(key);
    }
    return super.scoreTokenMasks(text, masks, rows);
  }
}

const WEIGHTS = { good: 0.6, bad: -0.8, fine: 0.3, great: 0.9 };

describe('LIME over a TokenScorer scores each distinct mask once', () => {
  it('sends at most 2^d rows for d distinct words (d = 3: 8 of 1,500), the explanation unchanged against the string path', async () => {
    const model = new CountingModel(WEIGHTS, -0.2);
    const lime = new LimeExplainer({ numSamples: 1500, seed: 5 });
    const [viaTokens] = await lime.explain(model, ['good bad good fine']);
    expect(model.calls.scoreTokenMasks).toBe(1);
    expect(model.calls.rows).toBeLessThanOrEqual(8);
    expect(model.repeats).toBe(0);
    expect(viaTokens.diagnostics!.modelRows).toBe(model.calls.rows);
    const plain = new LinearBowModel(WEIGHTS, -0.2);
    const [viaStrings] = await lime.explain(stringsOnly(plain), ['good bad good fine']);
    expect(plain.calls.rows).toBe(1500); // the string path sends every row, as the reference does
    expect(viaTokens.features).toEqual(viaStrings.features);
  });

  it('sends the all-present row and the all-absent row once per text, however often LIME draws them', async () => {
    const model = new CountingModel(WEIGHTS, 0);
    // d = 4: about a quarter of LIME's rows remove every word
    await new LimeExplainer({ numSamples: 3000, seed: 1 }).explain(model, [
      'good bad fine great',
      'good good bad fine great',
    ]);
    expect(model.allPresent).toBe(2);
    expect(model.allAbsent).toBe(2);
    expect(model.repeats).toBe(0);
  });

  it('never re-sends a row an earlier round scored (adaptive and verdict-driven runs score in rounds)', async () => {
    const model = new CountingModel(WEIGHTS, 0);
    const text = 'good bad fine great movie plot';
    const [a] = await new LimeExplainer({ numSamples: 2000, seed: 4 }).explain(model, [text], {
      adaptive: { step: 100, patience: 2 },
    });
    expect(model.calls.scoreTokenMasks).toBeGreaterThan(1);
    expect(model.repeats).toBe(0);
    expect(model.calls.rows).toBeLessThanOrEqual(64);
    expect(a.diagnostics!.modelRows).toBe(model.calls.rows);
  });

  it('explains a text repeated in one call once, and gives every copy the same explanation', async () => {
    const model = new LinearBowModel(WEIGHTS, 0);
    const lime = new LimeExplainer({ numSamples: 500, seed: 2 });
    const out = await lime.explain(model, ['good bad fine', 'great fine', 'good bad fine']);
    expect(model.calls.scoreTokenMasks).toBe(2);
    expect(out).toHaveLength(3);
    expect(out[2]).toEqual(out[0]);
    const [alone] = await lime.explain(new LinearBowModel(WEIGHTS, 0), ['good bad fine']);
    expect(JSON.stringify(out[0])).toBe(JSON.stringify(alone));
    // with two labels per text, copies come in text order too
    const two = await lime.explain(model, ['great fine', 'good bad fine', 'great fine'], { topLabels: 2 });
    expect(two.map((e) => e.text)).toEqual([
      'great fine',
      'great fine',
      'good bad fine',
      'good bad fine',
      'great fine',
      'great fine',
    ]);
  });
});

describe('Kernel SHAP over a TokenScorer', () => {
  it('sends the full and the empty coalition once and explains a repeated text once', async () => {
    const model = new CountingModel(WEIGHTS, 0);
    const out = await new KernelShapExplainer({ seed: 3 }).explain(model, ['good bad fine', 'good bad fine']);
    expect(model.calls.scoreTokenMasks).toBe(1);
    // d = 3: the budget is every proper coalition (6), plus the full and the empty one
    expect(model.calls.rows).toBe(8);
    expect(model.allPresent).toBe(1);
    expect(model.allAbsent).toBe(1);
    expect(out[1]).toEqual(out[0]);
    expect(out[0].diagnostics!.modelRows).toBe(8);
  });
});
