import type { MaskScoringNet } from '@xtrust/core';
import { netClasses } from '@xtrust/core';

/**
 * The built-in nets as smooth functions of per-token inputs, for gradients.
 *
 * Bag-of-words: token t has a presence p_t (1 = kept). Word v's feature is x_v = Σ_{t∈v} p_t / n_v for
 * the binary transform (n_v = occurrences of v in the text: the linear relaxation of "present", equal
 * to the model's 0/1 feature whenever all or none of v's tokens are present) and x_v = log(1 + Σ_{t∈v} p_t)
 * for log1p. Mean-embedding: token t's input is its word vector e_t and x = Σ_known e_t / n_known.
 * At the unperturbed input both equal the model's forward pass exactly, so the gradient is the
 * gradient of the model itself; scaling every input by α gives the straight path from a zero baseline.
 */

/** Per-token input width: 1 (presence) for bag-of-words, d for mean-embedding. */
export function tokenInputDim(net: MaskScoringNet): number {
  return net.input.kind === 'bag-of-words' ? 1 : net.input.dim;
}

/** Each token's input at scale 1: presence 1 / its word vector; 0 for tokens outside the vocabulary. */
export function baseInputs(net: MaskScoringNet, ids: Int32Array): Float64Array {
  const dim = tokenInputDim(net);
  const out = new Float64Array(ids.length * dim);
  for (let t = 0; t < ids.length; t++) {
    if (ids[t] < 0) continue;
    if (net.input.kind === 'bag-of-words') out[t] = 1;
    else for (let d = 0; d < dim; d++) out[t * dim + d] = net.input.embeddings[ids[t] * dim + d];
  }
  return out;
}

interface FirstInput {
  /** Feature indices of the first layer's non-zero-able inputs and their values. */
  cols: Int32Array;
  vals: Float64Array;
}

function firstInput(net: MaskScoringNet, ids: Int32Array, inputs: Float64Array): FirstInput {
  const T = ids.length;
  if (net.input.kind === 'bag-of-words') {
    const slot = new Map<number, number>();
    for (let t = 0; t < T; t++) if (ids[t] >= 0 && !slot.has(ids[t])) slot.set(ids[t], slot.size);
    const cols = Int32Array.from(slot.keys());
    const sums = new Float64Array(cols.length);
    const occ = new Float64Array(cols.length);
    for (let t = 0; t < T; t++) {
      if (ids[t] < 0) continue;
      const s = slot.get(ids[t])!;
      sums[s] += inputs[t];
      occ[s] += 1;
    }
    const vals = new Float64Array(cols.length);
    for (let s = 0; s < cols.length; s++)
      vals[s] = net.input.transform === 'binary' ? sums[s] / occ[s] : Math.log1p(sums[s]);
    return { cols, vals };
  }
  const dim = net.input.dim;
  const vals = new Float64Array(dim);
  let n = 0;
  for (let t = 0; t < T; t++) {
    if (ids[t] < 0) continue;
    n++;
    for (let d = 0; d < dim; d++) vals[d] += inputs[t * dim + d];
  }
  if (n > 0) for (let d = 0; d < dim; d++) vals[d] /= n;
  const cols = new Int32Array(dim);
  for (let d = 0; d < dim; d++) cols[d] = d;
  return { cols, vals };
}

/** Pre-activations of every layer (the last one is the logits). */
function forwardLayers(net: MaskScoringNet, x: FirstInput): Float64Array[] {
  const zs: Float64Array[] = [];
  const first = net.layers[0];
  const z0 = Float64Array.from(first.bias);
  for (let s = 0; s < x.cols.length; s++) {
    const v = x.vals[s];
    if (v === 0) continue;
    const w = x.cols[s] * first.outDim;
    for (let o = 0; o < first.outDim; o++) z0[o] += v * first.weight[w + o];
  }
  zs.push(z0);
  for (let li = 1; li < net.layers.length; li++) {
    const l = net.layers[li];
    const prev = zs[li - 1];
    const z = Float64Array.from(l.bias);
    for (let i = 0; i < l.inDim; i++) {
      const a = Math.max(prev[i], 0);
      if (a === 0) continue;
      const w = i * l.outDim;
      for (let o = 0; o < l.outDim; o++) z[o] += a * l.weight[w + o];
    }
    zs.push(z);
  }
  return zs;
}

function softmax(z: Float64Array): Float64Array {
  let max = -Infinity;
  for (const v of z) max = Math.max(max, v);
  const p = new Float64Array(z.length);
  let sum = 0;
  for (let c = 0; c < z.length; c++) sum += p[c] = Math.exp(z[c] - max);
  for (let c = 0; c < z.length; c++) p[c] /= sum;
  return p;
}

/** Logits of the relaxed net for per-token inputs (T×tokenInputDim). */
export function relaxedLogits(net: MaskScoringNet, ids: Int32Array, inputs: Float64Array): Float64Array {
  const zs = forwardLayers(net, firstInput(net, ids, inputs));
  return zs[zs.length - 1];
}

/** Class probability or logit of class `c` for per-token inputs, and its gradient w.r.t. them. */
export function relaxedGradient(
  net: MaskScoringNet,
  ids: Int32Array,
  inputs: Float64Array,
  c: number,
  output: 'probability' | 'logit',
): { value: number; gradient: Float64Array } {
  const x = firstInput(net, ids, inputs);
  const zs = forwardLayers(net, x);
  const logits = zs[zs.length - 1];
  const k = netClasses(net);
  let g = new Float64Array(k);
  let value: number;
  if (output === 'logit') {
    g[c] = 1;
    value = logits[c];
  } else {
    const p = softmax(logits);
    value = p[c];
    for (let j = 0; j < k; j++) g[j] = p[c] * ((j === c ? 1 : 0) - p[j]);
  }
  // Back through the dense layers (ReLU between them).
  for (let li = net.layers.length - 1; li >= 1; li--) {
    const l = net.layers[li];
    const prev = zs[li - 1];
    const gPrev = new Float64Array(l.inDim);
    for (let i = 0; i < l.inDim; i++) {
      if (prev[i] <= 0) continue;
      const w = i * l.outDim;
      let s = 0;
      for (let o = 0; o < l.outDim; o++) s += l.weight[w + o] * g[o];
      gPrev[i] = s;
    }
    g = gPrev;
  }
  // d score / d first-layer input feature.
  const first = net.layers[0];
  const gx = new Float64Array(x.cols.length);
  for (let s = 0; s < x.cols.length; s++) {
    const w = x.cols[s] * first.outDim;
    let acc = 0;
    for (let o = 0; o < first.outDim; o++) acc += first.weight[w + o] * g[o];
    gx[s] = acc;
  }
  // Chain to the tokens.
  const T = ids.length;
  const dim = tokenInputDim(net);
  const gradient = new Float64Array(T * dim);
  if (net.input.kind === 'bag-of-words') {
    const slot = new Map<number, number>();
    x.cols.forEach((col, s) => slot.set(col, s));
    const occ = new Float64Array(x.cols.length);
    const sums = new Float64Array(x.cols.length);
    for (let t = 0; t < T; t++) {
      if (ids[t] < 0) continue;
      const s = slot.get(ids[t])!;
      occ[s] += 1;
      sums[s] += inputs[t];
    }
    const binary = net.input.transform === 'binary';
    for (let t = 0; t < T; t++) {
      if (ids[t] < 0) continue;
      const s = slot.get(ids[t])!;
      gradient[t] = gx[s] * (binary ? 1 / occ[s] : 1 / (1 + sums[s]));
    }
  } else {
    let n = 0;
    for (let t = 0; t < T; t++) if (ids[t] >= 0) n++;
    for (let t = 0; t < T; t++) {
      if (ids[t] < 0) continue;
      for (let d = 0; d < dim; d++) gradient[t * dim + d] = gx[d] / n;
    }
  }
  return { value, gradient };
}
