import { describe, expect, it } from 'vitest';
import { isXtrustError } from '@xtrust/core';
import { BuiltinClassifier, Vocabulary } from '../src/index.js';
import { baseInputs, relaxedLogits } from '../src/gradients.js';
import { KINDS, maxAbsDiff, trainToy } from './helpers.js';

const TEXT = 'Good film, good fun, but the plot was dull and xyzzy boring.';

function probs(z: Float64Array): Float64Array {
  const m = Math.max(...z);
  const e = z.map((v) => Math.exp(v - m));
  const s = e.reduce((a, b) => a + b, 0);
  return e.map((v) => v / s);
}

describe('inputGradients', () => {
  it('log1p bag-of-words logistic: d logit / d presence = W[v,c] / (1 + count) by hand', async () => {
    const m = new BuiltinClassifier('bow-logistic', ['a', 'b'], new Vocabulary(['good', 'bad']), {
      input: { kind: 'bag-of-words', vocabSize: 2, transform: 'log1p' },
      layers: [{ inDim: 2, outDim: 2, weight: Float32Array.of(1, -1, -2, 2), bias: Float32Array.of(0.5, 0) }],
    });
    const g = await m.inputGradients('good GOOD bad zebra', 0, { output: 'logit' });
    expect(g.dim).toBe(1);
    expect(g.tokens.map((t) => t.text)).toEqual(['good', 'GOOD', 'bad', 'zebra']);
    expect(Array.from(g.inputs)).toEqual([1, 1, 1, 0]);
    expect(Array.from(g.gradients)).toEqual([1 / 3, 1 / 3, -2 / 2, 0].map((v) => expect.closeTo(v, 6)));
    // Binary: x_v is the mean presence of v's tokens, so each of n_v tokens carries W[v,c] / n_v.
    const b = new BuiltinClassifier('bow-logistic', ['a', 'b'], m.vocabulary, {
      ...m.toNet(),
      input: { kind: 'bag-of-words', vocabSize: 2, transform: 'binary' },
    });
    const gb = await b.inputGradients('good GOOD bad zebra', 1, { output: 'logit' });
    expect(Array.from(gb.gradients)).toEqual([-1 / 2, -1 / 2, 2, 0].map((v) => expect.closeTo(v, 6)));
  });

  it.each(KINDS)('%s: the relaxed forward pass at scale 1 is the model', async (kind) => {
    const m = await trainToy(kind);
    const net = m.toNet();
    const ids = m.tokenIds(TEXT);
    const p = probs(relaxedLogits(net, ids, baseInputs(net, ids)));
    expect(maxAbsDiff(p, await m.predictProba([TEXT]))).toBeLessThan(1e-6);
  });

  for (const kind of KINDS) {
    for (const output of ['probability', 'logit'] as const) {
      it(`${kind}: analytic ${output} gradients match central finite differences at several scales`, async () => {
        const m = await trainToy(kind, kind === 'bow-logistic' ? {} : { transform: 'binary' });
        const net = m.toNet();
        const ids = m.tokenIds(TEXT);
        const base = baseInputs(net, ids);
        const scales = [1, 0.5, 0.1];
        const c = 1;
        const g = await m.inputGradients(TEXT, c, { scales, output });
        const T = ids.length;
        expect(g.tokens.length).toBe(T);
        expect(g.gradients.length).toBe(scales.length * T * g.dim);
        const f = (x: Float64Array) =>
          output === 'logit' ? relaxedLogits(net, ids, x)[c] : probs(relaxedLogits(net, ids, x))[c];
        const eps = 1e-4;
        let worst = 0;
        let largest = 0;
        scales.forEach((alpha, si) => {
          const x = base.map((v) => v * alpha);
          for (let j = 0; j < x.length; j++) {
            const up = x.slice();
            up[j] += eps;
            const down = x.slice();
            down[j] -= eps;
            const fd = (f(up) - f(down)) / (2 * eps);
            const an = g.gradients[si * x.length + j];
            worst = Math.max(worst, Math.abs(fd - an));
            largest = Math.max(largest, Math.abs(an));
          }
        });
        expect(largest).toBeGreaterThan(1e-3); // a non-trivial gradient
        expect(worst).toBeLessThan(1e-5 + 1e-3 * largest);
        // Tokens outside the vocabulary have no input and no gradient.
        const unknown = g.tokens.findIndex((t) => t.text === 'xyzzy');
        expect(ids[unknown]).toBe(-1);
        for (let d = 0; d < g.dim; d++) expect(g.gradients[unknown * g.dim + d]).toBe(0);
      });
    }
  }

  it('embedding-mlp: the input vectors are the word vectors', async () => {
    const m = await trainToy('embedding-mlp');
    const g = await m.inputGradients('good film', 0);
    const net = m.toNet();
    if (net.input.kind !== 'mean-embedding') throw new Error('expected mean-embedding');
    const id = m.vocabulary.id('good');
    expect(Array.from(g.inputs.subarray(0, g.dim))).toEqual(
      Array.from(net.input.embeddings.subarray(id * g.dim, (id + 1) * g.dim)),
    );
  });

  it('rejects an unknown label index and bad scales', async () => {
    const m = await trainToy('bow-logistic');
    await expect(m.inputGradients(TEXT, 2)).rejects.toSatisfy((e) => isXtrustError(e, 'UNKNOWN_LABEL'));
    await expect(m.inputGradients(TEXT, 0, { scales: [NaN] })).rejects.toThrow(/scales\[0\]/);
  });

  it('an empty text has no tokens and no gradients', async () => {
    const m = await trainToy('bow-mlp');
    const g = await m.inputGradients('', 0);
    expect(g.tokens).toEqual([]);
    expect(g.gradients.length).toBe(0);
  });
});
