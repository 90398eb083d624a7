import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import onnxProto from 'onnx-proto';

const { onnx } = onnxProto;

/**
 * Writes a tiny but real fill-mask model in Hugging Face layout: a WordLevel tokenizer.json with a [MASK]
 * token, config.json (bert, BertForMaskedLM) and onnx/model.onnx computing logits = E[input_ids] · W
 * (inputs input_ids and attention_mask, int64; output logits [batch, sequence, vocab]). `scores[w]` is the
 * logit every position gets for word w when it holds [MASK]; other tokens predict themselves.
 */
export function writeTinyMlm(dir: string, words: readonly string[], scores: Readonly<Record<string, number>>): void {
  const special = ['[PAD]', '[UNK]', '[MASK]'];
  const vocab = [...special, ...words];
  const V = vocab.length;
  const d = V; // one-hot embeddings: row i is e_i
  const E = new Float32Array(V * d);
  for (let i = 0; i < V; i++) E[i * d + i] = 1;
  const W = new Float32Array(d * V);
  for (let i = 0; i < V; i++) W[i * V + i] = 5; // a plain token predicts itself
  const mask = 2;
  for (const [w, s] of Object.entries(scores)) W[mask * V + vocab.indexOf(w)] = s;
  const tensor = (name: string, dims: number[], data: Float32Array) => {
    const bytes = new Uint8Array(data.length * 4);
    const view = new DataView(bytes.buffer);
    data.forEach((x, i) => view.setFloat32(i * 4, x, true));
    return onnx.TensorProto.create({ name, dims, dataType: onnx.TensorProto.DataType.FLOAT, rawData: bytes });
  };
  const info = (name: string, elemType: number, dims: (string | number)[]) =>
    onnx.ValueInfoProto.create({
      name,
      type: onnx.TypeProto.create({
        tensorType: onnx.TypeProto.Tensor.create({
          elemType,
          shape: onnx.TensorShapeProto.create({ dim: dims.map((x) => onnx.TensorShapeProto.Dimension.create(typeof x === 'number' ? { dimValue: x } : { dimParam: x })) }),
        }),
      }),
    });
  const INT64 = onnx.TensorProto.DataType.INT64;
  const FLOAT = onnx.TensorProto.DataType.FLOAT;
  const graph = onnx.GraphProto.create({
    name: 'tiny-mlm',
    node: [
      onnx.NodeProto.create({ opType: 'Gather', input: ['E', 'input_ids'], output: ['h'], name: 'gather', attribute: [onnx.AttributeProto.create({ name: 'axis', type: onnx.AttributeProto.AttributeType.INT, i: 0 })] }),
      onnx.NodeProto.create({ opType: 'MatMul', input: ['h', 'W'], output: ['logits'], name: 'matmul' }),
      // attention_mask is an input of every BERT graph; this one only passes it through a no-op
      onnx.NodeProto.create({ opType: 'Identity', input: ['attention_mask'], output: ['mask_out'], name: 'mask' }),
    ],
    initializer: [tensor('E', [V, d], E), tensor('W', [d, V], W)],
    input: [info('input_ids', INT64, ['batch', 'sequence']), info('attention_mask', INT64, ['batch', 'sequence'])],
    output: [info('logits', FLOAT, ['batch', 'sequence', V]), info('mask_out', INT64, ['batch', 'sequence'])],
  });
  const model = onnx.ModelProto.create({ irVersion: 8, producerName: 'xtrust-test', opsetImport: [onnx.OperatorSetIdProto.create({ domain: '', version: 17 })], graph });
  mkdirSync(join(dir, 'onnx'), { recursive: true });
  writeFileSync(join(dir, 'onnx', 'model.onnx'), onnx.ModelProto.encode(model).finish());
  const added = special.map((content, id) => ({ id, content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true }));
  writeFileSync(
    join(dir, 'tokenizer.json'),
    JSON.stringify({
      version: '1.0',
      truncation: null,
      padding: null,
      added_tokens: added,
      normalizer: { type: 'Lowercase' },
      pre_tokenizer: { type: 'WhitespaceSplit' },
      post_processor: null,
      decoder: { type: 'WordPiece', prefix: '##', cleanup: false },
      model: { type: 'WordLevel', vocab: Object.fromEntries(vocab.map((w, i) => [w, i])), unk_token: '[UNK]' },
    }),
  );
  writeFileSync(join(dir, 'tokenizer_config.json'), JSON.stringify({ tokenizer_class: 'PreTrainedTokenizerFast', unk_token: '[UNK]', pad_token: '[PAD]', mask_token: '[MASK]', model_max_length: 512, do_lower_case: true }));
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ model_type: 'bert', architectures: ['BertForMaskedLM'], vocab_size: V }));
}
