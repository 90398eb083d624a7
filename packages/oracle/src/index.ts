export {
  identifyKeywords,
  keywordStoreFromExplanations,
  oracleEnsemble,
  checkSurfaceTokens,
  MEANING_CORPUS,
  type IdentifyKeywordsOptions,
  type KeywordStoreFromExplanationsArgs,
} from './keyword-identification.js';
export {
  TOKI_DEFAULT,
  TOKI_PHRASE,
  DEFAULT_TOKEN_CHECK,
  TOKI_PAPER,
  TOKI_NAME_ONLY,
  TOKI_CLUSTER,
  DEFAULT_MEANING,
  DEFAULT_COOCCURRENCE,
  DEFAULT_FUNCTION_WORD_LEAN,
  DEFAULT_PHRASE_FUNCTION_WORD_LEAN,
  DEFAULT_DECISIVE_SHARE,
  DEFAULT_REMOVAL_CHECK,
  DEFAULT_CATEGORY_NESTING,
  DEFAULT_RELATED_COUNTERWEIGHT,
  ORACLES,
  resolveOracle,
  checkOracle,
  oracleEmbeddings,
  type OracleConfig,
  type OracleName,
  type ClusterRule,
  type PostProcess,
  type VerdictRule,
} from './oracle-config.js';
export {
  KeywordStore,
  modelFingerprint,
  KEYWORD_STORE_FORMAT,
  KEYWORD_STORE_VERSION,
  type EnsembleMember,
  type KeywordStoreJson,
  type KeywordStoreProvenance,
  type MethodSummary,
  REASONS_UNRELATED_SAVED,
  /**
   * Why a word is or is not a keyword (`store.why(label, word)`, `store.reasons(label)`, `reasons` in
   * keywords.json): the nearest class-description item and its cosine against θ_relate per ensemble member,
   * and the check that demoted it. The keywords decide r(w, c), Eq. 5 of "TOKI: automated trustworthiness
   * oracle generation for text classifiers".
   */
  type WordReason,
  type WordReasonJson,
  type Demotion,
} from './keyword-store.js';
export {
  selectKeywords,
  clusterByCosine,
  relatesToClass,
  relatesToDescription,
  otherClassVectors,
  PAPER_RULE,
  type MethodKeywords,
  type MemberReason,
  type SelectionRule,
} from './keyword-selection.js';
export { ClassCorpus, type ClassCorpusJson, type ClassCorpusOptions } from './class-corpus.js';
export {
  WordCooccurrence,
  type CooccurrenceSettings,
  type WordCooccurrenceJson,
} from './word-cooccurrence.js';
export {
  categoryWords,
  coveringSpans,
  reasonSpans,
  type CategoryNesting,
  type CategoryReason,
  type UnrelatedCategory,
} from './unrelated-categories.js';
export {
  wordMeanings,
  type JointMeaningSettings,
  type MeaningBecause,
  type MeaningSettings,
  type WordMeaning,
} from './word-meaning.js';
export { BACKGROUND_TOPICS } from './background-topics.js';
export { WordPools, decisionWords, normalizeWord, type PooledWord, type PoolEntry } from './word-pool.js';
export { plurality, pluralityColumns, ABSTAIN, type Ballot } from './ensemble-vote.js';
export {
  labelPredictions,
  labelExplanations,
  labelTolerant,
  verdictOf,
  relatedFloor,
  relatedness,
  predictAll,
  type TrustLabel,
  type DecisiveReason,
  type Verdict,
  type OracleMode,
  type LabelOptions,
  type LabelPredictionsOptions,
} from './trust-labels.js';
export { groupedWeights, groupedWithPhraseWords } from './reason-groups.js';
export {
  textWithout,
  removalOutcomes,
  type RemovalCase,
  type RemovalOutcome,
  type TextSpan,
} from './removal-check.js';
export { verdictSampling, verdictStatisticOf, tokiStatistic, type VerdictSamplingOptions } from './verdict-sampling.js';
export {
  explainAll,
  explainTolerant,
  type ExplainAllOptions,
  type Progress,
  type TolerantExplanations,
} from './explaining.js';
export {
  calibrateThetaRelate,
  thresholdFromPairs,
  relatedPairs,
  randomPairs,
  classifyPairs,
  xtrustCacheDir,
  type CalibrationLexicon,
  type CalibrationResult,
  type CalibrateOptions,
  type PairClassification,
  type WordPair,
} from './calibration.js';
export { naiveOracle, chooseThetaConf, predictionConfidence } from './naive.js';
export {
  compareOracles,
  oracleMetrics,
  scoreOracle,
  verdictVector,
  formatTable3,
  confidenceDistribution,
  formatConfidenceDistribution,
  thetaDistSweep,
  chooseThetaDist,
  formatSweep,
  type OracleMetrics,
  type OracleRow,
  type ConfidenceBin,
  type ExplainerEntry,
  type CompareOraclesArgs,
  type CompareOraclesResult,
} from './evaluation.js';
export { classNameVector, classNameWords, knownVectors, type KnownVectors } from './word-vectors.js';
export { FUNCTION_WORDS, isFunctionWord } from './function-words.js';
export {
  tokenResponses,
  evidenceTexts,
  sampleVocabulary,
  replaceWord,
  type TokenCheckSettings,
  type TokenResponse,
} from './token-response.js';
export {
  classDescriptionItems,
  descriptionTarget,
  descriptionScores,
  checkClassDescriptions,
  DEFAULT_DESCRIPTION_RELATE,
  WORDNET_CLASS_DESCRIPTION,
  type ClassDescriptionConfig,
  type DescriptionRelate,
  type DescriptionTarget,
  type UserDescription,
  type WordNetDescriptionSettings,
} from './class-description.js';
export { reasonSentence, type ReasonThresholds } from './reason-text.js';
