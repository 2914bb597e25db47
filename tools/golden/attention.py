"""Goldens of the attention ops: scaled dot-product attention (prefill, decode, paged, with sinks), the indexer
score, tt-train's attention and its gradients, computed in f64 from their definitions."""

from __future__ import annotations

import math

import torch
import torch.nn.functional as F
from golden.values import Golden



def _reference_attention(q, k, v, bias, scale: float, sink=None):
    """softmax(q kᵀ scale + bias) v in float64, every key (and the sink, one logit per query head) in one softmax;
    query heads grouped explicitly over the key/value heads they share."""
    batch, heads, queries, _ = q.shape
    grouped = q.double().reshape(batch, k.shape[1], heads // k.shape[1], queries, -1)
    scores = torch.einsum("bhgqd,bhkd->bhgqk", grouped, k.double()).reshape(batch, heads, queries, -1) * scale
    scores = scores + bias
    if sink is not None:
        scores = torch.cat([scores, sink.double().reshape(heads, -1)[:, :1].reshape(1, heads, 1, 1)
                            .expand(batch, heads, queries, 1)], -1)
    weights = torch.softmax(scores, -1)[..., :k.shape[2]]
    grouped = weights.reshape(batch, k.shape[1], heads // k.shape[1], queries, -1)
    return torch.einsum("bhgqk,bhkd->bhgqd", grouped, v.double()).reshape(batch, heads, queries, -1).float()


def _hidden(seen: torch.Tensor) -> torch.Tensor:
    return torch.zeros(seen.shape, dtype=torch.float64).masked_fill(~seen, -math.inf)


def _scale(a: dict, size: int) -> float:
    return a["scale"] if a.get("scale") is not None else size ** -0.5


def _sink(x: dict, a: dict, size: int, scaled: bool):
    """The sink as a logit; TTNN's kernels scale it like the scores (its conversion divided it by the scale)."""
    sink = x.get("attention_sink")
    return sink * _scale(a, size) if sink is not None and scaled else sink


def sdpa_golden(scaled_sink: bool) -> Golden:
    def golden(x, a):
        q, k = x["query"], x["key"]
        v = x["value"] if x.get("value") is not None else k[..., :a.get("head_dim_v")]
        ones = torch.ones(q.shape[2], k.shape[2], dtype=torch.bool)
        window, causal = a.get("sliding_window_size"), a["is_causal"] and x.get("attention_mask") is None
        seen = ones.tril() if causal else ones
        if window:
            seen = seen & (ones.triu(1 - window) if causal else ones.tril(window // 2).triu(-(window // 2)))
        bias = _hidden(seen) + (x["attention_mask"].double() if x.get("attention_mask") is not None else 0)
        return _reference_attention(q, k, v, bias, _scale(a, q.shape[-1]), _sink(x, a, q.shape[-1], scaled_sink))
    return golden


def _user_pages(cache, table):
    """Each user's blocks of a paged cache, in page table order: [users, heads, positions, size]."""
    return cache[table.long()].transpose(1, 2).flatten(2, 3)


def decode_golden(scaled_sink: bool) -> Golden:
    """One query token per user ([1, B, Hq, D]) at its decode position (cur_pos, else the last key)."""
    def golden(x, a):
        table = x.get("page_table")
        k = x["key"] if table is None else _user_pages(x["key"], table)
        v = k[..., :a.get("head_dim_v")] if x.get("value") is None else \
            x["value"] if table is None else _user_pages(x["value"], table)
        q, keys = x["query"].permute(1, 2, 0, 3), torch.arange(k.shape[2])
        positions = x["cur_pos_tensor"].reshape(-1, 1).long() if x.get("cur_pos_tensor") is not None else \
            torch.full((q.shape[0], 1), k.shape[2] - 1)
        seen = keys <= positions if a["is_causal"] else torch.ones(q.shape[0], k.shape[2], dtype=torch.bool)
        if a.get("sliding_window_size"):
            seen = seen & (keys > positions - a["sliding_window_size"])
        bias = _hidden(seen)[:, None, None, :]
        if x.get("attention_mask") is not None:
            bias = bias + x["attention_mask"].double().transpose(1, 2)
        out = _reference_attention(q, k, v, bias, _scale(a, q.shape[-1]), _sink(x, a, q.shape[-1], scaled_sink))
        return out.permute(2, 0, 1, 3)
    return golden


def chunked_sdpa(x, a):
    """A prompt chunk from position chunk_start_idx on, attending causally over each user's pages."""
    q = x["query"]
    k, v = (_user_pages(x[name], x["page_table"]) for name in ("key", "value"))
    start = int(x["chunk_start_idx"].reshape(-1)[0])
    seen = torch.ones(q.shape[2], k.shape[2], dtype=torch.bool).tril(start)
    return _reference_attention(q, k, v, _hidden(seen), _scale(a, q.shape[-1]))


def indexer_score_dsa(x, a):
    q, k, w = (x[name].double() for name in ("query", "key", "weights"))
    per_head = torch.relu(torch.einsum("bhsd,btd->bhst", q, k[:, 0]))
    weighted = torch.einsum("bhst,bhs->bst", per_head, w[..., 0])
    seen = torch.ones(q.shape[2], k.shape[2], dtype=torch.bool).tril(a["chunk_start_idx"])
    return (weighted + _hidden(seen)).unsqueeze(1).float()


def adamw(x, a):
    """torch.optim.AdamW's step from the given state, step t where beta1^t = beta1_pow (AMSGrad with max_exp_avg_sq)."""
    param = torch.nn.Parameter(x["param"].double().clone())
    param.grad = x["grad"].double()
    amsgrad = x.get("max_exp_avg_sq") is not None
    optimizer = torch.optim.AdamW([param], lr=a["lr"], betas=(a["beta1"], a["beta2"]), eps=a["epsilon"],
                                  weight_decay=a["weight_decay"], amsgrad=amsgrad)
    step = math.log(a["beta1_pow"]) / math.log(a["beta1"])  # beta2_pow is beta2 to the same step
    optimizer.state[param] = {"step": torch.tensor(step - 1, dtype=torch.float64),
                              "exp_avg": x["exp_avg"].double().clone(), "exp_avg_sq": x["exp_avg_sq"].double().clone(),
                              **({"max_exp_avg_sq": x["max_exp_avg_sq"].double().clone()} if amsgrad else {})}
    optimizer.step()
    state = optimizer.state[param]
    names = ("exp_avg", "exp_avg_sq") + (("max_exp_avg_sq",) if amsgrad else ())
    return (param.detach().float(), *(state[n].float() for n in names))


def _ttml_attention(q, k, v, x, a):
    """torch's attention with ttml's masking: causal, none, or a 1/0 mask (0 adds -1e9 to a score)."""
    group = q.shape[1] // k.shape[1]
    k, v = k.repeat_interleave(group, 1), v.repeat_interleave(group, 1)
    kind = a["mask_type"].data.value
    mask = None if kind == "none" else torch.ones(q.shape[2], k.shape[2], dtype=torch.bool).tril() \
        if kind == "causal" else (1 - x["attention_mask"].double()) * -1e9
    scores = q @ k.transpose(-1, -2) / math.sqrt(q.shape[-1])
    scores = scores.masked_fill(~mask, -math.inf) if kind == "causal" else scores + mask if mask is not None else scores
    return torch.softmax(scores, -1) @ v, torch.logsumexp(scores, -1, keepdim=True)


def sdpa_fw(x, a):
    out, lse = _ttml_attention(*(x[n].double() for n in ("query", "key", "value")), x, a)
    if not a["return_intermediates"]:
        return out.float()
    return out.float(), F.pad(lse, (0, 31)).float()


def sdpa_bw(x, a):
    """The gradients torch's autograd gives the attention's query, key and value for grad_output."""
    leaves = [x[n].double().requires_grad_() for n in ("query", "key", "value")]
    out, _ = _ttml_attention(*leaves, x, a)
    out.backward(x["grad_output"].double())
    return tuple(leaf.grad.float() for leaf in leaves)
