import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import onnxProto from 'onnx-proto';

// onnx-proto is CommonJS: its namespace arrives as the default export under ESM.
const { onnx } = onnxProto;

/** WordPiece vocabulary of the tiny BERT: specials, whole words and "##" continuation pieces. */
export const VOCAB = [
  '[PAD]',
  '[UNK]',
  '[CLS]',
  '[SEP]',
  'the',
  'king',
  'queen',
  'play',
  '##ing',
  '##ed',
  'river',
  'bank',
  'money',
  'a',
  'good',
  'film',
];
export const HIDDEN = 6;
/** Deterministic embedding table: row v, column d. */
export function table(): Float32Array {
  const e = new Float32Array(VOCAB.length * HIDDEN);
  for (let v = 0; v < VOCAB.length; v++)
    for (let d = 0; d < HIDDEN; d++)
      e[v * HIDDEN + d] = Math.sin(1 + v * 1.7 + d * 0.9) + (v === 6 && d === 0 ? 0.5 : 0);
  // "queen" is "king" plus a small offset: a known close pair
  for (let d = 0; d < HIDDEN; d++) e[6 * HIDDEN + d] = e[5 * HIDDEN + d] + (d === 0 ? 0.2 : 0);
  return e;
}

/**
 * The reference computation of the graph below for one unpadded id sequence:
 * h_j = E[id_j] + 0.5 · mean_k E[id_k] — each token's state depends on its sentence (contextual).
 */
export function reference(ids: number[]): Float64Array {
  const e = table();
  const mean = new Float64Array(HIDDEN);
  for (const id of ids) for (let d = 0; d < HIDDEN; d++) mean[d] += e[id * HIDDEN + d] / ids.length;
  const out = new Float64Array(ids.length * HIDDEN);
  ids.forEach((id, j) => {
    for (let d = 0; d < HIDDEN; d++) out[j * HIDDEN + d] = e[id * HIDDEN + d] + 0.5 * mean[d];
  });
  return out;
}

function valueInfo(name: string, elemType: number, dims: (number | string)[]) {
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

function floats(name: string, dims: number[], data: Float32Array) {
  return onnx.TensorProto.create({
    name,
    dims,
    dataType: onnx.TensorProto.DataType.FLOAT,
    rawData: new Uint8Array(data.buffer.slice(0)),
  });
}
function int64s(name: string, data: number[]) {
  const b = new BigInt64Array(data.map(BigInt));
  return onnx.TensorProto.create({
    name,
    dims: [data.length],
    dataType: onnx.TensorProto.DataType.INT64,
    rawData: new Uint8Array(b.buffer),
  });
}

/** ONNX graph with BERT's input/output names: input_ids, attention_mask (int64 [batch, sequence]) → last_hidden_state. */
export function graph(): Uint8Array {
  const F = onnx.TensorProto.DataType.FLOAT;
  const I = onnx.TensorProto.DataType.INT64;
  const node = (
    op: string,
    inputs: string[],
    output: string,
    attribute: ReturnType<typeof onnx.AttributeProto.create>[] = [],
  ) => onnx.NodeProto.create({ opType: op, input: inputs, output: [output], name: output, attribute });
  const nodes = [
    node('Gather', ['E', 'input_ids'], 'x'), // [b, s, H]
    node('Cast', ['attention_mask'], 'mf', [
      onnx.AttributeProto.create({ name: 'to', type: onnx.AttributeProto.AttributeType.INT, i: F }),
    ]),
    node('Unsqueeze', ['mf', 'ax2'], 'm3'), // [b, s, 1]
    node('Mul', ['x', 'm3'], 'xm'),
    node('ReduceSum', ['xm', 'ax1'], 'sum'), // [b, 1, H]
    node('ReduceSum', ['m3', 'ax1'], 'cnt'), // [b, 1, 1]
    node('Div', ['sum', 'cnt'], 'mean'),
    node('Mul', ['mean', 'half'], 'ctx'),
    node('Add', ['x', 'ctx'], 'last_hidden_state'),
  ];
  const g = onnx.GraphProto.create({
    name: 'tiny-bert',
    node: nodes,
    initializer: [
      floats('E', [VOCAB.length, HIDDEN], table()),
      int64s('ax1', [1]),
      int64s('ax2', [2]),
      floats('half', [], Float32Array.of(0.5)),
    ],
    input: [valueInfo('input_ids', I, ['batch', 'sequence']), valueInfo('attention_mask', I, ['batch', 'sequence'])],
    output: [valueInfo('last_hidden_state', F, ['batch', 'sequence', HIDDEN])],
  });
  const model = onnx.ModelProto.create({
    irVersion: 8,
    producerName: 'xtrust-test',
    opsetImport: [onnx.OperatorSetIdProto.create({ domain: '', version: 17 })],
    graph: g,
  });
  return onnx.ModelProto.encode(model).finish();
}

/** A real BERT-style tokenizer.json: BertNormalizer (lower case), BertPreTokenizer, WordPiece "##", [CLS] $A [SEP]. */
export function tokenizerJson(): Record<string, unknown> {
  const vocab = Object.fromEntries(VOCAB.map((w, i) => [w, i]));
  const special = (id: number) => ({
    id,
    content: VOCAB[id],
    single_word: false,
    lstrip: false,
    rstrip: false,
    normalized: false,
    special: true,
  });
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: [0, 1, 2, 3].map(special),
    normalizer: {
      type: 'BertNormalizer',
      clean_text: true,
      handle_chinese_chars: true,
      strip_accents: null,
      lowercase: true,
    },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [
        { SpecialToken: { id: '[CLS]', type_id: 0 } },
        { Sequence: { id: 'A', type_id: 0 } },
        { SpecialToken: { id: '[SEP]', type_id: 0 } },
      ],
      pair: [
        { SpecialToken: { id: '[CLS]', type_id: 0 } },
        { Sequence: { id: 'A', type_id: 0 } },
        { SpecialToken: { id: '[SEP]', type_id: 0 } },
        { Sequence: { id: 'B', type_id: 1 } },
        { SpecialToken: { id: '[SEP]', type_id: 1 } },
      ],
      special_tokens: {
        '[CLS]': { id: '[CLS]', ids: [2], tokens: ['[CLS]'] },
        '[SEP]': { id: '[SEP]', ids: [3], tokens: ['[SEP]'] },
      },
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: {
      type: 'WordPiece',
      unk_token: '[UNK]',
      continuing_subword_prefix: '##',
      max_input_chars_per_word: 100,
      vocab,
    },
  };
}

/** Writes the model folder in Hugging Face layout; returns its path. */
export function writeTinyBert(dir: string): string {
  mkdirSync(join(dir, 'onnx'), { recursive: true });
  writeFileSync(join(dir, 'onnx', 'model.onnx'), graph());
  writeFileSync(join(dir, 'tokenizer.json'), JSON.stringify(tokenizerJson()));
  writeFileSync(
    join(dir, 'tokenizer_config.json'),
    JSON.stringify({
      tokenizer_class: 'BertTokenizer',
      do_lower_case: true,
      unk_token: '[UNK]',
      pad_token: '[PAD]',
      cls_token: '[CLS]',
      sep_token: '[SEP]',
      model_max_length: 512,
    }),
  );
  writeFileSync(
    join(dir, 'config.json'),
    JSON.stringify({
      model_type: 'bert',
      architectures: ['BertModel'],
      hidden_size: HIDDEN,
      vocab_size: VOCAB.length,
      max_position_embeddings: 512,
    }),
  );
  return dir;
}
