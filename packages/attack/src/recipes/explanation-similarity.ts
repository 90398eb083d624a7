import type { Classifier, SentenceEncoder, WordEmbedding } from '@xtrust/core';
import type { PaperMeasureName } from '@xtrust/metrics';
import { Attack } from '../attack.js';
import {
  DEFAULT_STOPWORDS,
  maxModificationRate,
  repeatModification,
  sentenceEncoderSimilarity,
  stopwordModification,
  wordEmbeddingDistance,
} from '../constraints/index.js';
import type { Constraint } from '../constraints/types.js';
import { rankedListGoal } from '../goal-functions.js';
import type { ExplainFn } from '../model.js';
import { attributionDistanceRanking, greedySearch, type WordRanking } from '../search.js';
import { embeddingNeighbours } from '../transformations/index.js';
import type { Transformation } from '../transformations/types.js';

export interface ExplanationSimilarityOptions {
  explain: ExplainFn;
  /** Word vectors of the substitutes (counter-fitted by default in the CLI). */
  embedding: WordEmbedding;
  /** The ranked-list measure guiding the search. Default `rbo0.5`. */
  measure?: PaperMeasureName;
  /** Success when the similarity falls below τ. Default 0.5. */
  tau?: number;
  /** Top-k words compared. Default 10. */
  k?: number;
  /** Substitutes per word. Default 15. */
  maxCandidates?: number;
  /** Word cosine of a substitute. Default 0.5. */
  minWordCos?: number;
  /** Largest share of words changed. Default 0.2. */
  maxRate?: number;
  /** Optional sentence-encoder constraint. */
  encoder?: SentenceEncoder;
  sentenceThreshold?: number;
  ranking?: WordRanking;
  transformation?: Transformation;
  minWords?: number;
}

/**
 * The explanation-similarity attack (004_87dc91cae9faa268 §2.1; Burger et al. 2023, `xaifooler` in the CLI):
 * one-word-to-one-word substitutions with close synonyms, the prediction kept, repeated greedily until the
 * chosen ranked-list similarity between the original and perturbed explanations falls below τ. Each record
 * keeps both lists and the mapping a → b, so `similaritySuccessTable` can re-score every result with the
 * synonymity-weighted measures (001 Table 3).
 */
export function explanationSimilarity(classifier: Classifier, options: ExplanationSimilarityOptions): Attack {
  const constraints: Constraint[] = [
    repeatModification(),
    stopwordModification(DEFAULT_STOPWORDS),
    maxModificationRate({ maxRate: options.maxRate ?? 0.2, minThreshold: 1 }),
    wordEmbeddingDistance(options.embedding, { minCos: options.minWordCos ?? 0.5 }),
  ];
  if (options.encoder)
    constraints.push(sentenceEncoderSimilarity(options.encoder, { threshold: options.sentenceThreshold ?? 0.8 }));
  return new Attack(classifier, {
    name: 'xaifooler',
    goal: rankedListGoal(options.explain, { measure: options.measure, tau: options.tau, k: options.k }),
    transformation:
      options.transformation ?? embeddingNeighbours(options.embedding, { maxCandidates: options.maxCandidates ?? 15 }),
    constraints,
    search: greedySearch({ ranking: options.ranking ?? attributionDistanceRanking(options.explain) }),
    minWords: options.minWords,
  });
}
