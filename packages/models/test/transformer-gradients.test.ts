// Gradients of a real transformer graph (the kit's tiny-bert-spam fixture and its model_grad.onnx),
// validated from TypeScript alone: finite differences of the graph's own logits along each token's
// embedding, the logits against model.onnx, and batching against one-at-a-time runs.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isGradientProvider, XtrustError } from '@xtrust/core';
import { OnnxClassifier } from '../src/index.js';
import { OnnxGradientGraph } from '../src/onnx-gradients.js';
import { encodeBatch, loadLocalTokenizer } from '../src/hf-tokenizer-loader.js';
import { kitFixture } from '../../../models/transformers/fixture-paths.js';

const TEXTS = ['Click here to win FREE money now!!!', 'Please send me the project report before the meeting tomorrow.'];

describe('transformer gradients from onnx/model_grad.onnx (tiny-bert-spam)', () => {
  let dir: string;
  let model: OnnxClassifier;
  let graph: OnnxGradientGraph;
  let idsOf: (text: string) => number[];

  beforeAll(async () => {
    dir = kitFixture('tiny-bert-spam');
    model = await OnnxClassifier.load(dir, { threads: 1 });
    graph = await OnnxGradientGraph.load(join(dir, 'onnx/model_grad.onnx'), model.labels.length, 'test', 1);
    const tokenizer = await loadLocalTokenizer(dir, 'test');
    idsOf = (text) => encodeBatch(tokenizer, [text]).ids[0];
  });
  afterAll(async () => {
    await model?.release();
    await graph?.release();
  });

  it('the folder with a gradient graph makes OnnxClassifier a GradientProvider', () => {
    expect(isGradientProvider(model)).toBe(true);
    expect(model.gradientGraphPath).toBe(join(dir, 'onnx/model_grad.onnx'));
  });

  it('the gradient graph at scale 1 gives model.onnx logits (softmax within 1e-5)', async () => {
    const k = model.labels.length;
    const probs = await model.predictProba(TEXTS);
    for (let i = 0; i < TEXTS.length; i++) {
      const ids = idsOf(TEXTS[i]);
      const { logits } = await graph.run(ids, new Float32Array(ids.length).fill(1), new Float32Array(k), false);
      const max = Math.max(...logits);
      const z = Array.from(logits, (l) => Math.exp(l - max));
      const sum = z.reduce((a, b) => a + b, 0);
      for (let c = 0; c < k; c++) expect(Math.abs(z[c] / sum - probs[i * k + c])).toBeLessThan(1e-5);
    }
  });

  it('logit gradients match central finite differences along each token embedding (embedding_scale)', async () => {
    const k = model.labels.length;
    const h = 1e-2;
    for (const text of TEXTS) {
      const ids = idsOf(text);
      const T = ids.length;
      for (const alpha of [1, 0.4]) {
        for (let c = 0; c < k; c++) {
          const g = await model.inputGradients!(text, c, { scales: [alpha], output: 'logit' });
          const dim = g.dim;
          // All perturbations in one batched run: row 2t is token t at α+h, row 2t+1 at α−h.
          const scales = new Float32Array(2 * T * T);
          for (let r = 0; r < 2 * T; r++) {
            for (let t = 0; t < T; t++) scales[r * T + t] = g.tokens[t].special ? 1 : alpha;
          }
          const rows: number[] = [];
          for (let t = 0; t < T; t++) {
            if (g.tokens[t].special) continue;
            scales[2 * t * T + t] = alpha + h;
            scales[(2 * t + 1) * T + t] = alpha - h;
            rows.push(t);
          }
          const { logits } = await graph.run(ids, scales, new Float32Array(2 * T * k), false);
          let worst = 0;
          let scale = 0;
          for (const t of rows) {
            const fd = (logits[2 * t * k + c] - logits[(2 * t + 1) * k + c]) / (2 * h);
            let analytic = 0; // d/dα_t of logit = ∇_{scaled e_t} · e_t
            for (let j = 0; j < dim; j++) analytic += g.gradients[t * dim + j] * g.inputs[t * dim + j];
            worst = Math.max(worst, Math.abs(fd - analytic));
            scale = Math.max(scale, Math.abs(analytic));
          }
          expect(rows.length).toBeGreaterThan(3);
          expect(scale).toBeGreaterThan(1e-3);
          expect(worst).toBeLessThan(2e-3 + 2e-2 * scale);
        }
      }
    }
  });

  it('probability gradients match finite differences of the softmax', async () => {
    const text = TEXTS[0];
    const ids = idsOf(text);
    const T = ids.length;
    const k = model.labels.length;
    const h = 1e-2;
    const g = await model.inputGradients!(text, 1, { output: 'probability' });
    const scales = new Float32Array(2 * T * T).fill(1);
    for (let t = 0; t < T; t++) {
      scales[2 * t * T + t] = g.tokens[t].special ? 1 : 1 + h;
      scales[(2 * t + 1) * T + t] = g.tokens[t].special ? 1 : 1 - h;
    }
    const { logits } = await graph.run(ids, scales, new Float32Array(2 * T * k), false);
    const p1 = (r: number) => {
      const a = Array.from(logits.subarray(r * k, (r + 1) * k));
      const m = Math.max(...a);
      const e = a.map((l) => Math.exp(l - m));
      return e[1] / e.reduce((x, y) => x + y, 0);
    };
    for (let t = 0; t < T; t++) {
      if (g.tokens[t].special) continue;
      let analytic = 0;
      for (let j = 0; j < g.dim; j++) analytic += g.gradients[t * g.dim + j] * g.inputs[t * g.dim + j];
      const fd = (p1(2 * t) - p1(2 * t + 1)) / (2 * h);
      expect(Math.abs(fd - analytic)).toBeLessThan(2e-4 + 2e-2 * Math.abs(analytic));
    }
  });

  it('batched scales equal one scale per call; special tokens are flagged, zero-input and at offsets', async () => {
    const text = TEXTS[1];
    const both = await model.inputGradients!(text, 0, { scales: [0.3, 1] });
    const a = await model.inputGradients!(text, 0, { scales: [0.3] });
    const b = await model.inputGradients!(text, 0, { scales: [1] });
    const n = a.gradients.length;
    for (let j = 0; j < n; j++) {
      expect(Math.abs(both.gradients[j] - a.gradients[j])).toBeLessThan(1e-5);
      expect(Math.abs(both.gradients[n + j] - b.gradients[j])).toBeLessThan(1e-5);
    }
    const T = both.tokens.length;
    expect(both.tokens[0].special).toBe(true);
    expect(both.tokens[T - 1].special).toBe(true);
    for (const t of [0, T - 1])
      expect(both.inputs.subarray(t * both.dim, (t + 1) * both.dim).every((v) => v === 0)).toBe(true);
    for (const tok of both.tokens.filter((x) => !x.special))
      expect(text.slice(tok.start, tok.end).toLowerCase()).toBe(tok.text.toLowerCase());
    expect(
      both.tokens
        .filter((x) => !x.special)
        .map((x) => x.text.toLowerCase())
        .join(' '),
    ).toContain('project');
  });

  it('rejects a bad label index and bad scales with XtrustError', async () => {
    await expect(model.inputGradients!('free money', 5)).rejects.toMatchObject({ code: 'UNKNOWN_LABEL' });
    await expect(model.inputGradients!('free money', 0, { scales: [Number.NaN] })).rejects.toBeInstanceOf(XtrustError);
    await expect(model.inputGradients!('free money', 0, { output: 'x' as 'logit' })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
  });

  it('a folder without model_grad.onnx is not a GradientProvider; a named gradient file must exist', async () => {
    const copy = mkdtempSync(join(tmpdir(), 'xtrust-nograd-'));
    try {
      cpSync(dir, copy, { recursive: true });
      rmSync(join(copy, 'onnx/model_grad.onnx'));
      const plain = await OnnxClassifier.load(copy);
      expect(isGradientProvider(plain)).toBe(false);
      expect(plain.gradientGraphPath).toBeNull();
      await plain.release();
      await expect(OnnxClassifier.load(copy, { gradientFile: 'onnx/model_grad.onnx' })).rejects.toMatchObject({
        code: 'FILE_NOT_FOUND',
      });
      // A graph without the contract's inputs is refused by name on first use.
      const wrong = await OnnxClassifier.load(copy, { gradientFile: 'onnx/model.onnx' });
      await expect(wrong.inputGradients!('free money', 0)).rejects.toMatchObject({ code: 'UNSUPPORTED' });
      await wrong.release();
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });
});
