import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { OnnxGraphBuilder, ONNX_FLOAT, ONNX_INT64 } from '@xtrust/models';

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
  const g = new OnnxGraphBuilder('tiny-mlm');
  g.input('input_ids', ONNX_INT64, ['batch', 'sequence']);
  g.input('attention_mask', ONNX_INT64, ['batch', 'sequence']);
  g.floats('E', [V, d], E);
  g.floats('W', [d, V], W);
  g.node('Gather', ['E', 'input_ids'], { axis: { int: 0 } }, 'h');
  g.node('MatMul', ['h', 'W'], {}, 'logits');
  // attention_mask is an input of every BERT graph; this one only passes it through a no-op
  g.node('Identity', ['attention_mask'], {}, 'mask_out');
  g.output('logits', ONNX_FLOAT, ['batch', 'sequence', V]);
  g.output('mask_out', ONNX_INT64, ['batch', 'sequence']);
  mkdirSync(join(dir, 'onnx'), { recursive: true });
  writeFileSync(join(dir, 'onnx', 'model.onnx'), g.toBytes(17));
  const added = special.map((content, id) => ({
    id,
    content,
    single_word: false,
    lstrip: false,
    rstrip: false,
    normalized: false,
    special: true,
  }));
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
  writeFileSync(
    join(dir, 'tokenizer_config.json'),
    JSON.stringify({
      tokenizer_class: 'PreTrainedTokenizerFast',
      unk_token: '[UNK]',
      pad_token: '[PAD]',
      mask_token: '[MASK]',
      model_max_length: 512,
      do_lower_case: true,
    }),
  );
  writeFileSync(
    join(dir, 'config.json'),
    JSON.stringify({ model_type: 'bert', architectures: ['BertForMaskedLM'], vocab_size: V }),
  );
}
