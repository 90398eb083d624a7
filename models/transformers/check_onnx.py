#!/usr/bin/python3
"""PyTorch on the committed weights: the other side of packages/models/test/transformer-torch.slow.test.ts.

    /usr/bin/python3 models/transformers/check_onnx.py <fixtures folder> <inputs.json> <outputs.json>

inputs.json maps a fixture name to its inputs (int64 ids/masks as nested lists, and for classifiers
embedding_scale and output_weights). For each fixture this script rebuilds the kit's torch module from
config.json, loads the weights from the committed ONNX graph's initializers (never from the kit's
training run), runs the inputs, and writes: classifiers — logits and attentions (weights of
model.onnx) and torch-autograd gradients (weights of model_grad.onnx); masked LM and causal LM — logits.
"""
from __future__ import annotations

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import torch  # noqa: E402

from kit.bert_grad import autograd_gradients  # noqa: E402
from kit.load import load_classifier, load_gpt2, load_mlm  # noqa: E402


def main() -> None:
    if len(sys.argv) != 4:
        raise SystemExit(__doc__)
    fixtures, inputs_path, out_path = sys.argv[1:]
    torch.set_num_threads(2)
    with open(inputs_path, encoding="utf-8") as f:
        inputs = json.load(f)
    out = {"torch": torch.__version__}
    with torch.no_grad():
        for name, x in inputs.items():
            folder = os.path.join(fixtures, name)
            with open(os.path.join(folder, "config.json"), encoding="utf-8") as f:
                arch = json.load(f)["architectures"][0]
            ids = torch.tensor(x["input_ids"], dtype=torch.long)
            attn = torch.tensor(x["attention_mask"], dtype=torch.long)
            if arch == "BertForSequenceClassification":
                tt = torch.tensor(x["token_type_ids"], dtype=torch.long)
                model = load_classifier(folder)
                logits, attentions = model(ids, attn, tt)
                grad_model = load_classifier(folder, "model_grad.onnx")
                g_logits, emb, grads = autograd_gradients(grad_model, ids, attn, tt, torch.tensor(x["embedding_scale"]), torch.tensor(x["output_weights"]))
                out[name] = {
                    "logits": logits.flatten().tolist(),
                    "attentions": [a.flatten().tolist() for a in attentions],
                    "grad_logits": g_logits.flatten().tolist(),
                    "inputs_embeds": emb.flatten().tolist(),
                    "gradients": grads.flatten().tolist(),
                }
            elif arch == "BertForMaskedLM":
                tt = torch.tensor(x["token_type_ids"], dtype=torch.long)
                out[name] = {"logits": load_mlm(folder)(ids, attn, tt).flatten().tolist()}
            elif arch == "GPT2LMHeadModel":
                out[name] = {"logits": load_gpt2(folder)(ids, attn).flatten().tolist()}
            else:
                raise SystemExit(f"{folder}: unknown architecture {arch}")
    with open(out_path, "w", encoding="utf-8") as f:
        json.dump(out, f)


if __name__ == "__main__":
    main()
