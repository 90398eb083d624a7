import { XtrustError, type Classifier, type WordEmbedding } from '@xtrust/core';
import { Attack } from '../attack.js';
import {
  DEFAULT_STOPWORDS,
  maxModificationRate,
  repeatModification,
  stopwordModification,
} from '../constraints/index.js';
import { attributionDistanceGoal } from '../goal-functions.js';
import type { ExplainFn } from '../model.js';
import { attributionDistanceRanking, greedySearch } from '../search.js';
import { embeddingNeighbours } from '../transformations/index.js';

export interface TefOptions {
  explain: ExplainFn;
  /** Counter-fitted word vectors: the synonym source. */
  embedding: WordEmbedding;
  /** ρ_max. Default 0.15. */
  rhoMax?: number;
  /** Synonyms per word. Default 15 (as CEA's |C|, 002 §5.1). */
  candidates?: number;
  stopwords?: ReadonlySet<string>;
  minWords?: number;
}

/**
 * TEXTEXPLANATIONFOOLER (Ivankay et al. 2022), CEA's baseline (002 §5): the same goal (maximise the
 * attribution distance, prediction kept), word ranking and budget as `cea`, but candidates are the
 * nearest counter-fitted synonyms of each word, one position at a time (no masked LM, no batch masking).
 */
export function tef(classifier: Classifier, options: TefOptions): Attack {
  const rhoMax = options.rhoMax ?? 0.15;
  if (!(rhoMax > 0 && rhoMax <= 1))
    throw new XtrustError('INVALID_ARGUMENT', `tef: rhoMax must be in (0, 1], got ${rhoMax}`, { argument: 'rhoMax' });
  return new Attack(classifier, {
    name: 'tef',
    goal: attributionDistanceGoal(options.explain),
    transformation: embeddingNeighbours(options.embedding, { maxCandidates: options.candidates ?? 15 }),
    constraints: [
      repeatModification(),
      stopwordModification(options.stopwords ?? DEFAULT_STOPWORDS),
      maxModificationRate({ maxRate: rhoMax, minThreshold: 1, rounding: 'floor' }),
    ],
    search: greedySearch({ ranking: attributionDistanceRanking(options.explain) }),
    minWords: options.minWords,
    params: { rhoMax },
  });
}
