export { Vocabulary, type VocabularyOptions } from './vocabulary.js';
export { BuiltinClassifier, BUILTIN_KINDS, type BuiltinKind, type TrainingSummary } from './builtin-classifier.js';
export { trainClassifier, type TextRow, type TrainOptions, type WordVectors, type EpochReport } from './train.js';
export { evaluateAccuracy, trainAndEvaluate, type AccuracyReport, type TrainEvaluateReport } from './evaluate.js';
