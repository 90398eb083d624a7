// Long texts are never cut silently (issue 49, item 7): explanations of a text past the model's
// position limit say how many of its words the model saw.
import { tokenize } from '@xtrust/core';
import { OnnxClassifier } from '@xtrust/models';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GradientExplainer, KernelShapExplainer, LimeExplainer, OmissionExplainer } from '../src/index.js';
import { kitFixture } from '../../../models/transformers/fixture-paths.js';
import { LinearBowModel } from './models.js';

/** LinearBowModel that sees only its first `limit` words (a TextLimit, like a transformer's position limit). */
class LimitedModel extends LinearBowModel {
  constructor(readonly limit: number) {
    super({ good: 1, bad: -1 });
  }
  seenWords(text: string): number {
    return Math.min(this.limit, tokenize(text).length);
  }
}

const WORDS = 'please send the quarterly report and claim your free prize before the meeting tomorrow'.split(' ');
const longText = (n: number) => Array.from({ length: n }, (_, i) => WORDS[i % WORDS.length]).join(' ');

describe('explanations say when the model saw only part of the text', () => {
  it('sets seen on a cut text and leaves it out on a whole one (hand-made TextLimit model)', async () => {
    const model = new LimitedModel(5);
    const cut = 'good film bad plot good ending and more words after';
    const whole = 'good film bad plot';
    for (const explainer of [
      new LimeExplainer({ numSamples: 200 }),
      new OmissionExplainer(),
      new KernelShapExplainer({ numSamples: 200 }),
      new GradientExplainer(),
    ]) {
      const [a, b] = await explainer.explain(model, [cut, whole]);
      expect(a.seen).toEqual({ words: 5, of: 10 });
      expect(b.seen).toBeUndefined();
    }
  });

  it('rejects a TextLimit that answers more words than the text has', async () => {
    const model = new LimitedModel(5);
    model.seenWords = () => 99;
    await expect(new OmissionExplainer().explain(model, ['good film bad plot'])).rejects.toMatchObject({
      code: 'BAD_MODEL_OUTPUT',
    });
  });

  describe('on the kit transformer (tiny-bert-spam, 64 positions)', () => {
    let model: OnnxClassifier;
    beforeAll(async () => {
      model = await OnnxClassifier.load(kitFixture('tiny-bert-spam'), { threads: 1 });
    });
    afterAll(async () => model?.release());

    it('LIME (full and candidate) and omission of a 150-word text carry the words the model saw', async () => {
      const text = longText(150);
      const seen = model.seenWords(text);
      expect(seen).toBeLessThan(150);
      const [lime] = await new LimeExplainer({ numSamples: 150, seed: 1 }).explain(model, [text]);
      const [cand] = await new LimeExplainer({ numSamples: 150, seed: 1, candidates: { count: 6 } }).explain(model, [
        text,
      ]);
      const [omission] = await new OmissionExplainer().explain(model, [text]);
      for (const e of [lime, cand, omission]) expect(e.seen).toEqual({ words: seen, of: 150 });
      const [short] = await new OmissionExplainer().explain(model, [longText(12)]);
      expect(short.seen).toBeUndefined();
    });
  });
});
