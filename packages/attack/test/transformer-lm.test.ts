// CEA with the model kit's real language models: candidates from the masked-LM graph (tiny-bert-mlm,
// through transformers.js' fill-mask path, all masks of a block in one pass) and the perplexity input
// distance from the causal LM (tiny-gpt2), attacking the transformer classifier tiny-bert-spam.
import { join } from 'node:path';
import * as ort from 'onnxruntime-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { perplexityDistance } from '@xtrust/metrics';
import { GradientExplainer } from '@xtrust/explainers';
import { CausalLanguageModel, OnnxClassifier, encodeBatch, loadLocalTokenizer } from '@xtrust/models';
import { HfMaskedWordModel, cea, explainWith, robustnessPoint } from '../src/index.js';
import { isSingleToken } from '../src/text.js';
import { kitFixture } from '../../../models/transformers/fixture-paths.js';

const SENTENCE = ['the', 'committee', 'will', 'meet', 'in', 'the', 'office', 'on', 'monday', 'morning'];
const SEPS = ['', ...SENTENCE.map((_, i) => (i === SENTENCE.length - 1 ? '' : ' '))];

describe('masked-LM candidates from tiny-bert-mlm', () => {
  let mlm: HfMaskedWordModel;
  let dir: string;
  beforeAll(async () => {
    dir = kitFixture('tiny-bert-mlm');
    mlm = await HfMaskedWordModel.load(dir);
  });

  it("fills several masks from one pass with the graph's top whole words (checked against a direct onnxruntime run)", async () => {
    const masked = [1, 6];
    const got = await mlm.fill(SENTENCE, SEPS, masked, 5);
    const tok = await loadLocalTokenizer(dir, 'test');
    const text = SENTENCE.map((w, i) => (masked.includes(i) ? '[MASK]' : w)).join(' ');
    const enc = encodeBatch(tok, [text]);
    const session = await ort.InferenceSession.create(join(dir, 'onnx/model.onnx'));
    try {
      const dims = [1, enc.sequence];
      const feeds: Record<string, ort.Tensor> = {
        input_ids: new ort.Tensor('int64', enc.inputIds, dims),
        attention_mask: new ort.Tensor('int64', enc.attentionMask, dims),
      };
      if (session.inputNames.includes('token_type_ids'))
        feeds.token_type_ids = new ort.Tensor('int64', new BigInt64Array(enc.sequence), dims);
      const { logits } = await session.run(feeds);
      const V = logits.dims[2];
      const data = logits.data as Float32Array;
      const vocab = JSON.parse((await import('node:fs')).readFileSync(join(dir, 'tokenizer.json'), 'utf8')).model
        .vocab as Record<string, number>;
      const words = new Map(Object.entries(vocab).map(([w, id]) => [id, w]));
      const maskId = vocab['[MASK]'];
      const positions = enc.ids[0].flatMap((id, t) => (id === maskId ? [t] : []));
      expect(positions.length).toBe(2);
      positions.forEach((t, n) => {
        const order = Array.from({ length: V }, (_, j) => j).sort((a, b) => data[t * V + b] - data[t * V + a]);
        const expected = order
          .map((j) => words.get(j) ?? '')
          .filter((w) => !w.startsWith('##') && !w.startsWith('[') && isSingleToken(w) && w !== SENTENCE[masked[n]])
          .slice(0, 5);
        expect(got[n]).toEqual(expected);
      });
    } finally {
      await session.release();
    }
  });

  it('puts the masked word high among the whole-word pieces in fluent sentences (a trained masked LM)', async () => {
    // The rank of the original word when it is masked, for the words that are whole pieces of the
    // vocabulary (only those can be proposed): far better than chance (thousands of whole words).
    const vocab = JSON.parse((await import('node:fs')).readFileSync(join(dir, 'tokenizer.json'), 'utf8')).model
      .vocab as Record<string, number>;
    const sentences = [
      SENTENCE,
      ['he', 'said', 'that', 'it', 'was', 'one', 'of', 'the', 'best', 'years', 'of', 'his', 'life'],
      ['we', 'will', 'send', 'you', 'a', 'copy', 'of', 'the', 'report', 'by', 'mail'],
    ];
    const ranks: number[] = [];
    for (const words of sentences) {
      const seps = ['', ...words.map((_, i) => (i === words.length - 1 ? '' : ' '))];
      for (let m = 0; m < words.length; m++) {
        if (vocab[words[m]] === undefined) continue;
        // fill never proposes the word in the text; with a stand-in there, the original can be ranked
        const [c] = await mlm.fill(
          words.map((w, i) => (i === m ? 'zzzzzz' : w)),
          seps,
          [m],
          200,
        );
        const r = c.indexOf(words[m]);
        ranks.push(r < 0 ? 200 : r);
      }
    }
    expect(ranks.length).toBeGreaterThanOrEqual(8);
    ranks.sort((a, b) => a - b);
    expect(ranks[Math.floor(ranks.length / 2)]).toBeLessThan(50);
  });
});

describe("CEA on tiny-bert-spam with the kit's masked LM and causal LM", () => {
  let model: OnnxClassifier;
  let lm: CausalLanguageModel;
  let mlm: HfMaskedWordModel;
  beforeAll(async () => {
    model = await OnnxClassifier.load(kitFixture('tiny-bert-spam'));
    lm = await CausalLanguageModel.load(kitFixture('tiny-gpt2'));
    mlm = await HfMaskedWordModel.load(kitFixture('tiny-bert-mlm'));
  });
  afterAll(async () => {
    await model?.release();
    await lm?.release();
  });

  it("proposes masked-LM words, keeps the prediction, and Δ_PP comes from the causal LM's perplexities", async () => {
    const texts = [
      'Click here now to claim your free prize money from our special offer today and win big',
      'Please send me the final project report before the meeting tomorrow morning at the office',
      'We are pleased to offer you a new credit card with no annual fee if you reply today',
    ];
    const probs = await model.predictProba(texts);
    const inputs = texts.map((text, i) => ({ text, label: probs[2 * i + 1] > 0.5 ? 'spam' : 'ham', id: String(i) }));
    const attack = cea(model, { explain: explainWith(new GradientExplainer()), mlm, rhoMax: 0.3 });
    expect(String(attack.describe().candidateSource)).toContain('masked-lm');
    const run = await attack.run(inputs, { seed: 1 });
    expect(run.records).toHaveLength(3);
    for (const r of run.records) {
      expect(['succeeded', 'failed', 'skipped']).toContain(r.status);
      if (r.status !== 'succeeded') continue;
      expect(r.adversarialPrediction).toBe(r.originalPrediction);
      expect(r.perturbedWords).toBeGreaterThan(0);
      expect(r.perturbedWords).toBeLessThanOrEqual(Math.max(1, Math.floor(r.words * 0.3)));
      expect(r.details.attributionDistance).toBeGreaterThan(0);
    }
    const ok = run.records.filter((r) => r.status === 'succeeded');
    expect(ok.length).toBeGreaterThan(0);
    const point = await robustnessPoint('cea', 0.3, run.records, { perplexity: (t) => lm.perplexity(t) });
    const pp = await lm.perplexity([...ok.map((r) => r.original), ...ok.map((r) => r.adversarial!)]);
    const expected =
      ok.map((_, i) => perplexityDistance(pp[ok.length + i], pp[i])).reduce((a, b) => a + b, 0) / ok.length;
    expect(point.deltaPP).toBeCloseTo(expected, 9);
  }, 120_000);
});
