"""The attention kernels of the simulated device: scaled dot-product attention (flash, chunked, paged, decode) and
tt-train's attention forward and backward and its AdamW step, computed in f32 as the hardware's kernels accumulate."""

from __future__ import annotations

import math

import torch
import torch.nn.functional as F

from ttmlir.ir.op_table import TTML_LSE_WIDTH as LSE_WIDTH


ATTENTION_CHUNK = 32  # keys per step of the device's online softmax


def _flash_attention(q, k, v, bias, scale: float, sink=None):
    """Attention as tt-metal's flash kernels run it: keys a chunk at a time, with a running maximum, sum and
    output rescaled as each chunk arrives (online softmax). q [B, Hq, Sq, D], k and v [B, Hkv, Sk, .] (a key/value
    head serves Hq / Hkv query heads), bias [.., Sq, Sk] added to the scaled scores (-inf hides a key); the sink,
    one logit per head, is scaled like the scores and joins every row's denominator."""
    group = q.shape[1] // k.shape[1]
    k, v = k.repeat_interleave(group, 1), v.repeat_interleave(group, 1)
    rows = q.shape[:3]
    top, total, out = torch.full(rows, -math.inf), torch.zeros(rows), torch.zeros(*rows, v.shape[-1])

    def absorb(scores, values):
        nonlocal top, total, out
        new_top = torch.maximum(top, scores.amax(-1))
        base = torch.where(new_top.isinf(), torch.zeros_like(new_top), new_top)
        weights, keep = torch.exp(scores - base[..., None]), torch.exp(top - base)
        total, out, top = total * keep + weights.sum(-1), out * keep[..., None] + weights @ values, new_top

    for start in range(0, k.shape[2], ATTENTION_CHUNK):
        chunk = slice(start, start + ATTENTION_CHUNK)
        absorb((q @ k[:, :, chunk].transpose(-1, -2)) * scale + bias[..., chunk], v[:, :, chunk])
    if sink is not None:
        logit = (sink.reshape(q.shape[1], -1)[:, 0] * scale).reshape(1, -1, 1, 1).expand(*rows, 1)
        absorb(logit, torch.zeros(1, 1, 1, v.shape[-1]))
    return out / total[..., None]


def _visible(queries, keys: int, causal: bool, window: int | None):
    """Additive bias of the keys each query sees: causal ones up to its position (the last `window` of them), or,
    not causal, those in a window of `window` centred on it. `queries` are the positions, one per query row."""
    t, s = torch.arange(keys), queries[..., None]
    seen = t <= s if causal else torch.ones_like(t <= s)
    if window is not None:
        seen &= (t > s - window) if causal else ((t - s).abs() <= window // 2)
    return torch.where(seen, 0.0, -math.inf)


def _paged(cache, table, user: int):
    """User `user`'s keys (or values): its page table's blocks of the cache in order, [heads, positions, size]."""
    blocks = cache[table[user].long()]
    return blocks.permute(1, 0, 2, 3).reshape(cache.shape[1], -1, cache.shape[3])


def _scale(t, size: int) -> float:
    return t.scale if t.scale is not None else 1 / math.sqrt(size)


def sdpa(x, t):
    q, k = x["query"], x["key"]
    v = x["value"] if x.get("value") is not None else k[..., :t.headDimV]
    bias = _visible(torch.arange(q.shape[2]), k.shape[2], t.isCausal and x.get("attention_mask") is None,
                    t.slidingWindowSize)
    if x.get("attention_mask") is not None:
        bias = bias + x["attention_mask"]
    return _flash_attention(q, k, v, bias, _scale(t, q.shape[-1]), x.get("attention_sink"))


def sdpa_decode(x, t):
    """One query token per user ([1, B, Hq, D]) at its position (cur_pos, else the last key), over the user's keys
    (from its pages when the cache is paged)."""
    q = x["query"].permute(1, 2, 0, 3)
    table, mask, size = x.get("page_table"), x.get("attention_mask"), q.shape[-1]
    out = []
    for user in range(q.shape[0]):
        k = x["key"][user] if table is None else _paged(x["key"], table, user)
        v = (x["value"][user] if table is None else _paged(x["value"], table, user)) \
            if x.get("value") is not None else k[..., :t.headDimV]
        position = int(x["cur_pos_tensor"][user]) if x.get("cur_pos_tensor") is not None else k.shape[1] - 1
        bias = _visible(torch.tensor([position]), k.shape[1], t.isCausal, t.slidingWindowSize)
        if mask is not None:
            bias = bias + mask[user % mask.shape[0]].permute(1, 0, 2)
        out.append(_flash_attention(q[user:user + 1], k[None], v[None], bias, _scale(t, size), x.get("attention_sink")))
    return torch.cat(out).permute(2, 0, 1, 3)


def chunked_sdpa(x, t):
    """A prompt chunk whose first token is at chunk_start_idx, attending causally over each user's pages."""
    q, table = x["query"], x["page_table"]
    positions = int(x["chunk_start_idx"].reshape(-1)[0]) + torch.arange(q.shape[2])
    out = []
    for user in range(q.shape[0]):
        k, v = _paged(x["key"], table, user), _paged(x["value"], table, user)
        bias = _visible(positions, k.shape[1], True, None)
        out.append(_flash_attention(q[user:user + 1], k[None], v[None], bias, _scale(t, q.shape[-1])))
    return torch.cat(out)


def indexer_score(x, t):
    """Per query and key: each head's relu(q · k) weighted by that head's gate, summed; future keys are -inf."""
    q, k, w = x["query"], x["key"], x["weights"]
    scores = (torch.relu(q @ k.transpose(-1, -2)) * w).sum(1, keepdim=True)
    return scores + _visible(t.chunkStartIdx + torch.arange(q.shape[2]), k.shape[2], True, None)


def _round_stochastically(x: torch.Tensor, generator: torch.Generator) -> torch.Tensor:
    """f32 to bf16 rounding up with probability equal to the dropped fraction (a random 16-bit carry into the
    kept bits), as the packer's stochastic rounding does."""
    bits = x.contiguous().view(torch.int32)
    noise = torch.randint(0, 1 << 16, bits.shape, generator=generator, dtype=torch.int32)
    return ((bits + noise) & ~0xFFFF).view(torch.float32).to(torch.bfloat16)


def adamw(x, t):
    """One AdamW step (decoupled weight decay, bias corrections from beta^t), AMSGrad when max_exp_avg_sq is given:
    the new param, exp_avg, exp_avg_sq (and max_exp_avg_sq), each in its operand's storage type."""
    names = ("param", "exp_avg", "exp_avg_sq", "max_exp_avg_sq")
    param, grad, m, v, top = (x[n].float() if x.get(n) is not None else None for n in ("param", "grad", *names[1:]))
    m = t.beta1 * m + (1 - t.beta1) * grad
    v = t.beta2 * v + (1 - t.beta2) * grad * grad
    top = torch.maximum(top, v) if top is not None else None
    second = (top if top is not None else v) / (1 - t.beta2Pow)
    param = param * (1 - t.lr * t.weightDecay) - t.lr * (m / (1 - t.beta1Pow)) / (second.sqrt() + t.epsilon)
    generator = torch.Generator().manual_seed(0)
    out = []
    for name, value in zip(names, (param, m, v, top)):
        if value is not None:
            stored = x[name].dtype
            out.append(_round_stochastically(value, generator) if t.stochasticRounding and stored == torch.bfloat16
                       else value.to(stored))
    return tuple(out)


TTML_MASK_NONE, TTML_MASK_CAUSAL = 0, 1
TTML_MASKED = -1e9  # what ttml's kernels add to the score of a key its 1/0 mask hides


def _ttml_scores(x, t, q, k):
    """q · kᵀ / sqrt(D) with ttml's masking (none, causal, or an arbitrary 1/0 mask) for each query head (a key
    head serves q heads / k heads of them)."""
    if t.dropoutProbability:
        raise ValueError(f"dropout_probability must be 0.0 (ttml's attention has no dropout), got {t.dropoutProbability}")
    k = k.repeat_interleave(q.shape[1] // k.shape[1], 1)
    scores = q @ k.transpose(-1, -2) / math.sqrt(q.shape[-1])
    if t.maskType == TTML_MASK_CAUSAL:
        return scores + _visible(torch.arange(q.shape[2]), k.shape[2], True, None)
    if t.maskType != TTML_MASK_NONE:
        return scores + (1 - x["attention_mask"]) * TTML_MASKED
    return scores


def sdpa_fw(x, t):
    q, k, v = x["query"], x["key"], x["value"]
    scores = _ttml_scores(x, t, q, k)
    lse = torch.logsumexp(scores, -1, keepdim=True)
    out = torch.exp(scores - lse) @ v.repeat_interleave(q.shape[1] // v.shape[1], 1)
    if not t.returnIntermediates:
        return out
    return out, F.pad(lse, (0, LSE_WIDTH - 1))


def sdpa_bw(x, t):
    """Query, key and value gradients from the output's gradient, recomputing the attention weights from the
    forward pass's log-sum-exp; a key/value head's gradient sums those of the query heads it serves."""
    grad, out, q, k, v = (x[n] for n in ("grad_output", "attn_output", "query", "key", "value"))
    group, scale = q.shape[1] // k.shape[1], 1 / math.sqrt(q.shape[-1])
    weights = torch.exp(_ttml_scores(x, t, q, k) - x["intermediates"][..., :1])
    grad_v = weights.transpose(-1, -2) @ grad
    grad_scores = weights * (grad @ v.repeat_interleave(group, 1).transpose(-1, -2) - (grad * out).sum(-1, keepdim=True))
    grad_q = grad_scores @ k.repeat_interleave(group, 1) * scale
    grad_k = grad_scores.transpose(-1, -2) @ q * scale

    def per_kv_head(g):
        return g.reshape(g.shape[0], -1, group, *g.shape[2:]).sum(2)
    return grad_q, per_kv_head(grad_k), per_kv_head(grad_v)
