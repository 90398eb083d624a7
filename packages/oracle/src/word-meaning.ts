/**
 * Whether a pool word is related *in meaning* to its class (issue 47: "related" must mean related), from
 * two signals that a planted word cannot fake, because neither reads how often the word itself occurs:
 *
 * - **topic percentile** — the word's score for the class (the mean of its `topItems` largest cosines
 *   with the class's description items) against its scores, built the same way, for 300 background
 *   subjects (BACKGROUND_TOPICS): the share of subjects the class beats. A generic word (*often, done*) is
 *   as near every subject as it is near the class; a topical word (*sermon* → religion) is near its class
 *   and few others. It corrects the hubness of static embeddings, as cross-domain similarity local
 *   scaling does for word translation (Conneau et al. 2018), on the word's side.
 * - **neighbour lean** — the mean, over the word's `neighbours` nearest words of the training corpus (its
 *   own inflections and words below the embedding's θ_relate left out), of how much more often each neighbour occurs in the class's texts than in
 *   the other classes' (ClassCorpus.lean). Not for a name (ClassCorpus.isName: a word the corpus mostly
 *   capitalises), whose neighbours are other names and lean wherever names are frequent. A word whose meaning-neighbours belong to the class's texts is
 *   about the class's subject, whatever the word's own frequency; a planted word's neighbours are as
 *   spread as they were before it was planted. The spirit of Wang & Culotta (2020), who tell genuine from
 *   spurious words by what the word's neighbours do, on the corpus rather than on the model.
 *
 * A word is related when either signal clears its threshold (MeaningSettings), or — with `joint` set, in no
 * shipped configuration (issue 47's sixth round: chosen on validation, it related an unrelated planted word on
 * the test family; packages/oracle/choosing-the-default.md) — when both clear lower bars together: two weak pieces of evidence
 * that agree (*statistics* → government at 0.97 and ×2.6). With `wordPercentile` set,
 * the topic signal counts only for a word whose class score also beats that share of the embedding's most
 * frequent content words scored against the same class (the **word percentile**): the topic percentile
 * compares one word across subjects, the word percentile one class across words, so a class described by
 * many items (a user's or a bundled corpus's description) does not relate more words merely for having more
 * items to be near — the background words gain as much as the word does. The signals and the neighbours are
 * returned, so that a user can read why (keywords.json).
 */
import type { WordEmbedding } from '@xtrust/core';
import { NeighbourIndex } from '@xtrust/embeddings';
import { cosineMatrix } from '@xtrust/native';
import { BACKGROUND_TOPICS } from './background-topics.js';
import type { ClassCorpus } from './class-corpus.js';
import { isFunctionWord } from './function-words.js';
import { lowerBound } from './lower-bound.js';
import {
  classDescriptionItems,
  descriptionTarget,
  WORDNET_CLASS_DESCRIPTION,
  type DescriptionTarget,
  type WordNetDescriptionSettings,
} from './class-description.js';

/** The meaning test of the keyword step (OracleConfig.meaning). */
export interface MeaningSettings {
  /** A word relates when its class score beats at least this share of the background topics' (0–1). */
  readonly topicPercentile: number;
  /** …or when its neighbours' mean log-lean towards the class is at least this (natural log). */
  readonly neighbourLean: number;
  /** Nearest corpus words averaged by the neighbour lean. */
  readonly neighbours: number;
  /** Largest item cosines averaged into a word's score for a class or topic. */
  readonly topItems: number;
  /** The background subjects (absent: BACKGROUND_TOPICS), each described as a class is. */
  readonly topics?: readonly string[];
  /**
   * The topic signal also needs the class score to beat this share (0–1) of the embedding's
   * `backgroundWords` most frequent content words (absent: no such gate). Needs an embedding that lists
   * its words most frequent first (GloVe's `words`); with one that does not, the gate is not applied.
   */
  readonly wordPercentile?: number;
  /** How many of the embedding's first words (content words, function words skipped) make the word percentile's background (default 20,000). */
  readonly backgroundWords?: number;
  /**
   * …or when the topic percentile reaches `topicPercentile` and the neighbour lean reaches `neighbourLean`
   * together (absent: no joint rule). Lower bars than the signals' own: two weak signals that agree. A name
   * (no neighbour lean) cannot pass it.
   */
  readonly joint?: JointMeaningSettings;
}

/** The joint rule of the meaning test (MeaningSettings.joint): both signals at once, each at a lower bar. */
export interface JointMeaningSettings {
  readonly topicPercentile: number;
  readonly neighbourLean: number;
}

/** The word percentile's background size when MeaningSettings.backgroundWords is absent. */
export const DEFAULT_BACKGROUND_WORDS = 20_000;

/** One word's meaning evidence for one class under one embedding. */
export interface WordMeaning {
  /** Share of the background topics whose score is below the class's (0–1). */
  readonly topicPercentile: number;
  /** Share of the background words whose score for the class is below the word's (0–1); absent without the gate (MeaningSettings.wordPercentile). */
  readonly wordPercentile?: number;
  /** The word's score for the class (mean of its topItems largest item cosines). */
  readonly classScore: number;
  /** Mean lean of its neighbours towards the class, or null without a training corpus or for a name (ClassCorpus.isName). */
  readonly neighbourLean: number | null;
  /** The nearest corpus words (at most 5), nearest first. */
  readonly neighbours: readonly string[];
  readonly related: boolean;
  /** Which signal made it related (topic first, then the neighbours, then both together: MeaningSettings.joint), or `neither`. */
  readonly because: MeaningBecause;
  /** True when the training corpus writes the word as a name: only the topic percentile can relate it. */
  readonly name?: boolean;
}

/** What made a word related under the meaning test, or `neither`. */
export type MeaningBecause = 'topic' | 'corpus-neighbours' | 'topic-and-neighbours' | 'neither';

const topicCache = new WeakMap<WordEmbedding, Map<string, Promise<TopicBank>>>();
const backgroundCache = new WeakMap<WordEmbedding, Map<number, Promise<Float32Array | null>>>();
const classBackgroundCache = new WeakMap<DescriptionTarget, Map<string, Float32Array>>();

/**
 * The vectors of an embedding's first `count` content words (lower-case letters only, function words
 * skipped), row-major, or null when the embedding does not list its words. GloVe lists them most frequent
 * first, so they are the words a text is made of.
 */
function backgroundVectors(embedding: WordEmbedding, count: number): Promise<Float32Array | null> {
  let byCount = backgroundCache.get(embedding);
  if (!byCount) backgroundCache.set(embedding, (byCount = new Map()));
  let p = byCount.get(count);
  if (!p) {
    const listed = (embedding as { readonly words?: unknown }).words;
    p = Array.isArray(listed)
      ? (async () => {
          const words: string[] = [];
          for (const w of listed as readonly string[]) {
            if (words.length >= count) break;
            if (/^\p{Ll}+$/u.test(w) && !isFunctionWord(w)) words.push(w);
          }
          return words.length > 0 ? embedding.vectors(words) : null;
        })()
      : Promise.resolve(null);
    byCount.set(count, p);
  }
  return p;
}

/** The background words' scores for a class (mean of their topItems largest item cosines), sorted; null without a background. */
async function classBackground(
  embedding: WordEmbedding,
  target: DescriptionTarget,
  topItems: number,
  count: number,
): Promise<Float32Array | null> {
  const key = `${embedding.name}|${topItems}|${count}`;
  let byKey = classBackgroundCache.get(target);
  if (!byKey) classBackgroundCache.set(target, (byKey = new Map()));
  const hit = byKey.get(key);
  if (hit) return hit;
  const vectors = await backgroundVectors(embedding, count);
  if (!vectors) return null;
  const n = vectors.length / embedding.dim;
  const scores = new Float32Array(n);
  for (let c = 0; c < n; c += CHUNK) {
    const rows = Math.min(CHUNK, n - c);
    const sims = cosineMatrix(
      vectors.subarray(c * embedding.dim, (c + rows) * embedding.dim),
      target.items,
      embedding.dim,
    );
    for (let r = 0; r < rows; r++) scores[c + r] = topMean(sims, r, target.count, topItems);
  }
  scores.sort();
  byKey.set(key, scores);
  return scores;
}

/** Share of a sorted array's values below x. */
function shareBelow(sorted: Float32Array, x: number): number {
  return sorted.length === 0 ? 0 : lowerBound(sorted, x) / sorted.length;
}

const corpusCache = new WeakMap<WordEmbedding, WeakMap<ClassCorpus, Promise<NeighbourIndex>>>();
/** Per topic bank and topItems (a word's topic scores are means of its topItems largest item cosines): each word's sorted scores. */
const wordTopicCache = new WeakMap<TopicBank, Map<number, Map<string, Float32Array>>>();

/** Every background topic's description items under one embedding, in one matrix. */
interface TopicBank {
  readonly items: Float32Array;
  /** Topic t's items are rows offsets[t] .. offsets[t + 1] − 1. */
  readonly offsets: Int32Array;
  readonly rows: number;
}

async function topicBank(
  embedding: WordEmbedding,
  wordnet: WordNetDescriptionSettings,
  topics: readonly string[],
): Promise<TopicBank> {
  let byKey = topicCache.get(embedding);
  if (!byKey) topicCache.set(embedding, (byKey = new Map()));
  const key = JSON.stringify([wordnet, topics === BACKGROUND_TOPICS ? null : topics]);
  let p = byKey.get(key);
  if (!p) {
    p = (async () => {
      const targets: DescriptionTarget[] = [];
      for (const t of topics) {
        const target = await descriptionTarget(
          embedding,
          classDescriptionItems(t, { wordnet, relate: 'max' }, undefined),
        );
        // a subject the embedding cannot name is left out: its gloss words alone would describe something else
        if (target && target.names[0] === t) targets.push(target);
      }
      const rows = targets.reduce((a, t) => a + t.count, 0);
      const items = new Float32Array(rows * embedding.dim);
      const offsets = new Int32Array(targets.length + 1);
      targets.forEach((t, i) => {
        items.set(t.items, offsets[i] * embedding.dim);
        offsets[i + 1] = offsets[i] + t.count;
      });
      return { items, offsets, rows };
    })();
    byKey.set(key, p);
  }
  return p;
}

/** The corpus words the embedding knows, as an index of nearest neighbours (built once per embedding and corpus). */
function corpusIndex(embedding: WordEmbedding, corpus: ClassCorpus): Promise<NeighbourIndex> {
  let byCorpus = corpusCache.get(embedding);
  if (!byCorpus) corpusCache.set(embedding, (byCorpus = new WeakMap()));
  let p = byCorpus.get(corpus);
  if (!p) {
    p = NeighbourIndex.build(
      embedding,
      corpus.words.filter((w) => embedding.has(w)),
    );
    byCorpus.set(corpus, p);
  }
  return p;
}

/** Mean of the `top` largest values of row r (length m) of a row-major matrix. */
function topMean(sims: Float32Array, r: number, m: number, top: number, from = 0, to = m): number {
  const best: number[] = [];
  for (let j = from; j < to; j++) {
    const s = sims[r * m + j];
    if (best.length < top) {
      best.push(s);
      best.sort((a, b) => b - a);
    } else if (s > best[top - 1]) {
      best[top - 1] = s;
      best.sort((a, b) => b - a);
    }
  }
  return best.length === 0 ? -Infinity : best.reduce((a, b) => a + b, 0) / best.length;
}

/** Two words are forms of one word when one starts with the other's first max(4, length − 2) letters. */
function sameStem(a: string, b: string): boolean {
  return a.startsWith(b.slice(0, Math.max(4, b.length - 2))) || b.startsWith(a.slice(0, Math.max(4, a.length - 2)));
}

const CHUNK = 256;

/** Extra nearest words searched beyond `neighbours`: room for the word's own forms, dropped after the search. */
const NEIGHBOUR_SLACK = 24;

/**
 * The meaning evidence (WordMeaning) of `words` — each known to `embedding`, with their vectors given
 * row-major — for the class described by `target`. `corpus` null: the topic percentile alone decides.
 * `minCosine` (the keyword step passes the embedding's θ_relate): a corpus word less similar is no neighbour,
 * and, for an embedding that knows none of the background subjects, the class score must reach it (the
 * topic percentile is then 1 or 0).
 */
export async function wordMeanings(
  embedding: WordEmbedding,
  words: readonly string[],
  vectors: Float32Array,
  target: DescriptionTarget,
  label: string,
  corpus: ClassCorpus | null,
  settings: MeaningSettings,
  wordnet: WordNetDescriptionSettings = WORDNET_CLASS_DESCRIPTION.wordnet!,
  minCosine = -Infinity,
): Promise<WordMeaning[]> {
  const dim = embedding.dim;
  const n = words.length;
  const bank = await topicBank(embedding, wordnet, settings.topics ?? BACKGROUND_TOPICS);
  let byTop = wordTopicCache.get(bank);
  if (!byTop) wordTopicCache.set(bank, (byTop = new Map()));
  let perWord = byTop.get(settings.topItems);
  if (!perWord) byTop.set(settings.topItems, (perWord = new Map()));
  const topicCount = bank.offsets.length - 1;
  // the word's sorted topic scores do not depend on the class: computed once per word, embedding and topItems
  const missing = words.map((w, i) => (perWord!.has(w) ? -1 : i)).filter((i) => i >= 0);
  for (let c = 0; c < missing.length; c += CHUNK) {
    const idx = missing.slice(c, c + CHUNK);
    const block = new Float32Array(idx.length * dim);
    idx.forEach((i, r) => block.set(vectors.subarray(i * dim, (i + 1) * dim), r * dim));
    const sims = cosineMatrix(block, bank.items, dim);
    idx.forEach((i, r) => {
      const scores = new Float32Array(topicCount);
      for (let t = 0; t < topicCount; t++)
        scores[t] = topMean(sims, r, bank.rows, settings.topItems, bank.offsets[t], bank.offsets[t + 1]);
      perWord!.set(words[i], scores.sort());
    });
  }
  const classSims = cosineMatrix(vectors, target.items, dim);
  const gate =
    settings.wordPercentile === undefined
      ? null
      : await classBackground(
          embedding,
          target,
          settings.topItems,
          settings.backgroundWords ?? DEFAULT_BACKGROUND_WORDS,
        );
  const index = corpus ? await corpusIndex(embedding, corpus) : null;
  // the k nearest corpus words, searched with room for the word's own forms and the θ_relate cut dropped after
  const found =
    index && index.size > 0
      ? await index.query(words, Math.min(index.size, settings.neighbours + NEIGHBOUR_SLACK))
      : null;
  const out: WordMeaning[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const classScore = topMean(classSims, i, target.count, settings.topItems);
    const topics = perWord.get(words[i])!;
    let below = 0;
    while (below < topics.length && topics[below] < classScore) below++;
    // an embedding that knows none of the subjects cannot rank the class among them: θ_relate decides, as in Eq. 4
    const topicPercentile = topics.length === 0 ? (classScore >= minCosine ? 1 : 0) : below / topics.length;
    let neighbourLean: number | null = null;
    let neighbours: string[] = [];
    // a name's neighbours are other names: their lean tells where names are frequent, not what the class is about
    const row = corpus?.rowOf(words[i]);
    const name = row !== undefined && corpus!.isName(row);
    if (found && !name) {
      // a neighbour in meaning is a word the embedding calls related (cos ≥ θ_relate), and not a form of the word itself
      const near = found[i]
        .filter((nb) => nb.score >= minCosine && !sameStem(nb.word, words[i]))
        .slice(0, settings.neighbours)
        .map((nb) => nb.word);
      if (near.length > 0) {
        neighbourLean = near.reduce((a, w) => a + corpus!.lean(corpus!.rowOf(w)!, label), 0) / near.length;
        neighbours = near.slice(0, 5);
      }
    }
    const wordPercentile = gate ? shareBelow(gate, classScore) : undefined;
    const byTopic =
      topicPercentile >= settings.topicPercentile &&
      (wordPercentile === undefined || wordPercentile >= settings.wordPercentile!);
    const byCorpus = neighbourLean !== null && neighbourLean >= settings.neighbourLean;
    const joint = settings.joint;
    const byBoth =
      joint !== undefined &&
      neighbourLean !== null &&
      topicPercentile >= joint.topicPercentile &&
      neighbourLean >= joint.neighbourLean;
    out[i] = {
      topicPercentile,
      ...(wordPercentile !== undefined ? { wordPercentile } : {}),
      classScore,
      neighbourLean,
      neighbours,
      related: byTopic || byCorpus || byBoth,
      because: byTopic ? 'topic' : byCorpus ? 'corpus-neighbours' : byBoth ? 'topic-and-neighbours' : 'neither',
      ...(name ? { name: true } : {}),
    };
  }
  return out;
}
