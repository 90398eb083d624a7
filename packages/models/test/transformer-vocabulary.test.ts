import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadBrown, loadSotu, loadSpamAssassin } from '@xtrust/datasets';
import { loadLocalTokenizer } from '../src/hf-tokenizer-loader.js';
import { FIXTURES } from '../../../models/transformers/fixture-paths.js';

/**
 * The kit's shared WordPiece vocabulary (models/transformers/kit/wordpiece.py) must hold the commonest
 * words of its corpora as whole pieces. A trainer that merges by the likelihood score
 * count(ab)/(count(a)·count(b)) spends an 8k budget on pairs of rare units and leaves "the" as `th ##e`;
 * the frequency merges of Hugging Face's WordPieceTrainer (BPE with `##` pieces) do not. Checked here
 * without Python: the words are counted in TypeScript from the same bundled corpora the kit trains on.
 */
const FOLDERS = ['tiny-bert-spam', 'tiny-bert-brown', 'tiny-bert-shortcut', 'tiny-bert-mlm', 'tiny-gpt2'];
const readVocab = (folder: string): string[] =>
  readFileSync(join(FIXTURES, folder, 'vocab.txt'), 'utf8')
    .split('\n')
    .filter((t) => t.length > 0);

/** The n most frequent all-letter words (lower-cased, accents stripped, split at anything else) of the texts; ties by text. */
function mostFrequentWords(texts: Iterable<string>, n: number): string[] {
  const counts = new Map<string, number>();
  for (const text of texts) {
    const normal = text
      .normalize('NFD')
      .replace(/\p{Mn}/gu, '')
      .toLowerCase();
    for (const w of normal.split(/[^\p{L}\p{N}]+/u)) {
      if (/^[a-z]+$/.test(w)) counts.set(w, (counts.get(w) ?? 0) + 1);
    }
  }
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .slice(0, n)
    .map(([w]) => w);
}

describe("the kit's shared WordPiece vocabulary", () => {
  it('is one vocabulary of 8,000 pieces shared by every fixture', () => {
    const spam = readVocab('tiny-bert-spam');
    expect(spam).toHaveLength(8000);
    expect(spam.slice(0, 5)).toEqual(['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]']);
    for (const f of FOLDERS) expect(readVocab(f), f).toEqual(spam);
  });

  it('holds common English and topic words as whole pieces', () => {
    const vocab = new Set(readVocab('tiny-bert-spam'));
    const words = [
      'the',
      'and',
      'of',
      'to',
      'is',
      'free',
      'money',
      'meeting',
      'government',
      'religion',
      'president',
      'church',
      'email',
    ];
    expect(words.filter((w) => !vocab.has(w))).toEqual([]);
  });

  it('holds the 200 most frequent words of Brown, SOTU and SpamAssassin bodies as whole pieces, and transformers.js encodes each as one id', async () => {
    const texts = function* () {
      for (const r of loadBrown({ tags: false }).rows) yield r.text;
      for (const r of loadSotu().rows) yield r.text;
      for (const r of loadSpamAssassin({ headers: false }).rows) yield r.text;
    };
    const top = mostFrequentWords(texts(), 200);
    expect(top).toHaveLength(200);
    expect(top.slice(0, 3)).toContain('the');
    const vocab = new Set(readVocab('tiny-bert-spam'));
    expect(top.filter((w) => !vocab.has(w))).toEqual([]);
    const tok = await loadLocalTokenizer(join(FIXTURES, 'tiny-bert-spam'), 'tiny-bert-spam');
    const split = top.filter((w) => tok.encode(w).length !== 3); // [CLS] word [SEP]
    expect(split).toEqual([]);
  });
});
