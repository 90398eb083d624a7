import { XtrustError } from '../errors.js';

/**
 * A dense layer y = x·W + b with W stored row-major as inDim×outDim (the layout of ONNX MatMul and
 * of a bag-of-words model, where the row of word v is contiguous).
 */
export interface DenseLayer {
  readonly inDim: number;
  readonly outDim: number;
  readonly weight: Float32Array;
  readonly bias: Float32Array;
}

/** How a built-in model turns the kept tokens of a text into its input vector. */
export type MaskInput =
  /** x_v = f(count of vocabulary word v), f = binary presence or log(1 + count). */
  | { readonly kind: 'bag-of-words'; readonly vocabSize: number; readonly transform: 'binary' | 'log1p' }
  /** x = mean of the vectors of the kept in-vocabulary tokens (zero when none is kept). */
  | {
      readonly kind: 'mean-embedding';
      readonly vocabSize: number;
      readonly dim: number;
      readonly embeddings: Float32Array;
    };

/**
 * The forward pass of a built-in model, in a form both the TS and the native kernels evaluate:
 * input features, then dense layers with ReLU between them and softmax after the last.
 */
export interface MaskScoringNet {
  readonly input: MaskInput;
  readonly layers: readonly DenseLayer[];
}

/** Number of classes a net outputs. */
export function netClasses(net: MaskScoringNet): number {
  return net.layers[net.layers.length - 1].outDim;
}

/** Input width of a net: vocabulary size for bag-of-words, embedding dimension otherwise. */
export function netInputDim(net: MaskScoringNet): number {
  return net.input.kind === 'bag-of-words' ? net.input.vocabSize : net.input.dim;
}

/** Throws DIMENSION_MISMATCH unless the layers chain from the input width to the classes. */
export function validateNet(net: MaskScoringNet): void {
  if (net.layers.length === 0) throw new XtrustError('INVALID_ARGUMENT', 'net: at least one dense layer is required');
  let width = netInputDim(net);
  net.layers.forEach((l, i) => {
    if (l.inDim !== width)
      throw new XtrustError('DIMENSION_MISMATCH', `net.layers[${i}].inDim is ${l.inDim}, expected ${width}`);
    if (l.weight.length !== l.inDim * l.outDim)
      throw new XtrustError(
        'DIMENSION_MISMATCH',
        `net.layers[${i}].weight has ${l.weight.length} values, expected ${l.inDim}×${l.outDim}`,
      );
    if (l.bias.length !== l.outDim)
      throw new XtrustError(
        'DIMENSION_MISMATCH',
        `net.layers[${i}].bias has ${l.bias.length} values, expected ${l.outDim}`,
      );
    width = l.outDim;
  });
  if (net.input.kind === 'mean-embedding' && net.input.embeddings.length !== net.input.vocabSize * net.input.dim) {
    throw new XtrustError(
      'DIMENSION_MISMATCH',
      `net.input.embeddings has ${net.input.embeddings.length} values, expected ${net.input.vocabSize}×${net.input.dim}`,
    );
  }
}

/**
 * TS twin of the native `scoreMasks` kernel: class probabilities of a built-in model for `rows`
 * token-presence masks of one text. `tokenIds[t]` is token t's vocabulary id (−1: unknown, ignored);
 * `masks` is rows×T with non-zero meaning "kept". Cost per row: O(T·h + h·k) for a first layer of
 * width h, never O(V), because only the kept tokens' rows of the first layer are touched.
 */
export function scoreMasksTs(net: MaskScoringNet, tokenIds: Int32Array, masks: Uint8Array, rows: number): Float32Array {
  const T = tokenIds.length;
  if (masks.length !== rows * T) {
    throw new XtrustError(
      'DIMENSION_MISMATCH',
      `scoreMasks: masks has ${masks.length} values, expected rows×tokens = ${rows}×${T}`,
    );
  }
  const k = netClasses(net);
  const out = new Float32Array(rows * k);
  const first = net.layers[0];
  const maxWidth = Math.max(...net.layers.map((l) => l.outDim));
  let cur = new Float64Array(maxWidth);
  let next = new Float64Array(maxWidth);
  // Distinct ids of the text, so bag-of-words counts need no O(V) buffer.
  const distinct = new Map<number, number>();
  const slot = new Int32Array(T).fill(-1);
  for (let t = 0; t < T; t++) {
    const id = tokenIds[t];
    if (id < 0) continue;
    let s = distinct.get(id);
    if (s === undefined) {
      s = distinct.size;
      distinct.set(id, s);
    }
    slot[t] = s;
  }
  const ids = [...distinct.keys()];
  const counts = new Float64Array(ids.length);
  const meanIn = net.input.kind === 'mean-embedding' ? new Float64Array(net.input.dim) : null;

  for (let r = 0; r < rows; r++) {
    const row = r * T;
    // First layer, from the kept tokens only.
    for (let o = 0; o < first.outDim; o++) cur[o] = first.bias[o];
    if (net.input.kind === 'bag-of-words') {
      counts.fill(0);
      for (let t = 0; t < T; t++) if (masks[row + t] !== 0 && slot[t] >= 0) counts[slot[t]] += 1;
      const log = net.input.transform === 'log1p';
      for (let s = 0; s < ids.length; s++) {
        const c = counts[s];
        if (c === 0) continue;
        const f = log ? Math.log1p(c) : 1;
        const w = ids[s] * first.outDim;
        for (let o = 0; o < first.outDim; o++) cur[o] += f * first.weight[w + o];
      }
    } else {
      const { dim, embeddings } = net.input;
      meanIn!.fill(0);
      let n = 0;
      for (let t = 0; t < T; t++) {
        if (masks[row + t] === 0 || tokenIds[t] < 0) continue;
        const e = tokenIds[t] * dim;
        for (let d = 0; d < dim; d++) meanIn![d] += embeddings[e + d];
        n++;
      }
      if (n > 0) {
        for (let d = 0; d < dim; d++) {
          const x = meanIn![d] / n;
          if (x === 0) continue;
          const w = d * first.outDim;
          for (let o = 0; o < first.outDim; o++) cur[o] += x * first.weight[w + o];
        }
      }
    }
    // Remaining layers: ReLU on the previous output, then dense.
    let width = first.outDim;
    for (let li = 1; li < net.layers.length; li++) {
      const l = net.layers[li];
      for (let o = 0; o < l.outDim; o++) next[o] = l.bias[o];
      for (let i = 0; i < width; i++) {
        const x = Math.max(cur[i], 0);
        if (x === 0) continue;
        const w = i * l.outDim;
        for (let o = 0; o < l.outDim; o++) next[o] += x * l.weight[w + o];
      }
      const tmp = cur;
      cur = next;
      next = tmp;
      width = l.outDim;
    }
    // Softmax.
    let max = -Infinity;
    for (let c = 0; c < k; c++) max = Math.max(max, cur[c]);
    let sum = 0;
    for (let c = 0; c < k; c++) sum += Math.exp(cur[c] - max);
    for (let c = 0; c < k; c++) out[r * k + c] = Math.exp(cur[c] - max) / sum;
  }
  return out;
}
