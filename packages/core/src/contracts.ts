import type { Token } from './tokenizer.js';

/**
 * A text classifier: for n texts, the n×k row-major matrix of class probabilities, columns in the
 * order of `labels`. Every model call in xtrust is batched through this one method.
 */
export interface Classifier {
  readonly labels: readonly string[];
  predictProba(texts: readonly string[]): Promise<Float32Array>;
}

/**
 * Optional capability: score many token-presence masks of one text without rebuilding strings.
 * Masks index the tokens of core's `tokenize(text)` (default options); row r keeps token t when
 * `masks[r*T + t] !== 0`. The result is the rows×k probability matrix the classifier would give for
 * the text with the masked-out tokens removed. LIME, omission and SHAP use it when present.
 */
export interface TokenScorer {
  scoreTokenMasks(text: string, masks: Uint8Array, rows: number): Promise<Float32Array>;
}

/** A token as a model sees it (a word or a sub-word), with offsets into the original text. */
export interface ModelToken extends Token {
  /** [CLS], [SEP], padding and the like: never part of an explanation. */
  readonly special: boolean;
}

export interface GradientOptions {
  /**
   * Multipliers of every token's input vector at which the gradient is taken (integrated gradients
   * uses α_1…α_m on the straight path from a zero baseline). Default [1].
   */
  scales?: ArrayLike<number>;
  /** Differentiate the class probability (default) or the class logit. */
  output?: 'probability' | 'logit';
}

/** Per-token input vectors and the gradients of one class score with respect to them. */
export interface InputGradients {
  readonly tokens: readonly ModelToken[];
  /** Length of each token's input vector (1 for a bag-of-words presence input, d for an embedding). */
  readonly dim: number;
  /** T×dim: each token's input vector at scale 1. */
  readonly inputs: Float32Array;
  /** S×T×dim: d score / d input for each requested scale (S = scales.length). */
  readonly gradients: Float32Array;
}

/** Optional capability: analytic gradients of a class score w.r.t. each token's input vector. */
export interface GradientProvider {
  inputGradients(text: string, labelIndex: number, options?: GradientOptions): Promise<InputGradients>;
}

/**
 * Optional capability of a model with a position limit (a transformer's maximum sequence length): how
 * much of a text it sees. `seenWords(text)` is the number of leading tokens of core's `tokenize(text)`
 * whose model tokens all fall within the limit — the token count itself when nothing is cut. Explainers
 * use it to say so when a long text's tail was invisible to the model (`Explanation.seen`).
 */
export interface TextLimit {
  seenWords(text: string): number;
}

/** Self-attention of a model's last layer for one text. */
export interface AttentionMap {
  readonly tokens: readonly ModelToken[];
  readonly heads: number;
  /** heads×T×T row-major: weights[h][i][j] is how much token i attends to token j. */
  readonly weights: Float32Array;
}

/** Optional capability: the last layer's self-attention weights. */
export interface AttentionProvider {
  attentions(texts: readonly string[]): Promise<AttentionMap[]>;
}

/**
 * Optional capability: the self-attention of every layer. `layerAttentions(texts)[b][l]` is text b's map
 * in layer l (first to last), each with the same tokens and heads as the last layer's `attentions` map.
 */
export interface LayerAttentionProvider {
  layerAttentions(texts: readonly string[]): Promise<AttentionMap[][]>;
}

/** One word's contribution to the explained label. */
export interface FeatureWeight {
  readonly word: string;
  readonly weight: number;
}

/**
 * A word-level explanation of one prediction. `features` are sorted by |weight| descending;
 * `method`, `params` and `seed` are enough to reproduce it with the same classifier.
 */
export interface Explanation {
  readonly text: string;
  readonly method: string;
  readonly params: Readonly<Record<string, unknown>>;
  readonly seed?: number;
  /** The label the classifier predicts for `text`. */
  readonly predictedLabel: string;
  /** The label whose score the weights explain. */
  readonly explainedLabel: string;
  readonly features: readonly FeatureWeight[];
  /** Class probabilities of the unperturbed text, in the classifier's label order. */
  readonly probabilities?: readonly number[];
  /**
   * Present when the model saw only part of the text (a TextLimit model cut it at its position limit):
   * its first `words` of the `of` words of core's `tokenize(text)`. The words after them were invisible to
   * the unperturbed prediction.
   */
  readonly seen?: { readonly words: number; readonly of: number };
  /** Method-specific diagnostics (LIME: intercept, score R², local prediction). */
  readonly diagnostics?: Readonly<Record<string, number>>;
}

/** An explanation method. Batched: many texts per call. */
export interface Explainer<Options = Record<string, unknown>> {
  readonly name: string;
  explain(classifier: Classifier, texts: readonly string[], options?: Options): Promise<Explanation[]>;
}

/**
 * Static or contextual word vectors. `vectors` returns the n×dim row-major matrix for words that
 * `has` accepts and throws OUT_OF_VOCABULARY for any other: a missing word is never a zero vector.
 */
export interface WordEmbedding {
  readonly name: string;
  readonly dim: number;
  has(word: string): boolean;
  vectors(words: readonly string[]): Promise<Float32Array>;
}

/** Sentence encoder: n texts to an n×dim row-major matrix. */
export interface SentenceEncoder {
  readonly name: string;
  readonly dim: number;
  encode(texts: readonly string[]): Promise<Float32Array>;
}

/** Run-time capability checks: a capability is present only when the object really implements it. */
export function isTokenScorer(x: unknown): x is TokenScorer {
  return typeof (x as TokenScorer | null)?.scoreTokenMasks === 'function';
}
export function isGradientProvider(x: unknown): x is GradientProvider {
  return typeof (x as GradientProvider | null)?.inputGradients === 'function';
}
export function isAttentionProvider(x: unknown): x is AttentionProvider {
  return typeof (x as AttentionProvider | null)?.attentions === 'function';
}
export function isTextLimit(x: unknown): x is TextLimit {
  return typeof (x as TextLimit | null)?.seenWords === 'function';
}
export function isLayerAttentionProvider(x: unknown): x is LayerAttentionProvider {
  return typeof (x as LayerAttentionProvider | null)?.layerAttentions === 'function';
}
