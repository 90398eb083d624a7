import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TransformerEmbedding, sentenceSimilarity, similarityMatrix } from '../src/index.js';
import { tempDir } from './helpers.js';
import { HIDDEN, VOCAB, reference, writeTinyBert } from './tiny-bert.js';

const id = (w: string) => VOCAB.indexOf(w);

describe('TransformerEmbedding (transformers.js, local ONNX folder)', async () => {
  const dir = writeTinyBert(join(tempDir(), 'tiny-bert'));
  const emb = await TransformerEmbedding.load(dir);

  it('reads the hidden size from config.json', () => {
    expect(emb.dim).toBe(HIDDEN);
    expect(emb.name).toBe('transformer:tiny-bert');
  });

  it('gives contextual word vectors with sub-words averaged', async () => {
    const [r] = await emb.contextual(['The king playing']);
    expect(r.words.map((t) => t.text)).toEqual(['The', 'king', 'playing']);
    const ids = [id('[CLS]'), id('the'), id('king'), id('play'), id('##ing'), id('[SEP]')];
    const ref = reference(ids);
    for (let d = 0; d < HIDDEN; d++) {
      expect(r.vectors[1 * HIDDEN + d]).toBeCloseTo(ref[2 * HIDDEN + d], 5); // king
      expect(r.vectors[2 * HIDDEN + d]).toBeCloseTo((ref[3 * HIDDEN + d] + ref[4 * HIDDEN + d]) / 2, 5); // play + ##ing
    }
    expect([...r.known]).toEqual([1, 1, 1]);
    // the same word in another sentence gets another vector
    const [r2] = await emb.contextual(['the river bank']);
    const [r3] = await emb.contextual(['the money bank']);
    expect(r2.vectors[2 * HIDDEN]).not.toBeCloseTo(r3.vectors[2 * HIDDEN], 3);
  });

  it('mean-pools and normalises sentence embeddings', async () => {
    const v = await emb.encode(['the king', 'a good film']);
    const ref = reference([id('[CLS]'), id('the'), id('king'), id('[SEP]')]);
    const mean = Array.from(
      { length: HIDDEN },
      (_, d) => (ref[d] + ref[HIDDEN + d] + ref[2 * HIDDEN + d] + ref[3 * HIDDEN + d]) / 4,
    );
    const n = Math.hypot(...mean);
    for (let d = 0; d < HIDDEN; d++) expect(v[d]).toBeCloseTo(mean[d] / n, 5);
    await expect(emb.encode(['  '])).rejects.toMatchObject({ code: 'EMPTY_TEXT' });
  });

  it('scores semantic textual similarity of aligned pairs (002 §4.2)', async () => {
    const sts = await sentenceSimilarity(
      emb,
      ['the king', 'the king', 'a good film'],
      ['the king', 'the queen', 'the river bank'],
    );
    expect(sts[0]).toBeCloseTo(1, 5);
    const v = await emb.encode(['the king', 'the queen']);
    let dot = 0;
    for (let d = 0; d < HIDDEN; d++) dot += v[d] * v[HIDDEN + d];
    expect(sts[1]).toBeCloseTo(dot, 5);
    expect(sts[1]).toBeGreaterThan(sts[2]);
    await expect(sentenceSimilarity(emb, ['a'], [])).rejects.toMatchObject({ code: 'DIMENSION_MISMATCH' });
  });

  it('works as a WordEmbedding with an explicit OOV policy', async () => {
    expect(emb.has('king')).toBe(true);
    expect(emb.has('played')).toBe(true); // play ##ed
    expect(emb.has('zebra')).toBe(false); // only [UNK]
    await expect(emb.vectors(['king', 'zebra'])).rejects.toMatchObject({
      code: 'OUT_OF_VOCABULARY',
      details: { missing: ['zebra'] },
    });
    const m = await similarityMatrix(emb, ['king'], ['queen', 'river']);
    expect(m[0]).toBeGreaterThan(m[1]);
    const v = await emb.vectors(['king']);
    const ref = reference([id('[CLS]'), id('king'), id('[SEP]')]);
    for (let d = 0; d < HIDDEN; d++) expect(v[d]).toBeCloseTo(ref[HIDDEN + d], 5);
  });

  it('refuses a missing folder without network, and names a missing file', async () => {
    await expect(TransformerEmbedding.load('/nonexistent/model')).rejects.toMatchObject({
      code: 'FILE_NOT_FOUND',
      message: expect.stringMatching(/remote loading is disabled/),
    });
    const broken = join(tempDir(), 'broken');
    writeTinyBert(broken);
    (await import('node:fs')).rmSync(join(broken, 'tokenizer.json'));
    await expect(TransformerEmbedding.load(broken)).rejects.toMatchObject({
      code: 'FILE_NOT_FOUND',
      message: expect.stringMatching(/tokenizer\.json is missing/),
    });
  });
});
