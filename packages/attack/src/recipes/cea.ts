import { XtrustError, type Classifier, type SentenceEncoder, type WordEmbedding } from '@xtrust/core';
import { Attack } from '../attack.js';
import {
  DEFAULT_STOPWORDS,
  maxModificationRate,
  repeatModification,
  stopwordModification,
} from '../constraints/index.js';
import { attributionDistanceGoal } from '../goal-functions.js';
import type { MaskedWordModel } from '../mlm.js';
import type { ExplainFn } from '../model.js';
import { attributionDistanceRanking, greedySearch } from '../search.js';
import { contextRerankedNeighbours, maskedLmCandidates } from '../transformations/index.js';

export interface CeaOptions {
  /** The attribution method A under attack (e.g. `explainWith(new GradientExplainer())`). */
  explain: ExplainFn;
  /** A real masked language model (CEA proper) … */
  mlm?: MaskedWordModel;
  /** … or the offline context-aware substitute (recipe `cea-context`): embedding neighbours re-ranked by a sentence encoder. */
  context?: { embedding: WordEmbedding; encoder: SentenceEncoder; neighbours?: number };
  /** ρ_max, the largest share of substituted words. Default 0.15. */
  rhoMax?: number;
  /** |C|, candidates per masked word. Default 15. */
  candidates?: number;
  stopwords?: ReadonlySet<string>;
  minWords?: number;
}

/** CEA's batch-masking ratio ρ_b = min(ρ_max, 0.15) (002 §5.1). */
export function batchMaskingRatio(rhoMax: number): number {
  return Math.min(rhoMax, 0.15);
}

/**
 * CONTEXT-AWARE EXPLANATION ATTACK (002_20470d3eef4d9d3e, Algorithm 1): words ranked by
 * I_w = d[A(s_{w→0}), A(s)]; blocks of n_b = ⌊|s|·ρ_b⌋ words masked at once (batch masking) and filled by a
 * masked LM with |C| = 15 candidates each; stopwords skipped; a swap is kept when the prediction stays and
 * the attribution distance d (1 − (1 + PCC)/2) grows; at most ⌊|s|·ρ_max⌋ words change (at least one).
 * With `mlm` the recipe is `cea`; with `context` (no MLM offline) it is `cea-context`, named for what it is.
 */
export function cea(classifier: Classifier, options: CeaOptions): Attack {
  const rhoMax = options.rhoMax ?? 0.15;
  if (!(rhoMax > 0 && rhoMax <= 1))
    throw new XtrustError('INVALID_ARGUMENT', `cea: rhoMax must be in (0, 1], got ${rhoMax}`, { argument: 'rhoMax' });
  if (!options.mlm === !options.context)
    throw new XtrustError(
      'INVALID_ARGUMENT',
      'cea: give exactly one candidate source, `mlm` (a masked language model) or `context` (the context-aware substitute)',
      { argument: 'mlm' },
    );
  const n = options.candidates ?? 15;
  const transformation = options.mlm
    ? maskedLmCandidates(options.mlm, { candidates: n })
    : contextRerankedNeighbours(options.context!.embedding, options.context!.encoder, {
        candidates: n,
        neighbours: options.context!.neighbours,
      });
  const rhoB = batchMaskingRatio(rhoMax);
  return new Attack(classifier, {
    name: options.mlm ? 'cea' : 'cea-context',
    goal: attributionDistanceGoal(options.explain),
    transformation,
    constraints: [
      repeatModification(),
      stopwordModification(options.stopwords ?? DEFAULT_STOPWORDS),
      maxModificationRate({ maxRate: rhoMax, minThreshold: 1, rounding: 'floor' }),
    ],
    search: greedySearch({
      ranking: attributionDistanceRanking(options.explain),
      blockSize: (words) => Math.max(1, Math.floor(words * rhoB)),
    }),
    minWords: options.minWords,
    params: {
      rhoMax,
      rhoB,
      candidateSource: options.mlm
        ? `masked-lm (${options.mlm.name})`
        : 'context-reranked-neighbours (no MLM: embedding neighbours re-ranked by sentence-encoder similarity in context)',
    },
  });
}
