// Long texts (issue 49, item 7): OnnxClassifier says how many words fit its position limit (TextLimit).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isTextLimit, tokenize } from '@xtrust/core';
import { loadLocalTokenizer } from '../src/hf-tokenizer-loader.js';
import { encodeIds, pieceTokenizer, seenWordCount, type PieceTokenizer } from '../src/masked-ids.js';
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
