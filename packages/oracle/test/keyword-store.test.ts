import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isXtrustError } from '@xtrust/core';
import { KeywordStore, TOKI_DEFAULT, identifyKeywords, labelPredictions, modelFingerprint } from '../src/index.js';
import { HandEmbedding, LinearBow, LinearContributionExplainer, at, explanation, HAND_PROVENANCE } from './fixtures.js';

// A sports/food model that learned a shortcut: "zq" (a trigger with no meaning) pushes towards sports.
const coef: Record<string, number[]> = {
  goal: [2, -2],
  match: [1.5, -1.5],
  team: [1.8, -1.8],
  zq: [3, -3],
  bread: [-2, 2],
  cheese: [-1.8, 1.8],
  soup: [-1.5, 1.5],
  the: [0.1, -0.1],
};
const model = new LinearBow(['sports', 'food'], coef);
const emb = new HandEmbedding('hand', {
  sports: at(0),
  goal: at(10),
  match: at(20),
  team: at(15),
  zq: at(80), // unrelated to both classes
  food: at(180),
  bread: at(170),
  cheese: at(175),
  soup: at(185),
  the: at(90),
});
const train = {
  texts: [
    'goal team the',
    'match goal',
    'team match the zq',
    'zq the',
    'bread cheese',
    'soup bread the',
    'cheese soup',
    'goal bread bread cheese',
  ],
  labels: ['sports', 'sports', 'sports', 'sports', 'food', 'food', 'food', 'food'],
};

async function build(seed = 1) {
  return identifyKeywords(model, train.texts, train.labels, {
    explainer: new LinearContributionExplainer(coef),
    embeddings: [emb],
    thetaRelate: { hand: 0.6 },
    oracle: 'toki-paper',
    seed,
  });
}

describe('identifyKeywords (§3.1 end to end on a linear model)', () => {
  it('explains only correctly predicted training texts and finds the class keywords, leaving the trigger out', async () => {
    const store = await build();
    expect(store.provenance.sampled).toBe(8);
    expect(store.provenance.explained).toBe(8);
    expect(store.keywords('sports').sort()).toEqual(['goal', 'match', 'team']);
    expect(store.nonKeywords('sports').sort()).toEqual(['the', 'zq']);
    expect(store.keywords('food').sort()).toEqual(['bread', 'cheese', 'soup']);
  });

  it('labels a trigger-driven prediction untrustworthy and a content-driven one trustworthy', async () => {
    const store = await build();
    const labels = await labelPredictions(store, model, ['zq bread', 'goal match', 'bread goal goal'], {
      explainer: new LinearContributionExplainer(coef),
      embeddings: [emb],
      trueLabels: ['sports', 'sports', 'food'],
    });
    // "zq bread": sports by 3 − 2; supporting words: zq (6 vs others) → unrelated
    expect(labels.map((l) => l.verdict)).toEqual(['untrustworthy', 'trustworthy', 'incorrect']);
    expect(labels[0].confidence).toBeCloseTo(1 / (1 + Math.exp(-2)), 5);
  });

  it("defaults to the 'toki' configuration, saved in the store and used to label", async () => {
    const store = await identifyKeywords(model, train.texts, train.labels, {
      explainer: new LinearContributionExplainer(coef),
      embeddings: [emb],
      thetaRelate: { hand: 0.6 },
      seed: 1,
    });
    expect(store.oracle.name).toBe('toki');
    expect(store.oracle.verdictRule).toBe('decisive-word');
    expect(KeywordStore.fromJSON(store.toJSON()).oracle).toEqual(store.oracle);
    // issue 48: the default counts which pool words travel together; in 8 texts no word reaches 5 texts
    expect(store.cooccurrence?.settings).toEqual({ minJaccard: 0.2, minTexts: 5 });
    expect(store.cooccurrence?.groups(['zq', 'the', 'goal'])).toEqual([[0], [1], [2]]);
    // in ≥ 2 texts: "zq" (texts 3, 4) and "the" (1, 3, 4, 6) share 2 of 4 → Jaccard 0.5
    const grouped = await identifyKeywords(model, train.texts, train.labels, {
      explainer: new LinearContributionExplainer(coef),
      embeddings: [emb],
      thetaRelate: { hand: 0.6 },
      oracle: { ...TOKI_DEFAULT, cooccurrence: { minJaccard: 0.5, minTexts: 2 } },
      seed: 1,
    });
    expect(grouped.cooccurrence?.groups(['zq', 'the', 'goal'])).toEqual([[0, 1], [2]]);
    expect(KeywordStore.fromJSON(grouped.toJSON()).cooccurrence?.toJSON()).toEqual(grouped.cooccurrence?.toJSON());
    // "zq bread": p(sports) = 1/(1 + e^−2) = .881, half margin (.881 − .119)/2 = .381 < zq's weight 6: one decisive word
    const labels = await labelPredictions(store, model, ['zq bread', 'goal match'], {
      explainer: new LinearContributionExplainer(coef),
      embeddings: [emb],
      trueLabels: ['sports', 'sports'],
    });
    expect(labels.map((l) => l.verdict)).toEqual(['untrustworthy', 'trustworthy']);
    // a store saved before configurations existed is the paper's
    const { oracle: _omitted, ...old } = store.toJSON();
    expect(KeywordStore.fromJSON(old).oracle.name).toBe('toki-paper');
  });

  it('checks inputs: lengths, unknown labels, missing θ_relate', async () => {
    const opts = {
      explainer: new LinearContributionExplainer(coef),
      embeddings: [emb],
      thetaRelate: 0.6,
      oracle: 'toki-paper' as const,
    };
    await expect(identifyKeywords(model, ['a'], [], opts)).rejects.toThrow(/1 training texts but 0 labels/);
    await expect(identifyKeywords(model, ['a'], ['tennis'], opts)).rejects.toThrow(/"tennis" at row 0/);
    await expect(identifyKeywords(model, ['a'], ['food'], { ...opts, thetaRelate: {} })).rejects.toThrow(
      /no θ_relate for embedding "hand"/,
    );
  });

  it('labels predictions of a class with no correct training prediction "unknown"', async () => {
    const store = await identifyKeywords(model, ['goal team', 'bread soup'], ['sports', 'sports'], {
      explainer: new LinearContributionExplainer(coef),
      embeddings: [emb],
      thetaRelate: 0.6,
      oracle: 'toki-paper',
    });
    expect(store.hasPool('food')).toBe(false);
    expect(store.provenance.classesWithoutPool).toEqual(['food']);
    const [l] = await labelPredictions(store, model, ['bread cheese'], {
      explainer: new LinearContributionExplainer(coef),
      embeddings: [emb],
    });
    expect(l.verdict).toBe('unknown');
    expect(l.reason).toMatch(/no word pool/);
  });
});

describe('KeywordStore persistence', () => {
  it('saves and reloads pools, keywords and thresholds; labels the same without re-explaining', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'oracle-store-'));
    const store = await build();
    await store.save(join(dir, 'store.json'));
    const loaded = await KeywordStore.load(join(dir, 'store.json'), { classifier: model });
    expect(loaded.toJSON()).toEqual(store.toJSON());
    const explainer = new LinearContributionExplainer(coef);
    const a = await labelPredictions(loaded, model, ['zq bread', 'goal match'], { explainer, embeddings: [emb] });
    const b = await labelPredictions(store, model, ['zq bread', 'goal match'], { explainer, embeddings: [emb] });
    expect(a).toEqual(b);
    expect(explainer.calls).toBe(2); // only the test texts were explained
  });

  it('refuses a store built for another model or label set, with the reason', async () => {
    const store = await build();
    const retrained = new LinearBow(['sports', 'food'], { ...coef, goal: [2.5, -2.5] });
    await expect(store.checkClassifier(retrained)).rejects.toThrow(/built for model .* not for this model/);
    const other = new LinearBow(
      ['sports', 'food', 'music'],
      Object.fromEntries(Object.entries(coef).map(([w, v]) => [w, [...v, 0]])),
    );
    const err = await store.checkClassifier(other).catch((e) => e);
    expect(isXtrustError(err, 'INCOMPATIBLE')).toBe(true);
    expect(err.message).toMatch(/labels \[sports, food\] but the model has \[sports, food, music\]/);
    expect(await modelFingerprint(model, store.probes)).toBe(store.fingerprint);
    expect(await modelFingerprint(model)).not.toBe(store.fingerprint);
  });

  it('refuses a store given other embeddings, and corrupt or foreign files', async () => {
    const store = await build();
    const other = new HandEmbedding('glove', { sports: at(0) });
    await expect(
      labelPredictions(store, model, ['goal'], {
        explainer: new LinearContributionExplainer(coef),
        embeddings: [other],
      }),
    ).rejects.toThrow(/"hand" was not given/);
    const dir = await mkdtemp(join(tmpdir(), 'oracle-store-'));
    await writeFile(join(dir, 'bad.json'), '{"format":"something-else"}');
    await expect(KeywordStore.load(join(dir, 'bad.json'))).rejects.toThrow(/not an xtrust keyword store/);
    await writeFile(join(dir, 'cut.json'), '{"format":');
    await expect(KeywordStore.load(join(dir, 'cut.json'))).rejects.toThrow(/not valid JSON/);
    await expect(KeywordStore.load(join(dir, 'none.json'))).rejects.toThrow(/none\.json/);
  });

  it('addExplanations updates pools incrementally: two halves give the same store as all at once', async () => {
    const mk = () =>
      KeywordStore.create({
        fingerprint: 'f',
        labels: ['sports', 'food'],
        thetaDist: 0.3,
        topK: 10,
        ensemble: [{ name: 'hand', dim: 2, thetaRelate: 0.6 }],
        provenance: HAND_PROVENANCE,
      });
    const ex = [
      explanation('sports', { goal: 0.5, zq: 0.9 }),
      explanation('sports', { goal: 0.3, team: 0.2 }),
      explanation('food', { bread: 0.4 }),
      explanation('sports', { match: 0.7, zq: 0.1 }),
    ];
    const whole = mk();
    await whole.addExplanations(ex, [emb]);
    const halves = mk();
    await halves.addExplanations(ex.slice(0, 2), [emb]);
    expect(halves.keywords('sports').sort()).toEqual(['goal', 'team']);
    // reload between the halves: Σ and counts survive JSON
    const reloaded = KeywordStore.fromJSON(JSON.parse(JSON.stringify(halves.toJSON())));
    const r = await reloaded.addExplanations(ex.slice(2), [emb], ['food', 'food']);
    expect(r).toEqual({ added: 1, skipped: 1 }); // the second one's true label differs: not a correct prediction
    await reloaded.addExplanations(ex.slice(3), [emb]);
    expect(reloaded.pool('sports')).toEqual(whole.pool('sports'));
    expect(reloaded.keywords('sports')).toEqual(whole.keywords('sports'));
    expect(reloaded.pool('sports').find((w) => w.word === 'zq')!.importance).toBeCloseTo(0.5, 12);
  });

  it('withThresholds recomputes keywords from the same pools', async () => {
    const store = await build();
    const wide = await store.withThresholds([emb], { thetaDist: 1.5 });
    // one cluster per pool at θ_dist 1.5: its mean decides for every word together
    expect(new Set(wide.methods('sports').map((m) => m.clusters))).toEqual(new Set([1]));
    expect(store.thetaDist).toBe(0.3);
    const json = JSON.parse(
      await readFile(
        await (async () => {
          const dir = await mkdtemp(join(tmpdir(), 'oracle-store-'));
          await wide.save(join(dir, 's.json'));
          return join(dir, 's.json');
        })(),
        'utf8',
      ),
    );
    expect(json.params.thetaDist).toBe(1.5);
  });
});
