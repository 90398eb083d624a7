export { XtrustError, isXtrustError, type XtrustErrorCode } from './errors.js';
export {
  tokenize,
  words,
  distinctWords,
  firstWords,
  DEFAULT_SEPARATOR,
  type Token,
  type TokenizeOptions,
  type FirstWordsOptions,
} from './tokenizer.js';
export { writeFileAtomic } from './fs.js';
export { hiddenSizeOf, readHfConfig } from './hf-config.js';
export { NON_CONTENT_WORDS } from './function-words.js';
export { rng, type Rng } from './rng.js';
export { wilsonInterval, type ProportionInterval } from './interval.js';
export { matmul, matmulTransB, dot, norm, cholesky, choleskySolve, softmaxRows, type FloatArray } from './linalg.js';
export { readJsonl, readJsonlAll, writeJsonl, JsonlWriter, type JsonlRecord } from './jsonl.js';
export { readCsv, parseCsv, toCsv, writeCsv, type CsvRecord } from './csv.js';
export { checkProbabilities, argmaxRow, labelIndex, type ProbabilityCheckOptions } from './probabilities.js';
export type {
  Classifier,
  TokenScorer,
  GradientProvider,
  GradientOptions,
  InputGradients,
  AttentionProvider,
  LayerAttentionProvider,
  AttentionMap,
  ModelToken,
  FeatureWeight,
  Explanation,
  Explainer,
  WordEmbedding,
  SentenceEncoder,
  TextLimit,
} from './contracts.js';
export {
  isTokenScorer,
  isGradientProvider,
  isAttentionProvider,
  isLayerAttentionProvider,
  isTextLimit,
} from './contracts.js';
export {
  scoreMasksTs,
  validateNet,
  netClasses,
  netInputDim,
  type MaskScoringNet,
  type MaskInput,
  type DenseLayer,
} from './kernels/score-masks.js';
export { cosineMatrixTs, normalizeRows, checkCosineArgs } from './kernels/cosine.js';
export { topKTs, checkTopKArgs, type TopKResult, type TopKOptions } from './kernels/top-k.js';
export { ridgeBatchTs, checkRidgeProblems, weightedR2, type RidgeProblem, type RidgeFit } from './kernels/ridge.js';
export {
  averageLinkageTs,
  checkDistanceMatrix,
  makeDendrogram,
  labelMerges,
  type Dendrogram,
} from './kernels/average-linkage.js';
export { requireFloat32, requireFinite, requirePositiveInt } from './kernels/validate.js';
