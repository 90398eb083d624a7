import * as ort from 'onnxruntime-node';
import onnxProto from 'onnx-proto';
import { describe, expect, it } from 'vitest';
import { rng } from '@xtrust/core';
import { FLOAT, FLOAT16, INT64, OnnxGraphBuilder, float16Bits } from '../src/onnx-graph.js';
import { quantizeMatMulWeights } from '../src/quantize-int8.js';

/** y = relu(x·W1)·W2 with W1 8×16, W2 16×3: two MatMuls on constant weights. */
function graph() {
  const r = rng(3);
  const W1 = Float32Array.from({ length: 8 * 16 }, () => r.normal());
  const W2 = Float32Array.from({ length: 16 * 3 }, () => 0.5 * r.normal());
  const g = new OnnxGraphBuilder('two-matmuls');
  const x = g.input('x', FLOAT, ['batch', 8]);
  g.output('y', FLOAT, ['batch', 3]);
  g.node(
    'MatMul',
    [g.node('Relu', [g.node('MatMul', [x, g.floats('W1', [8, 16], W1)])]), g.floats('W2', [16, 3], W2)],
    {},
    'y',
  );
  return { bytes: g.toBytes(14), W1, W2 };
}

describe('quantizeMatMulWeights', () => {
  it('rewrites every weight MatMul to DynamicQuantizeMatMul with int8 per-column weights, within the quantisation error', async () => {
    const { bytes, W1, W2 } = graph();
    const { bytes: q, report } = quantizeMatMulWeights(bytes);
    expect(report).toEqual({ matmuls: 2, floatBytes: (8 * 16 + 16 * 3) * 4, int8Bytes: 8 * 16 + 16 * 3 });
    const model = onnxProto.onnx.ModelProto.decode(q);
    expect(model.graph!.node!.map((n) => n.opType)).toEqual(['DynamicQuantizeMatMul', 'Relu', 'DynamicQuantizeMatMul']);
    expect(model.graph!.initializer!.some((t) => t.name === 'W1' || t.name === 'W2')).toBe(false);
    const r = rng(9);
    const x = Float32Array.from({ length: 4 * 8 }, () => r.normal());
    const run = async (b: Uint8Array) => {
      const s = await ort.InferenceSession.create(b);
      const out = (await s.run({ x: new ort.Tensor('float32', x, [4, 8]) })).y.data as Float32Array;
      await s.release();
      return out;
    };
    const exact = await run(bytes);
    const approx = await run(q);
    // By hand: y = relu(x·W1)·W2 in float64.
    for (let b = 0; b < 4; b++) {
      const h = Array.from({ length: 16 }, (_, j) =>
        Math.max(
          0,
          x.slice(b * 8, b * 8 + 8).reduce((s, v, k) => s + v * W1[k * 16 + j], 0),
        ),
      );
      for (let c = 0; c < 3; c++) {
        const y = h.reduce((s, v, j) => s + v * W2[j * 3 + c], 0);
        expect(Math.abs(exact[b * 3 + c] - y)).toBeLessThan(1e-4);
        // int8 weights and uint8 activations: a few per cent of the output's scale, not more.
        expect(Math.abs(approx[b * 3 + c] - y)).toBeLessThan(0.05 * (1 + Math.abs(y)));
      }
    }
    expect(approx).not.toEqual(exact); // it really ran the integer path
  });
});

describe('quantizeMatMulWeights on an exporter without constant folding', () => {
  it("reads through MatMul(x, Transpose(W)) — torch's Linear weight stored N×K — and drops the Transpose", async () => {
    const r = rng(4);
    const Wt = Float32Array.from({ length: 3 * 8 }, () => r.normal()); // 3×8: the transpose of the 8×3 product matrix
    const g = new OnnxGraphBuilder('linear');
    const x = g.input('x', FLOAT, ['batch', 8]);
    g.output('y', FLOAT, ['batch', 3]);
    g.node('MatMul', [x, g.node('Transpose', [g.floats('W', [3, 8], Wt)], { perm: { ints: [1, 0] } })], {}, 'y');
    const bytes = g.toBytes(14);
    const { bytes: q, report } = quantizeMatMulWeights(bytes);
    expect(report.matmuls).toBe(1);
    expect(onnxProto.onnx.ModelProto.decode(q).graph!.node!.map((n) => n.opType)).toEqual(['DynamicQuantizeMatMul']);
    const xs = Float32Array.from({ length: 2 * 8 }, () => r.normal());
    const s = await ort.InferenceSession.create(q);
    const y = (await s.run({ x: new ort.Tensor('float32', xs, [2, 8]) })).y.data as Float32Array;
    await s.release();
    for (let b = 0; b < 2; b++) {
      for (let c = 0; c < 3; c++) {
        const want = xs.slice(b * 8, b * 8 + 8).reduce((acc, v, k) => acc + v * Wt[c * 8 + k], 0);
        expect(Math.abs(y[b * 3 + c] - want)).toBeLessThan(0.05 * (1 + Math.abs(want)));
      }
    }
  });
});

describe('quantizeMatMulWeights and a float16 table read through a Cast', () => {
  it('leaves the Cast, the Gather and the tied MatMul on the float16 table as they are, and quantises the float32 MatMul', async () => {
    // The kit's masked LM / GPT-2 layout: E (vocab × d) stored as FLOAT16, Cast to FLOAT, read by a Gather
    // (the embedding) and by MatMul(h, Transpose(E)) (the tied decoder); W a float32 Linear in between.
    const r = rng(5);
    const V = 6;
    const D = 4;
    const E = Float32Array.from({ length: V * D }, () => r.normal());
    const W = Float32Array.from({ length: D * D }, () => r.normal());
    const g = new OnnxGraphBuilder('tied-float16');
    const ids = g.input('ids', INT64, ['n']);
    g.output('y', FLOAT, ['n', V]);
    const e32 = g.node('Cast', [g.halves('E', [V, D], E)], { to: { int: FLOAT } });
    const h = g.node('MatMul', [g.node('Gather', [e32, ids]), g.floats('W', [D, D], W)]);
    g.node('MatMul', [h, g.node('Transpose', [e32], { perm: { ints: [1, 0] } })], {}, 'y');
    const bytes = g.toBytes(14);
    const { bytes: q, report } = quantizeMatMulWeights(bytes);
    expect(report).toEqual({ matmuls: 1, floatBytes: D * D * 4, int8Bytes: D * D });
    const model = onnxProto.onnx.ModelProto.decode(q);
    expect(model.graph!.node!.map((n) => n.opType)).toEqual([
      'Cast',
      'Gather',
      'DynamicQuantizeMatMul',
      'Transpose',
      'MatMul',
    ]);
    const table = model.graph!.initializer!.find((t) => t.name === 'E')!;
    expect(table.dataType).toBe(FLOAT16);
    expect(table.rawData!.length).toBe(V * D * 2);
    // Both graphs run, on the table's float16 values.
    const E16 = Float32Array.from(E, (v) => {
      const b = float16Bits(v);
      const m = b & 0x3ff;
      const x = (b >> 10) & 0x1f;
      return (b & 0x8000 ? -1 : 1) * (x === 0 ? m * 2 ** -24 : (1 + m / 1024) * 2 ** (x - 15));
    });
    const idx = [0, 3, 5];
    const run = async (b: Uint8Array) => {
      const s = await ort.InferenceSession.create(b);
      const out = (await s.run({ ids: new ort.Tensor('int64', BigInt64Array.from(idx.map(BigInt)), [idx.length]) })).y
        .data as Float32Array;
      await s.release();
      return out;
    };
    const exact = await run(bytes);
    const approx = await run(q);
    idx.forEach((id, n) => {
      const hh = Array.from({ length: D }, (_, j) =>
        Array.from({ length: D }, (_, k) => E16[id * D + k] * W[k * D + j]).reduce((a, b) => a + b, 0),
      );
      for (let v = 0; v < V; v++) {
        const want = hh.reduce((acc, x, j) => acc + x * E16[v * D + j], 0);
        expect(Math.abs(exact[n * V + v] - want)).toBeLessThan(1e-4 * (1 + Math.abs(want)));
        expect(Math.abs(approx[n * V + v] - want)).toBeLessThan(0.05 * (1 + Math.abs(want)));
      }
    });
  });

  it('float16Bits rounds to the nearest float16, ties to even, subnormals and overflow included', () => {
    expect(float16Bits(1)).toBe(0x3c00);
    expect(float16Bits(-2)).toBe(0xc000);
    expect(float16Bits(65504)).toBe(0x7bff);
    expect(float16Bits(65520)).toBe(0x7c00); // rounds up past the largest finite value
    expect(float16Bits(2 ** -24)).toBe(0x0001); // the smallest subnormal
    expect(float16Bits(2 ** -25)).toBe(0x0000); // a tie: to even (0)
    expect(float16Bits(3 * 2 ** -25)).toBe(0x0002); // a tie between 1 and 2 subnormal steps: to even (2)
    expect(float16Bits(1 + 2 ** -11)).toBe(0x3c00); // a tie between 1 and 1 + 2^-10: to even
    expect(float16Bits(1 + 3 * 2 ** -11)).toBe(0x3c02);
    expect(float16Bits(0.1)).toBe(0x2e66);
    expect(float16Bits(Number.NaN) & 0x7c00).toBe(0x7c00);
  });
});
