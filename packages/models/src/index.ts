export { Vocabulary, type VocabularyOptions } from './vocabulary.js';
export { BuiltinClassifier, BUILTIN_KINDS, type BuiltinKind, type TrainingSummary } from './builtin-classifier.js';
export { trainClassifier, type TextRow, type TrainOptions, type WordVectors, type EpochReport } from './train.js';
export { evaluateAccuracy, trainAndEvaluate, type AccuracyReport, type TrainEvaluateReport } from './evaluate.js';
export { exportOnnx, builtinOnnxGraph, hfConfigJson } from './onnx-export.js';
export { OnnxGraphBuilder, FLOAT as ONNX_FLOAT, INT64 as ONNX_INT64, BOOL as ONNX_BOOL } from './onnx-graph.js';
export { tokenizerJson, tokenizerConfigJson, PAD_TOKEN, UNK_TOKEN } from './hf-tokenizer.js';
export { OnnxClassifier, type OnnxClassifierOptions } from './onnx-classifier.js';
export { loadLocalTokenizer, encodeBatch, type EncodedBatch } from './hf-tokenizer-loader.js';
export { CausalLanguageModel, type CausalLanguageModelOptions, type TextLikelihood } from './causal-lm.js';
export {
  OnnxGradientGraph,
  transformerInputGradients,
  GRADIENT_GRAPH_FILE,
  type GradientGraphResult,
} from './onnx-gradients.js';
export { MaskedIds, pieceTokenizer, encodeIds, seenWordCount, type IdRows, type PieceTokenizer } from './masked-ids.js';
export { DEFAULT_BATCH_ACTIVATIONS, defaultBatchTokens, type ScoringStats } from './length-batches.js';
export type { SessionTuning } from './session-options.js';
export { quantizeMatMulWeights, type QuantizeReport } from './quantize-int8.js';
export { readOnnxGraph, inlineExternalData, externalDataFiles, onnxGraphDigest } from './onnx-external-data.js';
export { HfClassifier, type HfClassifierOptions } from './hf-classifier.js';
export { FunctionClassifier, type FunctionClassifierOptions, type ProbabilityFunction } from './function-classifier.js';
