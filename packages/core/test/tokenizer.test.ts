import { describe, expect, it } from 'vitest';
import { distinctWords, firstWords, tokenize, words } from '@xtrust/core';

describe('tokenize', () => {
  it('splits on runs of non-word characters like LIME and keeps offsets', () => {
    const text = "Hello, world!  It's  2026_v2 — ok";
    const tokens = tokenize(text);
    expect(tokens.map((t) => t.text)).toEqual(['Hello', 'world', 'It', 's', '2026_v2', 'ok']);
    for (const t of tokens) expect(text.slice(t.start, t.end)).toBe(t.text);
    expect(tokens[1]).toEqual({ text: 'world', start: 7, end: 12 });
  });

  it('treats Unicode letters and digits as word characters (Python 3 \\w)', () => {
    expect(words('café naïve Zürich ½ über-cool')).toEqual(['café', 'naïve', 'Zürich', '½', 'über', 'cool']);
  });

  it('lowercases the words but keeps offsets into the original text', () => {
    const text = 'FREE Money';
    const tokens = tokenize(text, { lowercase: true });
    expect(tokens.map((t) => t.text)).toEqual(['free', 'money']);
    expect(text.slice(tokens[1].start, tokens[1].end)).toBe('Money');
  });

  it('returns no tokens for empty or separator-only text', () => {
    expect(tokenize('')).toEqual([]);
    expect(tokenize(' ,;!? ')).toEqual([]);
  });

  it('accepts a custom separator, including one without the global flag', () => {
    expect(words('a b,c', { separator: /\s+/ })).toEqual(['a', 'b,c']);
  });

  it('builds the bag-of-words view: distinct words in order, token → word index', () => {
    const { vocab, tokenToWord } = distinctWords(tokenize('the cat saw the other cat'));
    expect(vocab).toEqual(['the', 'cat', 'saw', 'other']);
    expect([...tokenToWord]).toEqual([0, 1, 2, 0, 3, 1]);
  });
});

describe('firstWords', () => {
  it("cuts after the n-th of tokenize's words, keeping the text's own spacing", () => {
    expect(firstWords('Hi, you\n there! How', 2)).toBe('Hi, you');
    expect(firstWords('Hi, you\n there! How', 3)).toBe('Hi, you\n there');
    // "It's" is two words (It, s) for tokenize
    expect(firstWords("It's fine", 2)).toBe("It's");
  });

  it('returns a text of at most n words, and any text for n ≤ 0, unchanged', () => {
    expect(firstWords('  two words!  ', 2)).toBe('  two words!  ');
    expect(firstWords('  two words!  ', 5)).toBe('  two words!  ');
    expect(firstWords('a b c', 0)).toBe('a b c');
    expect(firstWords('a b c', -1)).toBe('a b c');
    expect(firstWords('', 3)).toBe('');
  });

  it("by: 'whitespace' counts white-space runs and re-joins them by single spaces", () => {
    expect(firstWords('Hi,\n you  there!', 2, { by: 'whitespace' })).toBe('Hi, you');
    expect(firstWords("It's fine", 1, { by: 'whitespace' })).toBe("It's");
    // white space is normalised even when nothing is cut
    expect(firstWords(' a\tb ', 5, { by: 'whitespace' })).toBe('a b');
    expect(firstWords(' a\tb ', 0, { by: 'whitespace' })).toBe(' a\tb ');
  });
});
