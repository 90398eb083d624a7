"""Seeded training loops: masked-LM pre-training, sequence-classifier fine-tuning, causal-LM training."""
from __future__ import annotations

import copy
import math
import time
from typing import Callable, Dict, List, Sequence, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F

from .bert import BertConfig, BertForMaskedLM, BertForSequenceClassification
from .data import pad_batch
from .gpt2 import GPT2LMHeadModel


def deterministic(threads: int, seed: int, log=print) -> None:
    """torch on `threads` threads, seeded, with deterministic kernels: the same command gives the same weights
    (for the same thread count: reductions may split differently across counts)."""
    torch.set_num_threads(threads)
    torch.manual_seed(seed)
    try:
        torch.use_deterministic_algorithms(True)
    except Exception as e:  # pragma: no cover - older builds
        log(f"deterministic algorithms unavailable: {e}")


def device_of(model: nn.Module) -> torch.device:
    """Where the model's weights live: batches are built on the CPU (seeded generators, Python lists) and moved there."""
    return next(model.parameters()).device


def schedule(opt: torch.optim.Optimizer, lr: float, steps: int, warmup: float = 0.06) -> Callable[[int], None]:
    """Linear warm-up then linear decay to zero (BERT's schedule)."""
    w = max(1, int(steps * warmup))

    def set_lr(step: int) -> None:
        f = step / w if step < w else max(0.0, (steps - step) / max(1, steps - w))
        for g in opt.param_groups:
            g["lr"] = lr * f

    return set_lr


def adamw(model: torch.nn.Module, lr: float, weight_decay: float = 0.01) -> torch.optim.Optimizer:
    decay, no_decay = [], []
    for n, p in model.named_parameters():
        (no_decay if n.endswith("bias") or "LayerNorm" in n or ".ln_" in n or "ln_f" in n else decay).append(p)
    return torch.optim.AdamW([{"params": decay, "weight_decay": weight_decay}, {"params": no_decay, "weight_decay": 0.0}], lr=lr)


def mask_tokens(ids: torch.Tensor, attn: torch.Tensor, gen: torch.Generator, vocab_size: int, mask_id: int, n_special: int, p: float = 0.15):
    """BERT's masking: 15 % of the real, non-special positions are predicted; of those 80 % → [MASK], 10 % → a random piece, 10 % unchanged."""
    candidates = (attn == 1) & (ids >= n_special)
    chosen = (torch.rand(ids.shape, generator=gen) < p) & candidates
    r = torch.rand(ids.shape, generator=gen)
    inputs = ids.clone()
    inputs[chosen & (r < 0.8)] = mask_id
    rand_pos = chosen & (r >= 0.8) & (r < 0.9)
    inputs[rand_pos] = torch.randint(n_special, vocab_size, ids.shape, generator=gen)[rand_pos]
    return inputs, chosen


def train_on_chunks(model: nn.Module, chunks: List[List[int]], steps: int, batch: int, lr: float, seed: int, batch_loss: Callable[[torch.Tensor, torch.Tensor, torch.Generator], torch.Tensor], name: str, log=print) -> dict:
    """The pre-training loop shared by the masked LM and the causal LM: `steps` batches of `batch` chunks drawn with
    a seeded generator, BERT's warm-up/decay schedule, AdamW, gradient clipping at 1. `batch_loss(ids, attn, gen)`
    is the objective of one padded batch (it may draw from `gen`, after the batch's chunks are drawn)."""
    gen = torch.Generator().manual_seed(seed)
    opt = adamw(model, lr)
    set_lr = schedule(opt, lr, steps)
    model.train()
    t0 = time.time()
    losses = []
    for step in range(steps):
        idx = torch.randint(0, len(chunks), (batch,), generator=gen).tolist()
        ids, attn = pad_batch([chunks[i] for i in idx])
        set_lr(step)
        loss = batch_loss(ids, attn, gen)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        losses.append(loss.item())
        if (step + 1) % 50 == 0 or step + 1 == steps:
            log(f"  {name} step {step + 1}/{steps}: loss {sum(losses[-100:]) / len(losses[-100:]):.3f} ({time.time() - t0:.0f} s)")
    model.eval()
    return {"steps": steps, "batch": batch, "lr": lr, "final_loss": sum(losses[-100:]) / len(losses[-100:]), "seconds": round(time.time() - t0, 1)}


def pretrain_mlm(model: BertForMaskedLM, chunks: List[List[int]], steps: int, batch: int, lr: float, seed: int, mask_id: int, n_special: int, log=print) -> dict:
    """Masked-LM pre-training (BERT's 15 % / 80-10-10 masking) over the chunks."""
    vocab = model.config.vocab_size

    def batch_loss(ids: torch.Tensor, attn: torch.Tensor, gen: torch.Generator) -> torch.Tensor:
        inputs, chosen = mask_tokens(ids, attn, gen, vocab, mask_id, n_special)
        dev = device_of(model)
        ids, attn, inputs, chosen = ids.to(dev), attn.to(dev), inputs.to(dev), chosen.to(dev)
        h, _, _ = model.bert(inputs, attn, torch.zeros_like(ids))
        logits = model.cls.predictions(h[chosen])  # only the predicted positions go through the vocab-sized decoder
        return F.cross_entropy(logits, ids[chosen])

    return train_on_chunks(model, chunks, steps, batch, lr, seed, batch_loss, "mlm", log=log)


@torch.no_grad()
def mlm_accuracy(model: BertForMaskedLM, chunks: List[List[int]], seed: int, mask_id: int, n_special: int, batch: int = 64) -> float:
    """Share of masked positions whose original piece is the arg-max (held-out chunks, seeded masking)."""
    gen = torch.Generator().manual_seed(seed)
    model.eval()
    right = total = 0
    for i in range(0, len(chunks), batch):
        ids, attn = pad_batch(chunks[i : i + batch])
        inputs, chosen = mask_tokens(ids, attn, gen, model.config.vocab_size, mask_id, n_special)
        dev = device_of(model)
        ids, attn, inputs, chosen = ids.to(dev), attn.to(dev), inputs.to(dev), chosen.to(dev)
        logits = model(inputs, attn, torch.zeros_like(ids))
        right += (logits[chosen].argmax(-1) == ids[chosen]).sum().item()
        total += chosen.sum().item()
    return right / max(1, total)


@torch.no_grad()
def predict(model: BertForSequenceClassification, seqs: Sequence[Sequence[int]], batch: int = 64) -> torch.Tensor:
    model.eval()
    out = []
    order = sorted(range(len(seqs)), key=lambda i: len(seqs[i]))  # similar lengths → less padding
    res = [None] * len(seqs)
    for i in range(0, len(order), batch):
        idx = order[i : i + batch]
        ids, attn = pad_batch([seqs[j] for j in idx])
        ids, attn = ids.to(device_of(model)), attn.to(device_of(model))
        logits, _ = model(ids, attn, torch.zeros_like(ids))
        for j, row in zip(idx, logits.argmax(-1).tolist()):
            res[j] = row
    return torch.tensor(res)


def accuracy(model, seqs, ys) -> float:
    return (predict(model, seqs) == torch.tensor(ys)).float().mean().item()


def finetune(model: BertForSequenceClassification, data: Dict[str, Tuple[List[List[int]], List[int]]], epochs: int, batch: int, lr: float, seed: int, log=print) -> dict:
    """Fine-tunes on train, keeps the epoch with the best validation accuracy, reports test accuracy of that one.

    `data` needs "train" and "validation"; "test" is optional (finetune.py's callers keep their test rows
    to themselves and measure accuracy on their side), and without it no test figure is reported."""
    gen = torch.Generator().manual_seed(seed)
    train_x, train_y = data["train"]
    steps = epochs * math.ceil(len(train_x) / batch)
    opt = adamw(model, lr)
    set_lr = schedule(opt, lr, steps, warmup=0.1)
    best, best_state, best_epoch, history = -1.0, None, 0, []
    step = 0
    t0 = time.time()
    for epoch in range(epochs):
        model.train()
        perm = torch.randperm(len(train_x), generator=gen).tolist()
        total = 0.0
        for i in range(0, len(perm), batch):
            idx = perm[i : i + batch]
            ids, attn = pad_batch([train_x[j] for j in idx])
            dev = device_of(model)
            ids, attn = ids.to(dev), attn.to(dev)
            set_lr(step)
            logits, _ = model(ids, attn, torch.zeros_like(ids))
            loss = F.cross_entropy(logits, torch.tensor([train_y[j] for j in idx], device=dev))
            opt.zero_grad(set_to_none=True)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            total += loss.item() * len(idx)
            step += 1
        val = accuracy(model, *data["validation"])
        history.append({"epoch": epoch + 1, "train_loss": round(total / len(perm), 4), "validation_accuracy": round(val, 4)})
        log(f"  epoch {epoch + 1}/{epochs}: train loss {total / len(perm):.4f}, validation accuracy {val:.4f} ({time.time() - t0:.0f} s)")
        if val > best:
            best, best_state, best_epoch = val, copy.deepcopy(model.state_dict()), epoch + 1
    model.load_state_dict(best_state)
    model.eval()
    out = {"epochs": epochs, "batch": batch, "lr": lr, "history": history, "validation_accuracy": round(best, 4)}
    if "test" in data:
        test = accuracy(model, *data["test"])
        log(f"  best validation accuracy {best:.4f}; test accuracy {test:.4f} ({len(data['test'][0])} texts)")
        out.update({"test_accuracy": round(test, 4), "test_size": len(data["test"][0])})
    else:
        log(f"  best validation accuracy {best:.4f} (epoch {best_epoch} kept)")
    out["seconds"] = round(time.time() - t0, 1)
    return out


def train_lm(model: GPT2LMHeadModel, chunks: List[List[int]], steps: int, batch: int, lr: float, seed: int, log=print) -> dict:
    """Causal-LM training (next-piece cross-entropy) over the chunks."""
    return train_on_chunks(model, chunks, steps, batch, lr, seed, lambda ids, attn, _gen: lm_loss(model, ids, attn), "lm", log=log)


def lm_loss(model: GPT2LMHeadModel, ids: torch.Tensor, attn: torch.Tensor, reduction: str = "mean"):
    """Next-piece cross-entropy over the real positions after the first."""
    logits = model(ids, attn)[:, :-1]
    target = ids[:, 1:]
    keep = attn[:, 1:] == 1
    return F.cross_entropy(logits[keep], target[keep], reduction=reduction)


@torch.no_grad()
def perplexity(model: GPT2LMHeadModel, chunks: List[List[int]], batch: int = 64) -> float:
    model.eval()
    nll = 0.0
    n = 0
    for i in range(0, len(chunks), batch):
        ids, attn = pad_batch(chunks[i : i + batch])
        nll += lm_loss(model, ids, attn, reduction="sum").item()
        n += (attn[:, 1:] == 1).sum().item()
    return math.exp(nll / max(1, n))
