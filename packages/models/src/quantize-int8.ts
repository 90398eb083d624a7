import onnxProto from 'onnx-proto';
import { XtrustError } from '@xtrust/core';

const { onnx } = onnxProto;
type Tensor = onnxProto.onnx.ITensorProto;

/** Float32 values of a tensor stored as raw_data or float_data; null for any other element type. */
function floatValues(t: Tensor): Float32Array | null {
  if (t.dataType !== onnx.TensorProto.DataType.FLOAT) return null;
  if (t.rawData && t.rawData.length > 0) {
    const view = new DataView(t.rawData.buffer, t.rawData.byteOffset, t.rawData.byteLength);
    const out = new Float32Array(t.rawData.byteLength / 4);
    for (let i = 0; i < out.length; i++) out[i] = view.getFloat32(i * 4, true);
    return out;
  }
  return t.floatData && t.floatData.length > 0 ? Float32Array.from(t.floatData) : null;
}

/** What `quantizeMatMulWeights` did. */
export interface QuantizeReport {
  /** MatMul nodes rewritten to DynamicQuantizeMatMul. */
  readonly matmuls: number;
  /** Float weights replaced, and the int8 bytes that replaced them. */
  readonly floatBytes: number;
  readonly int8Bytes: number;
}

/**
 * Dynamic int8 quantisation of a graph's matrix products, done here at load time (onnxruntime's own
 * `quantize_dynamic` is a Python tool this project does not ship): every MatMul whose second input is a
 * constant float matrix W (K×N) becomes onnxruntime's `com.microsoft.DynamicQuantizeMatMul`, with W
 * stored as int8 per column — scale_n = max_k |W_kn| / 127, q = round(W / scale_n), zero point 0
 * (symmetric) — and the activations quantised to uint8 per batch at run time by the operator itself
 * (Jacob et al. 2018, "Quantization and Training of Neural Networks for Efficient Integer-Arithmetic-Only
 * Inference"). Embeddings, LayerNorm, softmax and the classifier head (Gemm) stay float32; so does a matrix
 * stored as FLOAT16 and read through a Cast (the kit fixtures store their word-embedding table so, which
 * feeds a Gather, and in the masked LM and GPT-2 also the tied output MatMul): only FLOAT initializers and
 * Constant values are rewritten, so such a MatMul keeps its float weights, and the float16 table its bytes. Returns the
 * rewritten model bytes; an approximation, so OnnxClassifier applies it only on request. A graph whose
 * weights are ONNX external data must be read with `readOnnxGraph` first (UNSUPPORTED otherwise: its
 * weights are not in these bytes).
 */
export function quantizeMatMulWeights(modelBytes: Uint8Array): { bytes: Uint8Array; report: QuantizeReport } {
  const model = onnx.ModelProto.decode(modelBytes);
  const graph = model.graph!;
  const external = (graph.initializer ?? []).find((t) => t.dataLocation === onnx.TensorProto.DataLocation.EXTERNAL);
  if (external) {
    throw new XtrustError(
      'UNSUPPORTED',
      `quantizeMatMulWeights: initializer ${external.name} is ONNX external data, not in these bytes; read the graph with readOnnxGraph(path) first`,
    );
  }
  const inits = new Map<string, Tensor>();
  for (const t of graph.initializer ?? []) inits.set(t.name ?? '', t);
  // Weights the exporter wrote as Constant nodes count too.
  const constants = new Map<string, Tensor>();
  for (const n of graph.node ?? []) {
    if (n.opType === 'Constant' && n.output?.length === 1) {
      const v = n.attribute?.find((a) => a.name === 'value')?.t;
      if (v) constants.set(n.output[0], v);
    }
  }
  // Exporters without constant folding feed a Linear layer as MatMul(x, Transpose(W)): read through it.
  const transposed = new Map<string, string>();
  for (const n of graph.node ?? []) {
    if (n.opType !== 'Transpose' || n.input?.length !== 1 || n.output?.length !== 1) continue;
    const perm = n.attribute?.find((a) => a.name === 'perm')?.ints?.map(Number);
    const src = inits.get(n.input[0]) ?? constants.get(n.input[0]);
    if (src?.dims?.length === 2 && (perm === undefined || (perm[0] === 1 && perm[1] === 0)))
      transposed.set(n.output[0], n.input[0]);
  }
  const uses = new Map<string, number>();
  for (const n of graph.node ?? []) for (const i of n.input ?? []) uses.set(i, (uses.get(i) ?? 0) + 1);
  let matmuls = 0;
  let floatBytes = 0;
  let int8Bytes = 0;
  const added: Tensor[] = [];
  const nodes = (graph.node ?? []).map((n) => {
    if (n.opType !== 'MatMul' || (n.domain ?? '') !== '' || n.input?.length !== 2) return n;
    const wName = n.input[1];
    const source = transposed.get(wName);
    const t =
      source !== undefined ? (inits.get(source) ?? constants.get(source)) : (inits.get(wName) ?? constants.get(wName));
    if (t?.dims?.length !== 2) return n;
    const raw = floatValues(t);
    if (!raw) return n;
    let K = Number(t.dims[0]);
    let N = Number(t.dims[1]);
    let W = raw;
    if (source !== undefined) {
      // W is stored N×K (torch's Linear weight); the product needs its transpose, K×N.
      [K, N] = [N, K];
      W = new Float32Array(K * N);
      for (let k = 0; k < K; k++) for (let c = 0; c < N; c++) W[k * N + c] = raw[c * K + k];
    }
    const scale = new Float32Array(N);
    for (let k = 0; k < K; k++) for (let c = 0; c < N; c++) scale[c] = Math.max(scale[c], Math.abs(W[k * N + c]));
    for (let c = 0; c < N; c++) scale[c] = scale[c] > 0 ? scale[c] / 127 : 1;
    const q = new Int8Array(K * N);
    for (let k = 0; k < K; k++)
      for (let c = 0; c < N; c++) q[k * N + c] = Math.max(-127, Math.min(127, Math.round(W[k * N + c] / scale[c])));
    const base = `${wName}__int8_${matmuls}`;
    const scaleBytes = new Uint8Array(scale.buffer.slice(0));
    added.push(
      onnx.TensorProto.create({
        name: base,
        dims: [K, N],
        dataType: onnx.TensorProto.DataType.INT8,
        rawData: new Uint8Array(q.buffer.slice(0)),
      }),
      onnx.TensorProto.create({
        name: `${base}_scale`,
        dims: [N],
        dataType: onnx.TensorProto.DataType.FLOAT,
        rawData: scaleBytes,
      }),
      onnx.TensorProto.create({
        name: `${base}_zero`,
        dims: [N],
        dataType: onnx.TensorProto.DataType.INT8,
        rawData: new Uint8Array(N),
      }),
    );
    matmuls++;
    floatBytes += K * N * 4;
    int8Bytes += K * N;
    uses.set(wName, (uses.get(wName) ?? 1) - 1);
    if (source !== undefined && (uses.get(wName) ?? 0) <= 0) uses.set(source, (uses.get(source) ?? 1) - 1);
    return onnx.NodeProto.create({
      name: `${n.name ?? 'MatMul'}_int8`,
      opType: 'DynamicQuantizeMatMul',
      domain: 'com.microsoft',
      input: [n.input[0], base, `${base}_scale`, `${base}_zero`],
      output: n.output,
    });
  });
  // Float weights no node reads any more are dropped (memory), constants' nodes too.
  const unused = (n: (typeof nodes)[number]) =>
    n.output?.length === 1 &&
    (uses.get(n.output[0]) ?? 0) <= 0 &&
    ((n.opType === 'Constant' && constants.has(n.output[0])) ||
      (n.opType === 'Transpose' && transposed.has(n.output[0])));
  graph.node = nodes.filter((n) => !unused(n) || (graph.output ?? []).some((o) => o.name === n.output?.[0]));
  const kept = (graph.initializer ?? []).filter(
    (t) => (uses.get(t.name ?? '') ?? 0) > 0 || (graph.output ?? []).some((o) => o.name === t.name),
  );
  const dropped = new Set((graph.initializer ?? []).filter((t) => !kept.includes(t)).map((t) => t.name));
  graph.initializer = [...kept, ...added];
  // Old exporters list initializers among the graph inputs too: a dropped one must go from there as well.
  graph.input = (graph.input ?? []).filter((i) => !dropped.has(i.name));
  if (!(model.opsetImport ?? []).some((o) => o.domain === 'com.microsoft')) {
    model.opsetImport = [
      ...(model.opsetImport ?? []),
      onnx.OperatorSetIdProto.create({ domain: 'com.microsoft', version: 1 }),
    ];
  }
  return { bytes: onnx.ModelProto.encode(model).finish(), report: { matmuls, floatBytes, int8Bytes } };
}
