"""A hand-written BERT (Devlin et al. 2019) with Hugging Face's parameter names.

BertForSequenceClassification: embeddings (word + position + token type, LayerNorm), N post-LN layers
of multi-head self-attention and a GELU feed-forward block, a tanh pooler over [CLS], a linear
classifier. BertForMaskedLM: the same encoder without pooler, and the MLM head (dense + GELU +
LayerNorm, decoder tied to the word embeddings, its own bias). Every parameter's name is the one
`transformers` gives it, so a state dict loads into `transformers`' classes unchanged.
"""
from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F

NEG = torch.finfo(torch.float32).min  # HF's additive mask value for padded keys


@dataclass
class BertConfig:
    vocab_size: int
    hidden_size: int = 128
    num_hidden_layers: int = 2
    num_attention_heads: int = 2
    intermediate_size: int = 512
    max_position_embeddings: int = 128
    type_vocab_size: int = 2
    layer_norm_eps: float = 1e-12
    hidden_dropout_prob: float = 0.1
    attention_probs_dropout_prob: float = 0.1
    initializer_range: float = 0.02
    pad_token_id: int = 0
    labels: List[str] = field(default_factory=list)

    def hf(self, architecture: str) -> dict:
        """config.json in Hugging Face's layout."""
        cfg = {
            "architectures": [architecture],
            "model_type": "bert",
            "vocab_size": self.vocab_size,
            "hidden_size": self.hidden_size,
            "num_hidden_layers": self.num_hidden_layers,
            "num_attention_heads": self.num_attention_heads,
            "intermediate_size": self.intermediate_size,
            "max_position_embeddings": self.max_position_embeddings,
            "type_vocab_size": self.type_vocab_size,
            "hidden_act": "gelu",
            "hidden_dropout_prob": self.hidden_dropout_prob,
            "attention_probs_dropout_prob": self.attention_probs_dropout_prob,
            "initializer_range": self.initializer_range,
            "layer_norm_eps": self.layer_norm_eps,
            "pad_token_id": self.pad_token_id,
            "position_embedding_type": "absolute",
            "classifier_dropout": None,
            "torch_dtype": "float32",
        }
        if self.labels:
            cfg["id2label"] = {str(i): l for i, l in enumerate(self.labels)}
            cfg["label2id"] = {l: i for i, l in enumerate(self.labels)}
            cfg["problem_type"] = "single_label_classification"
        return cfg


class BertEmbeddings(nn.Module):
    def __init__(self, c: BertConfig):
        super().__init__()
        self.word_embeddings = nn.Embedding(c.vocab_size, c.hidden_size, padding_idx=c.pad_token_id)
        self.position_embeddings = nn.Embedding(c.max_position_embeddings, c.hidden_size)
        self.token_type_embeddings = nn.Embedding(c.type_vocab_size, c.hidden_size)
        self.LayerNorm = nn.LayerNorm(c.hidden_size, eps=c.layer_norm_eps)
        self.dropout = nn.Dropout(c.hidden_dropout_prob)

    def forward(self, input_ids, token_type_ids, inputs_embeds=None):
        if inputs_embeds is None:
            inputs_embeds = self.word_embeddings(input_ids)
        s = inputs_embeds.shape[1]
        pos = torch.arange(s, device=inputs_embeds.device).unsqueeze(0)
        h = inputs_embeds + self.position_embeddings(pos) + self.token_type_embeddings(token_type_ids)
        return self.dropout(self.LayerNorm(h))


class BertSelfAttention(nn.Module):
    def __init__(self, c: BertConfig):
        super().__init__()
        self.heads = c.num_attention_heads
        self.head_size = c.hidden_size // c.num_attention_heads
        self.query = nn.Linear(c.hidden_size, c.hidden_size)
        self.key = nn.Linear(c.hidden_size, c.hidden_size)
        self.value = nn.Linear(c.hidden_size, c.hidden_size)
        self.dropout = nn.Dropout(c.attention_probs_dropout_prob)

    def split(self, x):
        b, s, _ = x.shape
        return x.view(b, s, self.heads, self.head_size).transpose(1, 2)

    def forward(self, h, mask_add):
        q, k, v = self.split(self.query(h)), self.split(self.key(h)), self.split(self.value(h))
        scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(self.head_size) + mask_add
        probs = torch.softmax(scores, dim=-1)
        ctx = torch.matmul(self.dropout(probs), v).transpose(1, 2).reshape(h.shape)
        return ctx, probs


class BertSelfOutput(nn.Module):
    def __init__(self, c: BertConfig):
        super().__init__()
        self.dense = nn.Linear(c.hidden_size, c.hidden_size)
        self.LayerNorm = nn.LayerNorm(c.hidden_size, eps=c.layer_norm_eps)
        self.dropout = nn.Dropout(c.hidden_dropout_prob)

    def forward(self, x, residual):
        return self.LayerNorm(self.dropout(self.dense(x)) + residual)


class BertAttention(nn.Module):
    def __init__(self, c: BertConfig):
        super().__init__()
        self.self = BertSelfAttention(c)
        self.output = BertSelfOutput(c)

    def forward(self, h, mask_add):
        ctx, probs = self.self(h, mask_add)
        return self.output(ctx, h), probs


class BertIntermediate(nn.Module):
    def __init__(self, c: BertConfig):
        super().__init__()
        self.dense = nn.Linear(c.hidden_size, c.intermediate_size)

    def forward(self, x):
        return F.gelu(self.dense(x))


class BertOutput(nn.Module):
    def __init__(self, c: BertConfig):
        super().__init__()
        self.dense = nn.Linear(c.intermediate_size, c.hidden_size)
        self.LayerNorm = nn.LayerNorm(c.hidden_size, eps=c.layer_norm_eps)
        self.dropout = nn.Dropout(c.hidden_dropout_prob)

    def forward(self, x, residual):
        return self.LayerNorm(self.dropout(self.dense(x)) + residual)


class BertLayer(nn.Module):
    def __init__(self, c: BertConfig):
        super().__init__()
        self.attention = BertAttention(c)
        self.intermediate = BertIntermediate(c)
        self.output = BertOutput(c)

    def forward(self, h, mask_add):
        a, probs = self.attention(h, mask_add)
        return self.output(self.intermediate(a), a), probs


class BertEncoder(nn.Module):
    def __init__(self, c: BertConfig):
        super().__init__()
        self.layer = nn.ModuleList([BertLayer(c) for _ in range(c.num_hidden_layers)])

    def forward(self, h, mask_add):
        attentions = []
        for layer in self.layer:
            h, p = layer(h, mask_add)
            attentions.append(p)
        return h, attentions


class BertPooler(nn.Module):
    def __init__(self, c: BertConfig):
        super().__init__()
        self.dense = nn.Linear(c.hidden_size, c.hidden_size)

    def forward(self, h):
        return torch.tanh(self.dense(h[:, 0]))


def additive_mask(attention_mask: torch.Tensor) -> torch.Tensor:
    """[b, s] 0/1 mask → [b, 1, 1, s] additive mask: 0 for real keys, float32's minimum for padding (as HF)."""
    return (1.0 - attention_mask[:, None, None, :].to(torch.float32)) * NEG


class BertModel(nn.Module):
    def __init__(self, c: BertConfig, pooler: bool = True):
        super().__init__()
        self.config = c
        self.embeddings = BertEmbeddings(c)
        self.encoder = BertEncoder(c)
        self.pooler = BertPooler(c) if pooler else None

    def forward(self, input_ids, attention_mask, token_type_ids, inputs_embeds=None):
        h = self.embeddings(input_ids, token_type_ids, inputs_embeds)
        h, attentions = self.encoder(h, additive_mask(attention_mask))
        pooled = self.pooler(h) if self.pooler is not None else None
        return h, pooled, attentions


def init_weights(module: nn.Module, std: float) -> None:
    """BERT's initialisation: normal(0, 0.02) weights, zero biases, LayerNorm 1/0, padding row zero."""
    for m in module.modules():
        if isinstance(m, nn.Linear):
            nn.init.normal_(m.weight, 0.0, std)
            nn.init.zeros_(m.bias)
        elif isinstance(m, nn.Embedding):
            nn.init.normal_(m.weight, 0.0, std)
            if m.padding_idx is not None:
                with torch.no_grad():
                    m.weight[m.padding_idx].zero_()
        elif isinstance(m, nn.LayerNorm):
            nn.init.ones_(m.weight)
            nn.init.zeros_(m.bias)


class BertForSequenceClassification(nn.Module):
    def __init__(self, c: BertConfig):
        super().__init__()
        self.config = c
        self.bert = BertModel(c)
        self.dropout = nn.Dropout(c.hidden_dropout_prob)
        self.classifier = nn.Linear(c.hidden_size, len(c.labels))
        init_weights(self, c.initializer_range)

    def forward(self, input_ids, attention_mask, token_type_ids, inputs_embeds=None):
        _, pooled, attentions = self.bert(input_ids, attention_mask, token_type_ids, inputs_embeds)
        return self.classifier(self.dropout(pooled)), attentions


class BertPredictionHeadTransform(nn.Module):
    def __init__(self, c: BertConfig):
        super().__init__()
        self.dense = nn.Linear(c.hidden_size, c.hidden_size)
        self.LayerNorm = nn.LayerNorm(c.hidden_size, eps=c.layer_norm_eps)

    def forward(self, h):
        return self.LayerNorm(F.gelu(self.dense(h)))


class BertLMPredictionHead(nn.Module):
    def __init__(self, c: BertConfig, word_embeddings: nn.Embedding):
        super().__init__()
        self.transform = BertPredictionHeadTransform(c)
        self.bias = nn.Parameter(torch.zeros(c.vocab_size))
        self._tied = [word_embeddings]  # a list, so the tied matrix is not registered twice

    def forward(self, h):
        return F.linear(self.transform(h), self._tied[0].weight, self.bias)


class BertOnlyMLMHead(nn.Module):
    def __init__(self, c: BertConfig, word_embeddings: nn.Embedding):
        super().__init__()
        self.predictions = BertLMPredictionHead(c, word_embeddings)


class BertForMaskedLM(nn.Module):
    def __init__(self, c: BertConfig):
        super().__init__()
        self.config = c
        self.bert = BertModel(c, pooler=False)
        self.cls = BertOnlyMLMHead(c, self.bert.embeddings.word_embeddings)
        init_weights(self, c.initializer_range)

    def forward(self, input_ids, attention_mask, token_type_ids):
        h, _, _ = self.bert(input_ids, attention_mask, token_type_ids)
        return self.cls.predictions(h)

    def hf_state_dict(self) -> Dict[str, torch.Tensor]:
        """The state dict with HF's tied keys spelt out (cls.predictions.decoder.weight/bias)."""
        sd = dict(self.state_dict())
        sd["cls.predictions.decoder.weight"] = self.bert.embeddings.word_embeddings.weight
        sd["cls.predictions.decoder.bias"] = self.cls.predictions.bias
        return sd


def classifier_from_mlm(mlm: BertForMaskedLM, labels: List[str]) -> BertForSequenceClassification:
    """A sequence classifier over `labels` whose encoder is the masked LM's (Devlin et al. 2019, §3.2: fine-tuning
    starts from the pre-trained encoder); the pooler and the classifier are new, initialised from the global
    torch seed (the caller seeds it). Every encoder parameter must carry over: a missing or unexpected one is an error."""
    clf = BertForSequenceClassification(dataclasses.replace(mlm.config, labels=list(labels)))
    result = clf.bert.load_state_dict(mlm.bert.state_dict(), strict=False)
    if set(result.missing_keys) != {"pooler.dense.weight", "pooler.dense.bias"} or result.unexpected_keys:
        raise ValueError(f"the masked LM's encoder does not match the classifier's: missing {result.missing_keys}, unexpected {result.unexpected_keys}")
    return clf


class ClassifierExport(nn.Module):
    """model.onnx of a classifier: logits and every layer's softmax-ed attention probabilities."""

    def __init__(self, model: BertForSequenceClassification):
        super().__init__()
        self.model = model

    def forward(self, input_ids, attention_mask, token_type_ids):
        logits, attentions = self.model(input_ids, attention_mask, token_type_ids)
        return (logits, *attentions)
