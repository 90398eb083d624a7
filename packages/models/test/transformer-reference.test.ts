// The kit's fixtures against the PyTorch outputs in their reference.json (written by the kit's build):
// our tokenizer's ids, the classifier's probabilities and last-layer attention, the gradient graph's
// gradients through OnnxClassifier.inputGradients, and the causal LM's perplexities.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CausalLanguageModel, OnnxClassifier, OnnxGradientGraph } from '../src/index.js';
import { encodeBatch, loadLocalTokenizer } from '../src/hf-tokenizer-loader.js';
import { kitFixture } from '../../../models/transformers/fixture-paths.js';

type Matrix = number[][];
interface ClassifierReference {
  tolerance: number;
  labels: string[];
  texts: string[];
  input_ids: Matrix;
  attention_mask: Matrix;
  logits: Matrix;
  attentions: number[][][][][];
  gradient_cases: {
    name: string;
    embedding_scale: Matrix;
    output_weights: Matrix;
    logits: Matrix;
    inputs_embeds: number[][][];
    gradients: number[][][];
  }[];
}

const reference = <T>(dir: string): T => JSON.parse(readFileSync(join(dir, 'reference.json'), 'utf8')) as T;
const unpadded = (ids: number[], mask: number[]) => ids.filter((_, s) => mask[s] === 1);

describe('tiny-bert-spam against its PyTorch reference', () => {
  let dir: string;
  let ref: ClassifierReference;
  let model: OnnxClassifier;
  beforeAll(async () => {
    dir = kitFixture('tiny-bert-spam');
    ref = reference<ClassifierReference>(dir);
    model = await OnnxClassifier.load(dir);
  });
  afterAll(async () => model?.release());

  it('tokenises the reference texts to the reference ids', async () => {
    const tok = await loadLocalTokenizer(dir, 'test');
    const enc = encodeBatch(tok, ref.texts);
    ref.texts.forEach((_, b) => expect(enc.ids[b]).toEqual(unpadded(ref.input_ids[b], ref.attention_mask[b])));
  });

  it("probabilities and the last layer's attention equal PyTorch's (max abs diff ≤ tolerance)", async () => {
    const k = ref.labels.length;
    const probs = await model.predictProba(ref.texts);
    ref.logits.forEach((row, b) => {
      const m = Math.max(...row);
      const z = row.map((l) => Math.exp(l - m));
      const s = z.reduce((a, x) => a + x, 0);
      for (let c = 0; c < k; c++) expect(Math.abs(probs[b * k + c] - z[c] / s)).toBeLessThanOrEqual(ref.tolerance);
    });
    const last = ref.attentions[ref.attentions.length - 1];
    const maps = await model.attentions!(ref.texts);
    maps.forEach((map, b) => {
      const T = map.tokens.length;
      for (let h = 0; h < map.heads; h++) {
        for (let i = 0; i < T; i++)
          for (let j = 0; j < T; j++)
            expect(Math.abs(map.weights[(h * T + i) * T + j] - last[b][h][i][j])).toBeLessThanOrEqual(ref.tolerance);
      }
    });
  });

  it('inputGradients (logit, α = 1) equals the reference autograd gradients of the predicted logit', async () => {
    const c = ref.gradient_cases[0];
    for (let b = 0; b < ref.texts.length; b++) {
      const label = c.output_weights[b].indexOf(1);
      const g = await model.inputGradients!(ref.texts[b], label, { output: 'logit' });
      const T = g.tokens.length;
      let worst = 0;
      for (let t = 0; t < T; t++)
        for (let j = 0; j < g.dim; j++)
          worst = Math.max(worst, Math.abs(g.gradients[t * g.dim + j] - c.gradients[b][t][j]));
      expect(worst).toBeLessThanOrEqual(ref.tolerance);
      // inputs: the unscaled word-piece embeddings, zero for [CLS]/[SEP]
      for (let t = 0; t < T; t++) {
        for (let j = 0; j < g.dim; j++)
          expect(
            Math.abs(g.inputs[t * g.dim + j] - (g.tokens[t].special ? 0 : c.inputs_embeds[b][t][j])),
          ).toBeLessThanOrEqual(ref.tolerance);
      }
    }
  });

  it('the gradient graph at the reference scales and weights (probability, α = 0.5) gives the reference gradients', async () => {
    const graph = await OnnxGradientGraph.load(join(dir, 'onnx/model_grad.onnx'), ref.labels.length, 'test');
    try {
      for (const c of ref.gradient_cases) {
        for (let b = 0; b < ref.texts.length; b++) {
          const ids = unpadded(ref.input_ids[b], ref.attention_mask[b]);
          const T = ids.length;
          const r = await graph.run(
            ids,
            Float32Array.from(c.embedding_scale[b].slice(0, T)),
            Float32Array.from(c.output_weights[b]),
          );
          for (let t = 0; t < T; t++)
            for (let j = 0; j < r.dim; j++)
              expect(Math.abs(r.gradients[t * r.dim + j] - c.gradients[b][t][j])).toBeLessThanOrEqual(ref.tolerance);
          c.logits[b].forEach((l, k) => expect(Math.abs(r.logits[k] - l)).toBeLessThanOrEqual(ref.tolerance));
        }
      }
    } finally {
      await graph.release();
    }
  });
});

describe('tiny-gpt2 against its PyTorch reference', () => {
  it('token ids and perplexities (relative difference ≤ 1e-4)', async () => {
    const dir = kitFixture('tiny-gpt2');
    const ref = reference<{ texts: string[]; input_ids: Matrix; attention_mask: Matrix; perplexity: number[] }>(dir);
    const lm = await CausalLanguageModel.load(dir);
    try {
      ref.texts.forEach((t, b) => expect(lm.tokenIds(t)).toEqual(unpadded(ref.input_ids[b], ref.attention_mask[b])));
      const pp = await lm.perplexity(ref.texts);
      ref.perplexity.forEach((p, b) => expect(Math.abs(pp[b] - p) / p).toBeLessThanOrEqual(1e-4));
    } finally {
      await lm.release();
    }
  });
});
