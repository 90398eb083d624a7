export { Vocabulary, type VocabularyOptions } from './vocabulary.js';
export { BuiltinClassifier, BUILTIN_KINDS, type BuiltinKind, type TrainingSummary } from './builtin-classifier.js';
export { trainClassifier, type TextRow, type TrainOptions, type WordVectors, type EpochReport } from './train.js';
export { evaluateAccuracy, trainAndEvaluate, type AccuracyReport, type TrainEvaluateReport } from './evaluate.js';
export { exportOnnx, builtinOnnxGraph, hfConfigJson } from './onnx-export.js';
export { tokenizerJson, tokenizerConfigJson, PAD_TOKEN, UNK_TOKEN } from './hf-tokenizer.js';
export { OnnxClassifier, type OnnxClassifierOptions } from './onnx-classifier.js';
export { HfClassifier, type HfClassifierOptions } from './hf-classifier.js';
export { FunctionClassifier, type FunctionClassifierOptions, type ProbabilityFunction } from './function-classifier.js';
