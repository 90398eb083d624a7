import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  checkProbabilities,
  netClasses,
  tokenize,
  validateNet,
  XtrustError,
  type Classifier,
  type DenseLayer,
  type GradientOptions,
  type GradientProvider,
  type InputGradients,
  type MaskInput,
  type MaskScoringNet,
  type ModelToken,
  type TokenScorer,
} from '@xtrust/core';
import { baseInputs, relaxedGradient, tokenInputDim } from './gradients.js';
import { gradientRequest, requireFile, requireText, requireTexts } from './inputs.js';
import { scoreMasks } from './score.js';
import { Vocabulary } from './vocabulary.js';

/** The built-in model families. */
export type BuiltinKind =
  /** softmax regression over a bag of words */
  | 'bow-logistic'
  /** one hidden ReLU layer over a bag of words */
  | 'bow-mlp'
  /** one hidden ReLU layer over the mean of the text's word vectors */
  | 'embedding-mlp';

export const BUILTIN_KINDS: readonly BuiltinKind[] = ['bow-logistic', 'bow-mlp', 'embedding-mlp'];

/** What training did, stored with the model so a result can be traced to its run. */
export interface TrainingSummary {
  readonly seed: number;
  readonly epochs: number;
  readonly bestEpoch: number;
  readonly trainRows: number;
  readonly validationRows: number;
  readonly validationLoss: number | null;
  readonly validationAccuracy: number | null;
  readonly seconds: number;
  readonly options: Readonly<Record<string, unknown>>;
}

const FORMAT = 'xtrust-builtin-classifier';
const FORMAT_VERSION = 1;

/** What `model.json` holds (the weights are in `weights.bin`, in the order of `input` then `layers`). */
interface SavedModel {
  format: typeof FORMAT;
  version: typeof FORMAT_VERSION;
  kind: BuiltinKind;
  labels: readonly string[];
  input:
    | { kind: 'bag-of-words'; transform: Extract<MaskInput, { kind: 'bag-of-words' }>['transform'] }
    | { kind: 'mean-embedding'; dim: number };
  layers: { inDim: number; outDim: number }[];
  training: TrainingSummary | null;
  vocabulary: readonly string[];
}
export const MODEL_JSON = 'model.json';
export const WEIGHTS_BIN = 'weights.bin';

/**
 * A built-in text classifier (bag-of-words softmax regression, bag-of-words MLP or averaged-word-vector
 * MLP). Its forward pass is a core `MaskScoringNet`, evaluated by the native kernel when available,
 * so predictions, token-mask scores and ONNX export all run the same arithmetic.
 *
 * Texts are read as the lower-cased tokens of core's `tokenize`; words outside the vocabulary are
 * ignored. An empty text (or one with no known word) gets the bias-only prediction: a legitimate
 * probability row, the model's prior, not an error.
 */
export class BuiltinClassifier implements Classifier, TokenScorer, GradientProvider {
  readonly name: string;

  constructor(
    readonly kind: BuiltinKind,
    readonly labels: readonly string[],
    readonly vocabulary: Vocabulary,
    private readonly net: MaskScoringNet,
    readonly training: TrainingSummary | null = null,
  ) {
    validateNet(net);
    if (netClasses(net) !== labels.length) {
      throw new XtrustError(
        'DIMENSION_MISMATCH',
        `built-in classifier: the net outputs ${netClasses(net)} classes but ${labels.length} labels were given`,
      );
    }
    if (net.input.vocabSize !== vocabulary.size) {
      throw new XtrustError(
        'DIMENSION_MISMATCH',
        `built-in classifier: the net's vocabulary has ${net.input.vocabSize} words, the vocabulary ${vocabulary.size}`,
      );
    }
    this.name = `built-in ${kind} classifier`;
  }

  /** The forward pass (shared with the native kernel and the ONNX export). Do not mutate it. */
  toNet(): MaskScoringNet {
    return this.net;
  }

  /** Vocabulary id of each token of `tokenize(text)` (−1 for words the model does not know). */
  tokenIds(text: string): Int32Array {
    requireText(text, this.name);
    return this.vocabulary.tokenIds(text);
  }

  /** n×k class probabilities (labels order). */
  async predictProba(texts: readonly string[]): Promise<Float32Array> {
    requireTexts(texts, this.name);
    const k = this.labels.length;
    const out = new Float32Array(texts.length * k);
    for (let i = 0; i < texts.length; i++) {
      const ids = this.vocabulary.tokenIds(texts[i]);
      out.set(scoreMasks(this.net, ids, new Uint8Array(ids.length).fill(1), 1), i * k);
    }
    return checkProbabilities(out, texts.length, k, this.name);
  }

  /**
   * Probabilities for `rows` token-presence masks over the tokens of `tokenize(text)`, without
   * building strings; row r equals `predictProba` of the text with the masked-out tokens removed.
   */
  async scoreTokenMasks(text: string, masks: Uint8Array, rows: number): Promise<Float32Array> {
    requireText(text, this.name);
    if (!(masks instanceof Uint8Array))
      throw new XtrustError(
        'INVALID_ARGUMENT',
        `${this.name}: masks must be a Uint8Array (rows×tokens), got ${typeof masks}`,
        { argument: 'masks' },
      );
    if (!Number.isInteger(rows) || rows < 0)
      throw new XtrustError('INVALID_ARGUMENT', `${this.name}: rows must be a non-negative integer, got ${rows}`, {
        argument: 'rows',
      });
    const ids = this.vocabulary.tokenIds(text);
    if (masks.length !== rows * ids.length) {
      throw new XtrustError(
        'DIMENSION_MISMATCH',
        `${this.name}: masks has ${masks.length} values; expected rows×tokens = ${rows}×${ids.length} for this text`,
        { argument: 'masks' },
      );
    }
    return checkProbabilities(scoreMasks(this.net, ids, masks, rows), rows, this.labels.length, this.name);
  }

  /**
   * Analytic gradient of class `labelIndex`'s probability (or logit) w.r.t. each token's input: its
   * presence (dim 1) for bag-of-words models, its word vector for the averaged-vector MLP. Tokens
   * outside the vocabulary have a zero input and a zero gradient. See gradients.ts for the relaxation
   * that makes the binary bag-of-words input differentiable.
   */
  async inputGradients(text: string, labelIndex: number, options: GradientOptions = {}): Promise<InputGradients> {
    const { output, scales } = gradientRequest(this.name, this.labels, text, labelIndex, options);
    const tokens: ModelToken[] = tokenize(text).map((t) => ({ ...t, special: false }));
    const ids = this.vocabulary.tokenIds(text);
    const dim = tokenInputDim(this.net);
    const base = baseInputs(this.net, ids);
    const T = ids.length;
    const gradients = new Float32Array(scales.length * T * dim);
    const scaled = new Float64Array(base.length);
    scales.forEach((alpha, si) => {
      for (let j = 0; j < base.length; j++) scaled[j] = alpha * base[j];
      gradients.set(relaxedGradient(this.net, ids, scaled, labelIndex, output).gradient, si * T * dim);
    });
    return { tokens, dim, inputs: Float32Array.from(base), gradients };
  }

  /** Writes `model.json` (metadata, vocabulary) and `weights.bin` (little-endian Float32) into `dir`. */
  async save(dir: string): Promise<void> {
    await mkdir(dir, { recursive: true });
    const { input, layers } = this.net;
    const meta: SavedModel = {
      format: FORMAT,
      version: FORMAT_VERSION,
      kind: this.kind,
      labels: this.labels,
      input:
        input.kind === 'bag-of-words'
          ? { kind: input.kind, transform: input.transform }
          : { kind: input.kind, dim: input.dim },
      layers: layers.map((l) => ({ inDim: l.inDim, outDim: l.outDim })),
      training: this.training,
      vocabulary: this.vocabulary.words,
    };
    const parts: Float32Array[] = [];
    if (input.kind === 'mean-embedding') parts.push(input.embeddings);
    for (const l of layers) parts.push(l.weight, l.bias);
    const total = parts.reduce((s, p) => s + p.length, 0);
    const buf = Buffer.alloc(total * 4);
    let off = 0;
    for (const p of parts) for (let i = 0; i < p.length; i++, off += 4) buf.writeFloatLE(p[i], off);
    await writeFile(join(dir, WEIGHTS_BIN), buf);
    await writeFile(join(dir, MODEL_JSON), `${JSON.stringify(meta)}\n`);
  }

  /** Loads a model written by `save`. FILE_NOT_FOUND names a missing file; INCOMPATIBLE a foreign folder. */
  static async load(dir: string): Promise<BuiltinClassifier> {
    const what = 'built-in classifier';
    const metaPath = requireFile(dir, MODEL_JSON, what);
    const weightsPath = requireFile(dir, WEIGHTS_BIN, what);
    let meta: SavedModel;
    try {
      meta = JSON.parse(await readFile(metaPath, 'utf8'));
    } catch (e) {
      throw new XtrustError(
        'PARSE_ERROR',
        `${metaPath}: not valid JSON (${(e as Error).message})`,
        { file: metaPath },
        { cause: e },
      );
    }
    if (meta?.format !== FORMAT || meta.version !== FORMAT_VERSION) {
      throw new XtrustError(
        'INCOMPATIBLE',
        `${metaPath}: expected format "${FORMAT}" version ${FORMAT_VERSION}, found ${String(meta?.format)} ${String(meta?.version)}`,
        { file: metaPath },
      );
    }
    const buf = await readFile(weightsPath);
    const vocabulary = new Vocabulary(meta.vocabulary);
    const V = vocabulary.size;
    const expected =
      (meta.input.kind === 'mean-embedding' ? V * meta.input.dim : 0) +
      meta.layers.reduce((s: number, l: { inDim: number; outDim: number }) => s + l.inDim * l.outDim + l.outDim, 0);
    if (buf.length !== expected * 4) {
      throw new XtrustError(
        'DIMENSION_MISMATCH',
        `${weightsPath}: ${buf.length} bytes; expected ${expected} Float32 values (${expected * 4} bytes) for the shapes in ${MODEL_JSON}`,
        { file: weightsPath },
      );
    }
    let off = 0;
    const take = (n: number) => {
      const a = new Float32Array(n);
      for (let i = 0; i < n; i++, off += 4) a[i] = buf.readFloatLE(off);
      return a;
    };
    const input: MaskInput =
      meta.input.kind === 'mean-embedding'
        ? { kind: 'mean-embedding', vocabSize: V, dim: meta.input.dim, embeddings: take(V * meta.input.dim) }
        : { kind: 'bag-of-words', vocabSize: V, transform: meta.input.transform };
    const layers: DenseLayer[] = meta.layers.map((l: { inDim: number; outDim: number }) => ({
      inDim: l.inDim,
      outDim: l.outDim,
      weight: take(l.inDim * l.outDim),
      bias: take(l.outDim),
    }));
    return new BuiltinClassifier(meta.kind, meta.labels, vocabulary, { input, layers }, meta.training ?? null);
  }
}
