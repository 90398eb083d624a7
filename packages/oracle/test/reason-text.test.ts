import { describe, expect, it } from 'vitest';
import { reasonSentence, type MemberReason, type WordReason } from '../src/index.js';

/** A member reason with only what a sentence reads. */
function member(over: Partial<MemberReason>): MemberReason {
  return {
    embedding: 'glove',
    item: 'spam',
    cosine: 0.42,
    clusterScore: 0.3,
    clusterSize: 2,
    thetaRelate: 0.17,
    related: true,
    because: 'cluster-related',
    ...over,
  };
}

function reason(word: string, members: MemberReason[], over: Partial<WordReason> = {}): WordReason {
  const related = members.filter((m) => m.related).length * 2 > members.length;
  return { word, keyword: related, related, members, ...over };
}

describe('reasonSentence', () => {
  it('cluster-related: the cluster score against θ_relate and the nearest item with its cosine', () => {
    expect(reasonSentence(reason('offer', [member({})]))).toBe(
      'related: cluster score 0.30 ≥ θ_relate 0.17 (nearest item “spam”, cos 0.42)',
    );
  });

  it('cluster-unrelated: the score falls short of θ_relate', () => {
    const r = reason('kettle', [member({ related: false, because: 'cluster-unrelated', clusterScore: 0.12 })]);
    expect(reasonSentence(r)).toBe('not related: cluster score 0.12 < θ_relate 0.17 (nearest item “spam”)');
  });

  it('never prints two unequal figures alike: more decimals when rounding would hide the gap', () => {
    const r = reason('kettle', [member({ related: false, because: 'cluster-unrelated', clusterScore: 0.1695 })]);
    expect(reasonSentence(r)).toContain('cluster score 0.1695 < θ_relate 0.1700');
  });

  it('rule: the score passes but the configuration turned it down', () => {
    const r = reason('offer', [member({ related: false, because: 'rule' })]);
    expect(reasonSentence(r)).toBe(
      "not related: cluster score 0.30 ≥ θ_relate 0.17, but the configuration's class-contrast or member rule turned it down (nearest item “spam”)",
    );
  });

  it('topic: the share of background subjects the class beats, with the nearest description item', () => {
    const r = reason('sermon', [
      member({
        item: 'church',
        cosine: 0.61,
        because: 'topic',
        meaning: { topicPercentile: 0.93, neighbourLean: 0.2, neighbours: ['pastor'] },
      }),
    ]);
    expect(reasonSentence(r)).toBe(
      'related: beats 93 % of background subjects for this class (nearest description item “church”, cos 0.61)',
    );
  });

  /** The default's own bars with the joint bars of MeaningSettings.joint (in no shipped configuration). */
  const WITH_JOINT_BARS = {
    topicPercentile: 0.98,
    neighbourLean: 1.6,
    joint: { topicPercentile: 0.85, neighbourLean: 0.8 },
  };

  it('topic-and-neighbours: both signals, and the joint bars they cleared together', () => {
    const r = reason('statistics', [
      member({
        item: 'reports',
        cosine: 0.58,
        because: 'topic-and-neighbours',
        meaning: { topicPercentile: 0.97, neighbourLean: Math.log(2.6), neighbours: ['figures', 'report', 'data'] },
      }),
    ]);
    expect(reasonSentence(r, WITH_JOINT_BARS)).toBe(
      "related: beats 97 % of background subjects for this class (nearest description item “reports”, cos 0.58) and its nearest corpus words (figures, report, data) lean to this class's texts (×2.6) — together they clear the joint bars of 85 % and ×2.2",
    );
  });

  it('neither, with joint bars: says what both signals needed together', () => {
    const r = reason('often', [
      member({
        related: false,
        because: 'neither',
        meaning: { topicPercentile: 0.5, neighbourLean: Math.log(1.5), neighbours: ['usually'] },
      }),
    ]);
    expect(reasonSentence(r, WITH_JOINT_BARS)).toBe(
      'not related: beats 50 % of subjects (needs 98 %); its corpus neighbours (usually) lean ×1.5 (needs ×5.0); or 85 % and ×2.2 together',
    );
  });

  it('corpus-neighbours: the nearest corpus words and their lean (×e^lean)', () => {
    const r = reason('amen', [
      member({
        because: 'corpus-neighbours',
        meaning: {
          topicPercentile: 0.5,
          neighbourLean: Math.log(3.3),
          neighbours: ['sermon', 'pastor', 'church', 'x'],
        },
      }),
    ]);
    expect(reasonSentence(r)).toBe(
      "related: its nearest corpus words (sermon, pastor, church) lean to this class's texts (×3.3)",
    );
  });

  it('neither, held back by the word percentile: says it beat the subjects but not enough frequent words', () => {
    const r = reason('deal', [
      member({
        related: false,
        because: 'neither',
        meaning: { topicPercentile: 1, wordPercentile: 0.375, neighbourLean: null, neighbours: [] },
      }),
    ]);
    expect(reasonSentence(r, { topicPercentile: 0.98, neighbourLean: 0.8, wordPercentile: 0.5 })).toBe(
      'not related: beats 100 % of subjects but is nearer the class than only 38 % of frequent words (needs 50 %); no training corpus to lean its neighbours on',
    );
  });

  it('neither: both figures, with what they needed when the thresholds are given', () => {
    const r = reason('table', [
      member({
        related: false,
        because: 'neither',
        meaning: { topicPercentile: 0.41, neighbourLean: Math.log(0.8), neighbours: [] },
      }),
    ]);
    expect(reasonSentence(r)).toBe('not related: beats 41 % of subjects; its corpus neighbours lean ×0.8');
    expect(reasonSentence(r, { topicPercentile: 0.8, neighbourLean: Math.log(1.5) })).toBe(
      'not related: beats 41 % of subjects (needs 80 %); its corpus neighbours lean ×0.8 (needs ×1.5)',
    );
  });

  it('neither, without a training corpus: a null neighbour lean is said, not printed as a number', () => {
    const r = reason('table', [
      member({
        related: false,
        because: 'neither',
        meaning: { topicPercentile: 0.41, neighbourLean: null, neighbours: [] },
      }),
    ]);
    const s = reasonSentence(r, { topicPercentile: 0.8 });
    expect(s).toBe('not related: beats 41 % of subjects (needs 80 %); no training corpus to lean its neighbours on');
    expect(s).not.toMatch(/null|NaN/);
  });

  it('a surface token: demoted, with its retention against the minimum and its neighbours', () => {
    const r = reason('subject', [member({})], {
      keyword: false,
      demotedBy: {
        check: 'surface-token',
        concentration: 4,
        minConcentration: 2,
        retention: 0.12,
        minRetention: 0.5,
        deletion: 0.4,
        substitution: 0.35,
        neighbours: ['topic', 'theme'],
      },
    });
    expect(reasonSentence(r)).toBe(
      'demoted: surface token (its meaning-neighbours: topic, theme keep 12 % of its effect, a keyword keeps ≥ 50 %)',
    );
  });

  it('a function word: demoted by the function-word check', () => {
    const r = reason('the', [member({})], { keyword: false, demotedBy: { check: 'function-word' } });
    expect(reasonSentence(r)).toMatch(/^demoted: function word/);
  });

  it('several methods: the first summarised, and how many voted related', () => {
    const r = reason('offer', [
      member({}),
      member({ embedding: 'fasttext', related: false, because: 'cluster-unrelated', clusterScore: 0.1 }),
      member({ embedding: 'w2v' }),
    ]);
    expect(reasonSentence(r)).toBe(
      'related: cluster score 0.30 ≥ θ_relate 0.17 (nearest item “spam”, cos 0.42) by glove; 2 of 3 methods voted related',
    );
  });

  it('no member: no embedding placed the word', () => {
    expect(reasonSentence(reason('zzz', []))).toMatch(/^not related: no embedding/);
  });
});
