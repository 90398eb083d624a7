import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { env, pipeline } from '@huggingface/transformers';
import { isAttentionProvider, isXtrustError, rng, tokenize } from '@xtrust/core';
import { loadSpamAssassin, stratifiedSplit } from '@xtrust/datasets';
import {
  BuiltinClassifier,
  exportOnnx,
  HfClassifier,
  OnnxClassifier,
  trainClassifier,
  Vocabulary,
  type BuiltinKind,
  type TextRow,
} from '../src/index.js';
import { loadLocalTokenizer } from '../src/hf-tokenizer-loader.js';
import { KINDS, maxAbsDiff } from './helpers.js';

const tmp = mkdtempSync(join(tmpdir(), 'xtrust-onnx-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

let train: TextRow[];
let test: TextRow[];
beforeAll(() => {
  // Real e-mails with their headers (the corpus of `xtrust demo`), a seeded stratified split.
  const data = loadSpamAssassin({ headers: true });
  const split = stratifiedSplit(data.rows, { testFraction: 0.2, seed: 3 });
  // The split is grouped by label: shuffle (seeded) before taking a subset that keeps the test fast.
  const r = rng(5);
  train = r.shuffle(split.train.map((x) => ({ text: x.text, label: x.label }))).slice(0, 900);
  test = r.shuffle(split.test.map((x) => ({ text: x.text, label: x.label }))).slice(0, 48);
});

async function trained(kind: BuiltinKind): Promise<BuiltinClassifier> {
  const r = rng(17);
  const words = Vocabulary.build(
    train.map((t) => t.text),
    { minCount: 2, maxSize: 6000 },
  ).words;
  const dim = 16;
  const vectors = Float32Array.from({ length: words.length * dim }, () => r.normal());
  return trainClassifier(kind, train, {
    seed: 1,
    maxEpochs: 2,
    maxVocab: 6000,
    hidden: 32,
    vectors: { words, vectors, dim },
    transform: kind === 'bow-mlp' ? 'binary' : 'log1p',
  });
}

describe('three-way equality: TypeScript, OnnxClassifier, HfClassifier', () => {
  it.each(KINDS)('%s gives the same probabilities on real e-mails (max |Δ| ≤ 1e-5)', async (kind) => {
    const model = await trained(kind);
    const dir = join(tmp, kind);
    await exportOnnx(model, dir);
    const texts = [...test.map((t) => t.text), '', 'zzzz qqqq', 'FREE!!! money, money; click here'];
    const ts = await model.predictProba(texts);
    const onnx = await OnnxClassifier.load(dir, { batchSize: 16 });
    const hf = await HfClassifier.load(dir, { batchSize: 16 });
    expect(onnx.labels).toEqual(model.labels);
    expect(hf.labels).toEqual(model.labels);
    const viaOnnx = await onnx.predictProba(texts);
    const viaHf = await hf.predictProba(texts);
    expect(maxAbsDiff(ts, viaOnnx)).toBeLessThanOrEqual(1e-5);
    expect(maxAbsDiff(ts, viaHf)).toBeLessThanOrEqual(1e-5);
    // The model is not a constant: predictions vary across the e-mails.
    expect(
      Math.max(...ts.filter((_, i) => i % 2 === 0)) - Math.min(...ts.filter((_, i) => i % 2 === 0)),
    ).toBeGreaterThan(0.2);
    // An exported built-in graph has no attention output: not an AttentionProvider.
    expect(isAttentionProvider(onnx)).toBe(false);
    expect(isAttentionProvider(hf)).toBe(false);
    await onnx.release();
  });
});

describe('exported tokenizer.json', () => {
  const tricky = [
    'Hello, WORLD!! foo_bar 42 x2 naïve café Straße — tab\there\nnew line',
    "don't e-mail me at jo.smith@example.com; ÉCOLE Ünïcode 日本語 テスト",
    '  leading and trailing spaces  ',
    'ΟΔΟΣ οδός Σίσυφος',
    '[brackets] (parens) {braces} 3.14 1,000 under_score__double',
    '',
  ];

  it('transformers.js tokenises texts to the ids of xtrust tokens (word i → i + 2, unknown → 1)', async () => {
    const texts = [...tricky, ...test.slice(0, 10).map((t) => t.text)];
    // Known words: the tricky texts and half of the e-mails; the other e-mails bring unknown words.
    const vocab = Vocabulary.build(texts.slice(0, tricky.length + 5), { minCount: 1 });
    const net = {
      input: { kind: 'bag-of-words' as const, vocabSize: vocab.size, transform: 'binary' as const },
      layers: [{ inDim: vocab.size, outDim: 2, weight: new Float32Array(vocab.size * 2), bias: new Float32Array(2) }],
    };
    const dir = join(tmp, 'tokenizer-check');
    await exportOnnx(new BuiltinClassifier('bow-logistic', ['a', 'b'], vocab, net), dir);
    const tokenizer = await loadLocalTokenizer(dir, 'test');
    let unknown = 0;
    for (const text of texts) {
      const expected = Array.from(vocab.tokenIds(text), (id) => (id < 0 ? 1 : id + 2));
      unknown += expected.filter((id) => id === 1).length;
      const got = (tokenizer(text, { return_tensor: false }) as unknown as { input_ids: number[] }).input_ids.map(
        Number,
      );
      expect(got, text.slice(0, 60)).toEqual(expected);
    }
    expect(unknown).toBeGreaterThan(10);
  });

  it('loads through pipeline("text-classification") with remote models disabled and localModelPath set', async () => {
    const model = await trained('bow-logistic');
    const dir = join(tmp, 'pipeline', 'spam-model');
    await exportOnnx(model, dir);
    const saved = { allowRemoteModels: env.allowRemoteModels, localModelPath: env.localModelPath };
    try {
      env.allowRemoteModels = false;
      env.localModelPath = dirname(dir);
      const classify = await pipeline('text-classification', basename(dir), { dtype: 'fp32' });
      const out = (await classify(test[0].text, { top_k: 2 })) as { label: string; score: number }[];
      const p = await model.predictProba([test[0].text]);
      for (const { label, score } of out) expect(score).toBeCloseTo(p[model.labels.indexOf(label)], 5);
    } finally {
      Object.assign(env, saved);
    }
  });
});

describe('bad input', () => {
  let dir: string;
  beforeAll(async () => {
    const r = rng(1);
    const rows: TextRow[] = Array.from({ length: 60 }, (_, i) => ({
      text: `${i % 2 ? 'good' : 'bad'} words ${r.int(5)}`,
      label: i % 2 ? 'pos' : 'neg',
    }));
    const m = await trainClassifier('bow-logistic', rows, { minCount: 1, maxEpochs: 2 });
    dir = join(tmp, 'bad');
    await exportOnnx(m, dir);
  });

  it('a missing folder or file is FILE_NOT_FOUND naming it', async () => {
    await expect(OnnxClassifier.load(join(tmp, 'absent'))).rejects.toSatisfy(
      (e) => isXtrustError(e, 'FILE_NOT_FOUND') && /absent/.test((e as Error).message),
    );
    for (const file of ['tokenizer.json', 'onnx/model.onnx', 'config.json']) {
      const copy = join(tmp, `missing-${basename(file)}`);
      cpSync(dir, copy, { recursive: true });
      rmSync(join(copy, file));
      await expect(OnnxClassifier.load(copy), file).rejects.toSatisfy(
        (e) => isXtrustError(e, 'FILE_NOT_FOUND') && (e as Error).message.includes(file),
      );
      await expect(HfClassifier.load(copy), file).rejects.toSatisfy(
        (e) => isXtrustError(e, 'FILE_NOT_FOUND') && (e as Error).message.includes(file),
      );
    }
  });

  it('labels can be given when config.json is absent; a wrong count is BAD_MODEL_OUTPUT', async () => {
    const copy = join(tmp, 'no-config');
    cpSync(dir, copy, { recursive: true });
    rmSync(join(copy, 'config.json'));
    const ok = await OnnxClassifier.load(copy, { labels: ['neg', 'pos'] });
    expect((await ok.predictProba(['good'])).length).toBe(2);
    const wrong = await OnnxClassifier.load(copy, { labels: ['a', 'b', 'c'], name: 'three-label model' });
    await expect(wrong.predictProba(['good'])).rejects.toSatisfy(
      (e) => isXtrustError(e, 'BAD_MODEL_OUTPUT') && /three-label model.*\[1, 2\].*\[1, 3\]/.test((e as Error).message),
    );
  });

  it('a hub id is refused unless allowRemote is set; texts must be strings', async () => {
    await expect(HfClassifier.load('distilbert/distilbert-base-uncased-finetuned-sst-2-english')).rejects.toSatisfy(
      (e) => isXtrustError(e, 'FILE_NOT_FOUND') && /allowRemote/.test((e as Error).message),
    );
    const onnx = await OnnxClassifier.load(dir);
    await expect(onnx.predictProba([null as unknown as string])).rejects.toThrow(/texts\[0\] is null/);
    const hf = await HfClassifier.load(dir);
    await expect(hf.predictProba('good' as unknown as string[])).rejects.toThrow(/array of strings/);
  });

  it('a graph that cannot load is FILE_UNREADABLE naming the file', async () => {
    const copy = join(tmp, 'corrupt-graph');
    cpSync(dir, copy, { recursive: true });
    writeFileSync(join(copy, 'onnx', 'model.onnx'), 'not a graph');
    await expect(OnnxClassifier.load(copy)).rejects.toSatisfy(
      (e) => isXtrustError(e, 'FILE_UNREADABLE') && /model\.onnx/.test((e as Error).message),
    );
  });

  it('tokens of the e-mails line up with core tokenize (sanity of the test corpus)', () => {
    expect(tokenize(test[0].text).length).toBeGreaterThan(20);
  });
});
