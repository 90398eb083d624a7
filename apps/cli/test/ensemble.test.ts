import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildFixture, SMALL_AUDIT, xtrust, xtrustAsync, type Fixture } from './helpers.js';

let fx: Fixture;

beforeAll(async () => {
  fx = await buildFixture();
}, 300_000);

describe('--embeddings: the TOKI ensemble of keywords, audit and label', () => {
  it('builds a store voted by the named members, and label reloads exactly that ensemble', async () => {
    const out = join(fx.dir, 'keywords-ensemble');
    const k = await xtrustAsync([
      'keywords',
      '--model',
      fx.model,
      '--train',
      fx.train,
      '--out',
      out,
      '--embeddings',
      'glove,counter-fitted',
      '--json',
      ...SMALL_AUDIT,
    ]);
    expect(k.stderr).toBe('');
    expect(k.code).toBe(0);
    const store = JSON.parse(readFileSync(join(out, 'keywords.json'), 'utf8'));
    expect(store.ensemble.map((m: { name: string }) => m.name)).toEqual(['glove-6b-100d', 'glove-counter-fitted']);
    // each member carries its own calibrated θ_relate, and they differ (GloVe vs counter-fitted cosines)
    const thetas = store.ensemble.map((m: { thetaRelate: number }) => m.thetaRelate);
    expect(thetas[0]).not.toBeCloseTo(thetas[1], 2);

    // A store of two members refuses a one-member ensemble, so label must load the store's own.
    const labels = join(fx.dir, 'labels-ensemble');
    const l = await xtrustAsync([
      'label',
      '--model',
      fx.model,
      '--store',
      out,
      '--test',
      fx.test,
      '--out',
      labels,
      '--json',
      '--quiet',
    ]);
    expect(l.stderr).toBe('');
    expect(l.code).toBe(0);
    const v = JSON.parse(l.stdout).verdicts;
    expect(v.trustworthy + v.untrustworthy + v.incorrect + v.unknown).toBeGreaterThan(0);
  }, 300_000);

  it('an unknown member is a usage error naming the ones it knows', () => {
    const r = xtrust([
      'keywords',
      '--model',
      fx.model,
      '--train',
      fx.train,
      '--out',
      join(fx.dir, 'bad-ensemble'),
      '--embeddings',
      'glove,word2vec',
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /unknown embedding "word2vec" \(expected a comma-separated list of glove, counter-fitted, use\)/,
    );
  });
});
