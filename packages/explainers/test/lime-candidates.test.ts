// Candidate-restricted LIME (issue 49): a cheap pass picks the words, LIME samples over them only.
import { rng, tokenize, type Explanation } from '@xtrust/core';
import { setJaccard } from '@xtrust/metrics';
import { trainClassifier } from '@xtrust/models';
import { describe, expect, it } from 'vitest';
import { LimeExplainer, expandCandidateMasks, topCandidates, topWords } from '../src/index.js';
import { LinearBowModel, stringsOnly } from './models.js';

// Only three words carry weight: the exact explanation of this model is those three, by |weight|.
const WEIGHTS = { superb: 2.0, dull: -1.4, lovely: 0.7 };
const TEXT = 'the film was superb and the music lovely but the ending was dull and the plot slow in places';
const WORDS = [...new Set(tokenize(TEXT).map((t) => t.text))];

/** LinearBowModel that keeps a copy of every mask matrix it is asked to score. */
class RecordingModel extends LinearBowModel {
  readonly seen: { masks: Uint8Array; rows: number }[] = [];
  override async scoreTokenMasks(text: string, masks: Uint8Array, rows: number): Promise<Float32Array> {
    this.seen.push({ masks: masks.slice(), rows });
    return super.scoreTokenMasks(text, masks, rows);
  }
}

describe('candidate-restricted LIME on a model whose explanation is known', () => {
  it('picks the three weighted words as candidates, by omission, gradient × input and a short LIME', async () => {
    for (const method of ['omission', 'gradient', 'lime'] as const) {
      const [e] = await new LimeExplainer({ numSamples: 500, seed: 3, candidates: { method, count: 3 } }).explain(
        new LinearBowModel(WEIGHTS),
        [TEXT],
      );
      expect(new Set(e.features.map((f) => f.word))).toEqual(new Set(Object.keys(WEIGHTS)));
      expect(e.params.candidates).toEqual(
        method === 'lime' ? { method, count: 3, samples: 500 } : { method, count: 3 },
      );
      expect(e.diagnostics?.candidates).toBe(3);
      expect(e.diagnostics?.distinctFeatures).toBe(WORDS.length);
    }
  });

  it('holds every non-candidate word present in the sampled rows', async () => {
    const model = new RecordingModel(WEIGHTS);
    await new LimeExplainer({ numSamples: 400, seed: 5, candidates: { count: 3 } }).explain(model, [TEXT]);
    const toks = tokenize(TEXT);
    const T = toks.length;
    // call 0: the unperturbed row; call 1: the omission pass (d leave-one-out rows, row 0 already scored); then LIME's rows
    expect(model.seen[0].rows).toBe(1);
    expect(model.seen[1].rows).toBe(WORDS.length);
    const lime = model.seen.slice(2);
    expect(lime.length).toBeGreaterThan(0);
    let removedCandidates = 0;
    for (const { masks, rows } of lime) {
      for (let r = 0; r < rows; r++) {
        for (let t = 0; t < T; t++) {
          if (toks[t].text in WEIGHTS) removedCandidates += 1 - masks[r * T + t];
          else expect(masks[r * T + t]).toBe(1);
        }
      }
    }
    expect(removedCandidates).toBeGreaterThan(0);
  });

  it('ranks the words as full LIME does, with the sample count that was asked', async () => {
    const model = new LinearBowModel(WEIGHTS);
    const [full] = await new LimeExplainer({ numSamples: 2000, seed: 1 }).explain(model, [TEXT]);
    for (const count of [3, 6]) {
      const [cand] = await new LimeExplainer({ numSamples: 2000, seed: 1, candidates: { count } }).explain(model, [
        TEXT,
      ]);
      expect(topWords(cand, 3)).toEqual(['superb', 'dull', 'lovely']);
      expect(topWords(cand, 3)).toEqual(topWords(full, 3));
      expect(cand.features.length).toBe(count);
      expect(cand.params.numSamples).toBe(2000);
      expect(cand.diagnostics?.samples).toBe(2000);
      // the weights' signs are the model's
      expect(cand.features.find((f) => f.word === 'dull')!.weight).toBeLessThan(0);
      expect(cand.features.find((f) => f.word === 'superb')!.weight).toBeGreaterThan(0);
    }
  });

  it('is byte-identical for the same seed, and differs for another', async () => {
    const run = (seed: number) =>
      new LimeExplainer({ numSamples: 300, seed, candidates: { count: 5 } }).explain(new LinearBowModel(WEIGHTS), [
        TEXT,
        'lovely dull superb the end',
      ]);
    const a = JSON.stringify(await run(9));
    expect(JSON.stringify(await run(9))).toBe(a);
    expect(JSON.stringify(await run(10))).not.toBe(a);
  });

  it('with count ≥ the distinct words, is exactly full LIME (no omission pass)', async () => {
    const model = new RecordingModel(WEIGHTS);
    const [full] = await new LimeExplainer({ numSamples: 600, seed: 2 }).explain(model, [TEXT]);
    const callsBefore = model.seen.length;
    const [cand] = await new LimeExplainer({ numSamples: 600, seed: 2, candidates: { count: 99 } }).explain(model, [
      TEXT,
    ]);
    expect(model.seen.length - callsBefore).toBe(1);
    expect(cand.features).toEqual(full.features);
    expect(cand.diagnostics?.candidates).toBe(WORDS.length);
  });

  it('combines with adaptive stopping: a prefix of the same samples, same top words', async () => {
    const model = new LinearBowModel(WEIGHTS);
    const o = { numSamples: 4000, seed: 6, candidates: { count: 4 } };
    const [exact] = await new LimeExplainer(o).explain(model, [TEXT]);
    const [fast] = await new LimeExplainer({ ...o, adaptive: true }).explain(model, [TEXT]);
    expect(fast.diagnostics?.samples).toBeLessThan(4000);
    expect(topWords(fast, 3)).toEqual(topWords(exact, 3));
    expect(fast.params.candidates).toEqual({ method: 'omission', count: 4 });
  });

  it('agrees between the TokenScorer and the string path', async () => {
    const o = { numSamples: 400, seed: 4, candidates: { count: 4 } };
    const [a] = await new LimeExplainer(o).explain(new LinearBowModel(WEIGHTS), [TEXT]);
    const [b] = await new LimeExplainer(o).explain(stringsOnly(new LinearBowModel(WEIGHTS)), [TEXT]);
    expect(b.features.map((f) => f.word)).toEqual(a.features.map((f) => f.word));
    a.features.forEach((f, i) => expect(b.features[i].weight).toBeCloseTo(f.weight, 5));
  });

  it('expands candidate masks with the other features at 1, and ranks ties by position', () => {
    const cols = Int32Array.from([1, 3]);
    const out = expandCandidateMasks(Uint8Array.from([0, 1, 1, 0]), 2, cols, 4);
    expect(Array.from(out)).toEqual([1, 0, 1, 1, 1, 1, 1, 0]);
    expect(Array.from(topCandidates(Float64Array.from([0.1, 0.5, 0.5, 0.9, 0]), 3))).toEqual([1, 2, 3]);
  });

  it('rejects bad candidate options with an error naming the option', async () => {
    const lime = new LimeExplainer({ numSamples: 50 });
    const model = new LinearBowModel(WEIGHTS);
    const bad: [unknown, string, string][] = [
      [{ count: 1 }, 'candidates.count', 'INVALID_ARGUMENT'],
      [{ count: 2.5 }, 'candidates.count', 'INVALID_ARGUMENT'],
      [{}, 'candidates.count', 'INVALID_ARGUMENT'],
      [{ method: 'shap', count: 4 }, 'candidates.method', 'INVALID_ARGUMENT'],
      [5, 'candidates', 'INVALID_ARGUMENT'],
      [{ count: 4, samples: 100 }, 'candidates.samples', 'INVALID_ARGUMENT'],
      [{ method: 'lime', count: 4, samples: 1 }, 'candidates.samples', 'INVALID_ARGUMENT'],
    ];
    for (const [candidates, argument, code] of bad) {
      await expect(lime.explain(model, [TEXT], { candidates: candidates as { count: number } })).rejects.toMatchObject({
        code,
        details: { argument },
      });
    }
    await expect(
      lime.explain(stringsOnly(model), [TEXT], { candidates: { method: 'gradient', count: 4 } }),
    ).rejects.toMatchObject({ code: 'UNSUPPORTED', details: { argument: 'candidates.method' } });
  });
});

// Agreement on a trained bag-of-words MLP: candidate LIME's top 10 against full LIME's, judged against
// full LIME's own seed-to-seed agreement (issue 49's bound: mean gap ≥ −0.05).
const POS = ['great', 'excellent', 'superb', 'lovely', 'enjoyable', 'brilliant'];
const NEG = ['awful', 'terrible', 'boring', 'dreadful', 'poor', 'dull'];
const FILL = (
  'the film plot actor was and a story it scene music ending of to in that with for on as by ' +
  'at from cast camera score script light sound set voice pace tone'
).split(' ');

function corpus(n: number, seed: number, words: number) {
  const r = rng(seed);
  const pick = (xs: string[]) => xs[r.int(xs.length)];
  const rows: { text: string; label: string }[] = [];
  for (let i = 0; i < n; i++) {
    const label = r.int(2) === 0 ? 'neg' : 'pos';
    const ws: string[] = [];
    for (let j = 0; j < words; j++) ws.push(pick(FILL));
    for (let j = 0; j < 3; j++) ws.splice(r.int(ws.length), 0, pick(label === 'pos' ? POS : NEG));
    if (r.int(2) === 0) ws.splice(r.int(ws.length), 0, pick(label === 'pos' ? NEG : POS));
    rows.push({ text: ws.join(' '), label });
  }
  return rows;
}

const meanJaccard = (a: Explanation[], b: Explanation[]) =>
  a.reduce((s, e, i) => s + setJaccard(topWords(e, 10), topWords(b[i], 10)), 0) / a.length;

const model = await trainClassifier('bow-mlp', corpus(600, 1, 10), {
  seed: 1,
  labels: ['neg', 'pos'],
  maxEpochs: 15,
  hidden: 16,
});
const texts = corpus(30, 77, 40).map((r) => r.text);
const NS = 1000;
const full1 = await new LimeExplainer({ numSamples: NS, seed: 1 }).explain(model, texts);
const full2 = await new LimeExplainer({ numSamples: NS, seed: 2 }).explain(model, texts);
const cand = await new LimeExplainer({ numSamples: NS, seed: 2, candidates: { count: 15 } }).explain(model, texts);
const seedToSeed = meanJaccard(full1, full2);
const agreement = meanJaccard(cand, full1);
const distinct = texts.reduce((s, t) => s + new Set(tokenize(t).map((x) => x.text)).size, 0) / texts.length;

describe('candidate LIME agreement with full LIME (bow-mlp, 30 texts)', () => {
  it(`top-10 Jaccard to full LIME ${agreement.toFixed(3)} vs full LIME seed-to-seed ${seedToSeed.toFixed(3)} (15 of ${distinct.toFixed(1)} words, ${NS} samples)`, () => {
    expect(cand.every((e) => e.diagnostics?.candidates === 15)).toBe(true);
    expect(agreement).toBeGreaterThanOrEqual(seedToSeed - 0.05);
  });
});
