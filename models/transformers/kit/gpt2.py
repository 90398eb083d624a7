"""A GPT-2-architecture causal LM (Radford et al. 2019) with Hugging Face's GPT2LMHeadModel names.

Pre-LN blocks (ln_1 → causal self-attention → residual, ln_2 → GELU MLP → residual), learned positions,
a final LayerNorm and an LM head tied to the token embeddings. Projections are HF's Conv1D (weight
[in, out], y = x·W + b), so the state dict loads into `transformers`' GPT2LMHeadModel unchanged.
The activation is the exact erf GELU (config `activation_function: "gelu"`).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Dict

import torch
import torch.nn as nn
import torch.nn.functional as F

NEG = torch.finfo(torch.float32).min


@dataclass
class GPT2Config:
    vocab_size: int
    n_embd: int = 128
    n_layer: int = 2
    n_head: int = 2
    n_inner: int = 512
    n_positions: int = 128
    layer_norm_epsilon: float = 1e-5
    dropout: float = 0.1
    initializer_range: float = 0.02
    bos_token_id: int = 2
    eos_token_id: int = 3
    pad_token_id: int = 0

    def hf(self) -> dict:
        return {
            "architectures": ["GPT2LMHeadModel"],
            "model_type": "gpt2",
            "vocab_size": self.vocab_size,
            "n_embd": self.n_embd,
            "n_layer": self.n_layer,
            "n_head": self.n_head,
            "n_inner": self.n_inner,
            "n_positions": self.n_positions,
            "n_ctx": self.n_positions,
            # the contract's common keys, spelt the BERT way as well, for readers that expect them
            "hidden_size": self.n_embd,
            "num_hidden_layers": self.n_layer,
            "num_attention_heads": self.n_head,
            "intermediate_size": self.n_inner,
            "max_position_embeddings": self.n_positions,
            "type_vocab_size": 1,
            "hidden_act": "gelu",
            "activation_function": "gelu",
            "layer_norm_epsilon": self.layer_norm_epsilon,
            "layer_norm_eps": self.layer_norm_epsilon,
            "resid_pdrop": self.dropout,
            "embd_pdrop": self.dropout,
            "attn_pdrop": self.dropout,
            "initializer_range": self.initializer_range,
            "scale_attn_weights": True,
            "tie_word_embeddings": True,
            "bos_token_id": self.bos_token_id,
            "eos_token_id": self.eos_token_id,
            "pad_token_id": self.pad_token_id,
            "use_cache": False,
            "torch_dtype": "float32",
        }


class Conv1D(nn.Module):
    """HF's Conv1D: a linear layer with its weight stored [in, out]."""

    def __init__(self, n_out: int, n_in: int):
        super().__init__()
        self.weight = nn.Parameter(torch.empty(n_in, n_out))
        self.bias = nn.Parameter(torch.zeros(n_out))

    def forward(self, x):
        return torch.matmul(x, self.weight) + self.bias


class GPT2Attention(nn.Module):
    def __init__(self, c: GPT2Config):
        super().__init__()
        self.n_head = c.n_head
        self.head_dim = c.n_embd // c.n_head
        self.c_attn = Conv1D(3 * c.n_embd, c.n_embd)
        self.c_proj = Conv1D(c.n_embd, c.n_embd)
        self.attn_dropout = nn.Dropout(c.dropout)
        self.resid_dropout = nn.Dropout(c.dropout)

    def forward(self, x, mask_add):
        b, s, d = x.shape
        q, k, v = self.c_attn(x).split(d, dim=2)
        q, k, v = (t.view(b, s, self.n_head, self.head_dim).transpose(1, 2) for t in (q, k, v))
        scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(self.head_dim) + mask_add
        probs = self.attn_dropout(torch.softmax(scores, dim=-1))
        out = torch.matmul(probs, v).transpose(1, 2).reshape(b, s, d)
        return self.resid_dropout(self.c_proj(out))


class GPT2MLP(nn.Module):
    def __init__(self, c: GPT2Config):
        super().__init__()
        self.c_fc = Conv1D(c.n_inner, c.n_embd)
        self.c_proj = Conv1D(c.n_embd, c.n_inner)
        self.dropout = nn.Dropout(c.dropout)

    def forward(self, x):
        return self.dropout(self.c_proj(F.gelu(self.c_fc(x))))


class GPT2Block(nn.Module):
    def __init__(self, c: GPT2Config):
        super().__init__()
        self.ln_1 = nn.LayerNorm(c.n_embd, eps=c.layer_norm_epsilon)
        self.attn = GPT2Attention(c)
        self.ln_2 = nn.LayerNorm(c.n_embd, eps=c.layer_norm_epsilon)
        self.mlp = GPT2MLP(c)

    def forward(self, x, mask_add):
        x = x + self.attn(self.ln_1(x), mask_add)
        return x + self.mlp(self.ln_2(x))


class GPT2Model(nn.Module):
    def __init__(self, c: GPT2Config):
        super().__init__()
        self.wte = nn.Embedding(c.vocab_size, c.n_embd)
        self.wpe = nn.Embedding(c.n_positions, c.n_embd)
        self.drop = nn.Dropout(c.dropout)
        self.h = nn.ModuleList([GPT2Block(c) for _ in range(c.n_layer)])
        self.ln_f = nn.LayerNorm(c.n_embd, eps=c.layer_norm_epsilon)

    def forward(self, input_ids, attention_mask):
        b, s = input_ids.shape
        pos = torch.arange(s, device=input_ids.device).unsqueeze(0)
        x = self.drop(self.wte(input_ids) + self.wpe(pos))
        causal = torch.ones(s, s, device=input_ids.device).tril().view(1, 1, s, s)
        keep = causal * attention_mask[:, None, None, :].to(torch.float32)
        mask_add = (1.0 - keep) * NEG
        for block in self.h:
            x = block(x, mask_add)
        return self.ln_f(x)


class GPT2LMHeadModel(nn.Module):
    def __init__(self, c: GPT2Config):
        super().__init__()
        self.config = c
        self.transformer = GPT2Model(c)
        self._init(c)

    def _init(self, c: GPT2Config):
        for name, p in self.named_parameters():
            if name.endswith("bias"):
                nn.init.zeros_(p)
            elif ".ln_" in name or "ln_f" in name:
                nn.init.ones_(p)
            else:
                nn.init.normal_(p, 0.0, c.initializer_range)
        # GPT-2's scaled init of the residual projections
        for name, p in self.named_parameters():
            if name.endswith("c_proj.weight"):
                nn.init.normal_(p, 0.0, c.initializer_range / math.sqrt(2 * c.n_layer))

    def forward(self, input_ids, attention_mask):
        return F.linear(self.transformer(input_ids, attention_mask), self.transformer.wte.weight)

    def hf_state_dict(self) -> Dict[str, torch.Tensor]:
        sd = dict(self.state_dict())
        sd["lm_head.weight"] = self.transformer.wte.weight
        return sd
