import { rng, XtrustError, type DenseLayer, type MaskInput, type Rng } from '@xtrust/core';
import { Adam } from './adam.js';
import { BuiltinClassifier, BUILTIN_KINDS, type BuiltinKind, type TrainingSummary } from './builtin-classifier.js';
import { Vocabulary } from './vocabulary.js';

/** A labelled training text. */
export interface TextRow {
  readonly text: string;
  readonly label: string;
}

/** Word vectors for the averaged-vector MLP: `vectors` is words.length×dim row-major. */
export interface WordVectors {
  readonly words: readonly string[];
  readonly vectors: Float32Array;
  readonly dim: number;
}

/** Per-epoch progress, passed to `onEpoch`. */
export interface EpochReport {
  readonly epoch: number;
  readonly trainLoss: number;
  readonly validationLoss: number | null;
  readonly validationAccuracy: number | null;
}

export interface TrainOptions {
  /** Label order of the model (default: the distinct labels of the rows, sorted by code point). */
  labels?: readonly string[];
  /** Seed of the validation split, initialisation and mini-batch order. Default 0. */
  seed?: number;
  /** Upper bound on epochs (early stopping usually ends sooner). Default 30. */
  maxEpochs?: number;
  /** Mini-batch size. Default 32. */
  batchSize?: number;
  /** Adam step size. Default 0.01 (bow-logistic), 0.002 (bow-mlp), 0.003 (embedding-mlp). */
  learningRate?: number;
  /** L2 penalty on weights (not biases), added to the gradient as λ·w. Default 1e-6. */
  l2?: number;
  /** Hidden units of the MLPs. Default 64. */
  hidden?: number;
  /** Fraction of the rows held out (seeded) for early stopping. Default 0.1; 0 trains maxEpochs. */
  validationFraction?: number;
  /** Epochs without a validation-loss improvement before stopping; the best epoch's weights are kept. Default 3. */
  patience?: number;
  /** Vocabulary: minimum count in the training texts. Default 2. */
  minCount?: number;
  /** Vocabulary: maximum size. Default 20,000 (bag-of-words), 50,000 (embedding-mlp). */
  maxVocab?: number;
  /** Bag-of-words feature: presence (`binary`) or log(1 + count) (`log1p`). Default `log1p`. */
  transform?: 'binary' | 'log1p';
  /** Word vectors (required by `embedding-mlp`; models never loads an embedding itself). */
  vectors?: WordVectors;
  /** Called after every epoch. */
  onEpoch?: (report: EpochReport) => void;
}

/** Sparse rows: row i's features are cols[ptr[i]..ptr[i+1]) with values vals[…]. */
interface Csr {
  ptr: Int32Array;
  cols: Int32Array;
  vals: Float32Array;
}

function encode(texts: readonly string[], vocab: Vocabulary, input: MaskInput): Csr {
  const ptr = new Int32Array(texts.length + 1);
  const cols: number[] = [];
  const vals: number[] = [];
  for (let i = 0; i < texts.length; i++) {
    const ids = vocab.tokenIds(texts[i]);
    if (input.kind === 'bag-of-words') {
      const counts = new Map<number, number>();
      for (const id of ids) if (id >= 0) counts.set(id, (counts.get(id) ?? 0) + 1);
      // Sorted ids: deterministic accumulation order and cache-friendlier row access.
      const sorted = [...counts.keys()].sort((a, b) => a - b);
      for (const id of sorted) {
        cols.push(id);
        vals.push(input.transform === 'binary' ? 1 : Math.log1p(counts.get(id)!));
      }
    } else {
      const { dim, embeddings } = input;
      const mean = new Float64Array(dim);
      let n = 0;
      for (const id of ids) {
        if (id < 0) continue;
        n++;
        for (let d = 0; d < dim; d++) mean[d] += embeddings[id * dim + d];
      }
      if (n > 0) {
        for (let d = 0; d < dim; d++) {
          cols.push(d);
          vals.push(mean[d] / n);
        }
      }
    }
    ptr[i + 1] = cols.length;
  }
  return { ptr, cols: Int32Array.from(cols), vals: Float32Array.from(vals) };
}

function glorot(r: Rng, inDim: number, outDim: number): Float32Array {
  const w = new Float32Array(inDim * outDim);
  const a = Math.sqrt(6 / (inDim + outDim));
  for (let i = 0; i < w.length; i++) w[i] = (2 * r.float() - 1) * a;
  return w;
}

/** Forward + (optionally) backward for one example; returns its cross-entropy loss and whether argmax == y. */
class Trainer {
  readonly zs: Float64Array[];
  readonly gs: Float64Array[];
  constructor(private readonly layers: DenseLayer[]) {
    this.zs = layers.map((l) => new Float64Array(l.outDim));
    this.gs = layers.map((l) => new Float64Array(l.outDim));
  }

  forward(x: Csr, i: number): Float64Array {
    const { layers, zs } = this;
    const first = layers[0];
    const H = first.outDim;
    const z0 = zs[0];
    for (let o = 0; o < H; o++) z0[o] = first.bias[o];
    const W = first.weight;
    for (let s = x.ptr[i]; s < x.ptr[i + 1]; s++) {
      const v = x.vals[s];
      const w = x.cols[s] * H;
      for (let o = 0; o < H; o++) z0[o] += v * W[w + o];
    }
    for (let li = 1; li < layers.length; li++) {
      const l = layers[li];
      const prev = zs[li - 1];
      const z = zs[li];
      for (let o = 0; o < l.outDim; o++) z[o] = l.bias[o];
      for (let a = 0; a < l.inDim; a++) {
        const h = prev[a];
        if (h <= 0) continue;
        const w = a * l.outDim;
        for (let o = 0; o < l.outDim; o++) z[o] += h * l.weight[w + o];
      }
    }
    // Softmax in place of the logits.
    const out = zs[layers.length - 1];
    let max = -Infinity;
    for (let c = 0; c < out.length; c++) if (out[c] > max) max = out[c];
    let sum = 0;
    for (let c = 0; c < out.length; c++) sum += out[c] = Math.exp(out[c] - max);
    for (let c = 0; c < out.length; c++) out[c] /= sum;
    return out;
  }

  /** Accumulates the gradient of −log p_y / scale into `grads` ([W0, b0, W1, b1, …]). */
  backward(
    x: Csr,
    i: number,
    y: number,
    scale: number,
    grads: Float64Array[],
    touched: Uint8Array,
    touchedList: Int32Array,
    nTouched: { n: number },
  ): void {
    const { layers, zs, gs } = this;
    const L = layers.length;
    const p = zs[L - 1];
    const gOut = gs[L - 1];
    for (let c = 0; c < p.length; c++) gOut[c] = (p[c] - (c === y ? 1 : 0)) * scale;
    for (let li = L - 1; li >= 1; li--) {
      const l = layers[li];
      const prev = zs[li - 1];
      const g = gs[li];
      const gW = grads[2 * li];
      const gb = grads[2 * li + 1];
      const gPrev = gs[li - 1];
      for (let o = 0; o < l.outDim; o++) gb[o] += g[o];
      for (let a = 0; a < l.inDim; a++) {
        const h = prev[a];
        const w = a * l.outDim;
        if (h <= 0) {
          gPrev[a] = 0;
          continue;
        }
        let acc = 0;
        for (let o = 0; o < l.outDim; o++) {
          gW[w + o] += h * g[o];
          acc += l.weight[w + o] * g[o];
        }
        gPrev[a] = acc;
      }
    }
    const H = layers[0].outDim;
    const g0 = gs[0];
    const gW0 = grads[0];
    const gb0 = grads[1];
    for (let o = 0; o < H; o++) gb0[o] += g0[o];
    for (let s = x.ptr[i]; s < x.ptr[i + 1]; s++) {
      const col = x.cols[s];
      const v = x.vals[s];
      const w = col * H;
      for (let o = 0; o < H; o++) gW0[w + o] += v * g0[o];
      if (touched[col] === 0) {
        touched[col] = 1;
        touchedList[nTouched.n++] = col;
      }
    }
  }
}

function defaults(kind: BuiltinKind) {
  return {
    learningRate: kind === 'bow-logistic' ? 0.01 : kind === 'bow-mlp' ? 0.002 : 0.003,
    maxVocab: kind === 'embedding-mlp' ? 50_000 : 20_000,
  };
}

/**
 * Trains a built-in classifier on labelled texts: vocabulary from the training part, seeded
 * validation split, mini-batch Adam with L2, early stopping on validation loss (best weights kept).
 * Deterministic: the same rows, kind and options give the same weights.
 */
export async function trainClassifier(
  kind: BuiltinKind,
  rows: readonly TextRow[],
  options: TrainOptions = {},
): Promise<BuiltinClassifier> {
  const started = performance.now();
  if (!BUILTIN_KINDS.includes(kind))
    throw new XtrustError(
      'INVALID_ARGUMENT',
      `trainClassifier: kind must be one of ${BUILTIN_KINDS.join(', ')}, got ${String(kind)}`,
      { argument: 'kind' },
    );
  if (!Array.isArray(rows) || rows.length === 0)
    throw new XtrustError('INVALID_ARGUMENT', 'trainClassifier: rows must be a non-empty array of {text, label}', {
      argument: 'rows',
    });
  rows.forEach((r, i) => {
    if (typeof r?.text !== 'string')
      throw new XtrustError('DATASET_ROW', `trainClassifier: rows[${i}] has no text string`, { row: i });
    if (typeof r.label !== 'string')
      throw new XtrustError('DATASET_ROW', `trainClassifier: rows[${i}] has no label string`, { row: i });
  });
  const d = defaults(kind);
  const seed = options.seed ?? 0;
  const maxEpochs = options.maxEpochs ?? 30;
  const batchSize = options.batchSize ?? 32;
  const lr = options.learningRate ?? d.learningRate;
  const l2 = options.l2 ?? 1e-6;
  const hidden = options.hidden ?? 64;
  const validationFraction = options.validationFraction ?? 0.1;
  const patience = options.patience ?? 3;
  const transform = options.transform ?? 'log1p';
  for (const [name, v] of Object.entries({ maxEpochs, batchSize, hidden, patience })) {
    if (!Number.isInteger(v) || v < 1)
      throw new XtrustError('INVALID_ARGUMENT', `trainClassifier: ${name} must be a positive integer, got ${v}`, {
        argument: name,
      });
  }
  if (!(validationFraction >= 0 && validationFraction < 1))
    throw new XtrustError(
      'INVALID_ARGUMENT',
      `trainClassifier: validationFraction must be in [0, 1), got ${validationFraction}`,
      { argument: 'validationFraction' },
    );
  if (transform !== 'binary' && transform !== 'log1p')
    throw new XtrustError(
      'INVALID_ARGUMENT',
      `trainClassifier: transform must be "binary" or "log1p", got ${String(transform)}`,
      { argument: 'transform' },
    );

  const labels = options.labels
    ? [...options.labels]
    : [...new Set(rows.map((r) => r.label))].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  if (labels.length < 2)
    throw new XtrustError(
      'INVALID_ARGUMENT',
      `trainClassifier: at least two labels are needed, got ${labels.join(', ') || 'none'}`,
      { argument: 'labels' },
    );
  const labelId = new Map(labels.map((l, i) => [l, i]));
  const y = new Int32Array(rows.length);
  rows.forEach((r, i) => {
    const id = labelId.get(r.label);
    if (id === undefined)
      throw new XtrustError(
        'UNKNOWN_LABEL',
        `trainClassifier: rows[${i}].label "${r.label}" is not one of the labels (${labels.join(', ')})`,
        { row: i, label: r.label },
      );
    y[i] = id;
  });

  const r = rng(seed);
  const order = r.shuffle([...rows.keys()]);
  const nVal = Math.floor(rows.length * validationFraction);
  const valIdx = order.slice(0, nVal);
  const trainIdx = order.slice(nVal);
  const trainTexts = trainIdx.map((i) => rows[i].text);

  // Vocabulary and input features.
  let input: MaskInput;
  let vocab: Vocabulary;
  const vocabOptions = { minCount: options.minCount ?? 2, maxSize: options.maxVocab ?? d.maxVocab };
  if (kind === 'embedding-mlp') {
    const vec = options.vectors;
    if (!vec)
      throw new XtrustError(
        'INVALID_ARGUMENT',
        'trainClassifier: embedding-mlp needs options.vectors ({words, vectors, dim})',
        { argument: 'vectors' },
      );
    if (
      !Number.isInteger(vec.dim) ||
      vec.dim < 1 ||
      !(vec.vectors instanceof Float32Array) ||
      vec.vectors.length !== vec.words.length * vec.dim
    ) {
      throw new XtrustError(
        'DIMENSION_MISMATCH',
        `trainClassifier: vectors must be a Float32Array of words.length×dim = ${vec.words.length}×${vec.dim} values`,
        { argument: 'vectors' },
      );
    }
    const row = new Map<string, number>();
    vec.words.forEach((w, i) => {
      if (!row.has(w)) row.set(w, i);
    });
    vocab = Vocabulary.build(trainTexts, { ...vocabOptions, accept: (w) => row.has(w) });
    const embeddings = new Float32Array(vocab.size * vec.dim);
    vocab.words.forEach((w, i) =>
      embeddings.set(vec.vectors.subarray(row.get(w)! * vec.dim, (row.get(w)! + 1) * vec.dim), i * vec.dim),
    );
    input = { kind: 'mean-embedding', vocabSize: vocab.size, dim: vec.dim, embeddings };
  } else {
    vocab = Vocabulary.build(trainTexts, vocabOptions);
    input = { kind: 'bag-of-words', vocabSize: vocab.size, transform };
  }
  if (vocab.size === 0)
    throw new XtrustError(
      'NO_KNOWN_WORDS',
      `trainClassifier: the vocabulary is empty (no word reaches minCount ${vocabOptions.minCount}${kind === 'embedding-mlp' ? ' with a word vector' : ''})`,
    );
  const inDim = input.kind === 'bag-of-words' ? input.vocabSize : input.dim;
  const xTrain = encode(trainTexts, vocab, input);
  const yTrain = Int32Array.from(trainIdx, (i) => y[i]);
  const xVal = encode(
    valIdx.map((i) => rows[i].text),
    vocab,
    input,
  );
  const yVal = Int32Array.from(valIdx, (i) => y[i]);

  // Parameters.
  const k = labels.length;
  const layers: DenseLayer[] =
    kind === 'bow-logistic'
      ? [{ inDim, outDim: k, weight: new Float32Array(inDim * k), bias: new Float32Array(k) }]
      : [
          { inDim, outDim: hidden, weight: glorot(r, inDim, hidden), bias: new Float32Array(hidden) },
          { inDim: hidden, outDim: k, weight: glorot(r, hidden, k), bias: new Float32Array(k) },
        ];
  const params = layers.flatMap((l) => [l.weight, l.bias]);
  const grads = params.map((p) => new Float64Array(p.length));
  const adam = new Adam(params, { learningRate: lr });
  const trainer = new Trainer(layers);
  const touched = new Uint8Array(inDim);
  const touchedList = new Int32Array(inDim);
  const nTouched = { n: 0 };
  const H0 = layers[0].outDim;

  const evaluate = (x: Csr, ys: Int32Array) => {
    let loss = 0;
    let correct = 0;
    for (let i = 0; i < ys.length; i++) {
      const p = trainer.forward(x, i);
      loss -= Math.log(Math.max(p[ys[i]], 1e-12));
      let best = 0;
      for (let c = 1; c < k; c++) if (p[c] > p[best]) best = c;
      if (best === ys[i]) correct++;
    }
    return { loss: loss / Math.max(ys.length, 1), accuracy: correct / Math.max(ys.length, 1) };
  };

  let best = { loss: Infinity, epoch: 0, accuracy: null as number | null, params: params.map((p) => p.slice()) };
  let sinceBest = 0;
  let epochsRun = 0;
  const perm = Array.from(yTrain.keys());
  for (let epoch = 1; epoch <= maxEpochs; epoch++) {
    epochsRun = epoch;
    r.shuffle(perm);
    let trainLoss = 0;
    for (let b0 = 0; b0 < perm.length; b0 += batchSize) {
      const b1 = Math.min(perm.length, b0 + batchSize);
      const scale = 1 / (b1 - b0);
      for (let j = b0; j < b1; j++) {
        const i = perm[j];
        const p = trainer.forward(xTrain, i);
        trainLoss -= Math.log(Math.max(p[yTrain[i]], 1e-12));
        trainer.backward(xTrain, i, yTrain[i], scale, grads, touched, touchedList, nTouched);
      }
      adam.nextStep();
      adam.updateRows(0, grads[0], touchedList, nTouched.n, H0, l2);
      adam.updateDense(1, grads[1], 0);
      for (let li = 1; li < layers.length; li++) {
        adam.updateDense(2 * li, grads[2 * li], l2);
        adam.updateDense(2 * li + 1, grads[2 * li + 1], 0);
      }
      // Reset only what this batch touched in the (large) first-layer gradient.
      const g0 = grads[0];
      for (let t = 0; t < nTouched.n; t++) {
        const col = touchedList[t];
        g0.fill(0, col * H0, (col + 1) * H0);
        touched[col] = 0;
      }
      nTouched.n = 0;
      for (let g = 1; g < grads.length; g++) grads[g].fill(0);
    }
    trainLoss /= Math.max(perm.length, 1);
    if (yVal.length > 0) {
      const v = evaluate(xVal, yVal);
      options.onEpoch?.({ epoch, trainLoss, validationLoss: v.loss, validationAccuracy: v.accuracy });
      if (v.loss < best.loss - 1e-6) {
        best = { loss: v.loss, epoch, accuracy: v.accuracy, params: params.map((p) => p.slice()) };
        sinceBest = 0;
      } else if (++sinceBest >= patience) {
        break;
      }
    } else {
      options.onEpoch?.({ epoch, trainLoss, validationLoss: null, validationAccuracy: null });
    }
  }
  if (yVal.length > 0) params.forEach((p, i) => p.set(best.params[i]));

  const training: TrainingSummary = {
    seed,
    epochs: epochsRun,
    bestEpoch: yVal.length > 0 ? best.epoch : epochsRun,
    trainRows: yTrain.length,
    validationRows: yVal.length,
    validationLoss: yVal.length > 0 ? best.loss : null,
    validationAccuracy: yVal.length > 0 ? best.accuracy : null,
    seconds: (performance.now() - started) / 1000,
    options: {
      maxEpochs,
      batchSize,
      learningRate: lr,
      l2,
      hidden: kind === 'bow-logistic' ? null : hidden,
      validationFraction,
      patience,
      transform: kind === 'embedding-mlp' ? null : transform,
      ...vocabOptions,
    },
  };
  return new BuiltinClassifier(kind, labels, vocab, { input, layers }, training);
}
