import { describe, expect, it } from 'vitest';
import {
  ORACLES,
  TOKI_DEFAULT,
  TOKI_CLUSTER,
  DEFAULT_MEANING,
  TOKI_NAME_ONLY,
  TOKI_PAPER,
  WORDNET_CLASS_DESCRIPTION,
  relatesToClass,
  resolveOracle,
  selectKeywords,
  verdictOf,
  type SelectionRule,
} from '../src/index.js';
import { HandEmbedding, at } from './fixtures.js';

describe('Eq. 4 rules beyond the paper, on hand-placed unit vectors (θ_dist 0.3, θ_relate 0.6 = cos 53.1°)', () => {
  // class "computer" at 0°. file 20° (cos .940), extension 55° (cos .574), cherry 70° (cos .342).
  // Distances: extension–cherry 1 − cos 15° = .034, file–extension 1 − cos 35° = .181, file–cherry
  // 1 − cos 50° = .357; average linkage joins {extension, cherry} then file at (.181 + .357)/2 = .269 ≤ .3.
  // The mean of the three unit vectors is (.6184, .7003): cos with 0° = .6184 / .9343 = .662 ≥ .6.
  const e = new HandEmbedding('hand', {
    computer: at(0),
    fruit: at(90),
    file: at(20),
    extension: at(55),
    cherry: at(70),
  });
  const pool = ['file', 'extension', 'cherry'];
  const rule = (clusterRule: SelectionRule['clusterRule']): SelectionRule => ({
    clusterRule,
    memberShare: 0.5,
    contrastWith: null,
  });

  it("the paper's mean rule lets one related word carry the unrelated 'cherry' into the keywords", async () => {
    const r = await selectKeywords(pool, e, 'computer', 0.3, 0.6, rule('mean'));
    expect(r.clusterCount).toBe(1);
    expect(Array.from(r.ballots)).toEqual([1, 1, 1]);
  });

  it('member-share: 1 of 3 members relates (< 0.5), so the cluster is not related', async () => {
    const r = await selectKeywords(pool, e, 'computer', 0.3, 0.6, rule('member-share'));
    expect(Array.from(r.ballots)).toEqual([0, 0, 0]);
    expect(r.relatedClusters).toBe(0);
    // with a share of 1/3 the cluster passes again
    const lax = await selectKeywords(pool, e, 'computer', 0.3, 0.6, { ...rule('member-share'), memberShare: 1 / 3 });
    expect(Array.from(lax.ballots)).toEqual([1, 1, 1]);
  });

  it('individual: only the member that relates by itself is a keyword', async () => {
    const r = await selectKeywords(pool, e, 'computer', 0.3, 0.6, rule('individual'));
    expect(Array.from(r.ballots)).toEqual([1, 0, 0]);
  });

  it('class contrast: a vector relates to c only when c is its nearest class name', () => {
    // 50°: cos .643 with computer (≥ .6) but cos .766 with fruit (90°) → not computer's under contrast
    const v = Float32Array.from([...at(50), ...at(20)]);
    const computer = Float32Array.from(at(0));
    const fruit = { vectors: Float32Array.from(at(90)), count: 1 };
    expect(Array.from(relatesToClass(v, 2, 2, computer, null, 0.6))).toEqual([1, 1]);
    expect(Array.from(relatesToClass(v, 2, 2, computer, fruit, 0.6))).toEqual([0, 1]);
  });
});

describe('Eq. 6 verdict rules (p = [.7, .2, .1], predicted class 0: half margin (.7 − .2)/2 = .25)', () => {
  const e = { probabilities: [0.7, 0.2, 0.1] };
  it("sum is the paper's IS_rel ≥ IS_unr", () => {
    expect(verdictOf('sum', 0.5, 0.3, e, 0)).toBe(true);
    expect(verdictOf('sum', 0.1, 0.2, e, 0)).toBe(false);
  });
  it('decisive: untrustworthy iff IS_unr > half the margin, whatever IS_rel', () => {
    expect(verdictOf('decisive', 0.5, 0.3, e, 0)).toBe(false); // .3 > .25
    expect(verdictOf('decisive', 0.1, 0.2, e, 0)).toBe(true); // .2 ≤ .25
    expect(verdictOf('decisive', 0, 0.25, { probabilities: [0.75, 0.25, 0] }, 0)).toBe(true); // at the bound (.75 − .25)/2 = .25: not decisive
  });
  it('decisive-word looks at the heaviest unrelated word; sum-and-decisive needs both tests', () => {
    expect(verdictOf('decisive-word', 0.5, 0.3, e, 0, 0.15)).toBe(true);
    expect(verdictOf('decisive-word', 0.5, 0.3, e, 0, 0.26)).toBe(false);
    expect(verdictOf('sum-and-decisive', 0.1, 0.2, e, 0)).toBe(false);
    expect(verdictOf('sum-and-decisive', 0.5, 0.2, e, 0)).toBe(true);
  });
  it('without probabilities every rule falls back to the sum', () => {
    expect(verdictOf('decisive', 0.5, 0.3, {}, 0)).toBe(true);
  });
});

describe('named configurations', () => {
  it('resolves toki (the default), toki-cluster, toki-name and toki-paper, and refuses unknown names and bad values', () => {
    expect(resolveOracle(undefined)).toBe(TOKI_DEFAULT);
    expect(resolveOracle('toki')).toBe(TOKI_DEFAULT);
    expect(resolveOracle('toki-paper')).toBe(TOKI_PAPER);
    expect(resolveOracle('toki-name')).toBe(TOKI_NAME_ONLY);
    expect(resolveOracle('toki-cluster')).toBe(TOKI_CLUSTER);
    expect(Object.keys(ORACLES)).toEqual(['toki', 'toki-phrase', 'toki-cluster', 'toki-name', 'toki-paper']);
    // the paper's Eq. 4 and toki-name's use the class name alone; the default adds the WordNet description
    expect(TOKI_PAPER.classDescription ?? null).toBeNull();
    expect(TOKI_NAME_ONLY.classDescription ?? null).toBeNull();
    expect(TOKI_CLUSTER).toEqual({
      ...TOKI_NAME_ONLY,
      name: 'toki-cluster',
      classDescription: WORDNET_CLASS_DESCRIPTION,
    });
    // issue 47: the default decides keywords by meaning, without the surface-token check, one word against the margin
    expect(TOKI_DEFAULT).toEqual({
      ...TOKI_CLUSTER,
      name: 'toki',
      meaning: DEFAULT_MEANING,
      tokenCheck: null,
      verdictRule: 'decisive-word',
      // issue 48: words that travel together in the training texts are one reason
      cooccurrence: { minJaccard: 0.2, minTexts: 5 },
      // issue 48, fifth round: a function word the model leans on for a class by ≥ 0.5 counts against it
      functionWordLean: 0.5,
      // issue 48, eighth round: … and one leaning by ≥ 0.05 counts inside a phrase with another kind of word
      phraseFunctionWordLean: 0.05,
      // issue 48, sixth round: a reason carrying half the explanation's supporting weight is decisive too
      decisiveShare: 0.5,
      // issue 48, seventh round: a decisive reason is confirmed by removing it (prediction changed or 0.75 of its margin lost)
      removalCheck: 0.75,
      // issue 47, fifth round: a decisive reason must also outweigh the prediction's related words
      relatedCounterweight: 1,
      // issue 48, tenth round: a token in nested categories is the outermost's (a header block is one reason)
      categoryNesting: 'outermost',
    });
    expect(TOKI_PAPER).toMatchObject({
      thetaDist: 0.3,
      postProcess: 'none',
      clusterRule: 'mean',
      classContrast: false,
      verdictRule: 'sum',
    });
    expect(TOKI_DEFAULT).toMatchObject({
      thetaDist: 0.3,
      postProcess: 'none',
      clusterRule: 'mean',
      classContrast: false,
      verdictRule: 'decisive-word',
    });
    // issue 48: toki with function words counted
    expect(resolveOracle('toki-phrase')).toEqual({
      ...TOKI_DEFAULT,
      name: 'toki-phrase',
      functionWordsNeverKeywords: false,
    });
    expect(() => resolveOracle('tokyo')).toThrow(
      /unknown oracle "tokyo"; expected one of toki, toki-phrase, toki-cluster, toki-name, toki-paper/,
    );
    expect(() => resolveOracle({ ...TOKI_DEFAULT, meaning: { ...DEFAULT_MEANING, neighbours: 0 } })).toThrow(
      /meaning.neighbours must be a positive integer/,
    );
    expect(() => resolveOracle({ ...TOKI_DEFAULT, meaning: { ...DEFAULT_MEANING, wordPercentile: 1.5 } })).toThrow(
      /meaning.wordPercentile must be a share in \[0, 1\]/,
    );
    expect(() => resolveOracle({ ...TOKI_DEFAULT, meaning: { ...DEFAULT_MEANING, backgroundWords: 0 } })).toThrow(
      /meaning.backgroundWords must be a positive integer/,
    );
    expect(() => resolveOracle({ ...TOKI_DEFAULT, decisiveWords: 0 })).toThrow(
      /decisiveWords must be a positive integer/,
    );
    expect(() => resolveOracle({ ...TOKI_PAPER, memberShare: 0 })).toThrow(/memberShare must be in \(0, 1\]/);
  });
});
