export type { PreTransformationConstraint, CandidateConstraint, Constraint } from './types.js';
export {
  maxModificationRate,
  modificationBudget,
  repeatModification,
  stopwordModification,
  DEFAULT_STOPWORDS,
  type MaxModificationRateOptions,
} from './pre-transformation.js';
export { wordEmbeddingDistance } from './word-embedding.js';
export { sentenceEncoderSimilarity, type SentenceEncoderOptions } from './sentence-encoder.js';
export { partOfSpeech, type PartOfSpeechOptions } from './part-of-speech.js';
