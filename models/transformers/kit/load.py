"""Rebuilds the kit's torch modules from a Hugging Face folder: config.json + the ONNX graph's weights."""
from __future__ import annotations

import json
import os

import torch

from .bert import BertConfig, BertForMaskedLM, BertForSequenceClassification
from .gpt2 import GPT2Config, GPT2LMHeadModel
from .onnx_weights import state_dict_from_onnx
from .wordpiece import WordPiece


def _config(folder: str) -> dict:
    with open(os.path.join(folder, "config.json"), encoding="utf-8") as f:
        return json.load(f)


def bert_config_of(cfg: dict) -> BertConfig:
    labels = [cfg["id2label"][str(i)] for i in range(len(cfg["id2label"]))] if "id2label" in cfg else []
    return BertConfig(
        vocab_size=cfg["vocab_size"], hidden_size=cfg["hidden_size"], num_hidden_layers=cfg["num_hidden_layers"],
        num_attention_heads=cfg["num_attention_heads"], intermediate_size=cfg["intermediate_size"],
        max_position_embeddings=cfg["max_position_embeddings"], type_vocab_size=cfg["type_vocab_size"],
        layer_norm_eps=cfg["layer_norm_eps"], pad_token_id=cfg["pad_token_id"], labels=labels,
    )


def gpt2_config_of(cfg: dict) -> GPT2Config:
    return GPT2Config(
        vocab_size=cfg["vocab_size"], n_embd=cfg["n_embd"], n_layer=cfg["n_layer"], n_head=cfg["n_head"], n_inner=cfg["n_inner"],
        n_positions=cfg["n_positions"], layer_norm_epsilon=cfg["layer_norm_epsilon"], bos_token_id=cfg["bos_token_id"], eos_token_id=cfg["eos_token_id"],
        pad_token_id=cfg["pad_token_id"],
    )


def _load(module: torch.nn.Module, weights: dict, source: str) -> None:
    """Loads every parameter by name; a parameter the graph lacks is an error (no silent random weights)."""
    own = module.state_dict()
    missing = [k for k in own if k not in weights]
    if missing:
        raise ValueError(f"{source}: no initializer for {missing[:5]}{' …' if len(missing) > 5 else ''}")
    module.load_state_dict({k: torch.from_numpy(weights[k]) for k in own})


def load_wordpiece(folder: str) -> WordPiece:
    """The folder's WordPiece encoder: vocab.txt, cut at tokenizer_config.json's model_max_length (else config.json's
    max_position_embeddings) — the length transformers.js truncates to when xtrust runs the folder's graphs."""
    vocab_path = os.path.join(folder, "vocab.txt")
    if not os.path.exists(vocab_path):
        raise ValueError(f"{folder}: no vocab.txt (a kit model folder has one beside tokenizer.json)")
    with open(vocab_path, encoding="utf-8") as f:
        vocab = [line.rstrip("\n") for line in f]
    max_length = None
    tc = os.path.join(folder, "tokenizer_config.json")
    if os.path.exists(tc):
        with open(tc, encoding="utf-8") as f:
            max_length = json.load(f).get("model_max_length")
    if not isinstance(max_length, int):
        max_length = _config(folder)["max_position_embeddings"]
    return WordPiece(vocab, max_length)


def load_classifier(folder: str, graph: str = "model.onnx") -> BertForSequenceClassification:
    """BertForSequenceClassification with the weights of onnx/<graph> (model.onnx or model_grad.onnx)."""
    m = BertForSequenceClassification(bert_config_of(_config(folder)))
    path = os.path.join(folder, "onnx", graph)
    _load(m, state_dict_from_onnx(path, prefix="model."), path)
    return m.eval()


def load_mlm(folder: str) -> BertForMaskedLM:
    m = BertForMaskedLM(bert_config_of(_config(folder)))
    path = os.path.join(folder, "onnx", "model.onnx")
    _load(m, state_dict_from_onnx(path), path)
    return m.eval()


def load_gpt2(folder: str) -> GPT2LMHeadModel:
    m = GPT2LMHeadModel(gpt2_config_of(_config(folder)))
    path = os.path.join(folder, "onnx", "model.onnx")
    _load(m, state_dict_from_onnx(path), path)
    return m.eval()
