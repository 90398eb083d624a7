import { describe, expect, it } from 'vitest';
import { asCurrentKey } from '../src/transformer-lime/block-key.js';

describe('transformer-lime: stored block keys', () => {
  const now = { model: 'probe-sha256:aa', words: 120, samples: 5000 };
  it('names the model by its fingerprint where a block stored the graph digest of this very folder', () => {
    const stored = { graph: 'd1', words: 120, samples: 5000 };
    const k = asCurrentKey(stored, 'd1', 'probe-sha256:aa');
    expect(JSON.stringify(k)).toBe(JSON.stringify(now)); // same fields in the same order: the keys compare as JSON
  });
  it('leaves another graph digest, and keys that already name the model, as they are', () => {
    expect(asCurrentKey({ graph: 'd0', words: 120 }, 'd1', 'probe-sha256:aa')).toEqual({ graph: 'd0', words: 120 });
    expect(asCurrentKey(now, 'd1', 'probe-sha256:bb')).toEqual(now);
  });
});
