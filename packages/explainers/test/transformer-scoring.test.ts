// The transformer token scorer (OnnxClassifier.scoreTokenMasks) against the explainers' own string path:
// for real corpus texts and random word masks, the ids built from word pieces equal the ids of tokenising
// the string PerturbedTexts rebuilds, and the probabilities equal predictProba on those strings.
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rng, tokenize } from '@xtrust/core';
import { loadBrown, loadSotu, loadSpamAssassin } from '@xtrust/datasets';
import { OnnxClassifier, OnnxGraphBuilder, ONNX_FLOAT, ONNX_INT64, loadLocalTokenizer } from '@xtrust/models';
import { KernelShapExplainer, LimeExplainer, OmissionExplainer } from '../src/index.js';
import { PerturbedTexts, textFeatures, tokenMasks } from '../src/text-features.js';
import { makeScorer, ProbabilityGuard } from '../src/model-calls.js';

const SPECIALS = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'];
const MAX_LENGTH = 96;

/** Seeded sample of n items. */
function pick<T>(items: readonly T[], n: number, seed: number): T[] {
  const r = rng(seed);
  const idx = Array.from({ length: items.length }, (_, i) => i);
  for (let i = 0; i < Math.min(n, idx.length); i++) {
    const j = i + r.int(idx.length - i);
    [idx[i], idx[j]] = [idx[j], idx[i]];
  }
  return idx.slice(0, n).map((i) => items[i]);
}

const spam = loadSpamAssassin();
const bodies = loadSpamAssassin({ headers: false });
const TEXTS: string[] = [
  // Where word pieces and core's words part ways: underscores (BERT punctuation inside a core word),
  // symbols that are neither (a word piece spanning two core words), decomposed accents (a core
  // separator the normaliser deletes), control and zero-width characters, special-token spellings, Σ.
  'foo_bar baz__qux _x_ snake_case_name',
  'Price: 5€ or £10 — 100% off!!! ©2002 a+b=c x^2',
  'cafe\u0301 nai\u0308ve re\u0301sume\u0301 Café naïve',
  'zero\u200bwidth soft\u00adhyphen tab\tnew\nline nbsp\u00a0here ctrl\u0007bell',
  'A literal [SEP] and [CLS] token, [MASK] or [unk] too',
  "ΟΔΟΣ'ΑΒΓ ΣΑΣ. Σ end",
  '中文字符 and 日本語 mixed with English words',
  `a${'x'.repeat(120)} long words ${'abc'.repeat(40)} end`,
  'emoji 😀 between 👍words and ✓ checks',
  'İstanbul ǅemal ﬁne ligatures',
  '',
  '   ',
  ...pick(spam.rows, 120, 1).map((r) => r.text.slice(0, 3000)),
  ...pick(bodies.rows, 60, 2).map((r) => r.text.slice(0, 3000)),
  ...pick(loadBrown({ tags: false }).rows, 80, 3).map((r) => r.text),
  ...pick(loadSotu().rows, 60, 4).map((r) => r.text),
];

/**
 * A WordPiece vocabulary learnt crudely from the texts: every character seen twice (alone and as a ##
 * continuation), the 1,500 most frequent words and a few suffixes — enough for multi-piece words,
 * unknown characters ([UNK]) and punctuation pieces.
 */
function syntheticVocab(texts: readonly string[]): string[] {
  const norm = (s: string) =>
    s
      .toLowerCase()
      .normalize('NFD')
      .replace(/\p{Mn}/gu, '');
  const chars = new Map<string, number>();
  const words = new Map<string, number>();
  for (const t of texts) {
    for (const m of norm(t).matchAll(
      /[^\s\p{P}\u0021-\u002F\u003A-\u0040\u005B-\u0060\u007B-\u007E]+|[\p{P}\u0021-\u002F\u003A-\u0040\u005B-\u0060\u007B-\u007E]/gu,
    )) {
      words.set(m[0], (words.get(m[0]) ?? 0) + 1);
      for (const c of m[0]) chars.set(c, (chars.get(c) ?? 0) + 1);
    }
  }
  const vocab = [...SPECIALS];
  const seen = new Set(vocab);
  const add = (w: string) => {
    if (!seen.has(w)) {
      seen.add(w);
      vocab.push(w);
    }
  };
  [...chars]
    .filter(([, n]) => n >= 2)
    .sort((a, b) => (a[0] < b[0] ? -1 : 1))
    .forEach(([c]) => {
      add(c);
      add(`##${c}`);
    });
  [...words]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, 1500)
    .forEach(([w]) => add(w));
  ['##ing', '##ed', '##s', '##ly', '##tion', '##er', '##es'].forEach(add);
  return vocab;
}

/** tokenizer.json of the kit's contract (BertNormalizer, BertPreTokenizer, WordPiece, [CLS] $A [SEP]). */
function tokenizerFiles(dir: string, vocab: readonly string[]) {
  const ids = Object.fromEntries(vocab.map((t, i) => [t, i]));
  const added = SPECIALS.map((s) => ({
    id: ids[s],
    content: s,
    single_word: false,
    lstrip: false,
    rstrip: false,
    normalized: false,
    special: true,
  }));
  const json = {
    version: '1.0',
    truncation: { direction: 'Right', max_length: MAX_LENGTH, strategy: 'LongestFirst', stride: 0 },
    padding: null,
    added_tokens: added,
    normalizer: {
      type: 'BertNormalizer',
      clean_text: true,
      handle_chinese_chars: true,
      strip_accents: true,
      lowercase: true,
    },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [
        { SpecialToken: { id: '[CLS]', type_id: 0 } },
        { Sequence: { id: 'A', type_id: 0 } },
        { SpecialToken: { id: '[SEP]', type_id: 0 } },
      ],
      pair: [
        { SpecialToken: { id: '[CLS]', type_id: 0 } },
        { Sequence: { id: 'A', type_id: 0 } },
        { SpecialToken: { id: '[SEP]', type_id: 0 } },
        { Sequence: { id: 'B', type_id: 1 } },
        { SpecialToken: { id: '[SEP]', type_id: 1 } },
      ],
      special_tokens: {
        '[CLS]': { id: '[CLS]', ids: [ids['[CLS]']], tokens: ['[CLS]'] },
        '[SEP]': { id: '[SEP]', ids: [ids['[SEP]']], tokens: ['[SEP]'] },
      },
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: {
      type: 'WordPiece',
      unk_token: '[UNK]',
      continuing_subword_prefix: '##',
      max_input_chars_per_word: 100,
      vocab: ids,
    },
  };
  writeFileSync(join(dir, 'tokenizer.json'), JSON.stringify(json));
  writeFileSync(
    join(dir, 'tokenizer_config.json'),
    JSON.stringify({
      tokenizer_class: 'BertTokenizer',
      do_lower_case: true,
      model_max_length: MAX_LENGTH,
      cls_token: '[CLS]',
      sep_token: '[SEP]',
      pad_token: '[PAD]',
      unk_token: '[UNK]',
      mask_token: '[MASK]',
    }),
  );
  writeFileSync(
    join(dir, 'config.json'),
    JSON.stringify({
      model_type: 'bert',
      architectures: ['BertForSequenceClassification'],
      id2label: { 0: 'ham', 1: 'spam' },
      label2id: { ham: 0, spam: 1 },
    }),
  );
}

/**
 * A small order-sensitive graph: X = E[ids] + P[position]; one attention head over unpadded positions;
 * logits = mean-pooled output · W. Padding changes nothing but the shapes, so any difference between
 * the two paths is a difference of ids.
 */
function tinyGraph(vocabSize: number): Uint8Array {
  const D = 8;
  const r = rng(5);
  const randn = (n: number, s = 1) => Float32Array.from({ length: n }, () => s * r.normal());
  const g = new OnnxGraphBuilder('tiny-bert-like');
  const ids = g.input('input_ids', ONNX_INT64, ['batch', 'sequence']);
  const mask = g.input('attention_mask', ONNX_INT64, ['batch', 'sequence']);
  g.input('token_type_ids', ONNX_INT64, ['batch', 'sequence']);
  g.output('logits', ONNX_FLOAT, ['batch', 2]);
  const maskF = g.node('Cast', [mask], { to: { int: ONNX_FLOAT } });
  const shape = g.node('Shape', [ids]);
  const seq = g.node('Gather', [shape, g.int64s('one_idx', [], [1])], { axis: { int: 0 } });
  const positions = g.node('Range', [g.int64s('zero', [], [0]), seq, g.int64s('step', [], [1])]);
  const P = g.node('Gather', [g.floats('P', [MAX_LENGTH, D], randn(MAX_LENGTH * D, 0.5)), positions], {
    axis: { int: 0 },
  });
  const X = g.node('Add', [
    g.node('Gather', [g.floats('E', [vocabSize, D], randn(vocabSize * D)), ids], { axis: { int: 0 } }),
    P,
  ]);
  const bias = g.node('Unsqueeze', [
    g.node('Mul', [
      g.node('Sub', [g.floats('one', [], Float32Array.of(1)), maskF]),
      g.floats('neg', [], Float32Array.of(-1e4)),
    ]),
    g.int64s('ax1', [1], [1]),
  ]);
  const Q = g.node('MatMul', [X, g.floats('Wq', [D, D], randn(D * D, 0.5))]);
  const K = g.node('MatMul', [X, g.floats('Wk', [D, D], randn(D * D, 0.5))]);
  const A = g.node(
    'Softmax',
    [g.node('Add', [g.node('MatMul', [Q, g.node('Transpose', [K], { perm: { ints: [0, 2, 1] } })]), bias])],
    { axis: { int: -1 } },
  );
  const H = g.node('MatMul', [A, X]);
  const summed = g.node(
    'ReduceSum',
    [g.node('Mul', [H, g.node('Unsqueeze', [maskF, g.int64s('ax2', [1], [2])])]), g.int64s('ax1b', [1], [1])],
    { keepdims: { int: 0 } },
  );
  const n = g.node('Max', [
    g.node('ReduceSum', [maskF, g.int64s('ax1c', [1], [1])], { keepdims: { int: 1 } }),
    g.floats('one_b', [], Float32Array.of(1)),
  ]);
  g.node('MatMul', [g.node('Div', [summed, n]), g.floats('W', [D, 2], randn(D * 2))], {}, 'logits');
  return g.toBytes();
}

/** LIME-like masks over d features: row 0 keeps everything, row 1 nothing, the rest a uniform number removed. */
function featureMasks(d: number, rows: number, seed: number): Uint8Array {
  const r = rng(seed);
  const m = new Uint8Array(rows * d).fill(1);
  m.fill(0, d, 2 * d);
  for (let row = 2; row < rows; row++) {
    const p = r.float();
    for (let j = 0; j < d; j++) if (r.float() < p) m[row * d + j] = 0;
  }
  return m;
}

const KIT = resolve(dirname(fileURLToPath(import.meta.url)), '../../../models/transformers/fixtures');
const tmp = mkdtempSync(join(tmpdir(), 'xtrust-scoring-'));
const folder = join(tmp, 'synthetic-bert');
let clf: OnnxClassifier;

beforeAll(async () => {
  mkdirSync(join(folder, 'onnx'), { recursive: true });
  const vocab = syntheticVocab(TEXTS);
  tokenizerFiles(folder, vocab);
  writeFileSync(join(folder, 'onnx', 'model.onnx'), tinyGraph(vocab.length));
  clf = await OnnxClassifier.load(folder, { batchSize: 16, threads: 1 });
}, 60_000);
afterAll(async () => {
  await clf?.release();
  rmSync(tmp, { recursive: true, force: true });
});

/** Checks maskedIds against the tokenizer on PerturbedTexts' strings for every text; returns the paths taken. */
async function checkIds(
  dir: string,
  classifier: OnnxClassifier,
  rowsPerText: number,
): Promise<{ pieces: number; strings: number; rows: number }> {
  const tokenizer = await loadLocalTokenizer(dir, 'test');
  const counts = { pieces: 0, strings: 0, rows: 0 };
  for (const [i, text] of TEXTS.entries()) {
    if (tokenize(text).length === 0) continue;
    for (const bow of [true, false]) {
      const tf = textFeatures(text, bow);
      const fm = featureMasks(tf.count, rowsPerText, 100 + i);
      const masks = tokenMasks(tf, fm, rowsPerText);
      const got = classifier.maskedIds(text, masks, rowsPerText);
      counts[got.path]++;
      const builder = new PerturbedTexts(tf, bow ? null : '');
      for (let r = 0; r < rowsPerText; r++) {
        const rebuilt = builder.build(fm, r);
        // What predictProba's tokenisation used to be: transformers.js with its own truncation.
        const enc = tokenizer([rebuilt], { padding: true, truncation: true, return_tensor: false }) as unknown as {
          input_ids: number[][];
        };
        const want = enc.input_ids[0].map(Number);
        const have = Array.from(got.ids.subarray(got.offsets[r], got.offsets[r + 1]));
        if (have.join(' ') !== want.join(' ')) {
          throw new Error(
            `text ${i} (${JSON.stringify(text.slice(0, 60))}), bow ${bow}, row ${r}: ids differ\n rebuilt ${JSON.stringify(rebuilt.slice(0, 200))}\n want ${want.join(' ')}\n have ${have.join(' ')}`,
          );
        }
        counts.rows++;
      }
    }
  }
  return counts;
}

describe('OnnxClassifier as a TokenScorer: ids from word pieces', () => {
  it("equal the ids of tokenising the explainers' rebuilt strings, for hundreds of corpus texts × random masks (bow and position mode)", async () => {
    const counts = await checkIds(folder, clf, 24);
    expect(counts.rows).toBeGreaterThan(15_000);
    // The piece path is the rule, the string path the exception (Σ, special-token spellings).
    expect(counts.strings).toBeGreaterThan(0);
    expect(counts.pieces).toBeGreaterThan(20 * counts.strings);
  }, 120_000);

  it('truncates after masking: a perturbed long text keeps words its original lost to the length limit', async () => {
    const text = TEXTS.find((t) => tokenize(t).length > 300)!;
    const T = tokenize(text).length;
    const masks = new Uint8Array(2 * T).fill(1);
    for (let t = 0; t < 60; t++) masks[T + t] = 0; // drop the first 60 words
    const got = clf.maskedIds(text, masks, 2);
    expect(got.offsets[1] - got.offsets[0]).toBe(MAX_LENGTH);
    expect(got.offsets[2] - got.offsets[1]).toBe(MAX_LENGTH);
    const tokenizer = await loadLocalTokenizer(folder, 'test');
    const tail = tokenizer.encode(text.slice(tokenize(text)[60].start), { add_special_tokens: false }) as number[];
    // The second row starts (after [CLS] and the first gap's pieces) with words beyond the original's cut.
    expect(Array.from(got.ids.subarray(got.offsets[1], got.offsets[2])).join(' ')).toContain(
      tail.slice(0, 20).join(' '),
    );
  });

  for (const name of ['tiny-bert-spam', 'tiny-bert-brown']) {
    const dir = join(KIT, name);
    // The kit's committed fixtures are merged from another branch; where they are present they are checked too.
    it.runIf(existsSync(join(dir, 'onnx', 'model.onnx')))(
      `equal them with the kit's ${name} tokenizer too`,
      async () => {
        const kit = await OnnxClassifier.load(dir, { threads: 1 });
        try {
          const counts = await checkIds(dir, kit, 8);
          expect(counts.rows).toBeGreaterThan(5_000);
        } finally {
          await kit.release();
        }
      },
      120_000,
    );
  }
});

describe('OnnxClassifier.scoreTokenMasks', () => {
  it("gives predictProba's probabilities on the rebuilt strings, in row order, scoring duplicate rows once", async () => {
    const texts = TEXTS.filter((t) => tokenize(t).length >= 5).slice(0, 40);
    for (const [i, text] of texts.entries()) {
      const tf = textFeatures(text, true);
      const rows = 30;
      const fm = featureMasks(tf.count, rows, 7 + i);
      fm.copyWithin(20 * tf.count, 2 * tf.count, 12 * tf.count); // rows 20–29 repeat rows 2–11
      const before = { ...clf.scoringStats };
      const got = await clf.scoreTokenMasks(text, tokenMasks(tf, fm, rows), rows);
      expect(clf.scoringStats.distinct - before.distinct).toBeLessThanOrEqual(rows - 10);
      const builder = new PerturbedTexts(tf, null);
      const want = await clf.predictProba(Array.from({ length: rows }, (_, r) => builder.build(fm, r)));
      for (let j = 0; j < want.length; j++) expect(Math.abs(got[j] - want[j])).toBeLessThan(2e-6);
    }
  }, 60_000);

  it("predictProba sorts by length inside and returns rows in the caller's order", async () => {
    const texts = TEXTS.filter((t) => t.trim().length > 0).slice(0, 50);
    const together = await clf.predictProba(texts);
    for (const [i, t] of texts.entries()) {
      const alone = await clf.predictProba([t]);
      expect(Math.abs(alone[0] - together[2 * i])).toBeLessThan(2e-6);
      expect(Math.abs(alone[1] - together[2 * i + 1])).toBeLessThan(2e-6);
    }
  }, 60_000);

  it('rejects masks of the wrong size naming the expected shape', async () => {
    await expect(clf.scoreTokenMasks('two words', new Uint8Array(3), 1)).rejects.toThrow(/1 × 2 bytes/);
  });
});

describe('explainers on a transformer use the token scorer', () => {
  it('LIME, Kernel SHAP and omission (bow and position mode) take the token-scorer path and match the string path', async () => {
    const text = TEXTS[20];
    for (const [explainer, options] of [
      [new LimeExplainer(), { numSamples: 300, seed: 3 }],
      [new KernelShapExplainer(), { numSamples: 200, seed: 3 }],
      [new OmissionExplainer(), {}],
      [new OmissionExplainer(), { bow: false }],
    ] as const) {
      const fast = await explainer.explain(clf, [text], options as never);
      const slow = await explainer.explain(clf, [text], { ...options, tokenScorer: false } as never);
      expect(fast[0].params.scorer).toBe('token-scorer');
      expect(slow[0].params.scorer).toBe('strings');
      expect(fast[0].features.map((f) => f.word)).toEqual(slow[0].features.map((f) => f.word));
      fast[0].features.forEach((f, j) => expect(Math.abs(f.weight - slow[0].features[j].weight)).toBeLessThan(1e-4));
    }
  }, 60_000);

  it('LIME in position mode with a mask string keeps the string path (a mask string is not a removal)', async () => {
    const tf = textFeatures(TEXTS[20], false);
    const guard = new ProbabilityGuard('test', 2, {});
    expect(makeScorer(clf, tf, guard, {}, 'UNKWORDZ').kind).toBe('strings');
    expect(makeScorer(clf, tf, guard, {}, '').kind).toBe('token-scorer');
    expect(makeScorer(clf, textFeatures(TEXTS[20], true), guard, {}, null).kind).toBe('token-scorer');
  });
});

describe('LIME adaptive sample count (optional, off by default)', () => {
  it("uses a prefix of the exact run's samples: the same explanation as the exact run with that many samples", async () => {
    const text = TEXTS.filter((t) => tokenize(t).length > 40)[3];
    const lime = new LimeExplainer({ seed: 5 });
    const [fast] = await lime.explain(clf, [text], { numSamples: 3000, adaptive: { step: 500 } });
    const used = fast.diagnostics!.samples;
    expect(used % 500 === 0 || used === 3000).toBe(true);
    expect(used).toBeGreaterThanOrEqual(2500); // patience 4 (the default): five fits, at 500, 1,000, …, 2,500 samples at the earliest
    const [exact] = await lime.explain(clf, [text], { numSamples: used });
    // Same samples; the model's outputs differ only by float rounding (rows batched with other neighbours).
    expect(fast.features.map((f) => f.word)).toEqual(exact.features.map((f) => f.word));
    fast.features.forEach((f, j) => expect(Math.abs(f.weight - exact.features[j].weight)).toBeLessThan(1e-6));
    // A step that covers the whole budget is the exact default.
    const [whole] = await lime.explain(clf, [text], { numSamples: 600, adaptive: { step: 600 } });
    const [plain] = await lime.explain(clf, [text], { numSamples: 600 });
    expect(whole.features).toEqual(plain.features);
    expect(whole.diagnostics!.samples).toBe(600);
  }, 60_000);
});
