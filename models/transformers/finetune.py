#!/usr/bin/python3
"""Fine-tunes a kit masked LM's encoder as a BERT sequence classifier on rows you give it, and writes a
Hugging Face folder that xtrust loads (OnnxClassifier): the transformer path of the oracle benchmark family
(apps/bench/src/oracle/kit-bert.ts), and a way to fine-tune the kit's encoder on any labelled texts.

    /usr/bin/python3 models/transformers/finetune.py --rows rows.jsonl --labels ham,spam --out DIR
        [--encoder models/transformers/fixtures/tiny-bert-mlm] [--epochs 3] [--seed 1] [--threads 1]
        [--lr LR] [--batch 32] [--gradient-graph] [--device cuda] [--shards-out DIR | --from-shards DIR]

--rows     JSONL, one {"text", "label", "split"} a line; split "train" or "validation" (both needed; "test"
           rows, if any, get one accuracy figure in training.json). Every label must be in --labels.
--labels   the label list, comma-separated, in the order of the logits (id2label).
--encoder  a kit masked-LM folder (config.json with BertForMaskedLM, vocab.txt, tokenizer files,
           onnx/model.onnx whose initializers hold the encoder under Hugging Face names): its encoder is
           the starting point and its tokenizer files are copied into --out.
--lr/--batch  default: the kit's fine-tuning settings for the encoder's size (build.py SIZES).

Training is the kit's (kit/train.py finetune, as build.py fine-tunes its classifiers): AdamW, linear
warm-up/decay, texts truncated as transformers.js truncates, the epoch with the best validation accuracy
kept. Output (written to a temporary folder, then renamed, so a killed run leaves no half folder):
config.json (id2label/label2id), the encoder folder's tokenizer files, onnx/model.onnx (logits and
attentions.N; kit contract, README.md), onnx/model_grad.onnx with --gradient-graph (the two graphs then
share one weights file, onnx/model.onnx_data), reference.json (PyTorch
outputs on the first validation texts) and training.json (settings, row counts, truncation counts, history,
validation accuracy). Seeded; the same command with the same --threads gives byte-identical graphs.

Training on a lent GPU machine, exporting here (its files come back at most 16 MiB each, 64 MiB in all):
`--device cuda --shards-out DIR` trains and writes the weights as int8 shards with one float32 scale per
output row (kit/shards.py) plus `<name>.meta.json`; `--from-shards DIR` with the same --rows, --labels,
--out and --encoder exports the dequantized weights as above, training.json saying where they were trained
and that they travelled as int8 (`weights`). Its figures are read from the meta file: they are the trained
float32 model's, and the dequantized model's validation accuracy is measured again at export.

The arguments, the rows and the encoder folder are checked before torch is imported, so a bad call fails
in a fraction of a second with a message naming the bad input (exit status 2).
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import sys
import time
from typing import Dict, List, Optional, Sequence

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_ENCODER = os.path.join(HERE, "fixtures", "tiny-bert-mlm")
SPLITS = ("train", "validation", "test")
ENCODER_FILES = ("config.json", "vocab.txt", "tokenizer.json", "tokenizer_config.json", "special_tokens_map.json", os.path.join("onnx", "model.onnx"))


class UsageError(Exception):
    """A bad argument, row or encoder folder: reported with exit status 2, before torch is loaded."""


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    ap = argparse.ArgumentParser(prog="finetune.py", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rows", required=True, help="JSONL of {text, label, split: train|validation}")
    ap.add_argument("--labels", required=True, help="comma-separated label list (logit order)")
    ap.add_argument("--out", required=True, help="output folder (Hugging Face layout)")
    ap.add_argument("--encoder", default=DEFAULT_ENCODER, help="kit masked-LM folder (default: the committed tiny-bert-mlm fixture)")
    ap.add_argument("--epochs", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=1, help="torch threads (1: deterministic and fastest on a shared machine)")
    ap.add_argument("--lr", type=float, default=None, help="peak learning rate (default: the kit's for the encoder's size)")
    ap.add_argument("--batch", type=int, default=None, help="texts per step (default: the kit's for the encoder's size)")
    ap.add_argument("--gradient-graph", action="store_true", help="also export onnx/model_grad.onnx (and check it against autograd)")
    ap.add_argument("--device", default="cpu", help="torch device to train on (cpu, cuda): batches are built on the CPU and moved there")
    ap.add_argument("--shards-out", default=None, metavar="DIR", help="train only: write the weights as int8 shards (kit/shards.py) and <name>.meta.json into DIR, named after --out's last part; no export (for a GPU machine whose files come back size-limited)")
    ap.add_argument("--from-shards", default=None, metavar="DIR", help="export only: no training; the weights come from DIR's shards written by --shards-out for this --out name, and the rows and encoder must be the ones they were trained on")
    args = ap.parse_args(list(argv))
    if args.shards_out and args.from_shards:
        ap.error("--shards-out trains and --from-shards exports: give one of them")
    for name in ("epochs", "threads"):
        if getattr(args, name) < 1:
            ap.error(f"--{name} must be a positive integer, got {getattr(args, name)}")
    if args.batch is not None and args.batch < 1:
        ap.error(f"--batch must be a positive integer, got {args.batch}")
    if args.lr is not None and not args.lr > 0:
        ap.error(f"--lr must be positive, got {args.lr}")
    return args


def parse_labels(text: str) -> List[str]:
    labels = [l.strip() for l in text.split(",")]
    if any(not l for l in labels):
        raise UsageError(f"--labels {text!r}: an empty label (expected a comma-separated list such as ham,spam)")
    if len(set(labels)) != len(labels):
        raise UsageError(f"--labels {text!r}: a label is repeated")
    if len(labels) < 2:
        raise UsageError(f"--labels {text!r}: a classifier needs at least two labels")
    return labels


def read_rows(path: str, labels: Sequence[str]) -> List[dict]:
    """The rows of the JSONL file, each checked: text a non-empty string, label one of `labels`, split train|validation|test.
    Both train and validation must have rows, and every label at least one training row."""
    if not os.path.isfile(path):
        raise UsageError(f"--rows {path}: no such file")
    rows: List[dict] = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                r = json.loads(line)
            except json.JSONDecodeError as e:
                raise UsageError(f"--rows {path} line {n}: not JSON ({e.msg})") from None
            if not isinstance(r, dict):
                raise UsageError(f"--rows {path} line {n}: expected an object {{text, label, split}}")
            if not isinstance(r.get("text"), str) or not r["text"].strip():
                raise UsageError(f"--rows {path} line {n}: \"text\" must be a non-empty string")
            if r.get("label") not in labels:
                raise UsageError(f"--rows {path} line {n}: label {r.get('label')!r} is not one of --labels ({', '.join(labels)})")
            if r.get("split") not in SPLITS:
                raise UsageError(f"--rows {path} line {n}: split {r.get('split')!r} must be train or validation (or test)")
            rows.append({"text": r["text"], "label": r["label"], "split": r["split"]})
    for split in ("train", "validation"):
        if not any(r["split"] == split for r in rows):
            raise UsageError(f"--rows {path}: no {split} rows (the epoch is chosen on validation accuracy, so both are needed)")
    trained = {r["label"] for r in rows if r["split"] == "train"}
    missing = [l for l in labels if l not in trained]
    if missing:
        raise UsageError(f"--rows {path}: no training row for label(s) {', '.join(missing)}")
    return rows


def check_encoder(folder: str) -> dict:
    """config.json of a kit masked-LM folder; every file the fine-tuning reads or copies must be there."""
    if not os.path.isdir(folder):
        raise UsageError(f"--encoder {folder}: no such folder")
    for name in ENCODER_FILES:
        if not os.path.isfile(os.path.join(folder, name)):
            raise UsageError(f"--encoder {folder}: {name} is missing (a kit masked-LM folder, e.g. models/transformers/fixtures/tiny-bert-mlm)")
    with open(os.path.join(folder, "config.json"), encoding="utf-8") as f:
        cfg = json.load(f)
    if "BertForMaskedLM" not in cfg.get("architectures", []):
        raise UsageError(f"--encoder {folder}: config.json's architectures are {cfg.get('architectures')}; expected a BertForMaskedLM (the kit's pre-trained encoder)")
    return cfg


def sha256_file(path: str) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def kit_size_defaults(cfg: dict) -> Optional[dict]:
    """build.py's settings for the size of this encoder (same hidden size, layers, heads, inner size), if it is one of the kit's."""
    from build import SIZES  # imports torch: only after the arguments have been checked

    for size in SIZES.values():
        if (size["hidden"], size["layers"], size["heads"], size["inter"]) == (cfg["hidden_size"], cfg["num_hidden_layers"], cfg["num_attention_heads"], cfg["intermediate_size"]):
            return size
    return None


def log(msg: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", flush=True)


def finetune_folder(args: argparse.Namespace, labels: List[str], rows: List[dict], cfg: dict) -> dict:
    """Fine-tunes and writes the folder (or, with --shards-out / --from-shards, one half of that); returns training.json's content."""
    sys.path.insert(0, HERE)
    from kit.cpu_kernels import pin_cpu_kernels
    pin_cpu_kernels()  # before torch loads: the same weights on every x86-64 CPU
    import torch
    from kit.bert import classifier_from_mlm
    from kit.data import labelled
    from kit.load import load_mlm, load_wordpiece
    from kit.shards import dequantize, quantize, read_shards, write_shards
    from kit.train import accuracy, deterministic, finetune
    size = kit_size_defaults(cfg)
    lr = args.lr if args.lr is not None else (size["ft_lr"] if size else None)
    batch = args.batch if args.batch is not None else (size["ft_batch"] if size else None)
    if lr is None or batch is None:
        raise UsageError(f"--encoder {args.encoder}: its size ({cfg['num_hidden_layers']} × {cfg['hidden_size']}) is none of the kit's (build.py SIZES), so there is no default learning rate or batch: pass --lr and --batch")
    deterministic(args.threads, args.seed, log=log)
    device = torch.device(args.device)
    if device.type == "cuda":
        os.environ.setdefault("CUBLAS_WORKSPACE_CONFIG", ":4096:8")
        torch.use_deterministic_algorithms(True, warn_only=True)
    log(f"torch {torch.__version__}, {torch.get_num_threads()} thread(s), device {device}; encoder {args.encoder} ({cfg['num_hidden_layers']} × {cfg['hidden_size']}); labels {labels}")
    tok = load_wordpiece(args.encoder)
    mlm = load_mlm(args.encoder)
    clf = classifier_from_mlm(mlm, labels)
    data = labelled(tok, rows, labels)
    name = os.path.basename(os.path.abspath(args.out))
    rows_sha = sha256_file(args.rows)
    encoder_sha = sha256_file(os.path.join(args.encoder, "onnx", "model.onnx"))
    if args.from_shards:
        meta_file = os.path.join(args.from_shards, f"{name}.meta.json")
        if not os.path.isfile(meta_file):
            raise UsageError(f"--from-shards {args.from_shards}: no {name}.meta.json (the shards of --out {name} are not there)")
        with open(meta_file, encoding="utf-8") as f:
            meta = json.load(f)
        if meta["rows_sha256"] != rows_sha or meta["encoder_model_sha256"] != encoder_sha or meta["labels"] != labels:
            raise UsageError(f"--from-shards {args.from_shards}: {name}'s shards were trained on other rows, another encoder or other labels than --rows/--encoder/--labels")
        clf.load_state_dict(dequantize(read_shards(args.from_shards, meta.pop("shards"))))
        meta["encoder"] = os.path.relpath(os.path.abspath(args.encoder), HERE) if os.path.abspath(args.encoder).startswith(HERE + os.sep) else os.path.abspath(args.encoder)
        clf.eval()
        exported_val = accuracy(clf, *data["validation"])
        meta["weights"] = {"trained_on": meta.pop("device"), "travelled_as": "int8, one float32 scale per output row (kit/shards.py), dequantized here", "dequantized_validation_accuracy": round(exported_val, 4)}
        log(f"{name}: weights from {args.from_shards} (trained on {meta['weights']['trained_on']}); dequantized validation accuracy {exported_val:.4f} (trained: {meta['validation_accuracy']})")
        return export_folder(args, clf, tok, rows, meta)
    clf.to(device)
    counts = {s: len(data[s][0]) for s in SPLITS if s in data}
    # texts longer than the position limit are cut (as transformers.js cuts them when xtrust runs the graph): say how many
    truncated = {s: sum(1 for r in rows if r["split"] == s and len(tok.encode(r["text"], truncate=False)) > tok.max_length) for s in counts}
    log(f"rows {counts}; truncated to {tok.max_length} pieces: {truncated}")
    meta = finetune(clf, data, args.epochs, batch, lr, args.seed, log=log)
    best_epoch = 1 + [h["validation_accuracy"] for h in meta["history"]].index(meta["validation_accuracy"])
    meta.update({
        "model": "sequence classifier (finetune.py)",
        "labels": labels,
        "best_epoch": best_epoch,
        "encoder": os.path.relpath(os.path.abspath(args.encoder), HERE) if os.path.abspath(args.encoder).startswith(HERE + os.sep) else os.path.abspath(args.encoder),
        "encoder_model_sha256": encoder_sha,
        "rows_sha256": rows_sha,
        "rows": counts,
        "truncated": truncated,
        "max_length": tok.max_length,
        "seed": args.seed,
        "threads": args.threads,
    })
    if args.shards_out:
        meta["device"] = str(device) + (f" ({torch.cuda.get_device_name(device)}, torch {torch.__version__})" if device.type == "cuda" else "")
        meta["shards"] = write_shards(quantize(clf.state_dict()), args.shards_out, prefix=name)
        with open(os.path.join(args.shards_out, f"{name}.meta.json"), "w", encoding="utf-8") as f:
            json.dump(meta, f, ensure_ascii=False, indent=1)
        return meta
    clf.to("cpu")
    return export_folder(args, clf, tok, rows, meta)


def export_folder(args: argparse.Namespace, clf, tok, rows: List[dict], meta: dict) -> dict:
    """Writes --out (through a temporary folder renamed into place): graphs, tokenizer, reference.json, training.json."""
    from kit.export import export_classifier, without_timings
    out = os.path.abspath(args.out)
    tmp = f"{out}.tmp-{os.getpid()}"
    shutil.rmtree(tmp, ignore_errors=True)
    ref_texts = [r["text"] for r in rows if r["split"] == "validation"][:3]
    checks = export_classifier(clf, tok, tmp, ref_texts, meta, log=log, grad=args.gradient_graph, tokenizer_from=args.encoder)
    if checks:
        meta["gradient_checks"] = checks
        with open(os.path.join(tmp, "training.json"), "w", encoding="utf-8") as f:
            json.dump(without_timings(meta), f, ensure_ascii=False, separators=(",", ":"))
            f.write("\n")
    if os.path.exists(out):
        shutil.rmtree(out)
    os.replace(tmp, out)
    return meta


def main(argv: Sequence[str]) -> int:
    args = parse_args(argv)
    t0 = time.time()
    try:
        labels = parse_labels(args.labels)
        rows = read_rows(args.rows, labels)
        cfg = check_encoder(args.encoder)
        meta = finetune_folder(args, labels, rows, cfg)
    except UsageError as e:
        print(f"finetune.py: error: {e}", file=sys.stderr)
        return 2
    where = os.path.abspath(args.shards_out) if args.shards_out else os.path.abspath(args.out)
    log(f"wrote {where}: validation accuracy {meta['validation_accuracy']} (epoch {meta['best_epoch']} of {meta['epochs']}) in {time.time() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
