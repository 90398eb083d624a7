import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import onnxProto from 'onnx-proto';
import { XtrustError } from '@xtrust/core';

const { onnx } = onnxProto;
type Tensor = onnxProto.onnx.ITensorProto;
type Graph = onnxProto.onnx.IGraphProto;

/**
 * ONNX external data: a graph may keep its tensors' bytes in a file beside it (TensorProto.data_location
 * EXTERNAL, external_data `location` / `offset` / `length`). The kit's classifiers do: `onnx/model.onnx` and
 * `onnx/model_grad.onnx` both read their weights from one `onnx/model.onnx_data`, so the weights are stored
 * once. onnxruntime resolves the location against the graph's folder when a session is created from a
 * path; a session created from bytes resolves it against nothing it can trust (onnxruntime-node refuses
 * it), so code that needs the graph as bytes — the int8 rewrite, a caller's own session — reads it with
 * `readOnnxGraph`, which puts the weights back into the bytes.
 */

/** Every tensor of a graph (initializers, Constant node values, subgraphs'), in no particular order. */
function* tensorsOf(graph: Graph): Generator<Tensor> {
  yield* graph.initializer ?? [];
  for (const n of graph.node ?? []) {
    for (const a of n.attribute ?? []) {
      if (a.t) yield a.t;
      yield* a.tensors ?? [];
      if (a.g) yield* tensorsOf(a.g);
      for (const g of a.graphs ?? []) yield* tensorsOf(g);
    }
  }
}

function isExternal(t: Tensor): boolean {
  return t.dataLocation === onnx.TensorProto.DataLocation.EXTERNAL;
}

/** The external-data files a graph's tensors name (relative locations, as written in the graph). */
export function externalDataFiles(modelBytes: Uint8Array): string[] {
  const graph = onnx.ModelProto.decode(modelBytes).graph;
  const files = new Set<string>();
  if (graph) for (const t of tensorsOf(graph)) if (isExternal(t)) files.add(entry(t, 'location') ?? '');
  return [...files];
}

function entry(t: Tensor, key: string): string | undefined {
  return t.externalData?.find((e) => e.key === key)?.value ?? undefined;
}

/**
 * The graph with every external tensor's bytes read from `folder` (the graph's own folder) into raw_data,
 * so that the bytes stand alone. Bytes without external data come back unchanged (the same array). A
 * location must be a relative path inside `folder`; a file that is missing or too short is FILE_NOT_FOUND
 * / FILE_UNREADABLE naming it.
 */
export function inlineExternalData(modelBytes: Uint8Array, folder: string, source = 'ONNX graph'): Uint8Array {
  const model = onnx.ModelProto.decode(modelBytes);
  const external = model.graph ? [...tensorsOf(model.graph)].filter(isExternal) : [];
  if (external.length === 0) return modelBytes;
  const files = new Map<string, Buffer>();
  for (const t of external) {
    const location = entry(t, 'location');
    if (!location || isAbsolute(location) || location.split(/[\\/]/).includes('..')) {
      throw new XtrustError(
        'FILE_UNREADABLE',
        `${source}: tensor ${t.name} names external data ${JSON.stringify(location ?? '')}; expected a file inside ${folder}`,
        { file: folder },
      );
    }
    const path = join(folder, location);
    let data = files.get(path);
    if (!data) {
      try {
        data = readFileSync(path);
      } catch (e) {
        throw new XtrustError(
          'FILE_NOT_FOUND',
          `${source}: the weights of tensor ${t.name} are in ${path}, which cannot be read: ${(e as Error).message}`,
          { file: path },
          { cause: e },
        );
      }
      files.set(path, data);
    }
    const offset = Number(entry(t, 'offset') ?? 0);
    const length = entry(t, 'length') !== undefined ? Number(entry(t, 'length')) : data.length - offset;
    if (
      !Number.isInteger(offset) ||
      !Number.isInteger(length) ||
      offset < 0 ||
      length < 0 ||
      offset + length > data.length
    ) {
      throw new XtrustError(
        'FILE_UNREADABLE',
        `${source}: tensor ${t.name} lies at bytes ${offset}…${offset + length} of ${path}, which has ${data.length}`,
        { file: path },
      );
    }
    t.rawData = new Uint8Array(data.buffer, data.byteOffset + offset, length);
    t.externalData = [];
    t.dataLocation = onnx.TensorProto.DataLocation.DEFAULT;
  }
  return onnx.ModelProto.encode(model).finish();
}

/** An ONNX file's bytes, standing alone: its external data (if any) read from the file's folder into them. */
export function readOnnxGraph(path: string, source = `ONNX graph ${path}`): Uint8Array {
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(path);
  } catch (e) {
    throw new XtrustError(
      'FILE_NOT_FOUND',
      `${source}: cannot read ${path}: ${(e as Error).message}`,
      { file: path },
      { cause: e },
    );
  }
  return inlineExternalData(bytes, dirname(path), source);
}

/**
 * sha256 (hex) of an ONNX graph together with the external-data files it names: the identity of a model's
 * weights. A graph whose weights are external data holds only their offsets, so the hash of the .onnx file
 * alone is the same for every training of one architecture; this digest changes with any weight byte.
 * For a graph without external data it is the sha256 of the file.
 */
export function onnxGraphDigest(path: string): string {
  const bytes = readFileSync(path);
  const hash = createHash('sha256').update(bytes);
  for (const file of externalDataFiles(bytes).sort()) {
    if (!file || isAbsolute(file) || file.split(/[\\/]/).includes('..')) {
      throw new XtrustError(
        'FILE_UNREADABLE',
        `ONNX graph ${path}: external data ${JSON.stringify(file)} is not a file inside its folder`,
        { file: path },
      );
    }
    hash.update(`\0${file}\0`).update(readFileSync(join(dirname(path), file)));
  }
  return hash.digest('hex');
}
