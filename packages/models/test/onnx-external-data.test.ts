// ONNX external data (onnx-external-data.ts): a graph whose weights live in a file beside it runs from its
// path, and from bytes once readOnnxGraph has put the weights back; the int8 rewrite refuses bytes without
// their weights; bad locations are named. Then the kit's classifier fixtures: model.onnx and model_grad.onnx
// keep one copy of their weights, in onnx/model.onnx_data, and load every way xtrust loads them.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as ort from 'onnxruntime-node';
import onnxProto from 'onnx-proto';
import { afterAll, describe, expect, it } from 'vitest';
import { rng, XtrustError } from '@xtrust/core';
import { FLOAT, OnnxGraphBuilder } from '../src/onnx-graph.js';
import { externalDataFiles, inlineExternalData, onnxGraphDigest, readOnnxGraph } from '../src/onnx-external-data.js';
import { quantizeMatMulWeights } from '../src/quantize-int8.js';
import { HfClassifier, OnnxClassifier } from '../src/index.js';
import { kitFixture } from '../../../models/transformers/fixture-paths.js';

const { onnx } = onnxProto;

/** y = relu(x·W1)·W2 (W1 8×16, W2 16×3), written inline and with both weights in `weights.bin`. */
function writeGraphs(dir: string, location = 'weights.bin') {
  const r = rng(5);
  const W1 = Float32Array.from({ length: 8 * 16 }, () => r.normal());
  const W2 = Float32Array.from({ length: 16 * 3 }, () => r.normal());
  const g = new OnnxGraphBuilder('external');
  const x = g.input('x', FLOAT, ['batch', 8]);
  g.output('y', FLOAT, ['batch', 3]);
  g.node(
    'MatMul',
    [g.node('Relu', [g.node('MatMul', [x, g.floats('W1', [8, 16], W1)])]), g.floats('W2', [16, 3], W2)],
    {},
    'y',
  );
  const inline = g.toBytes(14);
  const model = onnx.ModelProto.decode(inline);
  const chunks: Uint8Array[] = [new Uint8Array(3)]; // a 3-byte header: offsets must be honoured
  let offset = 3;
  for (const t of model.graph!.initializer!) {
    const raw = t.rawData!;
    chunks.push(raw);
    t.externalData = [
      onnx.StringStringEntryProto.create({ key: 'location', value: location }),
      onnx.StringStringEntryProto.create({ key: 'offset', value: String(offset) }),
      onnx.StringStringEntryProto.create({ key: 'length', value: String(raw.length) }),
    ];
    t.dataLocation = onnx.TensorProto.DataLocation.EXTERNAL;
    t.rawData = new Uint8Array(0);
    offset += raw.length;
  }
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'inline.onnx'), inline);
  writeFileSync(join(dir, 'external.onnx'), onnx.ModelProto.encode(model).finish());
  writeFileSync(join(dir, 'weights.bin'), Buffer.concat(chunks));
  return { inline, external: join(dir, 'external.onnx') };
}

async function run(model: string | Uint8Array, x: Float32Array): Promise<Float32Array> {
  const s = await ort.InferenceSession.create(model);
  try {
    return (await s.run({ x: new ort.Tensor('float32', x, [x.length / 8, 8]) })).y.data as Float32Array;
  } finally {
    await s.release();
  }
}

describe('ONNX external data', () => {
  const root = mkdtempSync(join(tmpdir(), 'xtrust-external-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const x = Float32Array.from({ length: 4 * 8 }, (_, i) => Math.sin(i));

  it('runs from its path and, through readOnnxGraph, from bytes — the same outputs as the inline graph', async () => {
    const { inline, external } = writeGraphs(join(root, 'a'));
    expect(externalDataFiles(readFileSync(external))).toEqual(['weights.bin']);
    expect(statSync(external).size).toBeLessThan(inline.length - 500); // the weights are not in the graph file
    const want = await run(inline, x);
    expect(Array.from(await run(external, x))).toEqual(Array.from(want));
    const bytes = readOnnxGraph(external);
    expect(externalDataFiles(bytes)).toEqual([]);
    expect(Array.from(await run(bytes, x))).toEqual(Array.from(want));
    // A graph without external data comes back as it was.
    expect(inlineExternalData(inline, root)).toBe(inline);
  });

  it('int8: refuses bytes whose weights are elsewhere, quantises the same graph read with readOnnxGraph', () => {
    const { inline, external } = writeGraphs(join(root, 'b'));
    expect(() => quantizeMatMulWeights(readFileSync(external))).toThrow(/W1 is ONNX external data.*readOnnxGraph/);
    expect(quantizeMatMulWeights(readOnnxGraph(external)).report).toEqual(quantizeMatMulWeights(inline).report);
  });

  it('onnxGraphDigest: the weights file is part of the identity (the .onnx alone is not)', () => {
    const { inline, external } = writeGraphs(join(root, 'e'));
    writeFileSync(join(root, 'e', 'inline.onnx'), inline);
    const before = onnxGraphDigest(external);
    const graphOnly = readFileSync(external);
    const weights = readFileSync(join(root, 'e', 'weights.bin'));
    weights[10] ^= 1;
    writeFileSync(join(root, 'e', 'weights.bin'), weights);
    expect(readFileSync(external)).toEqual(graphOnly);
    expect(onnxGraphDigest(external)).not.toBe(before);
    expect(onnxGraphDigest(join(root, 'e', 'inline.onnx'))).toBe(createHash('sha256').update(inline).digest('hex'));
  });

  it('names a missing weights file, a short one, and a location outside the folder', () => {
    const { external } = writeGraphs(join(root, 'c'));
    rmSync(join(root, 'c', 'weights.bin'));
    expect(() => readOnnxGraph(external)).toThrow(
      expect.objectContaining({
        code: 'FILE_NOT_FOUND',
        message: expect.stringContaining(join(root, 'c', 'weights.bin')),
      }),
    );
    writeFileSync(join(root, 'c', 'weights.bin'), new Uint8Array(10));
    expect(() => readOnnxGraph(external)).toThrow(/W1 lies at bytes 3…515 of .*weights\.bin, which has 10/);
    const escaping = writeGraphs(join(root, 'd'), '../weights.bin');
    expect(() => readOnnxGraph(escaping.external)).toThrow(XtrustError);
    expect(() => readOnnxGraph(escaping.external)).toThrow(/expected a file inside/);
  });
});

describe('the kit classifier fixtures store their weights once', () => {
  for (const name of ['tiny-bert-spam', 'tiny-bert-brown', 'tiny-bert-shortcut'] as const) {
    it(`${name}: model.onnx and model_grad.onnx read every initializer from the same bytes of onnx/model.onnx_data`, () => {
      const dir = kitFixture(name);
      const where = (file: string) => {
        const g = onnx.ModelProto.decode(readFileSync(join(dir, 'onnx', file))).graph!;
        return new Map(
          g.initializer!.map((t) => [
            t.name!,
            {
              external: t.dataLocation === onnx.TensorProto.DataLocation.EXTERNAL,
              raw: t.rawData?.length ?? 0,
              at: Object.fromEntries(t.externalData!.map((e) => [e.key, e.value])),
            },
          ]),
        );
      };
      const model = where('model.onnx');
      const grad = where('model_grad.onnx');
      expect(model.size).toBeGreaterThan(30);
      expect([...grad.keys()].sort()).toEqual([...model.keys()].sort());
      let end = 0;
      for (const [tensor, m] of model) {
        expect(m.external && m.raw === 0, tensor).toBe(true);
        expect(m.at.location, tensor).toBe('model.onnx_data');
        expect(grad.get(tensor)!.at, tensor).toEqual(m.at);
        end = Math.max(end, Number(m.at.offset) + Number(m.at.length));
      }
      expect(statSync(join(dir, 'onnx', 'model.onnx_data')).size).toBe(end);
      // The graphs themselves are small: the weights are in the data file only.
      for (const f of ['model.onnx', 'model_grad.onnx'])
        expect(statSync(join(dir, 'onnx', f)).size).toBeLessThan(end / 20);
    });
  }

  it('tiny-bert-spam loads from its path, from bytes (int8), and through transformers.js, with the same predictions', async () => {
    const dir = kitFixture('tiny-bert-spam');
    // the fixture's reference texts and PyTorch's logits for them
    const ref = JSON.parse(readFileSync(join(dir, 'reference.json'), 'utf8')) as {
      texts: string[];
      logits: number[][];
    };
    const texts = ref.texts;
    const float = await OnnxClassifier.load(dir, { threads: 1 });
    const int8 = await OnnxClassifier.load(dir, { threads: 1, quantize: 'int8' });
    const hf = await HfClassifier.load(dir);
    try {
      const p = await float.predictProba(texts);
      const q = await int8.predictProba(texts);
      const h = await hf.predictProba(texts);
      ref.logits.forEach((z, i) => {
        const e = z.map((v) => Math.exp(v - Math.max(...z)));
        e.forEach((v, c) =>
          expect(Math.abs(p[i * z.length + c] - v / e.reduce((x, y) => x + y, 0))).toBeLessThan(1e-4),
        );
      });
      for (let i = 0; i < p.length; i++) {
        expect(Math.abs(h[i] - p[i])).toBeLessThan(1e-5);
        expect(Math.abs(q[i] - p[i])).toBeLessThan(0.1);
      }
      expect(Array.from(q)).not.toEqual(Array.from(p)); // the int8 graph really ran
    } finally {
      await float.release();
      await int8.release();
    }
    expect(existsSync(join(dir, 'onnx', 'model.onnx_data'))).toBe(true);
  });
});
