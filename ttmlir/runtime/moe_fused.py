"""The simulator's kernels of the fused MoE ops: moe_compute's weight packers and the op itself, and
selective_reduce_combine.

The packed weights are the simulated device's layout (ttmlir.dialects.moe_fused.packed_w0_w1_shape): w0|w1 side by
side [L, E, hidden (+ bias tile row), 2 * intermediate] and w2 [L, E, intermediate (+ bias tile row), hidden],
a bias row followed by zero rows up to a tile. selective_reduce_combine reads tt-metal's documented layouts: the
dense blocks [data-parallel cores, token-parallel cores, E, rows, hidden / data-parallel cores], the 16-byte
aligned u32 token maps and activation records of the expert stage (moe_gpt's).
"""

from __future__ import annotations

import torch
import torch.nn.functional as F

from ttmlir.dialects.moe_fused import TILE
from ttmlir.runtime import ccl

# GPT-OSS's SwiGLU as tt-metal's SFPU computes it: gate and up clamped, gate * sigmoid(alpha * gate) * (up + 1)
SWIGLU_ALPHA, SWIGLU_LIMIT = 1.702, 7.0
ACTIVATIONS = ("silu", "swiglu")  # the schema's MoEActivationFunction, by position


def _with_bias_row(weight: torch.Tensor, bias: torch.Tensor | None) -> torch.Tensor:
    """[L, E, R, C] with, when there is a bias [L, E, C], a tile of rows below: the bias, then zeros."""
    if bias is None:
        return weight
    rows = torch.zeros(*weight.shape[:2], TILE, weight.shape[-1], dtype=weight.dtype)
    rows[:, :, 0] = bias
    return torch.cat([weight, rows], dim=2)


def prepare_w0_w1(x: dict, t) -> torch.Tensor:
    w0, w1 = x["w0"], x["w1"]
    if w0.shape != w1.shape or w0.dim() != 4:
        raise ValueError(f"w0 and w1 must both be [L, E, hidden, intermediate], got {list(w0.shape)} and "
                         f"{list(w1.shape)}")
    bias = torch.cat([x["bias0"], x["bias1"]], -1) if "bias0" in x else None  # fields as the schema's bias_0
    return _with_bias_row(torch.cat([w0, w1], dim=-1), bias)


def prepare_w2(x: dict, t) -> torch.Tensor:
    if x["w2"].dim() != 4:
        raise ValueError(f"w2 must be [L, E, intermediate, hidden], got {list(x['w2'].shape)}")
    return _with_bias_row(x["w2"], x.get("bias2"))


def expert_ffn(tokens: torch.Tensor, w0_w1: torch.Tensor, w2: torch.Tensor, hidden: int, intermediate: int,
               has_bias: bool, activation: str) -> torch.Tensor:
    """One expert's FFN of [n, hidden] tokens from its packed weights ([hidden (+ tile), 2N], [N (+ tile), H])."""
    gate, up = (tokens @ w0_w1[:hidden]).split(intermediate, dim=-1)
    if has_bias:
        gate, up = gate + w0_w1[hidden, :intermediate], up + w0_w1[hidden, intermediate:]
    if activation == "swiglu":
        gate, up = gate.clamp(max=SWIGLU_LIMIT), up.clamp(-SWIGLU_LIMIT, SWIGLU_LIMIT)
        inner = (up + 1) * gate * torch.sigmoid(SWIGLU_ALPHA * gate)
    else:
        inner = F.silu(gate) * up
    out = inner @ w2[:intermediate]
    return out + w2[intermediate] if has_bias else out


def _expert_places(mapping: torch.Tensor, experts: int) -> tuple[torch.Tensor, torch.Tensor]:
    """From expert_mapping (its last dimension the experts, its first row each expert's place along the line):
    each expert's place and its rank among the experts of that place."""
    owner = mapping.reshape(-1, experts)[0].long()
    same = owner[:, None] == owner[None, :]
    rank = torch.tril(same, diagonal=-1).sum(-1)  # experts before it on the same chip
    return owner, rank


def moe_compute(x: dict, t, mesh) -> list:
    """Each chip's [K, tokens, hidden] combine: for its tokens (its share of the line's, in place order) and each
    of their k experts, the FFN the expert's chip computes on the token as dispatched there."""
    hidden = x["tilize_input_tensor"][0].shape[-1]
    intermediate, layer, has_bias = t.intermediateSize, t.layerId, bool(t.hasBias)
    activation = ACTIVATIONS[t.activationFunction]
    out_shape = [int(d) for d in t.combineOutput.desc.shape]
    out = [None] * len(x["tilize_input_tensor"])
    for line in ccl.groups(t.clusterAxis, mesh):
        tokens = [x["tilize_input_tensor"][c].reshape(-1, hidden).float() for c in line]
        chosen = x["tilize_expert_indices_tensor"][line[0]].long()
        chosen = chosen.reshape(-1, chosen.shape[-1])  # [T, K], all-gathered: the same on every chip
        total, k = chosen.shape
        if tokens[0].shape[0] != total or total % len(line):
            raise ValueError(f"{tokens[0].shape[0]} dispatched tokens and {total} rows of expert indices do not "
                             f"split over the line's {len(line)} chips")
        mapping = x["tilize_expert_mapping_tensor"][line[0]]
        owner, rank = _expert_places(mapping, mapping.shape[-1])
        valid = (chosen >= 0) & (chosen < owner.shape[0])
        safe = chosen.clamp(0, owner.shape[0] - 1)
        place, local = owner[safe], rank[safe]
        combined = torch.zeros(total, k, hidden)
        for p, chip in enumerate(line):
            w0_w1, w2 = x["matmul_w0_w1_tensor"][chip].float(), x["matmul_w2_tensor"][chip].float()
            if w0_w1.dim() != 4 or w0_w1.shape[-1] != 2 * intermediate or w2.dim() != 4 or w2.shape[-1] != hidden:
                raise ValueError(f"packed weights {list(w0_w1.shape)} and {list(w2.shape)} are not this device's "
                                 f"moe_compute layout for hidden {hidden}, intermediate {intermediate}")
            for e in range(w0_w1.shape[1]):
                rows, slots = torch.nonzero(valid & (place == p) & (local == e), as_tuple=True)
                if rows.numel():
                    combined[rows, slots] = expert_ffn(tokens[p][rows], w0_w1[layer, e], w2[layer, e], hidden,
                                                       intermediate, has_bias, activation)
        share = total // len(line)
        for p, chip in enumerate(line):
            out[chip] = combined[p * share:(p + 1) * share].transpose(0, 1).reshape(out_shape)
    return out


# selective_reduce_combine's device parameters the IR does not carry: tt-metal's GPT-OSS configuration, as
# upstream's runtime passes it (the mesh axis of the line, the token- and hidden-parallel worker cores)
COMBINE_AXIS, TOKEN_PARALLEL, DATA_PARALLEL = 0, 4, 3
RECORD_END = 0xFFFFFFFF  # the u32 ending the activation records


def _rows(tensor: torch.Tensor, count: int) -> torch.Tensor:
    """A flat metadata buffer as `count` rows of its aligned stride (u32 words as non-negative integers)."""
    flat = tensor.reshape(-1).long() & 0xFFFFFFFF
    if flat.numel() % count:
        raise ValueError(f"a buffer of {flat.numel()} words does not hold {count} aligned rows")
    return flat.reshape(count, -1)


def selective_reduce_combine(x: dict, t, mesh) -> list:
    """Each chip's dense expert blocks back to the tokens' chips: expert e's i-th active token (its token map, the
    i-th of its count) sits in the token-parallel shard the even split (earlier shards take the remainder) gives
    it, its hidden split over the data-parallel shards; it lands in slot k (the token's activation record for e) of
    the token's own chip's [K, tokens, hidden] result."""
    hidden, k = t.hiddenSize, t.selectExpertsK
    out = [None] * len(x["dense_input_tensor"])
    shape = [int(d) for d in t.out.desc.shape]
    for line in ccl.groups(COMBINE_AXIS, mesh):
        experts, line_tokens = t.experts // len(line), t.batchSize * t.seqSize
        tokens = line_tokens // len(line)  # each chip's
        per_shard = -(-tokens // TOKEN_PARALLEL)
        results = torch.zeros(len(line), k, tokens, hidden)
        for chip in line:
            dense = x["dense_input_tensor"][chip].float().reshape(DATA_PARALLEL, TOKEN_PARALLEL, experts, per_shard, -1)
            rows = dense.permute(1, 2, 3, 0, 4).flatten(3)[..., :hidden]  # [shard, expert, row, hidden]
            counts = x["dense_token_counts_tensor"][chip].reshape(-1).long()[:experts]
            maps = _rows(x["dense_token_maps_tensor"][chip], experts)
            records = _rows(x["dense_activations_tensor"][chip], line_tokens + 1)
            ended = (records[:, 0] == RECORD_END).long().cumsum(0) > 0
            slots = torch.full((line_tokens, experts), k, dtype=torch.long)  # K + 1 in a record: not chosen
            live = records[~ended]
            inside = live[:, 0] < line_tokens
            slots[live[inside, 0]] = live[inside, 1:1 + experts]
            stride = maps.shape[1] // (line_tokens + 1)
            capacity = min(maps.shape[1] // stride, TOKEN_PARALLEL * per_shard)  # entries a map and the blocks hold
            for e in range(experts):
                i = torch.arange(min(int(counts[e]), capacity))
                base, extra = divmod(i.numel(), TOKEN_PARALLEL)
                starts = torch.tensor([s * base + min(s, extra) for s in range(TOKEN_PARALLEL)])
                shard = torch.searchsorted(starts, i, right=True) - 1
                token = maps[e, i * stride]
                keep = token < line_tokens
                slot = torch.where(keep, slots[token.clamp(max=line_tokens - 1), e], k)
                keep &= slot < k
                results[token[keep] // tokens, slot[keep], token[keep] % tokens] = \
                    rows[shard[keep], e, (i - starts[shard])[keep]]
        for place, chip in enumerate(line):
            out[chip] = results[place].reshape(shape)
    return out
