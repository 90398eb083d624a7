import { describe, expect, it } from 'vitest';
import {
  AttackedText,
  DEFAULT_STOPWORDS,
  WinkPosTagger,
  WordNetPosTagger,
  maxModificationRate,
  modificationBudget,
  partOfSpeech,
  repeatModification,
  sentenceEncoderSimilarity,
  stopwordModification,
  wordEmbeddingDistance,
  type Candidate,
} from '../src/index.js';
import { handEmbedding, handEncoder } from './helpers.js';

const cand = (t: AttackedText, i: number, w: string): Candidate => {
  const text = t.replaceWord(i, w);
  return { text, index: i, from: t.word(i), to: text.word(i) };
};

describe('pre-transformation constraints', () => {
  it('max modification rate: ceil(n·rate) with a minimum (A2T: 10 %, min 4), floor for CEA', () => {
    expect(modificationBudget(20, { maxRate: 0.1, minThreshold: 4 })).toBe(4);
    expect(modificationBudget(100, { maxRate: 0.1, minThreshold: 4 })).toBe(10);
    expect(modificationBudget(45, { maxRate: 0.1, minThreshold: 4 })).toBe(5);
    expect(modificationBudget(45, { maxRate: 0.1, minThreshold: 1, rounding: 'floor' })).toBe(4);
    const t = AttackedText.of('a b c d e f g h i j');
    const c = maxModificationRate({ maxRate: 0.1, minThreshold: 1 });
    expect(c.modifiable(t, t)(3)).toBe(true);
    expect(c.modifiable(t.replaceWord(0, 'z'), t)(3)).toBe(false);
    expect(() => maxModificationRate({ maxRate: 1.5 })).toThrow(/maxRate/);
  });

  it('no repeated modification, stopwords untouched (case-insensitive, negations included)', () => {
    const t = AttackedText.of('The film was not good');
    const rep = repeatModification().modifiable(t.replaceWord(1, 'movie'), t);
    expect([0, 1, 2, 3, 4].map(rep)).toEqual([true, false, true, true, true]);
    const stop = stopwordModification().modifiable(t, t);
    expect([0, 1, 2, 3, 4].map(stop)).toEqual([false, true, false, false, true]);
    expect(DEFAULT_STOPWORDS.has('not')).toBe(true);
  });
});

describe('candidate constraints', () => {
  it('word-embedding cosine: keeps a near neighbour, rejects a far one and an unknown word', async () => {
    const t = AttackedText.of('a good film');
    const c = wordEmbeddingDistance(handEmbedding(), { minCos: 0.8 });
    expect(await c.check([cand(t, 1, 'great'), cand(t, 1, 'bad'), cand(t, 1, 'zzyzx')], t, t)).toEqual([
      true,
      false,
      false,
    ]);
  });

  it('sentence-encoder cosine against the original, recording the similarity', async () => {
    const t = AttackedText.of('a good film');
    const c = sentenceEncoderSimilarity(handEncoder(), { threshold: 0.95 });
    const cs = [cand(t, 1, 'great'), cand(t, 2, 'quickly')];
    expect(await c.check(cs, t, t)).toEqual([true, false]);
    expect(cs[0].similarity).toBeGreaterThan(0.95);
    expect(cs[1].similarity).toBeLessThan(0.95);
  });

  it('part of speech in context with wink-nlp: a noun for a noun passes, an adverb for a noun does not', async () => {
    const tagger = WinkPosTagger.load();
    const t = AttackedText.of('I really enjoyed this movie last night');
    const c = partOfSpeech(tagger);
    expect(
      await c.check([cand(t, 4, 'film'), cand(t, 4, 'quickly'), cand(t, 2, 'liked'), cand(t, 2, 'happy')], t, t),
    ).toEqual([true, false, true, false]);
    const [tags] = await tagger.tags([{ words: ['the', 'film', 'is', 'good'], index: 3 }]);
    expect([...tags]).toEqual(['ADJ']);
  });

  it('part of speech with the WordNet fallback: tag sets must intersect', async () => {
    const t = AttackedText.of('a good movie');
    const c = partOfSpeech(new WordNetPosTagger());
    expect(await c.check([cand(t, 2, 'film'), cand(t, 2, 'quickly')], t, t)).toEqual([true, false]);
  });
});
