"""Hugging Face folder layout + ONNX export (opset 14, dynamic batch and sequence) + reference.json."""
from __future__ import annotations

import json
import os
import shutil
from typing import List, Optional, Sequence

import numpy as np
import torch
import torch.nn as nn

from .bert import BertForMaskedLM, BertForSequenceClassification, ClassifierExport
from .bert_grad import GradientGraph, autograd_gradients, check_against_autograd
from .data import pad_batch
from .gpt2 import GPT2LMHeadModel
from .load import load_classifier, load_gpt2, load_mlm
from .wordpiece import MASK, WordPiece, write_tokenizer

OPSET = 14

# A classifier's inference and gradient graphs carry the same weights: both read them from this one file
# beside them (ONNX external data), so a classifier folder stores its weights once (`share_weights`).
WEIGHTS_FILE = "model.onnx_data"
# Tensors of at least 1 MiB start at a multiple of 64 KiB in the weights file (the `onnx` package's own
# alignment rule for external data), so that onnxruntime can map them instead of copying.
ALIGN_THRESHOLD = 1 << 20
ALIGN = 1 << 16


# Export option `half_embeddings` (build.py uses it for the committed fixtures, the "tiny" size, only): the
# word-embedding table (vocabulary × hidden, and the MLM decoder / GPT-2 LM head tied to it) is stored as
# float16 in the ONNX file, read through a Cast to float32 in the graph. The table is most of a fixture's
# bytes (8,000 × 128 of its 1.45 M parameters); float16 halves it. The module's table is first rounded to
# float16 values (`round_embeddings_to_float16`), and every reference output and gradient check is computed
# from the rounded module, so the graph (float16 → float32 is exact) computes what reference.json holds.
# Training is untouched: rounding happens at export, and checkpoints stay float32. Full-size models keep
# float32 (nothing to save in git for them, and their figures stay the trained model's).


def embedding_tables(model: nn.Module) -> List[str]:
    """The parameter names of the model's word-embedding table (the decoder / LM head, if any, is tied to it)."""
    if isinstance(model, (BertForSequenceClassification, BertForMaskedLM)):
        return ["bert.embeddings.word_embeddings.weight"]
    if isinstance(model, GPT2LMHeadModel):
        return ["transformer.wte.weight"]
    raise TypeError(f"no word-embedding table known for {type(model).__name__}")


def round_embeddings_to_float16(model: nn.Module) -> List[str]:
    """Rounds the model's word-embedding table, in place, to the nearest float16 values (kept as float32), so
    that a graph storing it as float16 computes exactly what this module computes. Idempotent. Returns the names."""
    names = embedding_tables(model)
    params = dict(model.named_parameters())
    with torch.no_grad():
        for name in names:
            w = params[name]
            if w.abs().max().item() > 65504.0:
                raise ValueError(f"{name}: values beyond float16's range (max |w| = {w.abs().max().item()})")
            w.copy_(w.to(torch.float16).to(torch.float32))
    return names


def store_float16(path: str, names: Sequence[str]) -> None:
    """Rewrites the graph at `path` (weights inside it) so that each initializer in `names` is stored as FLOAT16
    under its own name and read through a Cast to FLOAT (`<name>_float32`) by every node that used it. The
    values must already be float16 values (round the module first): a value that float16 would change is an error."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    m = onnx.load(path, load_external_data=False)
    inits = {t.name: t for t in m.graph.initializer}
    casts = []
    for name in names:
        t = inits.get(name)
        if t is None:
            raise ValueError(f"{path}: no initializer {name}")
        if t.data_type != TensorProto.FLOAT:
            raise ValueError(f"{path}: initializer {name} has data type {t.data_type}, not FLOAT")
        a = numpy_helper.to_array(t)
        h = a.astype("<f2")
        if not np.array_equal(h.astype(np.float32), a):
            raise ValueError(f"{path}: initializer {name} holds values that float16 would change; round the module with round_embeddings_to_float16 first")
        for field in ("raw_data", "float_data"):
            t.ClearField(field)
        t.data_type = TensorProto.FLOAT16
        t.raw_data = h.tobytes()
        out = f"{name}_float32"
        for n in m.graph.node:
            for i, x in enumerate(n.input):
                if x == name:
                    n.input[i] = out
        for o in m.graph.output:
            if o.name == name:
                raise ValueError(f"{path}: initializer {name} is a graph output")
        for vi in m.graph.input:
            if vi.name == name:  # old IR: initializers listed among the inputs
                vi.type.tensor_type.elem_type = TensorProto.FLOAT16
        casts.append(helper.make_node("Cast", [name], [out], name=f"{name}_Cast", to=TensorProto.FLOAT))
    for node in reversed(casts):
        m.graph.node.insert(0, node)
    onnx.checker.check_model(m)
    with open(path + ".tmp", "wb") as f:
        f.write(m.SerializeToString())
    os.replace(path + ".tmp", path)


def _export(module: nn.Module, args, path: str, inputs: List[str], outputs: List[str], axes: dict) -> None:
    os.makedirs(os.path.dirname(path), exist_ok=True)
    module.eval()
    with torch.no_grad():
        torch.onnx.export(
            module,
            args,
            path,
            input_names=inputs,
            output_names=outputs,
            dynamic_axes=axes,
            opset_version=OPSET,
            # No folding: a folded transpose of a tied or shared matrix would store the weights twice.
            do_constant_folding=False,
        )


def share_weights(onnx_dir: str, graphs: Sequence[str], data_name: str = WEIGHTS_FILE) -> dict:
    """Moves every initializer of the graphs in `onnx_dir` into one external-data file `data_name` that all of them
    reference (location, offset, length): an initializer of the same name must hold the same bytes in every graph,
    and is stored once. Tensors are written in the first graph's initializer order (then any the others add),
    each aligned as ALIGN_THRESHOLD/ALIGN say; padding is zeros and nothing else varies, so the same graphs give
    the same bytes. Each graph is rewritten in place (no raw data left in it). Returns {"file", "bytes", "tensors"}."""
    import onnx
    from onnx import TensorProto, numpy_helper

    paths = [os.path.join(onnx_dir, g) for g in graphs]
    models = [onnx.load(p, load_external_data=False) for p in paths]
    placed = {}  # name -> (offset, length, bytes, graph it came from)
    data_path = os.path.join(onnx_dir, data_name)
    offset = 0
    with open(data_path + ".tmp", "wb") as f:
        for path, m in zip(paths, models):
            for t in m.graph.initializer:
                if t.data_location == TensorProto.EXTERNAL:
                    raise ValueError(f"{path}: initializer {t.name} is already external data")
                raw = t.raw_data if t.HasField("raw_data") else numpy_helper.to_array(t).tobytes()
                if t.name in placed:
                    if placed[t.name][2] != raw:
                        raise ValueError(f"{path}: initializer {t.name} differs from the one in {placed[t.name][3]}: the graphs do not share these weights")
                    continue
                if len(raw) >= ALIGN_THRESHOLD and offset % ALIGN:
                    pad = ALIGN - offset % ALIGN
                    f.write(b"\0" * pad)
                    offset += pad
                f.write(raw)
                placed[t.name] = (offset, len(raw), raw, path)
                offset += len(raw)
    for path, m in zip(paths, models):
        for t in m.graph.initializer:
            start, length, _, _ = placed[t.name]
            for field in ("raw_data", "float_data", "int32_data", "int64_data", "double_data", "uint64_data", "string_data"):
                t.ClearField(field)
            del t.external_data[:]
            t.data_location = TensorProto.EXTERNAL
            for key, value in (("location", data_name), ("offset", str(start)), ("length", str(length))):
                entry = t.external_data.add()
                entry.key, entry.value = key, value
        with open(path + ".tmp", "wb") as f:
            f.write(m.SerializeToString())
    os.replace(data_path + ".tmp", data_path)
    for path in paths:
        os.replace(path + ".tmp", path)
    return {"file": data_name, "bytes": offset, "tensors": len(placed)}


def _assert_reloads(original: nn.Module, reloaded: nn.Module, args, folder: str) -> None:
    """The committed graph must carry every parameter under its name (check_onnx.py / check_hf.py load them by name)."""
    with torch.no_grad():
        a, b = original(*args), reloaded(*args)
    a = a[0] if isinstance(a, tuple) else a
    b = b[0] if isinstance(b, tuple) else b
    if not torch.equal(a, b):
        raise AssertionError(f"{folder}: the module rebuilt from the ONNX initializers differs from the trained one")


def _r(x):
    """Nested lists of a tensor, rounded to float32's 9 significant digits (exact round trip)."""
    if isinstance(x, torch.Tensor):
        x = x.tolist()
    if isinstance(x, list):
        return [_r(v) for v in x]
    if isinstance(x, float):
        return float(f"{x:.9g}")
    return x


def _write_json(path: str, obj) -> None:
    with open(path, "w", encoding="utf-8") as f:
        json.dump(obj, f, ensure_ascii=False, separators=(",", ":"))
        f.write("\n")


def without_timings(meta):
    """training.json without wall-clock seconds, so that a rebuild gives byte-identical fixtures (the times go to the build summary)."""
    if isinstance(meta, dict):
        return {k: without_timings(v) for k, v in meta.items() if k != "seconds"}
    if isinstance(meta, list):
        return [without_timings(v) for v in meta]
    return meta


def _write_config(folder: str, cfg: dict) -> None:
    with open(os.path.join(folder, "config.json"), "w", encoding="utf-8") as f:
        json.dump(cfg, f, indent=2, ensure_ascii=False)
        f.write("\n")


def _batch(tok: WordPiece, texts: Sequence[str]):
    seqs = [tok.encode(t) for t in texts]
    ids, attn = pad_batch(seqs)
    return seqs, ids, attn, torch.zeros_like(ids)


TOKENIZER_FILES = ("tokenizer.json", "vocab.txt", "tokenizer_config.json", "special_tokens_map.json")


def copy_tokenizer(source: str, folder: str) -> None:
    """The tokenizer files of `source` (a kit model folder), byte for byte: a model fine-tuned from that folder's
    encoder must tokenise exactly as it was pre-trained."""
    for name in TOKENIZER_FILES:
        path = os.path.join(source, name)
        if not os.path.exists(path):
            raise ValueError(f"{source}: no {name} to copy")
        shutil.copyfile(path, os.path.join(folder, name))


def export_classifier(model: BertForSequenceClassification, tok: WordPiece, folder: str, texts: Sequence[str], meta: dict, log=print, grad: bool = True, tokenizer_from: Optional[str] = None, half_embeddings: bool = False) -> dict:
    """config.json, tokenizer files (written from `tok`, or copied from the folder `tokenizer_from`), onnx/model.onnx
    (logits + attentions.N), onnx/model_grad.onnx (when `grad`), reference.json, training.json. With `grad`, both
    graphs read their weights from one file, onnx/model.onnx_data (`share_weights`). With `half_embeddings`, the
    word-embedding table is rounded to float16 values in `model` (in place) and stored as float16 in both graphs."""
    model.eval()
    half = [f"model.{n}" for n in round_embeddings_to_float16(model)] if half_embeddings else []
    c = model.config
    os.makedirs(folder, exist_ok=True)
    stale = os.path.join(folder, "onnx", WEIGHTS_FILE)
    if os.path.exists(stale):  # an earlier export's weights: rewritten below when `grad`, else not part of this folder
        os.remove(stale)
    _write_config(folder, c.hf("BertForSequenceClassification"))
    if tokenizer_from is None:
        write_tokenizer(folder, tok.vocab, tok.max_length)
    else:
        copy_tokenizer(tokenizer_from, folder)
    n = c.num_hidden_layers
    seqs, ids, attn, tt = _batch(tok, texts)
    axes = {"input_ids": {0: "batch", 1: "sequence"}, "attention_mask": {0: "batch", 1: "sequence"}, "token_type_ids": {0: "batch", 1: "sequence"}, "logits": {0: "batch"}}
    for i in range(n):
        axes[f"attentions.{i}"] = {0: "batch", 2: "sequence", 3: "sequence"}
    _export(ClassifierExport(model), (ids, attn, tt), os.path.join(folder, "onnx", "model.onnx"), ["input_ids", "attention_mask", "token_type_ids"], ["logits"] + [f"attentions.{i}" for i in range(n)], axes)
    if half:
        store_float16(os.path.join(folder, "onnx", "model.onnx"), half)
    _assert_reloads(model, load_classifier(folder), (ids, attn, tt), folder)
    with torch.no_grad():
        logits, attentions = model(ids, attn, tt)
    ref = {
        "description": "PyTorch outputs of this folder's weights on fixed inputs (written by the kit's build); tolerance is the max abs difference an equivalent runtime must stay within",
        "tolerance": 1e-4,
        "torch": torch.__version__,
        "labels": c.labels,
        "texts": list(texts),
        "input_ids": ids.tolist(),
        "attention_mask": attn.tolist(),
        "token_type_ids": tt.tolist(),
        "logits": _r(logits),
        "attentions": [_r(a) for a in attentions],
    }
    if half:
        ref["float16_weights"] = half
    checks = {}
    if grad:
        g_axes = dict(axes)
        g_axes.update({"embedding_scale": {0: "batch", 1: "sequence"}, "output_weights": {0: "batch"}, "inputs_embeds": {0: "batch", 1: "sequence"}, "gradients": {0: "batch", 1: "sequence"}})
        for i in range(n):
            g_axes.pop(f"attentions.{i}")
        scale = torch.ones(ids.shape, dtype=torch.float32)
        weights = torch.zeros(ids.shape[0], len(c.labels))
        _export(GradientGraph(model), (ids, attn, tt, scale, weights), os.path.join(folder, "onnx", "model_grad.onnx"), ["input_ids", "attention_mask", "token_type_ids", "embedding_scale", "output_weights"], ["logits", "inputs_embeds", "gradients"], g_axes)
        if half:
            store_float16(os.path.join(folder, "onnx", "model_grad.onnx"), half)
        _assert_reloads(model, load_classifier(folder, "model_grad.onnx"), (ids, attn, tt), folder)
        # Two reference cases: the predicted logit's gradient at the real input (one-hot weights), and the
        # predicted probability's gradient at α = 0.5 of the input (weights p_t(δ_tc − p_c)), on the whole padded batch.
        pred = logits.argmax(-1)
        onehot = torch.nn.functional.one_hot(pred, len(c.labels)).to(torch.float32)
        cases = []
        half = torch.full(ids.shape, 0.5) * attn.to(torch.float32) + (1 - attn.to(torch.float32))
        with torch.no_grad():
            lg_half, _ = model(ids, attn, tt, inputs_embeds=model.bert.embeddings.word_embeddings(ids) * half.unsqueeze(-1))
        p = torch.softmax(lg_half, -1)
        pt = p.gather(1, pred[:, None])
        prob_w = pt * (onehot - p)
        for name, sc, w in (("logit of the predicted class, α = 1", scale, onehot), ("probability of the predicted class, α = 0.5", half, prob_w)):
            check = check_against_autograd(model, (ids, attn, tt, sc, w), log=log)
            lg, emb, gr = autograd_gradients(model, ids, attn, tt, sc, w)
            cases.append({"name": name, "embedding_scale": _r(sc), "output_weights": _r(w), "logits": _r(lg), "inputs_embeds": _r(emb), "gradients": _r(gr), "explicit_vs_autograd": check})
            checks[name] = check
        ref["gradient_cases"] = cases
        store = share_weights(os.path.join(folder, "onnx"), ["model.onnx", "model_grad.onnx"])
        for graph in ("model.onnx", "model_grad.onnx"):
            _assert_reloads(model, load_classifier(folder, graph), (ids, attn, tt), folder)
        log(f"  {folder}: model.onnx and model_grad.onnx share {store['tensors']} weights in onnx/{store['file']} ({store['bytes']} bytes)")
    _write_json(os.path.join(folder, "reference.json"), ref)
    _write_json(os.path.join(folder, "training.json"), without_timings(meta))
    log(f"  exported {folder}")
    return checks


def export_mlm(model: BertForMaskedLM, tok: WordPiece, folder: str, texts: Sequence[str], meta: dict, log=print, half_embeddings: bool = False) -> None:
    """config.json, tokenizer files, onnx/model.onnx (logits [b, s, vocab]), reference.json (logits at the [MASK] positions).
    `half_embeddings`: as export_classifier's (the decoder is tied to the table, so it reads the same float16 initializer)."""
    model.eval()
    half = round_embeddings_to_float16(model) if half_embeddings else []
    c = model.config
    os.makedirs(folder, exist_ok=True)
    _write_config(folder, c.hf("BertForMaskedLM"))
    write_tokenizer(folder, tok.vocab, tok.max_length)
    seqs, ids, attn, tt = _batch(tok, texts)
    axes = {k: {0: "batch", 1: "sequence"} for k in ("input_ids", "attention_mask", "token_type_ids", "logits")}
    _export(model, (ids, attn, tt), os.path.join(folder, "onnx", "model.onnx"), ["input_ids", "attention_mask", "token_type_ids"], ["logits"], axes)
    if half:
        store_float16(os.path.join(folder, "onnx", "model.onnx"), half)
    _assert_reloads(model, load_mlm(folder), (ids, attn, tt), folder)
    with torch.no_grad():
        logits = model(ids, attn, tt)
    mask_id = tok.ids[MASK]
    positions = [[b, s] for b in range(ids.shape[0]) for s in range(ids.shape[1]) if ids[b, s].item() == mask_id]
    ref = {
        "description": "PyTorch logits of this masked LM on fixed inputs, at every [MASK] position (the full vocabulary row) — plus its top-5 pieces",
        "tolerance": 1e-4,
        "torch": torch.__version__,
        "texts": list(texts),
        "input_ids": ids.tolist(),
        "attention_mask": attn.tolist(),
        "token_type_ids": tt.tolist(),
        "positions": positions,
        "logits_at_positions": [_r(logits[b, s]) for b, s in positions],
        "top5": [[tok.vocab[i] for i in logits[b, s].topk(5).indices.tolist()] for b, s in positions],
        # a cheap whole-tensor check: every position's logit of its own input piece
        "logits_of_inputs": _r(logits.gather(2, ids.unsqueeze(-1)).squeeze(-1)),
    }
    if half:
        ref["float16_weights"] = half
    _write_json(os.path.join(folder, "reference.json"), ref)
    _write_json(os.path.join(folder, "training.json"), without_timings(meta))
    log(f"  exported {folder}; top-5 at the masks: {ref['top5']}")


def export_gpt2(model: GPT2LMHeadModel, tok: WordPiece, folder: str, texts: Sequence[str], meta: dict, log=print, half_embeddings: bool = False) -> None:
    """config.json, tokenizer files ([CLS] = bos, [SEP] = eos), onnx/model.onnx (logits [b, s, vocab]), reference.json.
    `half_embeddings`: as export_classifier's (the LM head is tied to the table)."""
    from .train import lm_loss

    model.eval()
    half = round_embeddings_to_float16(model) if half_embeddings else []
    os.makedirs(folder, exist_ok=True)
    _write_config(folder, model.config.hf())
    write_tokenizer(folder, tok.vocab, tok.max_length, causal=True)
    seqs, ids, attn, _ = _batch(tok, texts)
    axes = {k: {0: "batch", 1: "sequence"} for k in ("input_ids", "attention_mask", "logits")}
    _export(model, (ids, attn), os.path.join(folder, "onnx", "model.onnx"), ["input_ids", "attention_mask"], ["logits"], axes)
    if half:
        store_float16(os.path.join(folder, "onnx", "model.onnx"), half)
    _assert_reloads(model, load_gpt2(folder), (ids, attn), folder)
    with torch.no_grad():
        logits = model(ids, attn)
        ppl = []
        for s in seqs:
            i, a = pad_batch([s])
            ppl.append(float(torch.exp(lm_loss(model, i, a))))
    ref = {
        "description": "PyTorch logits of this causal LM on fixed inputs: next-piece logits rows at the listed positions, each position's log-probability of the piece that follows, and each text's perplexity over the positions after the first",
        "tolerance": 1e-4,
        "torch": torch.__version__,
        "texts": list(texts),
        "input_ids": ids.tolist(),
        "attention_mask": attn.tolist(),
        "positions": [[b, 1] for b in range(ids.shape[0])],
        "logits_at_positions": [_r(logits[b, 1]) for b in range(ids.shape[0])],
        "next_logprob": _r(torch.log_softmax(logits[:, :-1], -1).gather(2, ids[:, 1:].unsqueeze(-1)).squeeze(-1)),
        "perplexity": _r(ppl),
    }
    if half:
        ref["float16_weights"] = half
    _write_json(os.path.join(folder, "reference.json"), ref)
    _write_json(os.path.join(folder, "training.json"), without_timings(meta))
    log(f"  exported {folder}; reference perplexities {[round(p, 1) for p in ppl]}")
