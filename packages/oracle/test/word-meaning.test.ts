import { describe, expect, it } from 'vitest';
import {
  ClassCorpus,
  KeywordStore,
  TOKI_DEFAULT,
  checkOracle,
  descriptionTarget,
  wordMeanings,
  type MeaningSettings,
} from '../src/index.js';
import { HandEmbedding, at, explanation } from './fixtures.js';

// Hand-placed unit vectors in the plane: the class name "spam" at 0°, four background subjects at 90°,
// 135°, 180.5° and 270° (MeaningSettings.topics in place of BACKGROUND_TOPICS). "offer" (10°, cos .985 to spam) is nearer spam than any subject
// is: it beats 4 of 4. "often" (80°, cos .174 to spam) is nearer the subjects at 90° (cos .985) and 135°
// (cos .574) than spam, and beats only those at 180.5° and 270°: 2 of 4. "bonus" (302°) is nearer the
// subject at 270° (cos .848) than spam (cos .530): 3 of 4, below the 0.8 cut — its corpus neighbours decide.
// made-up subjects WordNet does not know, so each is described by its one word
const [t0, t1, t2, t3] = ['subjecta', 'subjectb', 'subjectc', 'subjectd'];
const corpusWords = {
  // spam's texts: free, prize; ham's texts: agenda, minutes; kettle is planted in every spam text
  free: at(300),
  prize: at(305),
  agenda: at(60),
  minutes: at(62),
  kettle: at(250),
};
const e = new HandEmbedding('hand', {
  spam: at(0),
  ham: at(180),
  [t0]: at(90),
  [t1]: at(135),
  [t2]: at(180.5),
  [t3]: at(270),
  offer: at(10),
  often: at(80),
  bonus: at(302), // meaning-neighbours free, prize (spam's words)
  teapot: at(252), // meaning-neighbour kettle… and then ham's agenda/minutes are far: see below
  ...corpusWords,
});
const texts = [
  'free prize kettle',
  'free prize kettle',
  'prize kettle offer',
  'agenda minutes',
  'agenda minutes',
  'minutes agenda',
];
const labels = ['spam', 'spam', 'spam', 'ham', 'ham', 'ham'];
const settings: MeaningSettings = {
  topicPercentile: 0.8,
  neighbourLean: 0.5,
  neighbours: 2,
  topItems: 1,
  topics: [t0, t1, t2, t3],
};

describe('ClassCorpus', () => {
  it('counts per-class text frequencies of content words and computes the smoothed log lean', () => {
    const c = ClassCorpus.fromTexts(texts, labels, ['spam', 'ham'], { minTexts: 1 });
    const prize = c.rowOf('prize')!;
    // prize: 3 of 3 spam texts, 0 of 3 ham texts → log((3.5/4) / (0.5/4)) = log 7
    expect(c.lean(prize, 'spam')).toBeCloseTo(Math.log(7), 10);
    expect(c.lean(prize, 'ham')).toBeCloseTo(-Math.log(7), 10);
    // minTexts drops the words of one text only (offer)
    expect(ClassCorpus.fromTexts(texts, labels, ['spam', 'ham'], { minTexts: 2 }).rowOf('offer')).toBeUndefined();
    const back = ClassCorpus.fromJSON(JSON.parse(JSON.stringify(c.toJSON())));
    expect(back.lean(back.rowOf('prize')!, 'spam')).toBeCloseTo(Math.log(7), 10);
  });

  it('refuses a label outside the classes, naming the row', () => {
    expect(() => ClassCorpus.fromTexts(['a b c'], ['eggs'], ['spam', 'ham'])).toThrow(/"eggs" of row 0/);
  });
});

describe('wordMeanings', () => {
  it('relates a word by its topic percentile: nearer the class than most subjects, not merely near it', async () => {
    const target = (await descriptionTarget(e, ['spam']))!;
    const words = ['offer', 'often'];
    const m = await wordMeanings(e, words, await e.vectors(words), target, 'spam', null, settings);
    expect(m[0].topicPercentile).toBe(1);
    expect(m[0]).toMatchObject({ related: true, because: 'topic', neighbourLean: null });
    expect(m[1].topicPercentile).toBe(0.5);
    expect(m[1]).toMatchObject({ related: false, because: 'neither' });
  });

  it("relates a word by its corpus neighbours' lean, never by its own frequency", async () => {
    const corpus = ClassCorpus.fromTexts(texts, labels, ['spam', 'ham'], { minTexts: 1 });
    const target = (await descriptionTarget(e, ['spam']))!;
    const words = ['bonus', 'kettle'];
    const m = await wordMeanings(e, words, await e.vectors(words), target, 'spam', corpus, settings);
    // bonus: its two nearest corpus words are free (2° away) and prize (3°): spam's words
    expect(m[0].neighbours).toEqual(['free', 'prize']);
    expect(m[0].neighbourLean!).toBeGreaterThan(0.5);
    expect(m[0]).toMatchObject({ related: true, because: 'corpus-neighbours' });
    // kettle is a corpus word itself, but never its own neighbour
    expect(m[1].neighbours).toEqual(['free', 'prize']);
  });

  it('a planted word whose meaning-neighbours belong to the other class is not related, however often it occurs', async () => {
    const e2 = new HandEmbedding('hand2', {
      spam: at(0),
      ham: at(180),
      [t0]: at(90),
      [t1]: at(135),
      [t2]: at(180.5),
      [t3]: at(270),
      ...corpusWords,
      kettle: at(61), // between agenda and minutes: ham's words
    });
    const corpus = ClassCorpus.fromTexts(texts, labels, ['spam', 'ham'], { minTexts: 1 });
    const target = (await descriptionTarget(e2, ['spam']))!;
    const [m] = await wordMeanings(e2, ['kettle'], await e2.vectors(['kettle']), target, 'spam', corpus, settings);
    expect(corpus.lean(corpus.rowOf('kettle')!, 'spam')).toBeGreaterThan(1); // its own frequency leans to spam…
    expect(m.neighbours).toEqual(['agenda', 'minutes']);
    expect(m.neighbourLean!).toBeLessThan(0); // …its neighbours lean to ham
    expect(m.related).toBe(false);
  });
});

describe('the joint rule (MeaningSettings.joint)', () => {
  // bonus: topic percentile 3 / 4 (0.75); its neighbours free (2 of 3 spam texts, no ham text: lean log 5) and
  // prize (3 of 3: log 7) lean (log 5 + log 7) / 2 ≈ 1.78 towards spam
  const strict: MeaningSettings = { ...settings, topicPercentile: 0.8, neighbourLean: 3 };
  const corpus = ClassCorpus.fromTexts(texts, labels, ['spam', 'ham'], { minTexts: 1 });
  const meanings = async (s: MeaningSettings, words: string[]) =>
    wordMeanings(e, words, await e.vectors(words), (await descriptionTarget(e, ['spam']))!, 'spam', corpus, s);

  it('relates a word whose two signals clear lower bars together, though neither clears its own', async () => {
    const [alone] = await meanings(strict, ['bonus']);
    expect(alone.topicPercentile).toBe(0.75);
    expect(alone.neighbourLean!).toBeCloseTo((Math.log(5) + Math.log(7)) / 2, 10);
    expect(alone).toMatchObject({ related: false, because: 'neither' });
    const [both] = await meanings({ ...strict, joint: { topicPercentile: 0.7, neighbourLean: 1.5 } }, ['bonus']);
    expect(both).toMatchObject({ related: true, because: 'topic-and-neighbours' });
  });

  it('needs both: one signal below its joint bar keeps the word unrelated', async () => {
    const [leanShort] = await meanings({ ...strict, joint: { topicPercentile: 0.7, neighbourLean: 2 } }, ['bonus']);
    expect(leanShort.related).toBe(false);
    const [topicShort] = await meanings({ ...strict, joint: { topicPercentile: 0.8, neighbourLean: 1.5 } }, ['bonus']);
    expect(topicShort.related).toBe(false);
    // often: topic percentile 0.5 and neighbours agenda, minutes (ham's words): no joint bar relates it
    const [often] = await meanings({ ...strict, joint: { topicPercentile: 0.5, neighbourLean: 0 } }, ['often']);
    expect(often.neighbourLean!).toBeLessThan(0);
    expect(often.related).toBe(false);
  });

  it('the configuration check names a bad joint bar', () => {
    expect(() =>
      checkOracle({ ...TOKI_DEFAULT, meaning: { ...settings, joint: { topicPercentile: 1.5, neighbourLean: 1 } } }),
    ).toThrow(/meaning\.joint\.topicPercentile/);
    expect(() =>
      checkOracle({
        ...TOKI_DEFAULT,
        meaning: { ...settings, joint: { topicPercentile: 0.9, neighbourLean: Number.NaN } },
      }),
    ).toThrow(/meaning\.joint\.neighbourLean/);
  });
});

describe('topic scores under several topItems', () => {
  // the subject "teapot" is described by two items the embedding knows (teapot at 90°, pot at 150°; WordNet's
  // other gloss words are unknown to it), "subjectb" by itself (200°). The word "mug" at 100°: its teapot score
  // is 0.985 with topItems 1 (cos 10°) and (0.985 + 0.643) / 2 = 0.814 with topItems 2. The class, described
  // by "spam" (112°) and "offer" (140°), scores (0.978 + 0.766) / 2 = 0.872 with topItems 2: it beats both
  // subjects — but would beat only subjectb against topItems-1 topic scores.
  const vectors = { teapot: at(90), pot: at(150), subjectb: at(200), mug: at(100), spam: at(112), offer: at(140) };
  const s2: MeaningSettings = {
    topicPercentile: 0.9,
    neighbourLean: 9,
    neighbours: 2,
    topItems: 2,
    topics: ['teapot', 'subjectb'],
  };
  const run = async (emb: HandEmbedding, topItems: number) =>
    (
      await wordMeanings(
        emb,
        ['mug'],
        await emb.vectors(['mug']),
        (await descriptionTarget(emb, ['spam', 'offer']))!,
        'spam',
        null,
        { ...s2, topItems },
      )
    )[0];

  it('ranks the class against topic scores built with the same topItems, whatever ran before', async () => {
    const fresh = new HandEmbedding('fresh', vectors);
    expect((await run(fresh, 2)).topicPercentile).toBe(1);
    const reused = new HandEmbedding('reused', vectors);
    expect((await run(reused, 1)).topicPercentile).toBe(0.5); // 0.978 against teapot's 0.985: beats subjectb only
    expect((await run(reused, 2)).topicPercentile).toBe(1);
  });
});

describe('names', () => {
  it("a word the corpus writes as a name is not related by its neighbours' lean", async () => {
    // "Gary" signs every ham text; its meaning-neighbours (other names) would lean to ham
    const named = ['agenda Gary minutes', 'minutes Gary agenda', 'Gary agenda', 'free prize', 'prize free', 'free'];
    const corpus = ClassCorpus.fromTexts(named, labels, ['spam', 'ham'], { minTexts: 1 });
    expect(corpus.isName(corpus.rowOf('gary')!)).toBe(true);
    expect(corpus.isName(corpus.rowOf('agenda')!)).toBe(false);
    const e3 = new HandEmbedding('hand3', {
      ham: at(180),
      [t0]: at(90),
      [t1]: at(135),
      [t2]: at(180.5),
      [t3]: at(270),
      ...corpusWords,
      gary: at(61), // between agenda and minutes
    });
    const target = (await descriptionTarget(e3, ['ham']))!;
    const [m] = await wordMeanings(e3, ['gary'], await e3.vectors(['gary']), target, 'ham', corpus, settings);
    expect(m).toMatchObject({ name: true, neighbourLean: null, related: false });
  });
});

describe('the meaning test in the keyword step', () => {
  it('keeps the related words of a pool as keywords, says why, and saves the corpus with the store', async () => {
    const store = KeywordStore.create({
      fingerprint: 'hand',
      labels: ['spam', 'ham'],
      thetaDist: 0.3,
      topK: 10,
      ensemble: [{ name: 'hand', dim: 2, thetaRelate: 0.6 }],
      oracle: { ...TOKI_DEFAULT, classDescription: null, meaning: settings },
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
    store.corpus = ClassCorpus.fromTexts(texts, labels, ['spam', 'ham'], { minTexts: 1 });
    await store.addExplanations(
      [explanation('spam', { offer: 0.5, often: 0.4, bonus: 0.3 }), explanation('ham', { agenda: 0.5 })],
      [e],
    );
    expect(store.keywords('spam').sort()).toEqual(['bonus', 'offer']);
    const why = store.why('spam', 'often')!;
    expect(why.keyword).toBe(false);
    expect(why.members[0].because).toBe('neither');
    expect(why.members[0].meaning!.topicPercentile).toBe(0.5);
    expect(store.why('spam', 'bonus')!.members[0]).toMatchObject({ because: 'corpus-neighbours', related: true });
    const back = KeywordStore.fromJSON(JSON.parse(JSON.stringify(store.toJSON())));
    expect(back.corpus?.words).toEqual(store.corpus.words);
    await back.recompute([e]);
    expect(back.keywords('spam').sort()).toEqual(['bonus', 'offer']);
  });
});

/** A hand embedding that lists its words most frequent first, as GloVe does (the word percentile's background). */
class ListedHandEmbedding extends HandEmbedding {
  constructor(
    name: string,
    vectors: Record<string, readonly number[]>,
    readonly words: readonly string[],
  ) {
    super(name, vectors);
  }
}

describe('the word-percentile gate (MeaningSettings.wordPercentile)', () => {
  // spam at 0°; three subjects at 90°, 180°, 270°. "deal" (40°, cos .766 to spam) is nearer spam than any
  // subject (cos .643 to the one at 90°): topic percentile 1. But five of the eight frequent words lie within
  // 25° of spam (cos ≥ .906): deal beats only the three far ones, word percentile 3 / 8. "bargain" (3°)
  // beats all eight.
  const near = { sale: at(5), cash: at(10), win: at(15), gift: at(20), promo: at(25) };
  const far = { tree: at(120), river: at(200), cloud: at(300) };
  const vectors = {
    spam: at(0),
    subjecta: at(90),
    subjectb: at(180),
    subjectc: at(270),
    deal: at(40),
    bargain: at(3),
    ...near,
    ...far,
  };
  // the listing's order is its frequency order; "the" (a function word) and "x2" (not letters) are skipped
  const listed = new ListedHandEmbedding('listed', { ...vectors, the: at(1), x2: at(2) }, [
    'the',
    'x2',
    ...Object.keys(near),
    ...Object.keys(far),
  ]);
  const gated: MeaningSettings = {
    topicPercentile: 0.9,
    neighbourLean: 0.5,
    neighbours: 2,
    topItems: 1,
    topics: ['subjecta', 'subjectb', 'subjectc'],
    wordPercentile: 0.5,
  };

  it('keeps the topic signal for a word nearer the class than most frequent words, drops it for one that is not', async () => {
    const target = (await descriptionTarget(listed, ['spam']))!;
    const words = ['deal', 'bargain'];
    const m = await wordMeanings(listed, words, await listed.vectors(words), target, 'spam', null, gated);
    expect(m.map((x) => x.topicPercentile)).toEqual([1, 1]);
    expect(m[0].wordPercentile).toBeCloseTo(3 / 8, 10);
    expect(m[1].wordPercentile).toBe(1);
    expect(m.map((x) => [x.related, x.because])).toEqual([
      [false, 'neither'],
      [true, 'topic'],
    ]);
    // without the gate both are related by the topic percentile
    const { wordPercentile: _, ...ungated } = gated;
    const u = await wordMeanings(listed, words, await listed.vectors(words), target, 'spam', null, ungated);
    expect(u.map((x) => x.related)).toEqual([true, true]);
    expect(u[0].wordPercentile).toBeUndefined();
  });

  it('reads the first backgroundWords content words only', async () => {
    const target = (await descriptionTarget(listed, ['spam']))!;
    // the first three content words (sale, cash, win) all lie nearer spam than deal: word percentile 0
    const [m] = await wordMeanings(listed, ['deal'], await listed.vectors(['deal']), target, 'spam', null, {
      ...gated,
      backgroundWords: 3,
    });
    expect(m.wordPercentile).toBe(0);
  });

  it('is not applied with an embedding that does not list its words', async () => {
    const plain = new HandEmbedding('plain', vectors);
    const target = (await descriptionTarget(plain, ['spam']))!;
    const [m] = await wordMeanings(plain, ['deal'], await plain.vectors(['deal']), target, 'spam', null, gated);
    expect(m.wordPercentile).toBeUndefined();
    expect(m.related).toBe(true);
  });
});
