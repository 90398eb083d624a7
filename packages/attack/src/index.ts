export { AttackedText, isSingleToken, matchCase, type Candidate } from './text.js';
export {
  countQueries,
  explainWith,
  predict,
  type CountedClassifier,
  type ExplainFn,
  type QueryCount,
} from './model.js';
export {
  untargetedClassification,
  attributionDistanceGoal,
  rankedListGoal,
  attributionMap,
  oneToOne,
  type GoalFunction,
  type GoalResult,
  type InstanceGoal,
  type AttributionDistanceOptions,
  type RankedListGoalOptions,
} from './goal-functions.js';
export * from './constraints/index.js';
export * from './transformations/index.js';
export { WinkPosTagger, WordNetPosTagger, defaultPosTagger, type PosTagger, type PosQuery } from './pos.js';
export { HfMaskedWordModel, type MaskedWordModel } from './mlm.js';
export { CbowMaskedWordModel, trainMaskedWordModel, type CbowOptions } from './cbow-mlm.js';
export {
  greedySearch,
  gradientRanking,
  omissionRanking,
  attributionDistanceRanking,
  randomRanking,
  modifiablePositions,
  filterCandidates,
  type GreedyOptions,
  type SearchContext,
  type SearchMethod,
  type SearchOutcome,
  type WordRanking,
} from './search.js';
export {
  Attack,
  instanceSeed,
  summarizeRun,
  type AttackSpec,
  type AttackRecord,
  type AttackInput,
  type AttackStatus,
  type RunOptions,
  type RunResult,
  type RunSummary,
} from './attack.js';
export * from './recipes/index.js';
export { WordNeighbours, type WordNeighbour } from './neighbours.js';
export { MeanVectorEncoder } from './encoders.js';
export { HarperChecker, type LanguageChecker } from './grammar.js';
export {
  table4,
  formatTable4,
  robustnessPoint,
  robustnessAuc,
  robustnessAucIntervals,
  formatRobustness,
  explanationPairs,
  similaritySuccessTable,
  formatSimilarityTable,
  type Table4Row,
  type RobustnessPoint,
  type RobustnessAucIntervals,
  type RobustnessSample,
  type RobustnessOptions,
  type SimilarityTable,
} from './reports.js';
