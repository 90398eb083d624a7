import { describe, expect, it } from 'vitest';
import {
  KeywordStore,
  REASONS_UNRELATED_SAVED,
  TOKI_PAPER,
  type KeywordStoreJson,
  type OracleConfig,
} from '../src/index.js';
import { HandEmbedding, at, explanation } from './fixtures.js';

// Hand-placed unit vectors: the class name "spam" at 0°, the user's description word "junk" at 90°.
// "offer" (70°) is far from the name (cos 70° = .342) but near "junk" (cos 20° = .9397); "kettle" (170°)
// is near neither (best: "junk", cos 80° = .1736). θ_relate .6; θ_dist .3 keeps every word its own cluster.
const e = new HandEmbedding('hand', {
  spam: at(0),
  junk: at(90),
  offer: at(70),
  kettle: at(170),
  ham: at(180),
  letter: at(185),
});
const second = new HandEmbedding('hand2', {
  spam: at(0),
  junk: at(90),
  offer: at(10), // this member puts "offer" next to the name
  kettle: at(175),
  ham: at(180),
  letter: at(185),
});
const oracle: OracleConfig = { ...TOKI_PAPER, name: 'test', classDescriptions: { spam: ['junk'] } };
const explanations = [
  explanation('spam', { offer: 0.5, kettle: 0.3 }),
  explanation('spam', { offer: 0.4, kettle: 0.2 }),
  explanation('ham', { letter: 0.5 }),
];
const cos = (deg: number) => Math.cos((deg * Math.PI) / 180);

async function build(members = [e], theta: Record<string, number> = { hand: 0.6, hand2: 0.6 }) {
  const store = KeywordStore.create({
    fingerprint: 'hand',
    labels: ['spam', 'ham'],
    thetaDist: 0.3,
    topK: 10,
    ensemble: members.map((m) => ({ name: m.name, dim: 2, thetaRelate: theta[m.name] })),
    oracle,
    provenance: {
      explainer: { method: 'hand', params: {} },
      seed: 0,
      sampleSize: 3,
      sampled: 3,
      explained: 0,
      keywordIdentificationSeconds: 0,
      createdAt: '',
    },
  });
  await store.addExplanations(explanations, members);
  return store;
}

describe('why a word is or is not a keyword', () => {
  it('a word related through a description item records that item and its cosine ≥ θ_relate', async () => {
    const store = await build();
    expect(store.isKeyword('spam', 'offer')).toBe(true);
    const why = store.why('spam', 'offer')!;
    expect(why).toMatchObject({ word: 'offer', keyword: true, related: true });
    expect(why.demotedBy).toBeUndefined();
    expect(why.members).toHaveLength(1);
    const [m] = why.members;
    expect(m).toMatchObject({ embedding: 'hand', item: 'junk', thetaRelate: 0.6, related: true, clusterSize: 1 });
    expect(m.because).toBe('cluster-related');
    expect(m.cosine).toBeCloseTo(cos(20), 4);
    expect(m.clusterScore).toBeCloseTo(cos(20), 4); // member-max of a one-word cluster is its own best cosine
    expect(m.cosine).toBeGreaterThanOrEqual(m.thetaRelate);
  });

  it('an unrelated word records its best item and a cosine < θ_relate', async () => {
    const store = await build();
    expect(store.isKeyword('spam', 'kettle')).toBe(false);
    const why = store.why('spam', 'kettle')!;
    expect(why).toMatchObject({ keyword: false, related: false });
    expect(why.demotedBy).toBeUndefined();
    const [m] = why.members;
    expect(m).toMatchObject({ item: 'junk', related: false, because: 'cluster-unrelated' });
    expect(m.cosine).toBeCloseTo(cos(80), 4);
    expect(m.cosine).toBeLessThan(m.thetaRelate);
    // the undescribed class is compared with its name alone
    expect(store.why('ham', 'letter')!.members[0]).toMatchObject({ item: 'ham', related: true });
    expect(store.why('ham', 'letter')!.members[0].cosine).toBeCloseTo(cos(5), 4);
    // a word outside the pool has no reason
    expect(store.why('spam', 'letter')).toBeUndefined();
  });

  it('gives one reason per ensemble member, each with its own item, cosine and θ_relate', async () => {
    const store = await build([e, second], { hand: 0.6, hand2: 0.5 });
    const why = store.why('spam', 'offer')!;
    expect(why.members.map((m) => [m.embedding, m.item, m.thetaRelate])).toEqual([
      ['hand', 'junk', 0.6],
      ['hand2', 'spam', 0.5],
    ]);
    expect(why.members[1].cosine).toBeCloseTo(cos(10), 4);
  });

  it('the reasons change no keyword and round-trip through JSON', async () => {
    const store = await build();
    expect(store.keywords('spam')).toEqual(['offer']);
    expect(store.nonKeywords('spam')).toEqual(['kettle']);
    const json = JSON.parse(JSON.stringify(store.toJSON())) as KeywordStoreJson;
    const spam = json.classes.find((c) => c.label === 'spam')!;
    expect(Object.keys(spam.reasons!).sort()).toEqual(['kettle', 'offer']);
    expect(spam.reasons!.offer.members[0].item).toBe('junk');
    const again = KeywordStore.fromJSON(json);
    expect(again.why('spam', 'offer')).toEqual(store.why('spam', 'offer'));
    expect(again.reasons('spam')).toEqual(store.reasons('spam'));
    expect(again.toJSON()).toEqual(store.toJSON());
  });

  it('an old store without reasons still loads, with the same keywords and no reasons', async () => {
    const store = await build();
    const json = JSON.parse(JSON.stringify(store.toJSON())) as KeywordStoreJson;
    for (const c of json.classes) delete c.reasons;
    const old = KeywordStore.fromJSON(json);
    expect(old.keywords('spam')).toEqual(['offer']);
    expect(old.why('spam', 'offer')).toBeUndefined();
    expect(old.reasons('spam')).toEqual([]);
    expect(old.toJSON().classes.every((c) => c.reasons === undefined)).toBe(true);
  });

  it(`saves every keyword and at most ${REASONS_UNRELATED_SAVED} unrelated words per class`, async () => {
    // 150 unrelated words near 180° (all near "ham", far from "spam" and "junk") in the spam pool
    const far = Array.from({ length: 150 }, (_, i) => `w${i}`);
    const big = new HandEmbedding('hand', {
      ...Object.fromEntries(far.map((w, i) => [w, at(180 + (i % 20) * 0.5)])),
      spam: at(0),
      junk: at(90),
      offer: at(70),
      ham: at(180),
      letter: at(185),
    });
    const store = KeywordStore.create({
      fingerprint: 'hand',
      labels: ['spam', 'ham'],
      thetaDist: 0.3,
      topK: 200,
      ensemble: [{ name: 'hand', dim: 2, thetaRelate: 0.6 }],
      oracle,
      provenance: {
        explainer: { method: 'hand', params: {} },
        seed: 0,
        sampleSize: 1,
        sampled: 1,
        explained: 0,
        keywordIdentificationSeconds: 0,
        createdAt: '',
      },
    });
    await store.addExplanations(
      [explanation('spam', { offer: 1, ...Object.fromEntries(far.map((w, i) => [w, 0.5 - i / 1000])) })],
      [big],
    );
    const reasons = store.reasons('spam');
    expect(reasons.filter((r) => r.keyword).map((r) => r.word)).toEqual(['offer']);
    expect(reasons.filter((r) => !r.related)).toHaveLength(REASONS_UNRELATED_SAVED);
    // the heaviest unrelated words are the ones kept
    expect(reasons.filter((r) => !r.related).map((r) => r.word)).toEqual(far.slice(0, REASONS_UNRELATED_SAVED));
    // in memory every pool word still has its reason
    expect(store.why('spam', 'w149')!.related).toBe(false);
  });
});
