import { describe, expect, it } from 'vitest';
import type { AttentionMap } from '@xtrust/core';
import { AttentionExplainer, attentionWordScores, meanAttentionMap } from '../src/index.js';
import { LinearBowModel, SubwordModel } from './models.js';

describe('AttentionExplainer (003 §3.3)', () => {
  it('averages heads, drops specials, averages sub-words, takes the column mean — by hand', async () => {
    const model = new SubwordModel();
    const text = 'big elephant';
    // tokens: [CLS]0 big1 ele2 ##phant3 [SEP]4
    const [map] = await model.attentions([text]);
    const A = (i: number, j: number) => (map.weights[i * 5 + j] + map.weights[25 + i * 5 + j]) / 2;
    // words: big = {1}, elephant = {2, 3}; block means then column mean over the two word rows
    const block = (p: number[], q: number[]) => {
      let s = 0;
      for (const i of p) for (const j of q) s += A(i, j);
      return s / (p.length * q.length);
    };
    const big = (block([1], [1]) + block([2, 3], [1])) / 2;
    const elephant = (block([1], [2, 3]) + block([2, 3], [2, 3])) / 2;
    const scores = attentionWordScores(text, map);
    expect(scores[0]).toBeCloseTo(big, 6);
    expect(scores[1]).toBeCloseTo(elephant, 6);
    const [exp] = await new AttentionExplainer().explain(model, [text]);
    expect(exp.method).toBe('attention');
    expect(exp.features.find((f) => f.word === 'big')!.weight).toBeCloseTo(big, 6);
    expect(exp.features.find((f) => f.word === 'elephant')!.weight).toBeCloseTo(elephant, 6);
  });

  it('averages the occurrences of a word in bag-of-words mode', async () => {
    const model = new SubwordModel();
    const text = 'the cat and the dog';
    const pos = attentionWordScores(text, (await model.attentions([text]))[0]);
    const [exp] = await new AttentionExplainer().explain(model, [text]);
    expect(exp.features.find((f) => f.word === 'the')!.weight).toBeCloseTo((pos[0] + pos[3]) / 2, 6);
    expect(exp.features.length).toBe(4);
    const [byPos] = await new AttentionExplainer().explain(model, [text], { bow: false });
    expect(byPos.features.length).toBe(5);
  });

  it('asks for attentions in batches of batchSize and keeps text order', async () => {
    const model = new SubwordModel();
    let calls = 0;
    const counting = Object.assign(Object.create(model) as SubwordModel, {
      attentions: (texts: readonly string[]) => {
        calls++;
        return model.attentions(texts);
      },
    });
    const texts = ['big elephant', 'the cat and the dog', 'tiny mouse'];
    const batched = await new AttentionExplainer().explain(counting, texts, { batchSize: 2 });
    expect(calls).toBe(2);
    const alone = await new AttentionExplainer().explain(model, [texts[2]]);
    expect(batched[2]).toEqual(alone[0]);
  });

  it('refuses a classifier without attentions', async () => {
    await expect(new AttentionExplainer().explain(new LinearBowModel({}), ['a b'])).rejects.toMatchObject({
      code: 'UNSUPPORTED',
    });
  });

  it('averages the maps of every layer element-wise (a hand-made 2-layer tensor), and layers: mean explains with that map', async () => {
    const tokens = [
      { text: '[CLS]', start: 0, end: 0, special: true },
      { text: 'a', start: 0, end: 1, special: false },
      { text: 'b', start: 2, end: 3, special: false },
    ];
    // 1 head, 3×3 maps; layer 0 and layer 1 by hand
    const l0: AttentionMap = {
      tokens,
      heads: 1,
      weights: Float32Array.from([0.2, 0.3, 0.5, 0.1, 0.6, 0.3, 0.4, 0.4, 0.2]),
    };
    const l1: AttentionMap = {
      tokens,
      heads: 1,
      weights: Float32Array.from([0.6, 0.1, 0.3, 0.5, 0.2, 0.3, 0.0, 0.8, 0.2]),
    };
    const mean = meanAttentionMap([l0, l1]);
    expect(Array.from(mean.weights)).toEqual(
      Array.from(Float32Array.from([0.4, 0.2, 0.4, 0.3, 0.4, 0.3, 0.2, 0.6, 0.2])),
    );
    expect(mean.heads).toBe(1);
    // word scores of the mean map: column means over the word rows (a, b): a = (0.4 + 0.6)/2, b = (0.3 + 0.2)/2
    const scores = attentionWordScores('a b', mean);
    expect(scores[0]).toBeCloseTo(0.5, 6);
    expect(scores[1]).toBeCloseTo(0.25, 6);
    // linear: the mean of the layers' word scores
    const s0 = attentionWordScores('a b', l0);
    const s1 = attentionWordScores('a b', l1);
    expect(scores[0]).toBeCloseTo((s0[0] + s1[0]) / 2, 6);
    expect(() => meanAttentionMap([])).toThrow(/no attention maps/);
    expect(() =>
      meanAttentionMap([l0, { tokens: tokens.slice(0, 2), heads: 1, weights: new Float32Array(4) }]),
    ).toThrow(/layer 1 has 1 heads × 2 tokens/);

    const model = new SubwordModel();
    const text = 'big elephant';
    const [last] = await model.attentions([text]);
    // a second layer: the last one's weights reversed within each row
    const T = last.tokens.length;
    const other = new Float32Array(last.weights.length);
    for (let r = 0; r < last.weights.length / T; r++)
      for (let j = 0; j < T; j++) other[r * T + j] = last.weights[r * T + (T - 1 - j)];
    const layered = Object.assign(Object.create(model) as SubwordModel, {
      layerAttentions: async (texts: readonly string[]) => texts.map(() => [{ ...last, weights: other }, last]),
    });
    const [exp] = await new AttentionExplainer({ layers: 'mean' }).explain(layered, [text]);
    const want = attentionWordScores(text, meanAttentionMap([{ ...last, weights: other }, last]));
    expect(exp.features.find((f) => f.word === 'big')!.weight).toBeCloseTo(want[0], 6);
    expect(exp.features.find((f) => f.word === 'elephant')!.weight).toBeCloseTo(want[1], 6);
    expect(exp.params.layer).toBe('mean');
    await expect(new AttentionExplainer({ layers: 'mean' }).explain(model, [text])).rejects.toMatchObject({
      code: 'UNSUPPORTED',
    });
  });
});
