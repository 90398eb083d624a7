"""Weights as int8 shards: how a model trained on a lent GPU machine travels back under its return limits
(at most 8 files of 16 MiB, 64 MiB in all). Each matrix is stored as int8 with one float32 scale per output
row (symmetric, max-abs: w ≈ q · s_row, |q| ≤ 127); each vector as float32. The model exported from them is
the dequantized one, and every figure of it is measured on those weights."""
from __future__ import annotations

import os
from typing import Dict, List

import torch

SHARD_BYTES = 15 * 1024 * 1024


def quantize(state: Dict[str, torch.Tensor]) -> dict:
    """name → ("int8", int8 matrix, float32 row scales) for matrices, ("f32", tensor) for vectors."""
    q = {}
    for name, t in state.items():
        t = t.detach().float().cpu()
        if t.dim() == 2:
            scale = t.abs().amax(dim=1).clamp_min(1e-12) / 127.0
            q[name] = ("int8", torch.round(t / scale[:, None]).clamp(-127, 127).to(torch.int8), scale)
        else:
            q[name] = ("f32", t)
    return q


def dequantize(q: dict) -> Dict[str, torch.Tensor]:
    return {n: (v[1].float() * v[2][:, None]) if v[0] == "int8" else v[1] for n, v in q.items()}


def write_shards(q: dict, folder: str, prefix: str = "weights", limit: int = SHARD_BYTES) -> List[str]:
    """Greedy packing of the quantized tensors into torch files of ≤ `limit` bytes each; returns their names."""
    shards, current, size = [], {}, 0
    for name, v in q.items():
        n = sum(x.numel() * x.element_size() for x in v[1:])
        if current and size + n > limit:
            shards.append(current)
            current, size = {}, 0
        current[name] = v
        size += n
    if current:
        shards.append(current)
    os.makedirs(folder, exist_ok=True)
    names = []
    for i, s in enumerate(shards):
        name = f"{prefix}-{i}.pt"
        torch.save(s, os.path.join(folder, name))
        names.append(name)
    return names


def read_shards(folder: str, names: List[str]) -> dict:
    q = {}
    for n in names:
        q.update(torch.load(os.path.join(folder, n)))
    return q
