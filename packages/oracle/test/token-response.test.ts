import { describe, expect, it } from 'vitest';
import type { Explanation } from '@xtrust/core';
import {
  FUNCTION_WORDS,
  KeywordStore,
  checkSurfaceTokens,
  evidenceTexts,
  isFunctionWord,
  labelExplanations,
  replaceWord,
  sampleVocabulary,
  tokenResponses,
  TOKI_NAME_ONLY,
  type OracleConfig,
} from '../src/index.js';
import { HandEmbedding, LinearBow, at } from './fixtures.js';

// Two classes. "god" is a genuine religion word and so are its meaning-neighbours "lord" and "divine"
// (the model learned all three); "tuesday" is a planted shortcut — the model responds to that token
// alone, its neighbours "monday" and "wednesday" carry nothing.
const labels = ['religion', 'news'];
const model = new LinearBow(labels, {
  god: [2, 0],
  lord: [1.6, 0],
  divine: [1.4, 0],
  tuesday: [4, 0],
  market: [0, 1.5],
  shares: [0, 1.2],
});
const embedding = new HandEmbedding('hand', {
  god: at(0),
  lord: at(5),
  divine: at(10),
  tuesday: at(90),
  monday: at(93),
  wednesday: at(96),
  market: at(180),
  shares: at(185),
  religion: at(2),
  news: at(182),
});

const texts = ['the god of our fathers on tuesday', 'praise god and pray on tuesday', 'a tuesday sermon about god'];

describe('replaceWord', () => {
  it('replaces or deletes every occurrence of a word, case-folded, keeping the rest of the text', () => {
    expect(replaceWord('God is good, god is great', 'god', 'lord')).toBe('lord is good, lord is great');
    expect(replaceWord('on Tuesday we met', 'tuesday', '')).toBe('on  we met');
    expect(replaceWord('nothing here', 'god', 'lord')).toBe('nothing here');
  });
});

describe('tokenResponses', () => {
  it('finds the planted token with retention ≈ 0 and the genuine keyword with most of its effect kept', async () => {
    const vocabulary = ['god', 'lord', 'divine', 'tuesday', 'monday', 'wednesday', 'market', 'shares'];
    const r = await tokenResponses(
      model,
      [
        { label: 'religion', word: 'tuesday', texts },
        { label: 'religion', word: 'god', texts },
      ],
      embedding,
      vocabulary,
      { neighbours: 2, minEffect: 0.05 },
    );
    const tuesday = r.get('religion')!.get('tuesday')!;
    const god = r.get('religion')!.get('god')!;
    expect(tuesday.neighbours).toEqual(['monday', 'wednesday']);
    expect(god.neighbours).toEqual(['lord', 'divine']);
    // replacing "tuesday" by a weekday removes its whole effect: substitution = deletion
    expect(tuesday.retention).toBeCloseTo(0, 6);
    // "god" → "lord"/"divine" keeps 1.5 of its 2 log-odds units on average (exact for this linear model when p is not saturated)
    expect(god.retention).toBeGreaterThan(0.5);
    expect(god.deletion).toBeGreaterThan(0.05);
  });

  it('skips a word without effect, without vector, or without texts', async () => {
    const r = await tokenResponses(
      model,
      [
        { label: 'news', word: 'monday', texts },
        { label: 'religion', word: 'flurbix', texts },
        { label: 'religion', word: 'god', texts: [] },
      ],
      embedding,
      ['monday', 'tuesday', 'wednesday', 'god'],
      { neighbours: 2, minEffect: 0.05 },
    );
    expect(r.size).toBe(0);
  });
});

describe('evidenceTexts and sampleVocabulary', () => {
  const expl = (text: string, features: [string, number][]): Explanation => ({
    text,
    method: 'hand',
    params: {},
    predictedLabel: 'religion',
    explainedLabel: 'religion',
    features: features.map(([word, weight]) => ({ word, weight })),
  });
  it('keeps, per word, the texts where it weighed most', () => {
    const e = evidenceTexts(
      [
        expl('a', [['god', 0.1]]),
        expl('b', [['god', 0.5]]),
        expl('c', [
          ['god', 0.3],
          ['tuesday', 0.2],
        ]),
      ],
      10,
      2,
    );
    expect(e.get('religion')!.get('god')).toEqual(['b', 'c']);
    expect(e.get('religion')!.get('tuesday')).toEqual(['c']);
  });
  it('takes words of at least minTexts texts, alphabetic, no function words', () => {
    expect(sampleVocabulary(['the god 42', 'The God of war', 'war and god'], 2)).toEqual(['god', 'war']);
  });
});

describe('function words', () => {
  it('come from NLTK and the stopword package', () => {
    for (const w of ['the', 'another', 'while', 'by', 'for', 'so', 'with', 'this'])
      expect(isFunctionWord(w)).toBe(true);
    for (const w of ['god', 'tuesday', 'offer', 'millennium', 'read']) expect(isFunctionWord(w)).toBe(false);
    expect(FUNCTION_WORDS.size).toBeGreaterThan(150);
  });
});

describe('the surface-token check in a keyword store', () => {
  // 20 religion explanations: "tuesday" in every one with a large weight (a planted word's concentration),
  // "god" in most with ordinary weights, a few other religion words, and "the" everywhere
  const others = ['lord', 'divine', 'church', 'prayer', 'faith', 'heaven', 'soul', 'bible', 'saint', 'psalm'];
  const explanations: Explanation[] = Array.from({ length: 20 }, (_, i) => {
    const extra = others[i % others.length];
    const text = `on tuesday the god ${extra} spoke`;
    return {
      text,
      method: 'hand',
      params: {},
      predictedLabel: 'religion',
      explainedLabel: 'religion',
      probabilities: [0.9, 0.1],
      features: [
        { word: 'tuesday', weight: 0.5 },
        { word: 'god', weight: 0.05 },
        { word: extra, weight: 0.04 },
        { word: 'the', weight: 0.03 },
      ],
    };
  });
  const vectors: Record<string, number[]> = { ...Object.fromEntries(others.map((w, i) => [w, at(3 + i)])), the: at(1) };
  // "tuesday" sits among the religion words: the embedding alone calls it related (the everyday-word failure)
  const big = new HandEmbedding('hand', {
    god: at(0),
    tuesday: at(8.5),
    market: at(180),
    shares: at(185),
    religion: at(2),
    news: at(182),
    spoke: at(60),
    on: at(1),
    ...vectors,
  });
  const config: OracleConfig = {
    ...TOKI_NAME_ONLY,
    name: 'test',
    functionWordsNeverKeywords: true,
    tokenCheck: {
      neighbours: 2,
      texts: 4,
      maxWords: 5,
      minConcentration: 20,
      referenceWords: 10,
      minRetention: 0.3,
      minTextCount: 1,
      minEffect: 0.05,
    },
  };
  const build = async (c: OracleConfig) => {
    const store = KeywordStore.create({
      fingerprint: 'hand',
      labels,
      thetaDist: 0.3,
      topK: 10,
      ensemble: [{ name: 'hand', dim: 2, thetaRelate: 0.5 }],
      oracle: c,
      provenance: {
        explainer: { method: 'hand', params: {} },
        seed: 0,
        sampleSize: 20,
        sampled: 20,
        explained: 0,
        keywordIdentificationSeconds: 0,
        createdAt: '',
      },
    });
    await store.addExplanations(explanations, [big]);
    return store;
  };

  it('every religion word relates by the embedding alone, the planted one too', async () => {
    const store = await build({ ...config, functionWordsNeverKeywords: false, tokenCheck: null });
    expect(store.isKeyword('religion', 'tuesday')).toBe(true);
    expect(store.isKeyword('religion', 'the')).toBe(true);
  });

  it('function words are never keywords; the concentrated surface token is demoted; ordinary keywords are not tested', async () => {
    const store = await build(config);
    expect(store.isKeyword('religion', 'the')).toBe(false);
    expect(store.votedKeywords('religion')).toContain('the');
    await checkSurfaceTokens(store, model, explanations, big);
    expect(store.isSurfaceToken('religion', 'tuesday')).toBe(true);
    expect(store.isKeyword('religion', 'tuesday')).toBe(false);
    expect(store.tokenResponse('religion', 'tuesday')!.concentration).toBeGreaterThan(20);
    expect(store.isKeyword('religion', 'god')).toBe(true);
    // "god" is heavy but not concentrated: never tested
    expect(store.tokenResponse('religion', 'god')).toBeUndefined();
    // saved and reloaded, the measurements and the filtered keywords stay
    const again = KeywordStore.fromJSON(JSON.parse(JSON.stringify(store.toJSON())));
    expect(again.isKeyword('religion', 'tuesday')).toBe(false);
    expect(again.votedKeywords('religion')).toContain('tuesday');
    // the filters can be switched off on the same measurements
    expect(store.withFilters({ tokenCheck: null }).isKeyword('religion', 'tuesday')).toBe(true);
    // labelling: the planted word is unrelated and decisive; the function word neither excuses nor condemns
    const [label] = await labelExplanations(store, [explanations[0]], { embeddings: [big] });
    expect(label.unrelated.map((f) => f.word)).toEqual(['tuesday']);
    expect(label.related.map((f) => f.word).sort()).toEqual(['god', 'lord']);
    expect(label.verdict).toBe('untrustworthy');
  });

  it('says why: the vote related the planted word to the class name, the surface-token check demoted it', async () => {
    const store = await build(config);
    await checkSurfaceTokens(store, model, explanations, big);
    const why = store.why('religion', 'tuesday')!;
    expect(why).toMatchObject({ keyword: false, related: true });
    // the paper's one name: "religion" (2°) is the item, cos(8.5° − 2°) ≥ θ_relate .5
    expect(why.members[0]).toMatchObject({ embedding: 'hand', item: 'religion', related: true, thetaRelate: 0.5 });
    expect(why.members[0].cosine).toBeCloseTo(Math.cos((6.5 * Math.PI) / 180), 4);
    const measured = store.tokenResponse('religion', 'tuesday')!;
    expect(why.demotedBy).toEqual({
      check: 'surface-token',
      concentration: measured.concentration,
      minConcentration: 20,
      retention: measured.retention,
      minRetention: 0.3,
      deletion: measured.deletion,
      substitution: measured.substitution,
      neighbours: measured.neighbours,
    });
    expect(store.why('religion', 'the')!.demotedBy).toEqual({ check: 'function-word' });
    expect(store.why('religion', 'god')).toMatchObject({ keyword: true, related: true });
    expect(store.why('religion', 'god')!.demotedBy).toBeUndefined();
    // saved in keywords.json and read back
    const json = JSON.parse(JSON.stringify(store.toJSON()));
    const saved = json.classes.find((c: { label: string }) => c.label === 'religion').reasons;
    expect(saved.tuesday.demotedBy.check).toBe('surface-token');
    expect(KeywordStore.fromJSON(json).why('religion', 'tuesday')).toEqual(why);
    // with the check switched off the word is a keyword again and nothing demotes it
    expect(store.withFilters({ tokenCheck: null }).why('religion', 'tuesday')!.demotedBy).toBeUndefined();
  });
});
