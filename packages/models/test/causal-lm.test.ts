// The causal LM of the model kit (tiny-gpt2, GPT-2 architecture over the shared WordPiece vocabulary):
// perplexity from onnxruntime-node, checked against a direct graph run and for padding invariance.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as ort from 'onnxruntime-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CausalLanguageModel } from '../src/index.js';
import { kitFixture } from '../../../models/transformers/fixture-paths.js';

const FLUENT = [
  'The committee will meet in the office on Monday morning.',
  'Please send me the report before the end of the week.',
  'He said that the government would not raise taxes this year.',
  'She walked to the station and waited for the last train.',
];
// The same words in a seeded shuffled order: the fluent texts must read as more probable.
const SHUFFLED = [
  'Monday the office will morning meet committee on the in.',
  'week the me before send report of the end Please the.',
  'taxes would He government that this raise year said not the.',
  'train last station the She for and the waited walked to.',
];

describe('CausalLanguageModel on tiny-gpt2', () => {
  let lm: CausalLanguageModel;
  let dir: string;
  beforeAll(async () => {
    dir = kitFixture('tiny-gpt2');
    lm = await CausalLanguageModel.load(dir, { batchSize: 3 });
  });
  afterAll(async () => lm?.release());

  it('ids start with [CLS] (beginning of sequence) and end with [SEP], as the kit contract says', () => {
    const vocab = JSON.parse(readFileSync(join(dir, 'tokenizer.json'), 'utf8')).model.vocab as Record<string, number>;
    const ids = lm.tokenIds('Of committee');
    expect(ids[0]).toBe(vocab['[CLS]']);
    expect(ids[ids.length - 1]).toBe(vocab['[SEP]']);
    expect(ids.slice(1, -1)).toEqual([vocab.of, vocab.committee]);
  });

  it('perplexity = exp(−mean log p(x_t | x_<t)) over positions after the first, from a direct unbatched run', async () => {
    const session = await ort.InferenceSession.create(join(dir, 'onnx/model.onnx'));
    try {
      const [pp] = await lm.perplexity([FLUENT[1]]);
      const ids = lm.tokenIds(FLUENT[1]);
      const T = ids.length;
      const feeds: Record<string, ort.Tensor> = {
        input_ids: new ort.Tensor('int64', BigInt64Array.from(ids, BigInt), [1, T]),
      };
      if (session.inputNames.includes('attention_mask'))
        feeds.attention_mask = new ort.Tensor('int64', new BigInt64Array(T).fill(1n), [1, T]);
      const { logits } = await session.run(feeds);
      const V = logits.dims[2];
      const data = logits.data as Float32Array;
      let nll = 0;
      for (let t = 1; t < T; t++) {
        const row = Array.from(data.subarray((t - 1) * V, t * V));
        const m = Math.max(...row);
        const lse = m + Math.log(row.reduce((s, x) => s + Math.exp(x - m), 0));
        nll -= row[ids[t]] - lse;
      }
      expect(pp).toBeCloseTo(Math.exp(nll / (T - 1)), 6);
    } finally {
      await session.release();
    }
  });

  it("batching and right padding do not change a text's perplexity", async () => {
    const texts = ['ok', ...FLUENT, ''];
    const together = await lm.perplexity(texts);
    for (let i = 0; i < texts.length; i++) {
      const [alone] = await lm.perplexity([texts[i]]);
      expect(Math.abs(alone - together[i]) / alone).toBeLessThan(1e-5);
      expect(together[i]).toBeGreaterThan(1);
    }
  });

  it('reads fluent English as more probable than the same words shuffled', async () => {
    const pp = await lm.perplexity([...FLUENT, ...SHUFFLED]);
    for (let i = 0; i < FLUENT.length; i++) expect(pp[i]).toBeLessThan(pp[FLUENT.length + i]);
  });

  it('refuses a folder that is not a causal LM, naming what it found', async () => {
    await expect(CausalLanguageModel.load(kitFixture('tiny-bert-spam'))).rejects.toMatchObject({ code: 'UNSUPPORTED' });
    await expect(CausalLanguageModel.load(join(dir, 'nothing-here'))).rejects.toMatchObject({ code: 'FILE_NOT_FOUND' });
    await expect(lm.perplexity([3 as unknown as string])).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });
});
