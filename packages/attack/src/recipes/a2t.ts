import { isGradientProvider, type Classifier, type SentenceEncoder, type WordEmbedding } from '@xtrust/core';
import { Attack } from '../attack.js';
import {
  maxModificationRate,
  partOfSpeech,
  repeatModification,
  sentenceEncoderSimilarity,
  stopwordModification,
  wordEmbeddingDistance,
  DEFAULT_STOPWORDS,
} from '../constraints/index.js';
import type { Constraint } from '../constraints/types.js';
import { untargetedClassification } from '../goal-functions.js';
import { defaultPosTagger, type PosTagger } from '../pos.js';
import { gradientRanking, greedySearch, omissionRanking, type WordRanking } from '../search.js';
import { embeddingNeighbours } from '../transformations/index.js';
import type { Transformation } from '../transformations/types.js';

/** The reference defaults of A2T (Yoo & Qi 2021, TextAttack's `A2TYoo2021` recipe). */
export const A2T_DEFAULTS = {
  maxCandidates: 20,
  minWordCos: 0.8,
  maxRate: 0.1,
  minThreshold: 4,
  sentenceThreshold: 0.9,
  allowVerbNounSwap: false,
} as const;

export interface A2TOptions {
  /** Counter-fitted word vectors (@xtrust/embeddings' CounterFittedEmbedding): candidates and the word-cosine constraint. */
  embedding: WordEmbedding;
  /** Sentence encoder of the semantic constraint (the reference uses SBERT stsb-distilbert-base; offline: USE lite). */
  encoder: SentenceEncoder;
  /** Default: wink-nlp's tagger, WordNet's parts of speech when wink is missing. */
  posTagger?: PosTagger;
  /** Default: gradient ranking for a GradientProvider, else leave-one-out (recorded as `rankingFallback`). */
  ranking?: WordRanking;
  maxCandidates?: number;
  minWordCos?: number;
  maxRate?: number;
  minThreshold?: number;
  sentenceThreshold?: number;
  stopwords?: ReadonlySet<string>;
  minWords?: number;
}

/** A2T's constraints: no repeated change, stopwords kept, POS kept in context, ≤ 10 % of words (min 4), sentence cosine ≥ 0.9. */
export function a2tConstraints(
  options: Omit<A2TOptions, 'embedding'> & { embedding?: WordEmbedding; wordCos?: boolean },
): Constraint[] {
  // candidate constraints run cheapest first (each sees only the survivors of the previous one)
  const c: Constraint[] = [
    repeatModification(),
    stopwordModification(options.stopwords ?? DEFAULT_STOPWORDS),
    maxModificationRate({
      maxRate: options.maxRate ?? A2T_DEFAULTS.maxRate,
      minThreshold: options.minThreshold ?? A2T_DEFAULTS.minThreshold,
    }),
  ];
  if (options.wordCos !== false && options.embedding)
    c.push(wordEmbeddingDistance(options.embedding, { minCos: options.minWordCos ?? A2T_DEFAULTS.minWordCos }));
  c.push(
    partOfSpeech(options.posTagger ?? defaultPosTagger(), { allowVerbNounSwap: A2T_DEFAULTS.allowVerbNounSwap }),
    sentenceEncoderSimilarity(options.encoder, {
      threshold: options.sentenceThreshold ?? A2T_DEFAULTS.sentenceThreshold,
    }),
  );
  return c;
}

/** Gradient ranking when the model has gradients, otherwise leave-one-out; and whether that fallback happened. */
export function defaultRanking(
  classifier: Classifier,
  given?: WordRanking,
): { ranking: WordRanking; fallback: boolean } {
  if (given) return { ranking: given, fallback: false };
  return isGradientProvider(classifier)
    ? { ranking: gradientRanking(), fallback: false }
    : { ranking: omissionRanking(), fallback: true };
}

/**
 * A2T (Yoo & Qi 2021; the baseline of 000 §4, Table 1): untargeted misclassification, gradient word
 * importance, greedy swaps with 20 counter-fitted neighbours per word, word cosine ≥ 0.8, POS consistency,
 * modification rate 10 % (min 4 words), sentence-encoder cosine ≥ 0.9, stopwords untouched.
 */
export function a2t(
  classifier: Classifier,
  options: A2TOptions & { transformation?: Transformation; name?: string },
): Attack {
  const { ranking, fallback } = defaultRanking(classifier, options.ranking);
  return new Attack(classifier, {
    name: options.name ?? 'a2t',
    goal: untargetedClassification(),
    transformation:
      options.transformation ??
      embeddingNeighbours(options.embedding, { maxCandidates: options.maxCandidates ?? A2T_DEFAULTS.maxCandidates }),
    constraints: a2tConstraints({ ...options, wordCos: options.transformation === undefined }),
    search: greedySearch({ ranking }),
    minWords: options.minWords,
    params: { rankingFallback: fallback ? 'omission (classifier has no gradients)' : null },
  });
}
