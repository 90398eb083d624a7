"""The corpora written by export-corpora.mjs, encoded with the kit's WordPiece tokenizer."""
from __future__ import annotations

import json
import os
from typing import Dict, List, Sequence, Tuple

import torch

from .wordpiece import CLS, SEP, WordPiece

PRETRAIN_CORPORA = ("brown", "brown-other", "sotu", "spam")


def read_jsonl(path: str) -> List[dict]:
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


CORPORA = ("brown", "brown-other", "sotu", "spam", "spam-headers", "brown-shortcut")


def load_corpora(folder: str, names: Sequence[str] = CORPORA) -> Dict[str, List[dict]]:
    """The named corpora's rows (default: every corpus export-corpora.mjs writes); a missing file stops with how to make it."""
    out = {}
    for n in names:
        p = os.path.join(folder, f"{n}.jsonl")
        if not os.path.exists(p):
            raise SystemExit(f"{p}: missing (run node models/transformers/export-corpora.mjs first)")
        out[n] = read_jsonl(p)
    return out


def pretraining_texts(corpora: Dict[str, List[dict]]) -> List[str]:
    """Unlabelled text for the tokenizer and the language models: every non-test row of Brown, SOTU and SpamAssassin bodies.

    Test rows are left out so the classifiers' held-out texts were never seen, not even unlabelled."""
    return [r["text"] for n in PRETRAIN_CORPORA for r in corpora[n] if r["split"] != "test"]


def lm_chunks(tok: WordPiece, texts: Sequence[str], length: int) -> List[List[int]]:
    """Each text's word pieces cut into runs of length − 2, each wrapped in [CLS] … [SEP]."""
    cls, sep = tok.ids[CLS], tok.ids[SEP]
    n = length - 2
    chunks = []
    for t in texts:
        ids = tok.encode_words(t)
        for i in range(0, max(len(ids), 1), n):
            piece = ids[i : i + n]
            if piece:
                chunks.append([cls] + piece + [sep])
    return chunks


def pad_batch(seqs: Sequence[Sequence[int]], pad_id: int = 0) -> Tuple[torch.Tensor, torch.Tensor]:
    s = max(1, max(len(x) for x in seqs))
    ids = torch.full((len(seqs), s), pad_id, dtype=torch.long)
    mask = torch.zeros((len(seqs), s), dtype=torch.long)
    for i, x in enumerate(seqs):
        ids[i, : len(x)] = torch.tensor(x, dtype=torch.long)
        mask[i, : len(x)] = 1
    return ids, mask


def labelled(tok: WordPiece, rows: Sequence[dict], labels: Sequence[str]) -> Dict[str, Tuple[List[List[int]], List[int]]]:
    """split → (ids truncated as transformers.js truncates, label indices)."""
    index = {l: i for i, l in enumerate(labels)}
    out: Dict[str, Tuple[List[List[int]], List[int]]] = {}
    for r in rows:
        ids, ys = out.setdefault(r["split"], ([], []))
        ids.append(tok.encode(r["text"]))
        ys.append(index[r["label"]])
    return out
