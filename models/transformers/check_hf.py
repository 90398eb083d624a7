#!/usr/bin/env python3
"""The kit's fixtures in Hugging Face's own classes: a check to run where `transformers` (5.x, also 4.4x)
and `tokenizers` are installed (they are not on the build machine).

    python3 models/transformers/check_hf.py [folder …]     (default: every folder under fixtures/)

For each folder: builds BertForSequenceClassification / BertForMaskedLM / GPT2LMHeadModel from its
config.json, loads the weights from onnx/model.onnx's initializers (read by kit/onnx_weights.py, which
needs only numpy — no `onnx` package), runs the inputs of reference.json, and prints the max abs
difference from the kit's PyTorch outputs (logits, attentions, gradients by autograd) and whether
`tokenizers`' Tokenizer gives the reference ids. With out/data/tokenizer-check.jsonl present (written by
export-corpora.mjs), also compares the 4,000 tokenizer-check texts with fixtures/tokenizer-ids.json.
Exit status 0 when every difference is within the reference's tolerance (1e-4) and every id matches.
"""
from __future__ import annotations

import hashlib
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import numpy as np  # noqa: E402
import torch  # noqa: E402

from kit.onnx_weights import state_dict_from_onnx  # noqa: E402

failures: list = []


def report(folder: str, what: str, diff: float, tol: float) -> None:
    ok = diff <= tol
    if not ok:
        failures.append(f"{folder}: {what}")
    print(f"  {'ok  ' if ok else 'FAIL'} {what:<58} max |Δ| = {diff:.3e}  (tolerance {tol:g})")


def report_eq(folder: str, what: str, equal: bool, detail: str = "") -> None:
    if not equal:
        failures.append(f"{folder}: {what}")
    print(f"  {'ok  ' if equal else 'FAIL'} {what}{(': ' + detail) if detail else ''}")


def max_diff(a, b) -> float:
    return float((torch.as_tensor(a, dtype=torch.float32) - torch.as_tensor(b, dtype=torch.float32)).abs().max())


def load_weights(model: torch.nn.Module, weights: dict, tied: dict) -> None:
    sd = {k: torch.from_numpy(v) for k, v in weights.items()}
    for k, src in tied.items():
        sd[k] = sd[src]
    res = model.load_state_dict(sd, strict=False)
    # buffers some versions keep (position_ids, GPT-2's causal-mask "bias") are not weights
    missing = [k for k in res.missing_keys if not k.endswith(("position_ids", "attn.bias", "attn.masked_bias", "token_type_ids"))]
    # a tied copy the installed version does not list as its own key (e.g. decoder.bias) is not an error
    unexpected = [k for k in res.unexpected_keys if k not in tied]
    if missing or unexpected:
        raise SystemExit(f"weights do not match the HF class: missing {missing}, unexpected {unexpected}")


def eager(config):
    for setter in (lambda: setattr(config, "_attn_implementation", "eager"), lambda: setattr(config, "attn_implementation", "eager")):
        try:
            setter()
        except Exception:
            pass
    return config


def check_tokenizer(folder: str, ref: dict) -> None:
    from tokenizers import Tokenizer

    tok = Tokenizer.from_file(os.path.join(folder, "tokenizer.json"))
    got = [e.ids for e in tok.encode_batch(ref["texts"])]
    want = [[i for i, m in zip(row, mask) if m] for row, mask in zip(ref["input_ids"], ref["attention_mask"])]
    report_eq(folder, "tokenizers.Tokenizer ids = the kit's ids on the reference texts", got == want, "" if got == want else f"{got} vs {want}")


def check_classifier(folder: str, cfg: dict, ref: dict) -> None:
    from transformers import BertConfig, BertForSequenceClassification

    model = BertForSequenceClassification(eager(BertConfig(**cfg))).eval()
    load_weights(model, state_dict_from_onnx(os.path.join(folder, "onnx", "model.onnx"), prefix="model."), {})
    ids, attn, tt = (torch.tensor(ref[k]) for k in ("input_ids", "attention_mask", "token_type_ids"))
    with torch.no_grad():
        out = model(input_ids=ids, attention_mask=attn, token_type_ids=tt, output_attentions=True)
    report(folder, "logits", max_diff(out.logits, ref["logits"]), ref["tolerance"])
    for i, a in enumerate(out.attentions):
        report(folder, f"attentions.{i}", max_diff(a, ref["attentions"][i]), ref["tolerance"])
    for case in ref.get("gradient_cases", []):
        e = model.bert.embeddings.word_embeddings(ids).detach()
        x = (e * torch.tensor(case["embedding_scale"]).unsqueeze(-1)).requires_grad_(True)
        logits = model(inputs_embeds=x, attention_mask=attn, token_type_ids=tt).logits
        (logits * torch.tensor(case["output_weights"])).sum().backward()
        scale = max(1.0, float(np.abs(np.array(case["gradients"])).max()))
        report(folder, f"gradients ({case['name']})", max_diff(x.grad, case["gradients"]), ref["tolerance"] * scale)


def check_mlm(folder: str, cfg: dict, ref: dict) -> None:
    from transformers import BertConfig, BertForMaskedLM

    model = BertForMaskedLM(eager(BertConfig(**cfg))).eval()
    w = state_dict_from_onnx(os.path.join(folder, "onnx", "model.onnx"))
    load_weights(model, w, {"cls.predictions.decoder.weight": "bert.embeddings.word_embeddings.weight", "cls.predictions.decoder.bias": "cls.predictions.bias"})
    ids, attn, tt = (torch.tensor(ref[k]) for k in ("input_ids", "attention_mask", "token_type_ids"))
    with torch.no_grad():
        logits = model(input_ids=ids, attention_mask=attn, token_type_ids=tt).logits
    report(folder, "logits at the [MASK] positions", max(max_diff(logits[b, s], row) for (b, s), row in zip(ref["positions"], ref["logits_at_positions"])), ref["tolerance"])
    report(folder, "logit of each input piece", max_diff(logits.gather(2, ids.unsqueeze(-1)).squeeze(-1), ref["logits_of_inputs"]), ref["tolerance"])


def check_gpt2(folder: str, cfg: dict, ref: dict) -> None:
    from transformers import GPT2Config, GPT2LMHeadModel

    model = GPT2LMHeadModel(eager(GPT2Config(**cfg))).eval()
    load_weights(model, state_dict_from_onnx(os.path.join(folder, "onnx", "model.onnx")), {"lm_head.weight": "transformer.wte.weight"})
    ids, attn = torch.tensor(ref["input_ids"]), torch.tensor(ref["attention_mask"])
    with torch.no_grad():
        logits = model(input_ids=ids, attention_mask=attn).logits
    report(folder, "logits at the listed positions", max(max_diff(logits[b, s], row) for (b, s), row in zip(ref["positions"], ref["logits_at_positions"])), ref["tolerance"])
    logp = torch.log_softmax(logits[:, :-1], -1).gather(2, ids[:, 1:].unsqueeze(-1)).squeeze(-1)
    report(folder, "log-probability of each next piece (real positions)", max_diff(logp * attn[:, 1:], torch.tensor(ref["next_logprob"]) * attn[:, 1:]), ref["tolerance"])


def check_tokenizer_ids(fixtures: str) -> None:
    data = os.path.join(HERE, "out", "data", "tokenizer-check.jsonl")
    ref_path = os.path.join(fixtures, "tokenizer-ids.json")
    if not (os.path.exists(data) and os.path.exists(ref_path)):
        print(f"(skipped the 4,000-text tokenizer check: {data} not found — run node models/transformers/export-corpora.mjs)")
        return
    from tokenizers import Tokenizer

    tok = Tokenizer.from_file(os.path.join(fixtures, "tiny-bert-spam", "tokenizer.json"))
    tok.no_truncation()
    ref = json.load(open(ref_path, encoding="utf-8"))["corpora"]
    rows = [json.loads(l) for l in open(data, encoding="utf-8")]
    bad = []
    for r, e in zip(rows, [e for c in ("brown", "sotu", "spam", "spam-headers") for e in ref[c]]):
        ids = tok.encode(r["text"]).ids
        if hashlib.sha1(" ".join(map(str, ids)).encode()).hexdigest() != e["sha1"]:
            bad.append(r["id"])
    print(f"tokenizers.Tokenizer on the {len(rows)} tokenizer-check texts: {len(rows) - len(bad)} equal the kit's ids" + (f"; differ: {bad[:10]}" if bad else ""))
    if bad:
        failures.append(f"tokenizer ids differ on {len(bad)} texts (HF tokenizers follows Rust's Unicode rules; the kit follows transformers.js)")


def main() -> None:
    torch.set_num_threads(2)
    fixtures = os.path.join(HERE, "fixtures")
    folders = sys.argv[1:] or sorted(os.path.join(fixtures, d) for d in os.listdir(fixtures) if os.path.isdir(os.path.join(fixtures, d)))
    import transformers

    print(f"transformers {transformers.__version__}, torch {torch.__version__}")
    for folder in folders:
        cfg = json.load(open(os.path.join(folder, "config.json"), encoding="utf-8"))
        ref = json.load(open(os.path.join(folder, "reference.json"), encoding="utf-8"))
        arch = cfg["architectures"][0]
        print(f"{os.path.basename(folder)} ({arch})")
        {"BertForSequenceClassification": check_classifier, "BertForMaskedLM": check_mlm, "GPT2LMHeadModel": check_gpt2}[arch](folder, cfg, ref)
        check_tokenizer(folder, ref)
    if not sys.argv[1:]:
        check_tokenizer_ids(fixtures)
    print("all checks passed" if not failures else f"{len(failures)} FAILED: " + "; ".join(failures))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
