import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadDefaultEnsemble } from '../src/index.js';
import { tempDir } from './helpers.js';
import { writeTinyBert } from './tiny-bert.js';

describe('the default ensemble (GloVe, counter-fitted GloVe, USE, a transformer folder)', () => {
  it('loads every member and agrees that "car" is nearer "automobile" than "banana"', async () => {
    const ens = await loadDefaultEnsemble({ transformer: writeTinyBert(join(tempDir(), 'tiny-bert')) });
    expect(ens.names).toEqual(['glove-6b-100d', 'glove-counter-fitted', 'use-lite-512', 'transformer:tiny-bert']);
    // (not king/queen: WordNet lists them as antonyms, so counter-fitting pushes them apart)
    const sims = await ens.similarities(['car', 'king'], ['automobile', 'banana']);
    for (const s of sims.slice(0, 3)) expect(s.matrix[0], s.name).toBeGreaterThan(s.matrix[1]);
    // the tiny test model knows "king" but not "car" or "banana": reported as missing (NaN)
    expect([...sims[3].knownA]).toEqual([0, 1]);
    expect(sims[3].matrix.every((x) => Number.isNaN(x))).toBe(true);
  }, 300_000);
});
