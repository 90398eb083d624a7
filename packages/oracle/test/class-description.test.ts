import { describe, expect, it } from 'vitest';
import { isXtrustError } from '@xtrust/core';
import {
  KeywordStore,
  TOKI_PAPER,
  checkClassDescriptions,
  classDescriptionItems,
  descriptionScores,
  descriptionTarget,
  selectKeywords,
  type OracleConfig,
  type SelectionRule,
} from '../src/index.js';
import { HandEmbedding, at, HAND_PROVENANCE } from './fixtures.js';

// Hand-placed unit vectors: the class name "spam" at 0°, its description word "junk" at 90°.
// The description's mean vector is (.5, .5), at 45°.
const e = new HandEmbedding('hand', { spam: at(0), junk: at(90), offer: at(70), kettle: at(170), ham: at(180) });
const paper: SelectionRule = { clusterRule: 'mean', memberShare: 0.5, contrastWith: null };

describe('relatedness to a described class (Eq. 4 with the name and its description)', () => {
  it('scores a vector by hand-computed cosines under each rule', async () => {
    const t = (await descriptionTarget(e, ['spam', 'junk']))!;
    expect(t.count).toBe(2);
    const v = Float32Array.from(at(70));
    // centroid: cos(70° − 45°) = cos 25° = .9063
    expect(descriptionScores(v, 1, t, 'centroid')[0]).toBeCloseTo(Math.cos((25 * Math.PI) / 180), 5);
    expect(descriptionScores(v, 1, t, 'centroid')[0]).toBeCloseTo(0.9063, 4);
    // max: max(cos 70°, cos 20°) = .9397
    expect(descriptionScores(v, 1, t, 'max')[0]).toBeCloseTo(0.9397, 4);
    // member-max of one cluster {70°, 170°}: (max(cos 70°, cos 20°) + max(cos 170°, cos 80°)) / 2 = (.9397 + .1736) / 2 = .5567
    const members = Float32Array.from([...at(70), ...at(170)]);
    const mean = Float32Array.from([(at(70)[0] + at(170)[0]) / 2, (at(70)[1] + at(170)[1]) / 2]);
    expect(descriptionScores(mean, 1, t, 'member-max', { members, memberOf: Int32Array.from([0, 0]) })[0]).toBeCloseTo(
      0.5567,
      4,
    );
  });

  it("a word far from the name alone relates through the description; the paper's one name is unchanged", async () => {
    // "offer" at 70°: cos .342 with "spam" < θ_relate .6, but .906 with the description's mean vector
    const one = await selectKeywords(['offer'], e, 'spam', 0.3, 0.6, paper);
    expect(Array.from(one.ballots)).toEqual([0]);
    const described = await selectKeywords(['offer'], e, 'spam', 0.3, 0.6, {
      ...paper,
      description: { own: ['spam', 'junk'], others: null, relate: 'centroid' },
    });
    expect(Array.from(described.ballots)).toEqual([1]);
    // a description of the name alone is the paper's computation
    const nameOnly = await selectKeywords(['offer', 'junk'], e, 'spam', 0.3, 0.6, {
      ...paper,
      description: { own: ['spam'], others: null, relate: 'max' },
    });
    const same = await selectKeywords(['offer', 'junk'], e, 'spam', 0.3, 0.6, paper);
    expect(Array.from(nameOnly.ballots)).toEqual(Array.from(same.ballots));
    // class contrast: "kettle" (170°) is nearer the description of "ham" (180°) than spam's
    const contrasted = await selectKeywords(['kettle'], e, 'spam', 0.3, -1, {
      ...paper,
      description: { own: ['spam', 'junk'], others: [['ham']], relate: 'max' },
    });
    expect(Array.from(contrasted.ballots)).toEqual([0]);
  });

  it('builds the items from the name, a user sentence (function words dropped) and WordNet', () => {
    expect(classDescriptionItems('ham', null, 'Personal and work e-mail, from the people you know')).toEqual([
      'ham',
      'personal',
      'work',
      'e-mail',
      'people',
      'know',
    ]);
    expect(classDescriptionItems('ham', null, ['legitimate', 'mail', 'the'])).toEqual(['ham', 'legitimate', 'mail']);
    // real WordNet 3.1: spam's lower-case sense is junk e-mail ("unwanted e-mail …"), not the canned meat "Spam"
    const spam = classDescriptionItems(
      'spam',
      { wordnet: { senses: 1, gloss: true, hypernyms: false, hyponyms: false }, relate: 'centroid' },
      undefined,
    );
    expect(spam[0]).toBe('spam');
    expect(spam).toEqual(expect.arrayContaining(['junk e-mail', 'unwanted', 'e-mail', 'commercial', 'bulk']));
    expect(spam).not.toContain('pork');
    expect(spam).not.toContain('of');
  });

  it('a store with user descriptions relates through them, and refuses a description of an unknown label', async () => {
    const config: OracleConfig = { ...TOKI_PAPER, name: 'described', classDescriptions: { spam: ['junk'] } };
    const store = KeywordStore.create({
      fingerprint: 'x',
      labels: ['spam', 'ham'],
      thetaDist: 0.3,
      topK: 10,
      ensemble: [{ name: 'hand', dim: 2, thetaRelate: 0.6 }],
      provenance: HAND_PROVENANCE,
      oracle: config,
    });
    expect(store.descriptionItems('spam')).toEqual(['spam', 'junk']);
    expect(store.descriptionItems('ham')).toEqual(['ham']);
    const bad = () =>
      KeywordStore.create({
        fingerprint: 'x',
        labels: ['spam', 'ham'],
        thetaDist: 0.3,
        topK: 10,
        ensemble: [{ name: 'hand', dim: 2, thetaRelate: 0.6 }],
        provenance: store.provenance,
        oracle: { ...config, classDescriptions: { eggs: 'breakfast' } },
      });
    expect(bad).toThrow(/"eggs" is not one of the model's labels/);
    expect(() => checkClassDescriptions({ spam: 3 }, ['spam'], 'descriptions.json')).toThrow(
      /descriptions\.json: the description of "spam"/,
    );
    let err: unknown;
    try {
      checkClassDescriptions({ eggs: 'x' }, ['spam'], 'descriptions.json');
    } catch (e) {
      err = e;
    }
    expect(isXtrustError(err) && err.code).toBe('UNKNOWN_LABEL');
  });
});
