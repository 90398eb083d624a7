export { LimeExplainer, fitLimeModels, type LimeOptions, type LimeNeighbourhood, type LimeLocalModel } from './lime.js';
export {
  sampleLimeMasks,
  sampleBalancedLimeMasks,
  limeDistances,
  limeKernel,
  type LimeSamples,
} from './lime-sampling.js';
export {
  resolveCandidates,
  topCandidates,
  omissionScores,
  gradientScores,
  expandCandidateMasks,
  candidateScorer,
  type CandidateMethod,
  type CandidatesOption,
  type CandidateRule,
} from './lime-candidates.js';
export {
  AdaptiveStop,
  RunningSelection,
  adaptiveCanStop,
  adaptiveMinRows,
  previousAdaptiveDefault,
  resolveAdaptive,
  type AdaptiveOption,
  type AdaptiveRule,
} from './lime-adaptive.js';
export {
  VerdictStop,
  VERDICT_MIN_ROWS,
  VERDICT_SELECTION_GUARD,
  VERDICT_SELECTION_GUARDS,
  normalQuantile,
  resolveVerdict,
  ridgeWithSandwich,
  verdictCanStop,
  verdictChecks,
  verdictMinRows,
  type VerdictCheck,
  type VerdictContext,
  type VerdictFit,
  type VerdictOption,
  type VerdictRule,
  type VerdictSelectionGuard,
  type VerdictStatistic,
  type VerdictValue,
} from './lime-verdict.js';
export {
  resolveFeatureSelection,
  forwardSelection,
  highestWeights,
  lassoPathSelection,
  weightedGram,
  WeightedMoments,
  weightedCross,
  FEATURE_SELECTIONS,
  type FeatureSelection,
  type WeightedGram,
} from './feature-selection.js';
export { OmissionExplainer, type OmissionOptions } from './omission.js';
export { GradientExplainer, type GradientExplainerOptions } from './gradient.js';
export {
  IntegratedGradientsExplainer,
  integrationRule,
  type IntegratedGradientsOptions,
  type IntegrationMethod,
} from './integrated-gradients.js';
export {
  KernelShapExplainer,
  kernelShapCoalitions,
  solveKernelShap,
  type KernelShapOptions,
  type Coalitions,
} from './kernel-shap.js';
export { ExactShapleyExplainer, type ExactShapleyOptions } from './exact-shapley.js';
export { AttentionExplainer, attentionWordScores, meanAttentionMap, type AttentionOptions } from './attention.js';
export {
  makeExplanation,
  sortByMagnitude,
  topWords,
  type TopWordsOptions,
  type ExplanationParts,
} from './explanation.js';
export { textFeatures, tokenMasks, PerturbedTexts, type TextFeatures } from './text-features.js';
export { alignTokens, aggregateToFeatures, type Aggregation } from './word-alignment.js';
export { ridgeBatch, resolveRidgeBackend, type RidgeBackend } from './ridge.js';
export { ProbabilityGuard, type ModelCallOptions } from './model-calls.js';
export type { LabelOptions } from './labels.js';
export { explainerByName, EXPLAINER_NAMES, type ExplainerName } from './registry.js';
