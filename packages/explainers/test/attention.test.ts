import { describe, expect, it } from 'vitest';
import { AttentionExplainer, attentionWordScores } from '../src/index.js';
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
    await expect(new AttentionExplainer().explain(new LinearBowModel({}), ['a b'])).rejects.toMatchObject({ code: 'UNSUPPORTED' });
  });
});
