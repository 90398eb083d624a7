import onnxProto from 'onnx-proto';

// onnx-proto is CommonJS: its namespace arrives as the default export under ESM.
const { onnx } = onnxProto;

/** ONNX element types used by xtrust graphs. */
export const FLOAT = onnx.TensorProto.DataType.FLOAT;
export const FLOAT16 = onnx.TensorProto.DataType.FLOAT16;
export const INT64 = onnx.TensorProto.DataType.INT64;
export const BOOL = onnx.TensorProto.DataType.BOOL;

type AttrValue =
  | { int: number }
  | { float: number }
  | { ints: number[] }
  | { string: string }
  | { tensor: ReturnType<typeof floatTensor> };

function floatTensor(name: string, dims: number[], data: Float32Array) {
  // raw_data is little-endian per the ONNX spec; copy so a later mutation of `data` cannot change the graph.
  const bytes = new Uint8Array(data.length * 4);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < data.length; i++) view.setFloat32(i * 4, data[i], true);
  return onnx.TensorProto.create({ name, dims, dataType: FLOAT, rawData: bytes });
}

/** The IEEE 754 binary16 bit pattern nearest to `v` (ties to even; beyond float16's range, ±Infinity). */
export function float16Bits(v: number): number {
  const f = new Float32Array([v]);
  const x = new Uint32Array(f.buffer)[0];
  const sign = (x >>> 16) & 0x8000;
  const exp = (x >>> 23) & 0xff;
  const mant = x & 0x7fffff;
  if (exp === 0xff) return sign | 0x7c00 | (mant ? 0x200 : 0);
  const e = exp - 127 + 15;
  if (e >= 0x1f) return sign | 0x7c00;
  let h: number;
  let rem: number;
  let half: number;
  if (e <= 0) {
    // a float16 subnormal: m · 2^-24
    if (e < -10) return sign;
    const shift = 14 - e;
    const m = mant | 0x800000;
    h = m >>> shift;
    rem = m & ((1 << shift) - 1);
    half = 1 << (shift - 1);
  } else {
    h = (e << 10) | (mant >>> 13);
    rem = mant & 0x1fff;
    half = 0x1000;
  }
  if (rem > half || (rem === half && h & 1)) h++; // a carry into the exponent is the right result
  return sign | h;
}

function float16Tensor(name: string, dims: number[], data: Float32Array) {
  const bytes = new Uint8Array(data.length * 2);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < data.length; i++) view.setUint16(i * 2, float16Bits(data[i]), true);
  return onnx.TensorProto.create({ name, dims, dataType: FLOAT16, rawData: bytes });
}

function int64Tensor(name: string, dims: number[], data: readonly number[]) {
  const bytes = new Uint8Array(data.length * 8);
  const view = new DataView(bytes.buffer);
  data.forEach((v, i) => view.setBigInt64(i * 8, BigInt(v), true));
  return onnx.TensorProto.create({ name, dims, dataType: INT64, rawData: bytes });
}

/**
 * A minimal ONNX graph builder on the `onnx-proto` schema: named inputs/outputs with symbolic
 * dimensions, initializers, and nodes with typed attributes. Enough for the built-in models' export
 * and for the small attention graphs the tests build.
 */
export class OnnxGraphBuilder {
  private readonly nodes: InstanceType<typeof onnx.NodeProto>[] = [];
  private readonly initializers: InstanceType<typeof onnx.TensorProto>[] = [];
  private readonly inputs: InstanceType<typeof onnx.ValueInfoProto>[] = [];
  private readonly outputs: InstanceType<typeof onnx.ValueInfoProto>[] = [];
  private counter = 0;

  constructor(private readonly name: string) {}

  private valueInfo(name: string, elemType: number, dims: (number | string)[]) {
    return onnx.ValueInfoProto.create({
      name,
      type: onnx.TypeProto.create({
        tensorType: onnx.TypeProto.Tensor.create({
          elemType,
          shape: onnx.TensorShapeProto.create({
            dim: dims.map((d) =>
              typeof d === 'number'
                ? onnx.TensorShapeProto.Dimension.create({ dimValue: d })
                : onnx.TensorShapeProto.Dimension.create({ dimParam: d }),
            ),
          }),
        }),
      }),
    });
  }

  /** Declares a graph input; dims are sizes or symbolic names ("batch", "sequence"). */
  input(name: string, elemType: number, dims: (number | string)[]): string {
    this.inputs.push(this.valueInfo(name, elemType, dims));
    return name;
  }

  /** Declares a graph output. */
  output(name: string, elemType: number, dims: (number | string)[]): string {
    this.outputs.push(this.valueInfo(name, elemType, dims));
    return name;
  }

  /** A float32 initializer. */
  floats(name: string, dims: number[], data: Float32Array): string {
    this.initializers.push(floatTensor(name, dims, data));
    return name;
  }

  /** A float16 initializer: each value rounded to the nearest float16 (read it through a Cast to FLOAT). */
  halves(name: string, dims: number[], data: Float32Array): string {
    this.initializers.push(float16Tensor(name, dims, data));
    return name;
  }

  /** An int64 initializer. */
  int64s(name: string, dims: number[], data: readonly number[]): string {
    this.initializers.push(int64Tensor(name, dims, data));
    return name;
  }

  /** Adds a node; returns its (first) output name, `out` or a fresh one. */
  node(op: string, inputs: string[], attrs: Record<string, AttrValue> = {}, out?: string): string {
    const output = out ?? `${op.toLowerCase()}_${this.counter++}`;
    const attribute = Object.entries(attrs).map(([name, v]) => {
      if ('int' in v)
        return onnx.AttributeProto.create({ name, type: onnx.AttributeProto.AttributeType.INT, i: v.int });
      if ('float' in v)
        return onnx.AttributeProto.create({ name, type: onnx.AttributeProto.AttributeType.FLOAT, f: v.float });
      if ('ints' in v)
        return onnx.AttributeProto.create({ name, type: onnx.AttributeProto.AttributeType.INTS, ints: v.ints });
      if ('string' in v)
        return onnx.AttributeProto.create({
          name,
          type: onnx.AttributeProto.AttributeType.STRING,
          s: new TextEncoder().encode(v.string),
        });
      return onnx.AttributeProto.create({ name, type: onnx.AttributeProto.AttributeType.TENSOR, t: v.tensor });
    });
    this.nodes.push(
      onnx.NodeProto.create({ opType: op, input: inputs, output: [output], name: `${output}_node`, attribute }),
    );
    return output;
  }

  /** A float tensor attribute value (for ConstantOfShape). */
  static floatValue(v: number): AttrValue {
    return { tensor: floatTensor('value', [1], Float32Array.of(v)) };
  }

  /** Serialises the model (IR 8, default-domain opset `opset`). */
  toBytes(opset = 17, docString = ''): Uint8Array {
    const graph = onnx.GraphProto.create({
      name: this.name,
      node: this.nodes,
      initializer: this.initializers,
      input: this.inputs,
      output: this.outputs,
    });
    const model = onnx.ModelProto.create({
      irVersion: 8,
      producerName: 'xtrust',
      producerVersion: '0.1.0',
      docString,
      opsetImport: [onnx.OperatorSetIdProto.create({ domain: '', version: opset })],
      graph,
    });
    return onnx.ModelProto.encode(model).finish();
  }
}
