"""The gradient graph of a BERT classifier, with its backward pass written out.

torch 1.13 cannot export autograd to ONNX, so `GradientGraph.forward` runs the classifier's forward pass
keeping its intermediates and then the reverse-mode pass by hand: the classifier head, the pooler's
tanh, each layer's output LayerNorm, the exact (erf) GELU feed-forward block, the attention output
LayerNorm, softmax attention with the additive mask, the Q/K/V projections, and the embedding
LayerNorm, adding the gradients that meet at every residual connection. It computes

    gradients[b] = ∂ (Σ_c output_weights[b, c] · logits[b, c]) / ∂ x[b],   x = embedding_scale ⊙ E[input_ids]

(the contract's `model_grad.onnx`). `check_against_autograd` compares it with torch autograd.
"""
from __future__ import annotations

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

from .bert import BertForSequenceClassification, additive_mask

INV_SQRT2 = 1.0 / math.sqrt(2.0)
INV_SQRT2PI = 1.0 / math.sqrt(2.0 * math.pi)


def _ln_forward(x, ln: nn.LayerNorm):
    mu = x.mean(-1, keepdim=True)
    xc = x - mu
    var = (xc * xc).mean(-1, keepdim=True)
    rstd = torch.rsqrt(var + ln.eps)
    xhat = xc * rstd
    return xhat * ln.weight + ln.bias, xhat, rstd


def _ln_backward(dy, xhat, rstd, ln: nn.LayerNorm):
    """d/dx of y = γ·(x − μ)/σ + β:  (1/σ)·(g − mean(g) − x̂·mean(g·x̂)),  g = dy·γ."""
    g = dy * ln.weight
    return rstd * (g - g.mean(-1, keepdim=True) - xhat * (g * xhat).mean(-1, keepdim=True))


def _gelu_grad(u):
    """d/du of u·Φ(u) = Φ(u) + u·φ(u) (exact, erf-based GELU)."""
    cdf = 0.5 * (1.0 + torch.erf(u * INV_SQRT2))
    pdf = torch.exp(-0.5 * u * u) * INV_SQRT2PI
    return cdf + u * pdf


class GradientGraph(nn.Module):
    def __init__(self, model: BertForSequenceClassification):
        super().__init__()
        self.model = model
        c = model.config
        self.heads = c.num_attention_heads
        self.head_size = c.hidden_size // c.num_attention_heads

    def _split(self, x):
        b, s, _ = x.shape
        return x.view(b, s, self.heads, self.head_size).transpose(1, 2)

    def _merge(self, x):
        b, h, s, d = x.shape
        return x.transpose(1, 2).reshape(b, s, h * d)

    def forward(self, input_ids, attention_mask, token_type_ids, embedding_scale, output_weights):
        bert = self.model.bert
        emb = bert.embeddings
        inputs_embeds = emb.word_embeddings(input_ids)
        x = inputs_embeds * embedding_scale.unsqueeze(-1)
        s = input_ids.shape[1]
        pos = torch.arange(s, device=input_ids.device).unsqueeze(0)
        h, ln0_xhat, ln0_rstd = _ln_forward(x + emb.position_embeddings(pos) + emb.token_type_embeddings(token_type_ids), emb.LayerNorm)
        mask_add = additive_mask(attention_mask)
        scale = 1.0 / math.sqrt(self.head_size)

        saved = []
        for layer in bert.encoder.layer:
            att = layer.attention.self
            q, k, v = self._split(att.query(h)), self._split(att.key(h)), self._split(att.value(h))
            probs = torch.softmax(torch.matmul(q, k.transpose(-1, -2)) * scale + mask_add, dim=-1)
            ctx = self._merge(torch.matmul(probs, v))
            a, ln1_xhat, ln1_rstd = _ln_forward(layer.attention.output.dense(ctx) + h, layer.attention.output.LayerNorm)
            u = layer.intermediate.dense(a)
            o = layer.output.dense(F.gelu(u))
            h_next, ln2_xhat, ln2_rstd = _ln_forward(o + a, layer.output.LayerNorm)
            saved.append((q, k, v, probs, ln1_xhat, ln1_rstd, u, ln2_xhat, ln2_rstd))
            h = h_next

        pooled = torch.tanh(bert.pooler.dense(h[:, 0]))
        logits = self.model.classifier(pooled)

        # ---- backward ----
        d_pooled = torch.matmul(output_weights, self.model.classifier.weight)        # [b, D]
        d_pre = d_pooled * (1.0 - pooled * pooled)                                 # tanh'
        d_cls = torch.matmul(d_pre, bert.pooler.dense.weight)                      # [b, D]
        first = (torch.arange(s, device=input_ids.device) == 0).to(torch.float32)  # only [CLS] feeds the pooler
        dh = first.view(1, s, 1) * d_cls.unsqueeze(1)                              # [b, s, D]

        for layer, (q, k, v, probs, ln1_xhat, ln1_rstd, u, ln2_xhat, ln2_rstd) in zip(reversed(bert.encoder.layer), reversed(saved)):
            # h_next = LN2(o + a)
            dz2 = _ln_backward(dh, ln2_xhat, ln2_rstd, layer.output.LayerNorm)
            dg = torch.matmul(dz2, layer.output.dense.weight)                      # through o = W_out g + b
            du = dg * _gelu_grad(u)
            da = dz2 + torch.matmul(du, layer.intermediate.dense.weight)            # residual + FFN input
            # a = LN1(W_o ctx + b + h)
            dz1 = _ln_backward(da, ln1_xhat, ln1_rstd, layer.attention.output.LayerNorm)
            dctx = self._split(torch.matmul(dz1, layer.attention.output.dense.weight))
            dprobs = torch.matmul(dctx, v.transpose(-1, -2))
            dv = torch.matmul(probs.transpose(-1, -2), dctx)
            dscores = probs * (dprobs - (dprobs * probs).sum(-1, keepdim=True))    # softmax'; the mask is additive
            dq = torch.matmul(dscores, k) * scale
            dk = torch.matmul(dscores.transpose(-1, -2), q) * scale
            att = layer.attention.self
            dh = (
                dz1
                + torch.matmul(self._merge(dq), att.query.weight)
                + torch.matmul(self._merge(dk), att.key.weight)
                + torch.matmul(self._merge(dv), att.value.weight)
            )

        gradients = _ln_backward(dh, ln0_xhat, ln0_rstd, emb.LayerNorm)
        return logits, inputs_embeds, gradients


def autograd_gradients(model: BertForSequenceClassification, input_ids, attention_mask, token_type_ids, embedding_scale, output_weights):
    """The same quantity by torch autograd through the model's own forward pass (the check's reference)."""
    with torch.enable_grad():
        e = model.bert.embeddings.word_embeddings(input_ids).detach()
        x = (e * embedding_scale.unsqueeze(-1)).requires_grad_(True)
        logits, _ = model(input_ids, attention_mask, token_type_ids, inputs_embeds=x)
        (logits * output_weights).sum().backward()
    return logits.detach(), e, x.grad.detach()


def check_against_autograd(model: BertForSequenceClassification, batch, log=print) -> dict:
    """Max abs difference of GradientGraph's gradients (and logits) from autograd's, relative to the gradient's scale."""
    model.eval()
    g = GradientGraph(model).eval()
    with torch.no_grad():
        logits, emb, grads = g(*batch)
    ref_logits, ref_emb, ref_grads = autograd_gradients(model, *batch)
    diff = (grads - ref_grads).abs().max().item()
    scale = ref_grads.abs().max().item()
    res = {
        "gradient_max_abs_diff": diff,
        "gradient_max_abs": scale,
        "relative": diff / max(scale, 1e-30),
        "logits_max_abs_diff": (logits - ref_logits).abs().max().item(),
        "inputs_embeds_max_abs_diff": (emb - ref_emb).abs().max().item(),
    }
    log(f"gradient graph vs autograd: max |Δgrad| = {diff:.3e} (max |grad| {scale:.3e}, relative {res['relative']:.3e}), max |Δlogits| = {res['logits_max_abs_diff']:.3e}")
    assert res["relative"] <= 1e-4, f"explicit backward differs from autograd: {res}"
    assert res["logits_max_abs_diff"] <= 1e-5, f"gradient graph logits differ: {res}"
    return res
