import { describe, expect, it } from 'vitest';
import {
  BROWN_GENRE_DESCRIPTIONS,
  BROWN_GENRES,
  SOTU_PARTY_DESCRIPTIONS,
  SPAM_ASSASSIN_CLASS_DESCRIPTIONS,
} from '../src/index.js';

const contentWords = (d: string) => d.toLowerCase().match(/[a-z]+(?:-[a-z]+)*/g) ?? [];

describe('class descriptions of the bundled corpora', () => {
  it('describes every label each loader gives, and nothing else', () => {
    expect(Object.keys(BROWN_GENRE_DESCRIPTIONS).sort()).toEqual(Object.values(BROWN_GENRES).sort());
    // the labels of loadSotu and loadSpamAssassin (their own tests pin them)
    expect(Object.keys(SOTU_PARTY_DESCRIPTIONS).sort()).toEqual(['Democratic', 'Republican']);
    expect(Object.keys(SPAM_ASSASSIN_CLASS_DESCRIPTIONS).sort()).toEqual(['ham', 'spam']);
  });

  it('says what each class is about in several words, distinct from every other class of its corpus', () => {
    for (const descriptions of [BROWN_GENRE_DESCRIPTIONS, SOTU_PARTY_DESCRIPTIONS, SPAM_ASSASSIN_CLASS_DESCRIPTIONS]) {
      const texts = Object.values(descriptions);
      expect(new Set(texts).size).toBe(texts.length);
      for (const d of texts) expect(contentWords(d).length).toBeGreaterThanOrEqual(5);
    }
  });
});
