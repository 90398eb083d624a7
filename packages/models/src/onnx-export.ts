import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { XtrustError, type MaskScoringNet } from '@xtrust/core';
import type { BuiltinClassifier } from './builtin-classifier.js';
import { specialTokensMapJson, tokenizerConfigJson, tokenizerJson, WORD_ID_OFFSET } from './hf-tokenizer.js';
import { FLOAT, INT64, OnnxGraphBuilder } from './onnx-graph.js';

/**
 * The ONNX graph of a built-in net: inputs `input_ids`, `attention_mask` (int64 [batch, sequence]),
 * output `logits` (float [batch, k]). Ids are those of the exported tokenizer: 0 = [PAD], 1 = [UNK],
 * word i = i + 2; the first layer gets two zero rows in front, so [PAD]/[UNK] contribute nothing.
 *
 * Bag-of-words: counts[b, v] = Σ_s mask[b,s]·[ids[b,s] = v] (ScatterElements with reduction add),
 * then min(count, 1) (binary) or log(1 + count) (log1p) — exactly the TS feature — then the dense
 * layers. Mean-embedding: Σ_s valid·E[ids] / max(Σ_s valid, 1) with valid = mask·[id ≥ 2], so a text
 * with no known word gets x = 0 as in TS.
 */
export function builtinOnnxGraph(net: MaskScoringNet, name = 'xtrust-builtin'): Uint8Array {
  const g = new OnnxGraphBuilder(name);
  const ids = g.input('input_ids', INT64, ['batch', 'sequence']);
  const mask = g.input('attention_mask', INT64, ['batch', 'sequence']);
  const k = net.layers[net.layers.length - 1].outDim;
  g.output('logits', FLOAT, ['batch', k]);
  const maskF = g.node('Cast', [mask], { to: { int: FLOAT } });
  const one = g.floats('one', [], Float32Array.of(1));
  let x: string;
  if (net.input.kind === 'bag-of-words') {
    const V2 = net.input.vocabSize + WORD_ID_OFFSET;
    const shape = g.node('Shape', [ids]);
    const batch = g.node('Slice', [shape, g.int64s('zero_i', [1], [0]), g.int64s('one_i', [1], [1])]);
    const countsShape = g.node('Concat', [batch, g.int64s('vocab_size', [1], [V2])], { axis: { int: 0 } });
    const zeros = g.node('ConstantOfShape', [countsShape], { value: OnnxGraphBuilder.floatValue(0) });
    const counts = g.node(
      'ScatterElements',
      [zeros, ids, maskF],
      { axis: { int: 1 }, reduction: { string: 'add' } },
      'counts',
    );
    x =
      net.input.transform === 'binary'
        ? g.node('Min', [counts, one], {}, 'features')
        : g.node('Log', [g.node('Add', [counts, one])], {}, 'features');
  } else {
    const { dim, vocabSize, embeddings } = net.input;
    const table = new Float32Array((vocabSize + WORD_ID_OFFSET) * dim);
    table.set(embeddings, WORD_ID_OFFSET * dim);
    const E = g.floats('embeddings', [vocabSize + WORD_ID_OFFSET, dim], table);
    const known = g.node('Cast', [g.node('Greater', [ids, g.int64s('last_special', [], [WORD_ID_OFFSET - 1])])], {
      to: { int: FLOAT },
    });
    const valid = g.node('Mul', [maskF, known], {}, 'valid');
    const vectors = g.node('Gather', [E, ids], { axis: { int: 0 } });
    const weighted = g.node('Mul', [vectors, g.node('Unsqueeze', [valid, g.int64s('axis2', [1], [2])])]);
    const axis1 = g.int64s('axis1', [1], [1]);
    const sum = g.node('ReduceSum', [weighted, axis1], { keepdims: { int: 0 } });
    const n = g.node('Max', [g.node('ReduceSum', [valid, axis1], { keepdims: { int: 1 } }), one]);
    x = g.node('Div', [sum, n], {}, 'features');
  }
  let h = x;
  net.layers.forEach((l, i) => {
    let w = l.weight;
    if (i === 0 && net.input.kind === 'bag-of-words') {
      w = new Float32Array((l.inDim + WORD_ID_OFFSET) * l.outDim);
      w.set(l.weight, WORD_ID_OFFSET * l.outDim);
    }
    const inDim = i === 0 && net.input.kind === 'bag-of-words' ? l.inDim + WORD_ID_OFFSET : l.inDim;
    if (i > 0) h = g.node('Relu', [h]);
    const z = g.node('MatMul', [h, g.floats(`layer${i}.weight`, [inDim, l.outDim], w)]);
    h = g.node(
      'Add',
      [z, g.floats(`layer${i}.bias`, [l.outDim], l.bias)],
      {},
      i === net.layers.length - 1 ? 'logits' : undefined,
    );
  });
  return g.toBytes(17, 'xtrust built-in text classifier');
}

/** config.json of a Hugging Face sequence-classification folder for the given labels. */
export function hfConfigJson(labels: readonly string[], extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    model_type: 'bert',
    architectures: ['BertForSequenceClassification'],
    problem_type: 'single_label_classification',
    num_labels: labels.length,
    id2label: Object.fromEntries(labels.map((l, i) => [String(i), l])),
    label2id: Object.fromEntries(labels.map((l, i) => [l, i])),
    ...extra,
  };
}

/**
 * Exports a built-in classifier to `dir` in Hugging Face layout: onnx/model.onnx, config.json,
 * tokenizer.json, tokenizer_config.json, special_tokens_map.json. The folder loads through
 * `OnnxClassifier`, `HfClassifier` and transformers.js' `pipeline("text-classification", dir)`.
 */
export async function exportOnnx(model: BuiltinClassifier, dir: string): Promise<void> {
  if (typeof dir !== 'string' || dir.length === 0)
    throw new XtrustError('INVALID_ARGUMENT', 'exportOnnx: dir must be a non-empty path', { argument: 'dir' });
  await mkdir(join(dir, 'onnx'), { recursive: true });
  const json = (o: unknown) => `${JSON.stringify(o, null, 1)}\n`;
  await writeFile(join(dir, 'onnx', 'model.onnx'), builtinOnnxGraph(model.toNet(), `xtrust-${model.kind}`));
  await writeFile(
    join(dir, 'config.json'),
    json(
      hfConfigJson(model.labels, {
        xtrust: { kind: model.kind, vocabularySize: model.vocabulary.size, training: model.training },
      }),
    ),
  );
  await writeFile(join(dir, 'tokenizer.json'), json(tokenizerJson(model.vocabulary.words)));
  await writeFile(join(dir, 'tokenizer_config.json'), json(tokenizerConfigJson()));
  await writeFile(join(dir, 'special_tokens_map.json'), json(specialTokensMapJson()));
}
