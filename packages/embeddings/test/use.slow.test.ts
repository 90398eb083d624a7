import { describe, expect, it } from 'vitest';
import { UseEmbedding, similarityMatrix, nearest, sentenceSimilarity } from '../src/index.js';
import { cosineMatrix } from '@xtrust/native';

// Loads the Universal Sentence Encoder lite (tfjs, wasm backend) from the npm package: ~1 s.
describe('UseEmbedding (USE lite, 512-d, offline)', () => {
  it('encodes sentences to 512-d unit-length rows with meaningful similarities', async () => {
    const use = await UseEmbedding.load();
    expect(use.backend).toBe('wasm');
    const v = await use.encode(['How old are you?', 'What is your age?', 'The stock market fell sharply today.']);
    expect(v.length).toBe(3 * 512);
    let n = 0;
    for (let d = 0; d < 512; d++) n += v[d] * v[d];
    expect(Math.sqrt(n)).toBeCloseTo(1, 2);
    const m = cosineMatrix(v, v, 512);
    expect(m[1]).toBeGreaterThan(0.6); // paraphrases
    expect(m[1]).toBeGreaterThan(m[2] + 0.3);
    // STS of an attack's original/perturbed pairs: a synonym swap keeps it high, an antonym less so
    const sts = await sentenceSimilarity(
      use,
      ['the movie was great', 'the movie was great'],
      ['the film was great', 'the movie was awful'],
    );
    expect(sts[0]).toBeGreaterThan(0.8);
    expect(sts[0]).toBeGreaterThan(sts[1]);
  });

  it('works as a WordEmbedding: batch-independent, memoised, blank words reported', async () => {
    const use = await UseEmbedding.load();
    const alone = await use.vectors(['king']);
    const inBatch = await (await UseEmbedding.load({ memoizeWords: false })).encode([
      'queen',
      'king',
      'a much longer sentence about kings',
    ]);
    for (let d = 0; d < 512; d++) expect(alone[d]).toBeCloseTo(inBatch[512 + d], 4);
    const s = await similarityMatrix(use, ['king'], ['queen', 'banana']);
    expect(s[0]).toBeGreaterThan(s[1]);
    expect(use.has('xyzzy')).toBe(true);
    expect(use.has('  ')).toBe(false);
    await expect(use.vectors(['king', ' '])).rejects.toMatchObject({ code: 'OUT_OF_VOCABULARY' });
    await expect(use.encode([''])).rejects.toMatchObject({ code: 'EMPTY_TEXT' });
    const [r] = await nearest(use, ['doctor'], 2, { vocabulary: ['nurse', 'physician', 'volcano', 'guitar'] });
    expect(r.map((x) => x.word)).not.toContain('volcano');
  });
});
