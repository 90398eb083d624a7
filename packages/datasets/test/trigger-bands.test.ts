import { describe, expect, it } from 'vitest';
import { rng } from '@xtrust/core';
import { corpusVocabulary, drawTrigger, leansOnTarget, type DrawEmbedding } from '../src/index.js';

// A hand-made corpus whose frequency ranks are known: word wN occurs N times in total, spread evenly
// over the two classes; "templeword" occurs only in class a (it leans on a); function words are frequent.
function handCorpus() {
  const rows: { text: string; label: string }[] = [];
  for (let i = 0; i < 40; i++) {
    const label = i % 2 === 0 ? 'a' : 'b';
    const words: string[] = ['the', 'and', 'of'];
    for (let n = 1; n <= 30; n++)
      if (i < n) words.push(`w${String.fromCharCode(96 + Math.min(26, n))}${'x'.repeat(Math.floor(n / 26))}word`);
    if (label === 'a') words.push('templeword');
    rows.push({ text: words.join(' '), label });
  }
  return rows;
}

const fakeEmbedding = (known: readonly string[]): DrawEmbedding => ({
  has: (w) => known.includes(w),
  wordAt: (r) => known[r],
  size: known.length,
});

describe('corpusVocabulary', () => {
  it('ranks content words by frequency (function words, digits and short tokens out) and counts texts per class', () => {
    const v = corpusVocabulary([
      { text: 'the cat sat with the cat', label: 'a' },
      { text: 'a dog and a cat 42', label: 'b' },
      { text: 'dog dog', label: 'b' },
    ]);
    expect(v.ranked).toEqual(['cat', 'dog', 'sat']);
    expect(v.textFrequency.get('b')!.get('dog')).toBe(2);
    expect(v.texts.get('a')).toBe(1);
    expect(v.all.has('42')).toBe(true);
  });

  it('a word of one class only leans on it; a word spread evenly does not', () => {
    const v = corpusVocabulary(handCorpus());
    expect(leansOnTarget(v, 'templeword', 'a')).toBe(true);
    expect(leansOnTarget(v, 'templeword', 'b')).toBe(false);
    expect(leansOnTarget(v, v.ranked[0], 'a')).toBe(false);
  });
});

describe('drawTrigger', () => {
  const v = corpusVocabulary(handCorpus());
  it('everyday words come from the top ranks and never lean on the target', () => {
    const r = rng(7);
    for (let i = 0; i < 50; i++) {
      const w = drawTrigger(r, 'everyday', 'a', v, fakeEmbedding([]));
      expect(v.ranked.indexOf(w)).toBeLessThan(3000);
      expect(w).not.toBe('templeword');
    }
  });
  it('a phrase is two distinct everyday words', () => {
    const p = drawTrigger(rng(3), 'phrase', 'b', v, fakeEmbedding([]));
    const [x, y] = p.split(' ');
    expect(x).not.toBe(y);
    expect(v.ranked.includes(x) && v.ranked.includes(y)).toBe(true);
  });
  it('the mid band needs a corpus of more than 3,000 content words', () => {
    expect(() => drawTrigger(rng(1), 'mid', 'a', v, fakeEmbedding([]))).toThrow(/no mid band/);
  });
  it('a rare word is known to the embedding and not among the corpus words', () => {
    const w = drawTrigger(rng(5), 'rare', 'a', v, fakeEmbedding(['the', 'zephyrous', 'quokkas', v.ranked[0]]));
    expect(['zephyrous', 'quokkas']).toContain(w);
  });
  it('an absent word is unknown to the embedding and the corpus', () => {
    const w = drawTrigger(rng(9), 'absent', 'a', v, fakeEmbedding(['banana']));
    expect(w).toMatch(/^[a-z]+$/);
    expect(v.all.has(w)).toBe(false);
  });
});
