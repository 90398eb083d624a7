/**
 * @xtrust/embeddings: word and sentence embeddings that run offline (GloVe, counter-fitted GloVe, USE,
 * transformer models, user vector files), WordNet, and similarity search through @xtrust/native.
 * See README.md for the conventions (OOV policy, case folding, cache).
 */
export {
  WordNet,
  wordnet,
  wordNetForm,
  type IndexEntry,
  type Pointer,
  type Synset,
  type LemmaFrequency,
  type WordNetOptions,
  type RelationOptions,
} from './wordnet.js';
export {
  morphy,
  readExceptionLists,
  DETACHMENT_RULES,
  WORDNET_POS,
  type WordNetPos,
  type ExceptionLists,
} from './morphology.js';
export { SynonymThesaurus, type Synonymity, type SynonymThesaurusOptions } from './thesaurus.js';
export { StaticEmbedding, type CaseFolding, type StaticEmbeddingOptions } from './static-embedding.js';
export {
  GloveEmbedding,
  parseWinkEmbeddingsJson,
  WINK_GLOVE_PACKAGE,
  type GloveOptions,
  type GloveLoadInfo,
} from './glove.js';
export { cacheDir } from './cache-dir.js';
export {
  readVectorCache,
  writeVectorCache,
  loadCachedTable,
  rowNorms,
  EMBEDDINGS_VERSION,
  CACHE_FORMAT_VERSION,
  type VectorTable,
  type VocabIndex,
  type CacheRead,
  type CachedLoad,
  type CachedLoadOptions,
} from './binary-cache.js';
export {
  nearest,
  similarityMatrix,
  syn,
  sentenceSimilarity,
  NeighbourIndex,
  EmbeddingSynonymity,
  type Neighbour,
  type NearestOptions,
  type EmbeddingSynonymityOptions,
} from './similarity.js';
export { UseEmbedding, type UseOptions } from './use.js';
export {
  EmbeddingEnsemble,
  pluralityVote,
  loadDefaultEnsemble,
  type MemberSimilarities,
  type DefaultEnsembleOptions,
} from './ensemble.js';
export {
  CounterFittedEmbedding,
  counterFit,
  counterFittingReport,
  wordNetConstraints,
  COUNTER_FIT_DEFAULTS,
  COUNTER_FITTING_REPORT_PAIRS,
  type CounterFitParams,
  type CounterFitStats,
  type Constraints,
  type CounterFittedOptions,
  type CounterFittingReportRow,
} from './counter-fitting.js';
export {
  TransformerEmbedding,
  type TransformerEmbeddingOptions,
  type ContextualWords,
} from './transformer-embedding.js';
export {
  readVectorFile,
  loadVectorFile,
  detectVectorFormat,
  type VectorFormat,
  type VectorFileOptions,
  type LoadVectorFileOptions,
} from './vector-file-reader.js';
export { AllButTheTopEmbedding, principalDirections, type AllButTheTopOptions } from './post-processing.js';
export {
  wordNetDescription,
  glossDefinition,
  definitionWords,
  type WordNetDescription,
  type WordNetDescriptionOptions,
} from './class-description.js';
