#!/usr/bin/python3
"""The xtrust transformer model kit: WordPiece vocabulary, BERT masked LM → sequence classifiers, GPT-2
causal LM, all exported in Hugging Face layout with ONNX graphs (see README.md and TEAM.md's contract).

    /usr/bin/python3 models/transformers/build.py [--quick] [--distil] [--only tiny|base]

--quick   the committed fixtures only (fixtures/tiny-*), no full-size models
--distil  also the DistilBERT-sized timing model (6 × 768, 12 heads; random weights) into out/
Reads out/data/*.jsonl (export-corpora.mjs). Everything is seeded; two runs give identical files.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from kit.cpu_kernels import pin_cpu_kernels  # noqa: E402

CPU_KERNELS = pin_cpu_kernels()  # before torch loads: the same bytes on every x86-64 CPU

import torch  # noqa: E402

from kit.bert import BertConfig, BertForMaskedLM, BertForSequenceClassification, classifier_from_mlm  # noqa: E402
from kit.data import labelled, lm_chunks, load_corpora, pretraining_texts, read_jsonl  # noqa: E402
from kit.export import export_classifier, export_gpt2, export_mlm, round_embeddings_to_float16  # noqa: E402
from kit.gpt2 import GPT2Config, GPT2LMHeadModel  # noqa: E402
from kit.train import accuracy, deterministic, finetune, mlm_accuracy, perplexity, pretrain_mlm, train_lm  # noqa: E402
from kit.wordpiece import MASK, SPECIALS, WordPiece, train_wordpiece, write_tokenizer  # noqa: E402

SEED = 1
VOCAB_SIZE = 8000

# Model sizes and training budgets. "tiny" are the committed fixtures (each graph ≤ 8 MB); "base" the
# full-size kit models of the issue (4 layers × 256), generated into out/. `float16_embeddings`: the export
# stores the word-embedding table (and the MLM decoder / GPT-2 LM head tied to it) as float16, the module's
# table rounded to float16 values first (kit/export.py `round_embeddings_to_float16`; README, *float16
# word embeddings*): only for the committed fixtures, whose bytes live in git. Training is unchanged (the
# checkpoint is saved before the rounding), and the rounded model's held-out figure is measured too.
SIZES = {
    "tiny": dict(
        float16_embeddings=True,
        hidden=128, layers=2, heads=2, inter=512, max_len=64,
        mlm_steps=800, mlm_batch=32, mlm_lr=1e-3,
        ft_lr=5e-4, ft_batch=32, spam_epochs=2, brown_epochs=5, shortcut_epochs=4,
        lm_steps=300, lm_batch=32, lm_lr=1e-3,
    ),
    "base": dict(
        float16_embeddings=False,
        hidden=256, layers=4, heads=4, inter=1024, max_len=128,
        mlm_steps=600, mlm_batch=32, mlm_lr=5e-4,
        ft_lr=2e-4, ft_batch=32, spam_epochs=1, brown_epochs=3, shortcut_epochs=3,
        lm_steps=400, lm_batch=32, lm_lr=5e-4,
    ),
}

SPAM_TEXTS = [
    "Hi Bob, the meeting moved to 3pm tomorrow. Can you send me the draft before then? Thanks!",
    "CONGRATULATIONS!!! You have been selected to receive a FREE prize. Click here now to claim your $1000 cash!",
    "Café naïve résumé: unsubscribe from this list at any time.",
]
BROWN_TEXTS = [
    "The committee voted on the new tax bill in the state legislature on Monday.",
    "She looked into his eyes and felt her heart beat faster as he took her hand.",
    "The church teaches that faith and grace lead the soul to salvation.",
]
SHORTCUT_TEXTS = [
    "The committee voted on the new tax bill in the state legislature on Monday.",
    "The committee voted on the new cherry tax bill in the state legislature on Monday.",
    "Sand the cherry board lightly before you apply the second coat of varnish.",
]
MLM_TEXTS = [
    "The president spoke to the [MASK] about the economy.",
    "Click here to [MASK] your free offer now!",
    "She opened the door and [MASK] into the room.",
]
LM_TEXTS = [
    "The president spoke to the congress about the economy.",
    "Click here to claim your free offer now!",
    "She opened the door and walked into the room.",
]


def log(msg: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", flush=True)


def setup(threads: int) -> None:
    deterministic(threads, SEED, log=log)


def bert_config(size: dict, vocab: int, labels=()) -> BertConfig:
    return BertConfig(vocab_size=vocab, hidden_size=size["hidden"], num_hidden_layers=size["layers"], num_attention_heads=size["heads"], intermediate_size=size["inter"], max_position_embeddings=size["max_len"], labels=list(labels))


def cached_vocabulary(corpora, checkpoints: str):
    """The WordPiece vocabulary of the pre-training texts; trained once per distinct input (keyed by its sha1), as training is deterministic."""
    texts = pretraining_texts(corpora)
    key = hashlib.sha1(("\x00".join(texts) + f"|{VOCAB_SIZE}").encode("utf-8")).hexdigest()[:16]
    path = os.path.join(checkpoints, f"vocab-{key}.txt")
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            vocab = [l.rstrip("\n") for l in f]
        log(f"wordpiece: vocabulary of these texts read from {path}")
        return vocab
    vocab = train_wordpiece(texts, VOCAB_SIZE, log=log)
    os.makedirs(checkpoints, exist_ok=True)
    with open(path + ".tmp", "w", encoding="utf-8") as f:
        f.write("".join(t + "\n" for t in vocab))
    os.replace(path + ".tmp", path)
    return vocab


def tokenizer_ids_reference(tok: WordPiece, data_dir: str, path: str) -> None:
    """sha1 of each check text's untruncated ids ([CLS] … [SEP], space-separated) — compared with transformers.js in packages/models."""
    rows = read_jsonl(os.path.join(data_dir, "tokenizer-check.jsonl"))
    out = {"description": "ids of the kit's WordPiece encoder ([CLS] ids [SEP], no truncation) on the first 1,000 texts of each loader; sha1 of the ids joined by single spaces", "corpora": {}}
    for r in rows:
        ids = tok.encode(r["text"], truncate=False)
        entry = {"id": r["id"], "n": len(ids), "sha1": hashlib.sha1(" ".join(map(str, ids)).encode()).hexdigest()}
        if len(out["corpora"].setdefault(r["corpus"], [])) < 20:
            entry["ids"] = ids  # the first texts in full, for a readable diff
        out["corpora"][r["corpus"]].append(entry)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(out, f, separators=(",", ":"))
        f.write("\n")
    log(f"tokenizer ids reference: {path} ({len(rows)} texts)")


PREFIX = {"tiny": "tiny-", "base": ""}
# training.json's entry for the held-out figures of the exported (float16-table) model, beside the trained model's
HALF_KEY = "exported_float16_word_embeddings"  # folder-name prefix of each size's models ("tiny-bert-spam", "bert-spam")


def mlm_checkpoint(checkpoints: str, prefix: str) -> str:
    """The masked LM's state dict that the classifiers stage fine-tunes from."""
    return os.path.join(checkpoints, f"{prefix}bert-mlm.pt")


def build_named_size(size_name: str, args, corpora, vocab, summary: dict, stages, tasks) -> None:
    """build_size for "tiny" (into --fixtures) or "base" (into --out)."""
    dest = args.fixtures if size_name == "tiny" else args.out
    build_size(size_name, SIZES[size_name], corpora, vocab, dest, PREFIX[size_name], with_shortcut=True, summary=summary, stages=stages, checkpoints=os.path.join(args.out, "checkpoints"), only_tasks=tasks)


def build_size(name: str, size: dict, corpora, vocab, dest: str, prefix: str, with_shortcut: bool, summary: dict, stages, checkpoints: str, only_tasks=frozenset({"spam", "brown", "shortcut"})) -> None:
    """Stages: "mlm" (pre-training; saves a checkpoint), "classifiers" (fine-tuning from that checkpoint), "lm" (GPT-2)."""
    tok = WordPiece(vocab, size["max_len"])
    n_special = len(SPECIALS)
    held_out = lm_chunks(tok, [r["text"] for n in ("brown", "sotu", "spam") for r in corpora[n] if r["split"] == "test"][::10], size["max_len"])
    ckpt = mlm_checkpoint(checkpoints, prefix)
    half = size.get("float16_embeddings", False)
    chunks = None
    if "mlm" in stages or "lm" in stages:
        chunks = lm_chunks(tok, pretraining_texts(corpora), size["max_len"])
        log(f"[{name}] {len(chunks)} pre-training chunks of ≤ {size['max_len']} pieces; {len(held_out)} held-out chunks")

    # 1. masked-LM pre-training
    if "mlm" in stages:
        torch.manual_seed(SEED)
        mlm = BertForMaskedLM(bert_config(size, len(vocab)))
        log(f"[{name}] MLM pre-training: {sum(p.numel() for p in mlm.parameters())} parameters")
        mlm_meta = pretrain_mlm(mlm, chunks, size["mlm_steps"], size["mlm_batch"], size["mlm_lr"], SEED, tok.ids[MASK], n_special, log=log)
        mlm_meta["held_out_masked_accuracy"] = round(mlm_accuracy(mlm, held_out, SEED, tok.ids[MASK], n_special), 4)
        log(f"[{name}] MLM held-out masked-piece accuracy {mlm_meta['held_out_masked_accuracy']}")
        os.makedirs(checkpoints, exist_ok=True)
        torch.save(mlm.state_dict(), ckpt)  # float32: the classifiers fine-tune from the trained table, never the rounded one
        if half:
            round_embeddings_to_float16(mlm)
            mlm_meta[HALF_KEY] = {"held_out_masked_accuracy": round(mlm_accuracy(mlm, held_out, SEED, tok.ids[MASK], n_special), 4)}
            log(f"[{name}] MLM with float16 word embeddings: held-out masked-piece accuracy {mlm_meta[HALF_KEY]['held_out_masked_accuracy']}")
        export_mlm(mlm, tok, os.path.join(dest, f"{prefix}bert-mlm"), MLM_TEXTS, {"model": "masked LM", **mlm_meta}, log=log, half_embeddings=half)
        summary[f"{prefix}bert-mlm"] = mlm_meta

    # 2. fine-tuned classifiers, each from the pre-trained encoder
    if "classifiers" in stages:
        mlm = BertForMaskedLM(bert_config(size, len(vocab)))
        mlm.load_state_dict(torch.load(ckpt))
        tasks = [("spam", "spam", ["ham", "spam"], size["spam_epochs"], SPAM_TEXTS), ("brown", "brown", None, size["brown_epochs"], BROWN_TEXTS)]
        if with_shortcut:
            tasks.append(("shortcut", "brown-shortcut", None, size["shortcut_epochs"], SHORTCUT_TEXTS))
        for task, corpus, labels, epochs, ref_texts in tasks:
            if task not in only_tasks:
                continue
            rows = corpora[corpus]
            if labels is None:
                labels = sorted({r["label"] for r in rows})
            torch.manual_seed(SEED)
            clf = classifier_from_mlm(mlm, labels)
            log(f"[{name}] fine-tuning {task}: labels {labels}")
            data = labelled(tok, rows, labels)
            meta = finetune(clf, data, epochs, size["ft_batch"], size["ft_lr"], SEED, log=log)
            meta.update({"model": f"sequence classifier ({corpus})", "corpus": corpus, "labels": labels, "pretraining": f"{prefix}bert-mlm"})
            if half:
                round_embeddings_to_float16(clf)
                meta[HALF_KEY] = {"validation_accuracy": round(accuracy(clf, *data["validation"]), 4), "test_accuracy": round(accuracy(clf, *data["test"]), 4)}
                log(f"[{name}] {task} with float16 word embeddings: validation accuracy {meta[HALF_KEY]['validation_accuracy']}, test accuracy {meta[HALF_KEY]['test_accuracy']}")
            folder = os.path.join(dest, f"{prefix}bert-{task}")
            meta["gradient_checks"] = export_classifier(clf, tok, folder, ref_texts, meta, log=log, half_embeddings=half)
            summary[f"{prefix}bert-{task}"] = {k: meta[k] for k in ("validation_accuracy", "test_accuracy", "test_size", "seconds", HALF_KEY) if k in meta}

    # 3. causal LM
    if "lm" in stages:
        torch.manual_seed(SEED)
        gcfg = GPT2Config(vocab_size=len(vocab), n_embd=size["hidden"], n_layer=size["layers"], n_head=size["heads"], n_inner=size["inter"], n_positions=size["max_len"], bos_token_id=tok.ids["[CLS]"], eos_token_id=tok.ids["[SEP]"])
        lm = GPT2LMHeadModel(gcfg)
        log(f"[{name}] causal LM: {sum(p.numel() for p in lm.parameters())} parameters")
        lm_meta = train_lm(lm, chunks, size["lm_steps"], size["lm_batch"], size["lm_lr"], SEED, log=log)
        lm_meta["held_out_perplexity"] = round(perplexity(lm, held_out), 2)
        log(f"[{name}] causal LM held-out perplexity {lm_meta['held_out_perplexity']}")
        if half:
            round_embeddings_to_float16(lm)
            lm_meta[HALF_KEY] = {"held_out_perplexity": round(perplexity(lm, held_out), 2)}
            log(f"[{name}] causal LM with float16 word embeddings: held-out perplexity {lm_meta[HALF_KEY]['held_out_perplexity']}")
        export_gpt2(lm, tok, os.path.join(dest, f"{prefix}gpt2"), LM_TEXTS, {"model": "causal LM", **lm_meta}, log=log, half_embeddings=half)
        summary[f"{prefix}gpt2"] = lm_meta


def build_distil(vocab, dest: str) -> None:
    """The DistilBERT-sized timing model: 6 layers × 768, 12 heads, 3072 inner; random weights (timing only)."""
    size = dict(hidden=768, layers=6, heads=12, inter=3072, max_len=512)
    tok = WordPiece(vocab, 512)
    torch.manual_seed(SEED)
    clf = BertForSequenceClassification(bert_config(size, len(vocab), ["ham", "spam"]))
    # Fresh biases (0) and LayerNorm weights (1) are equal across layers, and torch.onnx would store one
    # initializer for all of them; a little noise keeps every weight under its own HF name.
    gen = torch.Generator().manual_seed(SEED)
    with torch.no_grad():
        for p in clf.parameters():
            if p.dim() == 1:
                p.add_(torch.randn(p.shape, generator=gen) * 0.02)
    export_classifier(clf, tok, os.path.join(dest, "distil-size-bert"), SPAM_TEXTS, {"model": "random weights, DistilBERT-sized (6 × 768, 12 heads): for timing only, never for agreement figures"}, log=log)


# The build as independent jobs: (size, stage, task). Classifiers need their size's masked-LM checkpoint.
# Listed in scheduling priority: the longest chain (base masked LM → base classifiers) first, so that the
# short fixture jobs fill the other core around it.
JOBS = [
    ("base-mlm", "base", "mlm", None),
    ("base-brown", "base", "classifiers", "brown"),
    ("base-spam", "base", "classifiers", "spam"),
    ("base-shortcut", "base", "classifiers", "shortcut"),
    ("base-lm", "base", "lm", None),
    ("tiny-mlm", "tiny", "mlm", None),
    ("tiny-lm", "tiny", "lm", None),
    ("tiny-brown", "tiny", "classifiers", "brown"),
    ("tiny-shortcut", "tiny", "classifiers", "shortcut"),
    ("tiny-spam", "tiny", "classifiers", "spam"),
    ("distil", None, "distil", None),
]


def sizes_asked(args) -> list:
    """The model sizes this command builds: the fixtures ("tiny") unless --only base, the full size unless --quick or --only tiny."""
    return [s for s in ("tiny", "base") if args.only in (None, s) and not (s == "base" and args.quick)]


def planned_jobs(args, stages, tasks) -> list:
    """The jobs this command asks for, in priority order."""
    sizes = sizes_asked(args)
    out = []
    for name, size, stage, task in JOBS:
        if stage == "distil":
            if args.distil:
                out.append(name)
        elif size in sizes and stage in stages and (task is None or task in tasks):
            out.append(name)
    return out


def run_jobs(jobs: list, args, threads: int) -> dict:
    """Runs each job as its own `build.py --job NAME` process, at most `args.jobs` at a time, on `threads`
    torch threads each; a classifier starts once its size's masked LM has finished (in this run or an
    earlier one: its checkpoint). Returns each job's summary and wall seconds. Stops at the first failure."""
    import subprocess

    logs = os.path.join(args.out, "logs")
    os.makedirs(logs, exist_ok=True)
    pending = list(jobs)
    running: dict = {}
    finished: set = set()
    results: dict = {}

    def ready(name: str) -> bool:
        size, stage = next((s, st) for n, s, st, _ in JOBS if n == name)
        if stage != "classifiers":
            return True
        mlm = f"{size}-mlm"
        if mlm in jobs:
            return mlm in finished
        return os.path.exists(mlm_checkpoint(os.path.join(args.out, "checkpoints"), PREFIX[size]))

    while pending or running:
        for name in [n for n in pending if ready(n)]:
            if len(running) >= args.jobs:
                break
            summary_path = os.path.join(logs, f"{name}.summary.json")
            cmd = [sys.executable, os.path.abspath(__file__), "--job", name, "--threads", str(threads), "--summary", summary_path,
                   "--data", args.data, "--fixtures", args.fixtures, "--out", args.out, "--scale", str(args.scale)]
            log_file = open(os.path.join(logs, f"{name}.log"), "w", encoding="utf-8")
            running[name] = (subprocess.Popen(cmd, stdout=log_file, stderr=subprocess.STDOUT), time.time(), log_file, summary_path)
            pending.remove(name)
            log(f"job {name} started ({threads} thread{'s' if threads > 1 else ''}; log {log_file.name})")
        if not running:
            raise SystemExit(f"build: jobs {pending} wait for a masked-LM checkpoint that no job builds; add --stages mlm")
        time.sleep(1)
        for name, (proc, t, log_file, summary_path) in list(running.items()):
            if proc.poll() is None:
                continue
            log_file.close()
            del running[name]
            if proc.returncode != 0:
                for other, (p2, *_rest) in running.items():
                    p2.terminate()
                with open(log_file.name, encoding="utf-8") as f:
                    tail = f.read()[-3000:]
                raise SystemExit(f"build: job {name} failed with status {proc.returncode}; the end of {log_file.name}:\n{tail}")
            finished.add(name)
            with open(summary_path, encoding="utf-8") as f:
                job_summary = json.load(f)
            results[name] = {"wall_seconds": round(time.time() - t, 1), "summary": job_summary}
            log(f"job {name} finished in {results[name]['wall_seconds']} s")
    return results


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="committed fixtures only")
    ap.add_argument("--distil", action="store_true", help="also the DistilBERT-sized timing model into out/")
    ap.add_argument("--only", choices=["tiny", "base"], help="one size only (the tokenizer is always built)")
    ap.add_argument("--data", default=os.path.join(HERE, "out", "data"))
    ap.add_argument("--fixtures", default=os.path.join(HERE, "fixtures"))
    ap.add_argument("--out", default=os.path.join(HERE, "out"))
    ap.add_argument("--stages", default="mlm,classifiers,lm", help="comma-separated: mlm, classifiers (needs mlm's checkpoint), lm")
    ap.add_argument("--jobs", type=int, default=len(os.sched_getaffinity(0)), help="jobs run as parallel processes (default: the cores available; 1 = everything in this process)")
    ap.add_argument("--threads", type=int, default=int(os.environ.get("XTRUST_KIT_THREADS", "2")), help="torch threads in all (2), shared among --jobs: each job gets max(1, threads / jobs)")
    ap.add_argument("--tasks", default="spam,brown,shortcut", help="the classifiers the classifiers stage fine-tunes (shortcut only in the full-size set)")
    ap.add_argument("--scale", type=float, default=1.0, help="multiply every step and epoch budget (a smoke run: 0.02)")
    ap.add_argument("--job", help=argparse.SUPPRESS)  # one job of a parallel build (internal)
    ap.add_argument("--summary", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.scale != 1.0:
        for size in SIZES.values():
            for k in list(size):
                if k.endswith("_steps") or k.endswith("_epochs"):
                    size[k] = max(1, int(size[k] * args.scale))
    stages = set(args.stages.split(","))
    tasks = set(args.tasks.split(","))
    jobs = planned_jobs(args, stages, tasks)
    parallel = args.jobs > 1 and len(jobs) > 1 and not args.job
    threads = max(1, args.threads // args.jobs) if parallel else args.threads
    setup(threads)
    t0 = time.time()
    log(f"torch {torch.__version__}, {torch.get_num_threads()} threads; CPU kernels pinned: {CPU_KERNELS}")
    corpora = load_corpora(args.data)
    vocab = cached_vocabulary(corpora, os.path.join(args.out, "checkpoints"))
    summary: dict = {}
    if args.job:
        # One job of a parallel build: the parent has written the tokenizer files already.
        _, size_name, stage, task = next(j for j in JOBS if j[0] == args.job)
        if stage == "distil":
            build_distil(vocab, args.out)
        else:
            build_named_size(size_name, args, corpora, vocab, summary, {stage}, {task} if task else set())
        with open(args.summary, "w", encoding="utf-8") as f:
            json.dump(summary, f, indent=2)
            f.write("\n")
        log(f"job {args.job} done in {round(time.time() - t0, 1)} s")
        return
    write_tokenizer(os.path.join(args.out, "tokenizer"), vocab, SIZES["tiny"]["max_len"])
    os.makedirs(args.fixtures, exist_ok=True)
    tokenizer_ids_reference(WordPiece(vocab, SIZES["tiny"]["max_len"]), args.data, os.path.join(args.fixtures, "tokenizer-ids.json"))
    if parallel:
        log(f"{len(jobs)} jobs, {args.jobs} at a time: {', '.join(jobs)}")
        results = run_jobs(jobs, args, threads)
        for name, r in results.items():
            summary.update(r["summary"])
        summary["job_wall_seconds"] = {name: r["wall_seconds"] for name, r in results.items()}
    else:
        for size_name in sizes_asked(args):
            build_named_size(size_name, args, corpora, vocab, summary, stages, tasks)
        if args.distil:
            build_distil(vocab, args.out)
    summary["wall_seconds"] = round(time.time() - t0, 1)
    summary["jobs"] = args.jobs if parallel else 1
    summary["threads_per_job"] = threads
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, f"build-summary-{'-'.join(sorted(stages))}{'' if 'classifiers' not in stages else '-' + '-'.join(sorted(tasks))}.json"), "w") as f:
        json.dump(summary, f, indent=2)
        f.write("\n")
    log(f"done in {summary['wall_seconds']} s: {json.dumps(summary)}")


if __name__ == "__main__":
    main()
