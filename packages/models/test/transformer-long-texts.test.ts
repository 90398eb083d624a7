// Long texts (issue 49, item 7): OnnxClassifier and HfClassifier say how many words fit their position
// limit (TextLimit).
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isTextLimit, tokenize } from '@xtrust/core';
import { loadLocalTokenizer } from '../src/hf-tokenizer-loader.js';
import { encodeIds, pieceTokenizer, seenWordCount, type PieceTokenizer } from '../src/masked-ids.js';
import { HfClassifier } from '../src/hf-classifier.js';
import { OnnxClassifier } from '../src/onnx-classifier.js';
import { kitFixture } from '../../../models/transformers/fixture-paths.js';

const WORDS = 'please send the quarterly report and claim your free prize before the meeting tomorrow'.split(' ');
/** n words cycling through WORDS, with punctuation every seventh word. */
const longText = (n: number) =>
  Array.from({ length: n }, (_, i) => WORDS[i % WORDS.length] + (i % 7 === 6 ? ',' : '')).join(' ');

describe('TextLimit on the kit transformer (tiny-bert-spam, model_max_length 64)', () => {
  let model: OnnxClassifier;
  let tok: PieceTokenizer;
  beforeAll(async () => {
    const dir = kitFixture('tiny-bert-spam');
    model = await OnnxClassifier.load(dir, { threads: 1 });
    tok = pieceTokenizer(await loadLocalTokenizer(dir, 'tiny-bert-spam'));
  });
  afterAll(async () => model?.release());

  it('is a TextLimit, and sees every word of a short text', () => {
    expect(isTextLimit(model)).toBe(true);
    expect(tok.maxLength).toBe(64);
    const short = longText(20);
    expect(model.seenWords(short)).toBe(20);
  });

  it('counts the words whose pieces fit before the cut of a 200-word text', () => {
    const text = longText(200);
    const tokens = tokenize(text);
    const m = model.seenWords(text);
    expect(m).toBeGreaterThan(10);
    expect(m).toBeLessThan(tokens.length);
    const room = tok.maxLength - tok.prefix.length;
    const upTo = (j: number) => tok.pieces(text.slice(0, tokens[j - 1].end));
    expect(upTo(m).length).toBeLessThanOrEqual(room);
    expect(upTo(m + 1).length).toBeGreaterThan(room);
    // the ids the model runs begin with exactly those words' pieces
    const ids = encodeIds(tok, text);
    expect(ids.length).toBe(tok.maxLength);
    expect(Array.from(ids.subarray(tok.prefix.length, tok.prefix.length + upTo(m).length))).toEqual(
      Array.from(upTo(m)),
    );
  });

  it('counts a text just at the limit as whole, and one word more as cut', () => {
    let n = 1;
    while (seenWordCount(tok, longText(n + 1)) === n + 1) n++;
    // every piece of the n-word text is among the ids the model runs (only the [SEP] may be cut)
    const ids = encodeIds(tok, longText(n));
    expect(ids.length).toBeGreaterThanOrEqual(tok.prefix.length + tok.pieces(longText(n)).length);
    expect(seenWordCount(tok, longText(n + 1))).toBe(n);
    expect(tok.prefix.length + tok.pieces(longText(n + 1)).length).toBeGreaterThan(tok.maxLength);
  });
});

describe('TextLimit on HfClassifier (the transformers.js pipeline, tiny-bert-spam, model_max_length 64)', () => {
  let hf: HfClassifier;
  let tok: PieceTokenizer;
  /** n times "the": one word piece each, so the ids are [CLS] + n × the + [SEP]. */
  const the = (n: number) => Array(n).fill('the').join(' ');
  beforeAll(async () => {
    const dir = kitFixture('tiny-bert-spam');
    hf = await HfClassifier.load(dir);
    tok = pieceTokenizer(await loadLocalTokenizer(dir, 'tiny-bert-spam'));
  });

  it('is a TextLimit, and sees every word of a short text', () => {
    expect(isTextLimit(hf)).toBe(true);
    expect(hf.seenWords(longText(20))).toBe(20);
    expect(hf.seenWords('')).toBe(0);
    expect(() => hf.seenWords(null as unknown as string)).toThrow(/text must be a string/);
  });

  it('counts by hand: one-piece words fill the 63 places after [CLS]; a two-piece word across the cut is not seen', () => {
    expect(tok.maxLength).toBe(64);
    expect(tok.prefix.length).toBe(1);
    expect(tok.suffix.length).toBe(1);
    expect(tok.pieces('the').length).toBe(1);
    expect(tok.pieces('quarterly').length).toBe(2);
    expect(hf.seenWords(the(62))).toBe(62); // 64 ids: nothing cut
    expect(hf.seenWords(the(63))).toBe(63); // 65 ids: only [SEP] cut, every word seen
    expect(hf.seenWords(the(64))).toBe(63);
    expect(hf.seenWords(the(100))).toBe(63);
    // 62 × the, then quarterly (2 pieces): only its first piece gets place 63, so 62 words are seen whole
    expect(hf.seenWords(`${the(62)} quarterly ${the(10)}`)).toBe(62);
    // 61 × the, then quarterly in places 62–63: 62 words seen whole, the "the" after it is cut
    expect(hf.seenWords(`${the(61)} quarterly ${the(10)}`)).toBe(62);
  });

  it('the words past seenWords are the ones the pipeline really cuts: changing them changes no probability', async () => {
    const text = the(100);
    const m = hf.seenWords(text);
    const tail = (from: number) => `${the(from)}${' prize'.repeat(100 - from)}`;
    const full = await hf.predictProba([text]);
    const afterSeen = await hf.predictProba([tail(m)]);
    const lastSeen = await hf.predictProba([tail(m - 1)]);
    expect(Array.from(afterSeen)).toEqual(Array.from(full));
    expect(Math.abs(lastSeen[1] - full[1])).toBeGreaterThan(1e-6);
  });

  it('on a 200-word text with punctuation: the pieces of the seen words fit, one word more does not', () => {
    const text = longText(200);
    const tokens = tokenize(text);
    const m = hf.seenWords(text);
    expect(m).toBeGreaterThan(10);
    expect(m).toBeLessThan(tokens.length);
    expect(m).toBe(seenWordCount(tok, text));
    const room = tok.maxLength - tok.prefix.length;
    const upTo = (j: number) => tok.pieces(text.slice(0, tokens[j - 1].end));
    expect(upTo(m).length).toBeLessThanOrEqual(room);
    expect(upTo(m + 1).length).toBeGreaterThan(room);
  });
});

describe("HfClassifier: the limit is the tokenizer's model_max_length, where the pipeline cuts (not the position table)", () => {
  // tiny-bert-spam with tokenizer_config.json's model_max_length lowered to 32 (config.json keeps
  // max_position_embeddings 64): transformers.js' pipeline truncates at 32 ids.
  const tmp = mkdtempSync(join(tmpdir(), 'xtrust-seen-'));
  const dir = join(tmp, 'tiny-bert-spam-32');
  let hf: HfClassifier;
  const the = (n: number) => Array(n).fill('the').join(' ');
  beforeAll(async () => {
    cpSync(kitFixture('tiny-bert-spam'), dir, { recursive: true });
    const config = JSON.parse(readFileSync(join(dir, 'tokenizer_config.json'), 'utf8'));
    writeFileSync(join(dir, 'tokenizer_config.json'), JSON.stringify({ ...config, model_max_length: 32 }));
    expect(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')).max_position_embeddings).toBe(64);
    hf = await HfClassifier.load(dir);
  });
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it('sees 31 one-piece words (32 ids less [CLS]), and the words after them change nothing', async () => {
    expect(hf.seenWords(the(30))).toBe(30);
    expect(hf.seenWords(the(31))).toBe(31);
    expect(hf.seenWords(the(40))).toBe(31);
    const full = await hf.predictProba([the(40)]);
    const afterSeen = await hf.predictProba([`${the(31)}${' prize'.repeat(9)}`]);
    const lastSeen = await hf.predictProba([`${the(30)}${' prize'.repeat(10)}`]);
    expect(Array.from(afterSeen)).toEqual(Array.from(full));
    expect(Math.abs(lastSeen[1] - full[1])).toBeGreaterThan(1e-6);
  });
});
