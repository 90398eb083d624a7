export { type RankedList, type ListOptions, type PreparedLists, prepareLists, rankedWords } from './ranked-list.js';
export {
  type Syn,
  type SynonymMapping,
  type MappedPair,
  type SynonymitySource,
  intervalSyn,
  thesaurusSyn,
  resolveMapping,
  precomputeSyn,
} from './synonymity.js';
export { jaccard, setJaccard, weightedJaccard, type WeightedJaccardOptions } from './jaccard.js';
export { kendall, weightedKendall } from './kendall.js';
export { footrule, weightedFootrule, type FootruleOptions } from './footrule.js';
export { rbo, weightedRbo, RBO_PERSISTENCES } from './rbo.js';
export {
  successRate,
  successRateTable,
  SUCCESS_THRESHOLDS,
  standardMeasures,
  weightedMeasures,
  type ExplanationPair,
  type PairMeasure,
  type PaperMeasureName,
} from './success-rate.js';
export {
  ndcgAtK,
  ndcgAtKs,
  dcg,
  classNameRelevance,
  NDCG_DEFAULT_KS,
  type Relevance,
  type NdcgOptions,
} from './ndcg.js';
export { pairCosines } from './sentence-cosine.js';
export {
  pearson,
  attributionDistance,
  attributionVector,
  semanticDistance,
  sentenceDistances,
  perplexityDistance,
  perplexityDistances,
  robustnessRatio,
  sampleRobustness,
  meanRobustness,
  aucR,
  type PearsonOptions,
  type SemanticDistanceOptions,
  type PerplexityFn,
} from './attribution-robustness.js';
export {
  confusion,
  metricsFromConfusion,
  classificationMetrics,
  type BinaryLabels,
  type Confusion,
  type ClassificationMetrics,
} from './oracle-metrics.js';
export { rocCurve, rocAuc, thresholdSweep, bestGMeanThreshold, type RocCurve, type ThresholdPoint } from './roc.js';
export {
  attackSuccessRate,
  countPerturbedWords,
  averagePerturbedWords,
  meanSentenceCosine,
  summarizeAttacks,
  type AttackOutcome,
  type AttackSummary,
  type PerturbedWordsOptions,
} from './attack-metrics.js';
export {
  bootstrapInterval,
  gmeanInterval,
  meanInterval,
  meanTInterval,
  nearestRankQuantile,
  quantile,
  type BootstrapInterval,
  type MeanInterval,
  type BootstrapOptions,
} from './bootstrap.js';
