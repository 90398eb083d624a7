// A keyword store's reasons (WordReason) as one plain-English sentence each, for reports and the command line.
import type { MemberReason } from './keyword-selection.js';
import type { Demotion, WordReason } from './keyword-store.js';
import type { JointMeaningSettings } from './word-meaning.js';

/** The meaning test's thresholds (OracleConfig.meaning), so that a sentence can say what a word fell short of. */
export interface ReasonThresholds {
  /** Share of background subjects (0–1) a word's class must beat. */
  readonly topicPercentile?: number;
  /** Mean natural-log lean of the word's corpus neighbours that makes it related. */
  readonly neighbourLean?: number;
  /** Share of frequent words (0–1) the word must beat for the class as well, when the configuration gates on it. */
  readonly wordPercentile?: number;
  /** The lower bars both signals clear together (MeaningSettings.joint), when the configuration has them. */
  readonly joint?: JointMeaningSettings;
}

/**
 * `a` and `b` with `digits` decimals, or more (up to 4) when that many would print them equal though they
 * differ — so that "0.17 < 0.17" never appears.
 */
function pair(a: number, b: number, digits: number, scale = 1): [string, string] {
  let d = digits;
  while (d < digits + 3 && a !== b && (a * scale).toFixed(d) === (b * scale).toFixed(d)) d++;
  return [(a * scale).toFixed(d), (b * scale).toFixed(d)];
}

const percent = (share: number) => `${(100 * share).toFixed(0)} %`;
const times = (lean: number) => `×${Math.exp(lean).toFixed(1)}`;

/** The demoting check, as a clause. */
function demotionText(d: Demotion): string {
  if (d.check === 'function-word') return 'function word (never a keyword, though the vote called it related)';
  const [kept, needed] = pair(d.retention, d.minRetention, 0, 100);
  const near = d.neighbours.length > 0 ? `: ${d.neighbours.slice(0, 3).join(', ')}` : '';
  return `surface token (its meaning-neighbours${near} keep ${kept} % of its effect, a keyword keeps ≥ ${needed} %)`;
}

/** The topic clause of the meaning test: the share of background subjects the class beats. */
function topicText(share: number, needed: number | undefined, long: boolean): string {
  const subjects = long ? 'background subjects for this class' : 'subjects';
  if (needed === undefined) return `beats ${percent(share)} of ${subjects}`;
  const [s, n] = pair(share, needed, 0, 100);
  return `beats ${s} % of ${subjects} (needs ${n} %)`;
}

/** The first three nearest corpus words in brackets, after a space; empty when there are none. */
function nearWords(m: NonNullable<MemberReason['meaning']>): string {
  return m.neighbours.length > 0 ? ` (${m.neighbours.slice(0, 3).join(', ')})` : '';
}

/** The neighbour clause of the meaning test. */
function leanText(m: NonNullable<MemberReason['meaning']>, needed: number | undefined): string {
  if (m.neighbourLean === null) return 'no training corpus to lean its neighbours on';
  const near = nearWords(m);
  if (needed === undefined) return `its corpus neighbours${near} lean ${times(m.neighbourLean)}`;
  const [l, n] = pair(Math.exp(m.neighbourLean), Math.exp(needed), 1);
  return `its corpus neighbours${near} lean ×${l} (needs ×${n})`;
}

/** One method's reason for its ballot, as a clause. */
function memberText(m: MemberReason, t: ReasonThresholds): string {
  const item = `nearest item “${m.item}”`;
  const [score, theta] = pair(m.clusterScore, m.thetaRelate, 2);
  const meaning = m.meaning;
  switch (m.because) {
    case 'topic':
      if (!meaning) break;
      return `${topicText(meaning.topicPercentile, undefined, true)} (nearest description item “${m.item}”, cos ${m.cosine.toFixed(2)})`;
    case 'corpus-neighbours':
      if (!meaning) break;
      if (meaning.neighbourLean === null) return `its corpus neighbours lean to this class's texts (${item})`;
      return `its nearest corpus words${nearWords(meaning)} lean to this class's texts (${times(meaning.neighbourLean)})`;
    case 'topic-and-neighbours': {
      if (!meaning || meaning.neighbourLean === null) break;
      const bars = t.joint
        ? ` — together they clear the joint bars of ${percent(t.joint.topicPercentile)} and ${times(t.joint.neighbourLean)}`
        : '';
      return `${topicText(meaning.topicPercentile, undefined, true)} (nearest description item “${m.item}”, cos ${m.cosine.toFixed(2)}) and its nearest corpus words${nearWords(meaning)} lean to this class's texts (${times(meaning.neighbourLean)})${bars}`;
    }
    case 'neither': {
      if (!meaning) break;
      // beat the subjects but not the frequent words: say that it was the word percentile that held it back
      const gated =
        meaning.wordPercentile !== undefined &&
        t.wordPercentile !== undefined &&
        (t.topicPercentile === undefined || meaning.topicPercentile >= t.topicPercentile) &&
        meaning.wordPercentile < t.wordPercentile;
      let topic = topicText(meaning.topicPercentile, t.topicPercentile, false);
      if (gated) {
        const [share, needed] = pair(meaning.wordPercentile!, t.wordPercentile!, 0, 100);
        topic = `${topicText(meaning.topicPercentile, undefined, false)} but is nearer the class than only ${share} % of frequent words (needs ${needed} %)`;
      }
      const joint = t.joint
        ? `; or ${percent(t.joint.topicPercentile)} and ${times(t.joint.neighbourLean)} together`
        : '';
      return `${topic}; ${leanText(meaning, t.neighbourLean)}${joint}`;
    }
    case 'cluster-related':
      return `cluster score ${score} ≥ θ_relate ${theta} (${item}, cos ${m.cosine.toFixed(2)})`;
    case 'rule':
      return `cluster score ${score} ≥ θ_relate ${theta}, but the configuration's class-contrast or member rule turned it down (${item})`;
    case 'cluster-unrelated':
      return `cluster score ${score} < θ_relate ${theta} (${item})`;
  }
  // a meaning verdict without its evidence (not written by selectKeywords): the cluster's figures
  return `${m.related ? 'related' : 'not related'} by the meaning test (${item}, cos ${m.cosine.toFixed(2)})`;
}

/**
 * One short plain-English sentence saying why a pool word is, or is not, a keyword of its class — the
 * keyword store's WordReason (`KeywordStore.why`) for people: the demoting check of a voted keyword
 * ("demoted: surface token (…)", "demoted: function word (…)"), else the outcome ("related", "not
 * related") and the first ensemble member's evidence — its cluster score against θ_relate and nearest
 * description item, or, under the meaning test, the share of background subjects the class beats and the
 * lean of the word's nearest corpus words towards the class's texts (×e^lean). With several members it
 * adds "k of n methods voted related". `thresholds` (the configuration's OracleConfig.meaning) lets a word
 * that neither signal made related say what it needed.
 */
export function reasonSentence(reason: WordReason, thresholds: ReasonThresholds = {}): string {
  if (reason.demotedBy) return `demoted: ${demotionText(reason.demotedBy)}`;
  const head = reason.keyword ? 'related' : reason.related ? 'demoted by a filter' : 'not related';
  const n = reason.members.length;
  if (n === 0) return `${head}: no embedding of the ensemble knows the word or the class`;
  const [first] = reason.members;
  const body = memberText(first, thresholds);
  if (n === 1) return `${head}: ${body}`;
  const k = reason.members.filter((m) => m.related).length;
  return `${head}: ${body} by ${first.embedding}; ${k} of ${n} methods voted related`;
}
