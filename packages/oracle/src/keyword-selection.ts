import type { WordEmbedding } from '@xtrust/core';
import { averageLinkage, cosineMatrix } from '@xtrust/native';
import { ABSTAIN } from './ensemble-vote.js';
import { classNameVector, knownVectors } from './word-vectors.js';
import type { ClusterRule } from './oracle-config.js';
import {
  descriptionScores,
  descriptionTarget,
  type DescriptionRelate,
  type DescriptionTarget,
  type WordNetDescriptionSettings,
} from './class-description.js';
import type { ClassCorpus } from './class-corpus.js';
import { wordMeanings, type MeaningBecause, type MeaningSettings } from './word-meaning.js';

/** How Eq. 4 decides, beyond θ_dist and θ_relate (see OracleConfig). */
export interface SelectionRule {
  readonly clusterRule: ClusterRule;
  readonly memberShare: number;
  /** The other classes' names when relatedness is relative to them (OracleConfig.classContrast), else null. */
  readonly contrastWith: readonly string[] | null;
  /**
   * The class described by several words (OracleConfig.classDescription / classDescriptions), or absent /
   * null for the paper's one name: `own` are the class's description items (name first), `others` the
   * other classes' items when relatedness is contrasted (else null), `relate` the rule (DescriptionRelate).
   */
  readonly description?: {
    readonly own: readonly string[];
    readonly others: readonly (readonly string[])[] | null;
    readonly relate: DescriptionRelate;
  } | null;
  /**
   * The meaning test (OracleConfig.meaning, word-meaning.ts) in place of Eq. 4's cluster test: each pool
   * word is a keyword when it relates to the class in meaning. `corpus` (the training corpus's per-class
   * text frequencies) feeds the neighbour lean; null leaves the topic percentile alone. `label` is the
   * class's label in the corpus; `wordnet` how the background topics are described.
   */
  readonly meaning?: {
    readonly settings: MeaningSettings;
    readonly corpus: ClassCorpus | null;
    readonly label: string;
    readonly wordnet?: WordNetDescriptionSettings;
  } | null;
}

/** Eq. 4 as the paper states it. */
export const PAPER_RULE: SelectionRule = { clusterRule: 'mean', memberShare: 0.5, contrastWith: null };

/** The vectors of the class names this embedding knows (names it lacks are left out), row-major, with their count. */
export async function otherClassVectors(
  embedding: WordEmbedding,
  names: readonly string[],
): Promise<{ vectors: Float32Array; count: number }> {
  const rows: Float32Array[] = [];
  for (const n of names) {
    const v = await classNameVector(embedding, n);
    if (v) rows.push(v);
  }
  const out = new Float32Array(rows.length * embedding.dim);
  rows.forEach((r, i) => out.set(r, i * embedding.dim));
  return { vectors: out, count: rows.length };
}

/**
 * For each of n row vectors: 1 when its cosine with the class vector is ≥ θ_relate and — with `others` —
 * at least its cosine with each other class's vector (the class is its nearest class name), else 0.
 */
export function relatesToClass(
  vectors: Float32Array,
  n: number,
  dim: number,
  classVec: Float32Array,
  others: { vectors: Float32Array; count: number } | null,
  thetaRelate: number,
): Uint8Array {
  const out = new Uint8Array(n);
  if (n === 0) return out;
  const own = cosineMatrix(vectors, classVec, dim);
  const rival = others && others.count > 0 ? cosineMatrix(vectors, others.vectors, dim) : null;
  for (let i = 0; i < n; i++) {
    let ok = own[i] >= thetaRelate;
    if (ok && rival) for (let j = 0; j < others!.count; j++) if (rival[i * others!.count + j] > own[i]) ok = false;
    out[i] = ok ? 1 : 0;
  }
  return out;
}

/**
 * relatesToClass for a described class: 1 when the score against the class's description is ≥ θ_relate
 * and — with rivals (class contrast) — at least the score against each other class's description.
 */
export function relatesToDescription(
  scores: (t: DescriptionTarget) => Float32Array,
  target: DescriptionTarget,
  rivals: readonly DescriptionTarget[],
  thetaRelate: number,
): Uint8Array {
  const own = scores(target);
  const rs = rivals.map(scores);
  const out = new Uint8Array(own.length);
  for (let i = 0; i < own.length; i++) out[i] = own[i] >= thetaRelate && rs.every((r) => r[i] <= own[i]) ? 1 : 0;
  return out;
}

/**
 * Why one embedding method voted a pool word related or not (Eq. 4 under the configuration's rule): the
 * description item (or, for the paper's one name, the class name) nearest the word and the word's own
 * cosine with it, and the score of the word's cluster — the figure that was compared with θ_relate.
 */
export interface MemberReason {
  readonly embedding: string;
  /** The nearest description item (the class name when the class is not described). */
  readonly item: string;
  /** The word's cosine with `item` (rounded to 1e-4). */
  readonly cosine: number;
  /** The score of the word's cluster against the class (Eq. 4's sim, or the description rule's), rounded to 1e-4. */
  readonly clusterScore: number;
  /** Words of the pool in the word's cluster (Eq. 3, cut at θ_dist). */
  readonly clusterSize: number;
  readonly thetaRelate: number;
  /** This method's ballot: true when it voted the word a keyword. */
  readonly related: boolean;
  /**
   * What decided the ballot: `cluster-related` (clusterScore ≥ θ_relate, kept), `cluster-unrelated`
   * (clusterScore < θ_relate), `rule` (clusterScore ≥ θ_relate but the configuration's class contrast or
   * member rule — clusterRule `member-share` / `individual` — turned it down).
   */
  readonly because: 'cluster-related' | 'cluster-unrelated' | 'rule' | MeaningBecause;
  /**
   * Under the meaning test (SelectionRule.meaning), the evidence that decided: the share of background
   * topics the class beats, the neighbours' mean lean towards the class (null without a training corpus)
   * and the nearest corpus words. `because` then says which signal made the word related (`topic`,
   * `corpus-neighbours`, both together under MeaningSettings.joint: `topic-and-neighbours`) or that neither did
   * (`neither`).
   */
  readonly meaning?: {
    readonly topicPercentile: number;
    /** Share of the background words the word beats for this class, when the configuration gates on it (MeaningSettings.wordPercentile). */
    readonly wordPercentile?: number;
    readonly neighbourLean: number | null;
    readonly neighbours: readonly string[];
    /** The training corpus writes the word as a name: its neighbours' lean was not read. */
    readonly name?: boolean;
  };
}

const round4 = (x: number): number => Math.round(x * 1e4) / 1e4;

/** One embedding method's view of a class's pool after Steps 3–4. */
export interface MethodKeywords {
  readonly embedding: string;
  /** Per pool word: 1 keyword, 0 non-keyword, -1 abstain (word or class name out of vocabulary). */
  readonly ballots: Int8Array;
  /** Per pool word: its cluster id, -1 when abstaining. */
  readonly clusters: Int32Array;
  /** Number of clusters (Eq. 3) and how many were kept as related (Eq. 4). */
  readonly clusterCount: number;
  readonly relatedClusters: number;
  /** False when the embedding knows no word of the class name: the method abstains on the whole class. */
  readonly classNameKnown: boolean;
  /** Per pool word: why this method voted as it did (MemberReason), null when abstaining. Absent when abstaining on the whole class. */
  readonly reasons?: readonly (MemberReason | null)[];
}

/**
 * Steps 3 and 4 of keyword identification for one class and one embedding method.
 * Eq. 3: C_c = hierarchical_cluster(W_c, θ_dist) — average linkage on cosine distance 1 − cos, cut
 * at θ_dist. Eq. 4: K_c = ∪ { C_i | sim(mean vector of C_i, c) ≥ θ_relate }, F_c = W_c \ K_c, with the
 * class vector the mean of its name's word vectors. The mean of a cluster is the plain mean of its
 * members' vectors, as the paper states (not the mean of unit vectors). One cosine matrix per pool.
 * `rule` departs from Eq. 4 where an OracleConfig says so: `member-share` also requires that share of
 * the members to relate one by one, `individual` keeps only the members that relate themselves, and
 * `contrastWith` makes "relates" mean ≥ θ_relate AND nearest among the class names (relatesToClass).
 * With `rule.description` the class is its description (class-description.ts): Eq. 4's sim(mean vector
 * of C_i, c) becomes descriptionScores under the description's rule, against the same θ_relate.
 */
export async function selectKeywords(
  poolWords: readonly string[],
  embedding: WordEmbedding,
  className: string,
  thetaDist: number,
  thetaRelate: number,
  rule: SelectionRule = PAPER_RULE,
): Promise<MethodKeywords> {
  const n = poolWords.length;
  const ballots = new Int8Array(n).fill(ABSTAIN);
  const clusters = new Int32Array(n).fill(-1);
  const described = rule.description ?? null;
  const target = described ? await descriptionTarget(embedding, described.own) : null;
  const classVec = described ? (target ? target.centroid : null) : await classNameVector(embedding, className);
  if (!classVec || n === 0) {
    return {
      embedding: embedding.name,
      ballots,
      clusters,
      clusterCount: 0,
      relatedClusters: 0,
      classNameKnown: classVec !== null,
    };
  }
  const kv = await knownVectors(embedding, poolWords);
  const m = kv.known.length;
  const dim = kv.dim;
  if (m === 0)
    return { embedding: embedding.name, ballots, clusters, clusterCount: 0, relatedClusters: 0, classNameKnown: true };
  const ids = clusterByCosine(kv.vectors, m, dim, thetaDist);
  let clusterCount = 0;
  for (let i = 0; i < m; i++) clusterCount = Math.max(clusterCount, ids[i] + 1);
  const means = new Float32Array(clusterCount * dim);
  const sizes = new Float64Array(clusterCount);
  for (let i = 0; i < m; i++) {
    const c = ids[i];
    sizes[c]++;
    for (let d = 0; d < dim; d++) means[c * dim + d] += kv.vectors[i * dim + d];
  }
  for (let c = 0; c < clusterCount; c++) for (let d = 0; d < dim; d++) means[c * dim + d] /= sizes[c];
  let related: Uint8Array;
  let own: Uint8Array | null;
  let clusterScores: Float32Array;
  if (described && target) {
    const rivals: DescriptionTarget[] = [];
    for (const o of described.others ?? []) {
      const t = await descriptionTarget(embedding, o);
      if (t) rivals.push(t);
    }
    const groups = { members: kv.vectors, memberOf: ids };
    clusterScores = descriptionScores(means, clusterCount, target, described.relate, groups);
    const ownScores = clusterScores;
    related = relatesToDescription(
      (t) => (t === target ? ownScores : descriptionScores(means, clusterCount, t, described.relate, groups)),
      target,
      rivals,
      thetaRelate,
    );
    own =
      rule.clusterRule === 'mean'
        ? null
        : relatesToDescription(
            (t) => descriptionScores(kv.vectors, m, t, described.relate),
            target,
            rivals,
            thetaRelate,
          );
  } else {
    const others = rule.contrastWith ? await otherClassVectors(embedding, rule.contrastWith) : null;
    related = relatesToClass(means, clusterCount, dim, classVec, others, thetaRelate);
    clusterScores = cosineMatrix(means, classVec, dim);
    // the members' own relatedness, for the rules that look past the mean
    own = rule.clusterRule === 'mean' ? null : relatesToClass(kv.vectors, m, dim, classVec, others, thetaRelate);
  }
  if (own && rule.clusterRule === 'member-share') {
    const hits = new Float64Array(clusterCount);
    for (let i = 0; i < m; i++) hits[ids[i]] += own[i];
    for (let c = 0; c < clusterCount; c++) if (related[c] && hits[c] / sizes[c] < rule.memberShare) related[c] = 0;
  }
  let relatedClusters = 0;
  for (let c = 0; c < clusterCount; c++) relatedClusters += related[c];
  // the reasons: each word's nearest description item (or the class name) and its cosine — recorded, never voted on
  const itemVectors = target ? target.items : classVec;
  const itemNames = target ? target.names : [className];
  const itemCount = itemNames.length;
  const wordItem = cosineMatrix(kv.vectors, itemVectors, dim);
  const reasons: (MemberReason | null)[] = new Array(n).fill(null);
  const meanings = rule.meaning
    ? await wordMeanings(
        embedding,
        Array.from(kv.known, (i) => poolWords[i]),
        kv.vectors,
        target ?? (await descriptionTarget(embedding, [className]))!,
        rule.meaning.label,
        rule.meaning.corpus,
        rule.meaning.settings,
        rule.meaning.wordnet,
        thetaRelate,
      )
    : null;
  if (meanings) {
    // the meaning test decides word by word: a cluster is only reported
    related.fill(0);
    for (let i = 0; i < m; i++) if (meanings[i].related) related[ids[i]] = 1;
    relatedClusters = related.reduce((a, b) => a + b, 0);
  }
  for (let i = 0; i < m; i++) {
    const w = kv.known[i];
    clusters[w] = ids[i];
    const meaning = meanings?.[i];
    const keyword = meaning
      ? meaning.related
      : related[ids[i]] === 1 && (rule.clusterRule !== 'individual' || own![i] === 1);
    ballots[w] = keyword ? 1 : 0;
    let best = 0;
    for (let j = 1; j < itemCount; j++) if (wordItem[i * itemCount + j] > wordItem[i * itemCount + best]) best = j;
    const score = clusterScores[ids[i]];
    reasons[w] = {
      embedding: embedding.name,
      item: itemNames[best],
      cosine: round4(wordItem[i * itemCount + best]),
      clusterScore: round4(score),
      clusterSize: sizes[ids[i]],
      thetaRelate,
      related: keyword,
      because: meaning
        ? meaning.because
        : keyword
          ? 'cluster-related'
          : score >= thetaRelate
            ? 'rule'
            : 'cluster-unrelated',
      ...(meaning
        ? {
            meaning: {
              topicPercentile: round4(meaning.topicPercentile),
              ...(meaning.wordPercentile !== undefined ? { wordPercentile: round4(meaning.wordPercentile) } : {}),
              neighbourLean: meaning.neighbourLean === null ? null : round4(meaning.neighbourLean),
              neighbours: meaning.neighbours,
              ...(meaning.name ? { name: true } : {}),
            },
          }
        : {}),
    };
  }
  return {
    embedding: embedding.name,
    ballots,
    clusters,
    clusterCount,
    relatedClusters,
    classNameKnown: true,
    reasons,
  };
}

/**
 * Eq. 3 on raw vectors: average linkage (UPGMA, @xtrust/native) on cosine distance 1 − cos, cut at
 * `thetaDist` (two words share a cluster when their cophenetic distance is ≤ θ_dist). Cluster ids are
 * numbered 0,1,… by first word. One cosine matrix for the whole pool.
 */
export function clusterByCosine(vectors: Float32Array, n: number, dim: number, thetaDist: number): Int32Array {
  if (n === 0) return new Int32Array(0);
  if (n === 1) return new Int32Array(1);
  const sims = cosineMatrix(vectors, vectors, dim);
  const dist = new Float32Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      // upper triangle mirrored: the clustering needs an exactly symmetric matrix; rounding can push cos above 1
      const d = Math.max(0, 1 - sims[i * n + j]);
      dist[i * n + j] = d;
      dist[j * n + i] = d;
    }
  }
  return averageLinkage(dist, n).cut(thetaDist);
}
