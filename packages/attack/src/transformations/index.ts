export type { Transformation, TransformContext } from './types.js';
export { embeddingNeighbours, type EmbeddingNeighboursOptions } from './embedding-neighbours.js';
export { wordNetSynonyms } from './wordnet-synonyms.js';
export { tokiPools, type TokiPoolOptions } from './toki-pools.js';
export { maskedLmCandidates, contextRerankedNeighbours, type ContextRerankedOptions } from './masked-lm.js';
