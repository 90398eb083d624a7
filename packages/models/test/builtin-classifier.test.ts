import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isGradientProvider, isTokenScorer, isXtrustError, rng, tokenize } from '@xtrust/core';
import { BuiltinClassifier, Vocabulary } from '../src/index.js';
import { KINDS, maxAbsDiff, trainToy } from './helpers.js';

const tmp = mkdtempSync(join(tmpdir(), 'xtrust-models-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** vocabulary good, bad; W rows good = [1, −1], bad = [−2, 2]; b = [0.5, 0]. */
function tinyModel(transform: 'binary' | 'log1p') {
  return new BuiltinClassifier('bow-logistic', ['a', 'b'], new Vocabulary(['good', 'bad']), {
    input: { kind: 'bag-of-words', vocabSize: 2, transform },
    layers: [{ inDim: 2, outDim: 2, weight: Float32Array.of(1, -1, -2, 2), bias: Float32Array.of(0.5, 0) }],
  });
}

const softmax2 = (z0: number, z1: number) => [1 / (1 + Math.exp(z1 - z0)), 1 / (1 + Math.exp(z0 - z1))];

describe('Vocabulary', () => {
  it('keeps words by count (then code point), honours minCount and maxSize, lower-cases', () => {
    const v = Vocabulary.build(['B a a', 'b c A', 'd'], { minCount: 2 });
    expect(v.words).toEqual(['a', 'b']);
    expect(Vocabulary.build(['B a a', 'b c A', 'd'], { minCount: 1, maxSize: 3 }).words).toEqual(['a', 'b', 'c']);
    expect(Array.from(v.tokenIds('A, zz b!'))).toEqual([0, -1, 1]);
  });
  it('rejects duplicate words and bad options', () => {
    expect(() => new Vocabulary(['x', 'x'])).toThrow(/appears twice/);
    expect(() => Vocabulary.build(['x'], { minCount: 0 })).toThrow(/minCount/);
  });
});

describe('BuiltinClassifier forward pass', () => {
  it('log1p bag-of-words matches a hand computation', async () => {
    const p = await tinyModel('log1p').predictProba(['Good good, bad! unknown']);
    // counts good = 2, bad = 1 → x = [ln 3, ln 2]
    const z0 = 0.5 + Math.log(3) - 2 * Math.log(2);
    const z1 = -Math.log(3) + 2 * Math.log(2);
    expect(Array.from(p)).toEqual(softmax2(z0, z1).map((v) => expect.closeTo(v, 6)));
    expect(p[0]).toBeCloseTo(0.481168, 5);
  });
  it('binary bag-of-words matches a hand computation', async () => {
    const p = await tinyModel('binary').predictProba(['good good bad']);
    expect(Array.from(p)).toEqual(softmax2(0.5 + 1 - 2, -1 + 2).map((v) => expect.closeTo(v, 6)));
  });
  it('an empty text (or one with no known word) gets the bias-only prediction', async () => {
    const m = tinyModel('log1p');
    const p = await m.predictProba(['', '?!', 'zebra']);
    const prior = softmax2(0.5, 0);
    for (let r = 0; r < 3; r++) expect([p[2 * r], p[2 * r + 1]]).toEqual(prior.map((v) => expect.closeTo(v, 6)));
  });
  it('rejects texts that are not an array of strings', async () => {
    const m = tinyModel('log1p');
    await expect(m.predictProba('good' as unknown as string[])).rejects.toThrow(/texts must be an array of strings/);
    await expect(m.predictProba(['ok', 3 as unknown as string])).rejects.toThrow(/texts\[1\] is number/);
  });
  it('rejects a net that does not fit the labels', () => {
    expect(
      () =>
        new BuiltinClassifier(
          'bow-logistic',
          ['a', 'b', 'c'],
          new Vocabulary(['good', 'bad']),
          tinyModel('log1p').toNet(),
        ),
    ).toThrow(/3 labels/);
  });
});

describe('TokenScorer', () => {
  it.each(KINDS)('%s: scoreTokenMasks equals predictProba on the rebuilt text', async (kind) => {
    const m = await trainToy(kind);
    expect(isTokenScorer(m)).toBe(true);
    const text = 'The film was GOOD, good fun... but the plot: awful & dull; xyzzy actor!';
    const tokens = tokenize(text);
    const T = tokens.length;
    const rows = 40;
    const r = rng(11);
    const masks = new Uint8Array(rows * T);
    for (let i = 0; i < masks.length; i++) masks[i] = r.float() < 0.6 ? 1 : 0;
    masks.fill(1, 0, T); // row 0: the whole text
    masks.fill(0, T, 2 * T); // row 1: nothing kept
    const scored = await m.scoreTokenMasks(text, masks, rows);
    const rebuilt = Array.from({ length: rows }, (_, row) =>
      tokens
        .filter((_, t) => masks[row * T + t] !== 0)
        .map((t) => t.text)
        .join(' '),
    );
    const direct = await m.predictProba(rebuilt);
    expect(maxAbsDiff(scored, direct)).toBeLessThan(1e-6);
    expect(maxAbsDiff(scored.subarray(0, 2), await m.predictProba([text]))).toBeLessThan(1e-6);
  });
  it('rejects masks of the wrong length', async () => {
    const m = tinyModel('log1p');
    await expect(m.scoreTokenMasks('good bad', new Uint8Array(3), 1)).rejects.toThrow(/expected rows×tokens = 1×2/);
  });
});

describe('save / load', () => {
  it.each(KINDS)('%s: round-trips to identical predictions, labels and vocabulary', async (kind) => {
    const m = await trainToy(kind);
    const dir = join(tmp, kind);
    await m.save(dir);
    const back = await BuiltinClassifier.load(dir);
    expect(back.kind).toBe(kind);
    expect(back.labels).toEqual(m.labels);
    expect(back.vocabulary.words).toEqual(m.vocabulary.words);
    expect(back.training).toEqual(m.training);
    const texts = ['good fun film', 'awful dull plot', ''];
    expect(Array.from(await back.predictProba(texts))).toEqual(Array.from(await m.predictProba(texts)));
    expect(isGradientProvider(back)).toBe(true);
  });
  it('names the missing file', async () => {
    const dir = join(tmp, 'partial');
    await tinyModel('log1p').save(dir);
    rmSync(join(dir, 'weights.bin'));
    await expect(BuiltinClassifier.load(dir)).rejects.toSatisfy(
      (e) => isXtrustError(e, 'FILE_NOT_FOUND') && /weights\.bin/.test((e as Error).message),
    );
    await expect(BuiltinClassifier.load(join(tmp, 'nowhere'))).rejects.toSatisfy((e) =>
      isXtrustError(e, 'FILE_NOT_FOUND'),
    );
  });
  it('rejects truncated weights and foreign metadata', async () => {
    const dir = join(tmp, 'corrupt');
    await tinyModel('log1p').save(dir);
    writeFileSync(join(dir, 'weights.bin'), Buffer.alloc(8));
    await expect(BuiltinClassifier.load(dir)).rejects.toSatisfy((e) => isXtrustError(e, 'DIMENSION_MISMATCH'));
    writeFileSync(join(dir, 'model.json'), '{"format":"something-else"}');
    await expect(BuiltinClassifier.load(dir)).rejects.toSatisfy((e) => isXtrustError(e, 'INCOMPATIBLE'));
  });
});
