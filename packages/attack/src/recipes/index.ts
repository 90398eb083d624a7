export { a2t, a2tConstraints, defaultRanking, A2T_DEFAULTS, type A2TOptions } from './a2t.js';
export { tokiGuided, type TokiGuidedOptions } from './toki-guided.js';
export { cea, batchMaskingRatio, type CeaOptions } from './cea.js';
export { tef, type TefOptions } from './tef.js';
export { explanationSimilarity, type ExplanationSimilarityOptions } from './explanation-similarity.js';
