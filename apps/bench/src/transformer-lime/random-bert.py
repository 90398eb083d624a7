"""A random-init BERT classifier in Hugging Face layout, for timing only (never committed; its outputs mean
nothing, so agreement is never measured on it). Uses the kit's hand-written BERT and tokenizer writer.

usage: /usr/bin/python3 random-bert.py --kit models/transformers/kit --vocab-from FOLDER_WITH_tokenizer.json \
           --out /tmp/rand-6x768 --layers 6 --hidden 768 --heads 12 --intermediate 3072 [--max-length 512]

Writes config.json, the tokenizer files (the vocabulary of --vocab-from), onnx/model.onnx (logits and
attentions.N, as the kit exports) and pytorch_model.bin (the state dict, for the benchmark's PyTorch peer).
"""
import argparse
import json
import os
import sys

import torch

p = argparse.ArgumentParser()
p.add_argument('--kit', required=True)
p.add_argument('--vocab-from', required=True)
p.add_argument('--out', required=True)
p.add_argument('--layers', type=int, default=6)
p.add_argument('--hidden', type=int, default=768)
p.add_argument('--heads', type=int, default=12)
p.add_argument('--intermediate', type=int, default=3072)
p.add_argument('--max-length', type=int, default=512)
p.add_argument('--seed', type=int, default=0)
a = p.parse_args()
torch.set_num_threads(2)
sys.path.insert(0, a.kit)
from bert import BertConfig, BertForSequenceClassification, ClassifierExport  # noqa: E402
import wordpiece as wp  # noqa: E402

tj = json.load(open(os.path.join(a.vocab_from, 'tokenizer.json')))
vocab = [t for t, _ in sorted(tj['model']['vocab'].items(), key=lambda kv: kv[1])]
torch.manual_seed(a.seed)
c = BertConfig(vocab_size=len(vocab), hidden_size=a.hidden, num_hidden_layers=a.layers, num_attention_heads=a.heads,
               intermediate_size=a.intermediate, max_position_embeddings=a.max_length, labels=['ham', 'spam'])
m = BertForSequenceClassification(c).eval()
os.makedirs(os.path.join(a.out, 'onnx'), exist_ok=True)
wp.write_tokenizer(a.out, vocab, a.max_length)
json.dump(c.hf('BertForSequenceClassification'), open(os.path.join(a.out, 'config.json'), 'w'), indent=1)
torch.save(m.state_dict(), os.path.join(a.out, 'pytorch_model.bin'))
ids = torch.randint(5, len(vocab), (2, 16))
names = ['logits'] + [f'attentions.{i}' for i in range(a.layers)]
axes = {n: {0: 'batch', 1: 'sequence'} for n in ['input_ids', 'attention_mask', 'token_type_ids']}
axes['logits'] = {0: 'batch'}
for i in range(a.layers):
    axes[f'attentions.{i}'] = {0: 'batch', 2: 'sequence', 3: 'sequence'}
with torch.no_grad():
    torch.onnx.export(ClassifierExport(m), (ids, torch.ones_like(ids), torch.zeros_like(ids)), os.path.join(a.out, 'onnx', 'model.onnx'),
                      input_names=['input_ids', 'attention_mask', 'token_type_ids'], output_names=names, dynamic_axes=axes, opset_version=14)
print('wrote', a.out)
