"""Goldens of ops over a device mesh: collectives, mesh sharding and partitioning, distributed norms, MoE dispatch
and combine; each a function of the per-chip values."""

from __future__ import annotations

from typing import Callable

import torch
import torch.nn.functional as F

from golden.values import Golden, GoldenMap


# --- goldens over a device mesh --------------------------------------------------------------------

def _mesh(fn) -> Callable[[dict, dict, tuple[int, int]], list[GoldenMap]]:
    """A golden from a function of the per-chip lists of each input and the op's properties (a tuple of such
    lists for an op with several results)."""
    def golden(maps, a, mesh):
        per_chip = {k: [m[d] for d in sorted(m)] for k, m in maps.items() if m is not None}
        out = fn(per_chip, a, mesh)
        return [dict(enumerate(values)) for values in (out if isinstance(out, tuple) else (out,))]
    return golden


def _line_of(chip: int, axis: int, mesh: tuple[int, int]) -> list[int]:
    """The chips sharing `chip`'s coordinate off `axis`, in order along it."""
    row, col = divmod(chip, mesh[1])
    return [r * mesh[1] + col for r in range(mesh[0])] if axis == 0 else [row * mesh[1] + c for c in range(mesh[1])]


def _holds(mapping: torch.Tensor, chip: int) -> torch.Tensor:
    """[E] booleans: the experts expert_mapping [1, 1, E, D] places on `chip`."""
    return mapping[0, 0, :, chip] != 0


def _all_to_all_dispatch(x: dict, a: dict, mesh) -> tuple[list, list]:
    """Token t of the chip at place q of a line lands in row q*T + t of each chip of the line holding one of its
    experts (counted with one-hot expert choices); the expert indices of the line are all-gathered."""
    dispatched, metadata = [], []
    for chip in range(mesh[0] * mesh[1]):
        line = _line_of(chip, a["cluster_axis"], mesh)
        tokens = torch.cat([x["input_tensor"][c].flatten(0, -2) for c in line])
        chosen = torch.cat([x["expert_indices"][c].flatten(0, -2) for c in line]).long()
        experts = x["expert_mapping"][chip].shape[2]
        votes = F.one_hot(chosen, experts).float() @ _holds(x["expert_mapping"][chip], chip).float()  # [T, K]
        batch = x["input_tensor"][chip].shape[0] * len(line)
        dispatched.append((tokens * (votes.sum(-1, keepdim=True) > 0)).reshape(1, batch, -1, tokens.shape[-1]))
        metadata.append(chosen.to(x["expert_indices"][chip].dtype).reshape(1, batch, -1, chosen.shape[-1]))
    return dispatched, metadata


def _all_to_all_dispatch_metadata(x: dict, a: dict, mesh) -> tuple[list, list, list]:
    """Token t of the line's place q lands in row q*M + t of a chip when its row of expert_mapping
    names that chip for one of the token's experts (counted with one-hot chips); indices and scores are
    all-gathered."""
    dispatched, indices, scores = [], [], []
    for chip in range(mesh[0] * mesh[1]):
        line = _line_of(chip, a["cluster_axis"], mesh)
        tokens, chosen, weights = (torch.cat([x[name][c].flatten(0, -2) for c in line])
                                   for name in ("input_tensor", "expert_indices", "expert_scores"))
        mapping = x["expert_mapping"][chip]
        owners = mapping.reshape(-1, mapping.shape[-1])[chip].long()  # [E]: TTIR's [1, 1, D, E] or TTNN's [D, E]
        on_chip = F.one_hot(owners, max(int(owners.max()) + 1, chip + 1))[:, chip]
        votes = F.one_hot(chosen.long(), len(owners)).float() @ on_chip.float()
        dispatched.append((tokens * (votes.sum(-1, keepdim=True) > 0))[None])
        indices.append(chosen[None])
        scores.append(weights[None])
    return dispatched, indices, scores


def _all_to_all_combine(x: dict, a: dict, mesh) -> list:
    """Token by token: result[k] is the row of the token in the expert outputs of the first chip of the line
    holding its k-th expert, at the expert's rank among that chip's experts."""
    out = []
    for chip in range(mesh[0] * mesh[1]):
        line = _line_of(chip, a["cluster_axis"], mesh)
        place, mapping, meta = line.index(chip), x["expert_mapping"][chip], x["expert_metadata"][chip][0].long()
        k, hidden, share = a["num_experts_per_tok"], x["input_tensor"][chip].shape[-1], a["output_shard_dim"]
        b, s = (n // len(line) if dim == share else n for dim, n in enumerate(meta.shape[:2], 1))
        result = torch.zeros(k, b, s, hidden, dtype=x["input_tensor"][chip].dtype)
        for i in range(b):
            for j in range(s):
                row, col = (place * b + i, j) if a["output_shard_dim"] == 1 else (i, place * s + j)
                for slot in range(k):
                    expert = int(meta[row, col, slot])
                    holders = [c for c in line if mapping[0, 0, expert, c] != 0]
                    if not holders:
                        continue
                    rank = int(_holds(mapping, holders[0])[:expert].sum())
                    source = x["input_tensor"][holders[0]]
                    if rank < source.shape[0]:
                        result[slot, i, j] = source[rank, row, col]
        out.append(result)
    return out


def _moe_ffn(token: torch.Tensor, w0, w1, w2, biases, activation: str) -> torch.Tensor:
    """One expert on one token: the gate and up projections, the activation (SiLU, or GPT-OSS's SwiGLU with its
    alpha 1.702 and clamp 7), the down projection."""
    gate, up = token @ w0, token @ w1
    if biases:
        gate, up = gate + biases[0], up + biases[1]
    if activation == "swiglu":
        gate, up = torch.clamp(gate, max=7.0), torch.clamp(up, -7.0, 7.0)
        inner = gate * torch.sigmoid(1.702 * gate) * (up + 1.0)
    else:
        inner = gate * torch.sigmoid(gate) * up
    out = inner @ w2
    return out + biases[2] if biases else out


def _moe_compute(x: dict, a: dict, mesh) -> list:
    """Token by token: slot k of a chip's token (its share of the line's dispatched rows, by place) is expert
    indices[token, k]'s FFN, with the weights of the chip expert_mapping's first row names for it, at the expert's
    rank among that chip's experts, applied to the token as dispatched to that chip."""
    out = []
    for chip in range(mesh[0] * mesh[1]):
        line = _line_of(chip, a["cluster_axis"], mesh)
        hidden = x["tilize_input_tensor"][chip].shape[-1]
        indices, mapping = x["tilize_expert_indices_tensor"][chip], x["tilize_expert_mapping_tensor"][chip]
        chosen = indices.reshape(-1, indices.shape[-1])
        owners = [int(v) for v in mapping.flatten()[:mapping.shape[-1]]]  # its first row: each expert's place
        share = chosen.shape[0] // len(line)
        result = torch.zeros(chosen.shape[1], share, hidden)
        for t in range(share):
            row = line.index(chip) * share + t
            for slot in range(chosen.shape[1]):
                expert = int(chosen[row, slot])
                if not 0 <= expert < len(owners):
                    continue
                holder = line[owners[expert]]
                rank = owners[:expert].count(owners[expert])
                w = [x[n][holder][a["layer_id"], rank].float() for n in ("w0", "w1", "w2")]
                biases = [x[n][holder][a["layer_id"], rank].float() for n in ("bias_0", "bias_1", "bias_2")
                          if x.get(n) is not None]
                token = x["tilize_input_tensor"][holder].reshape(-1, hidden)[row].float()
                result[slot, t] = _moe_ffn(token, *w, biases, str(a["activation_function"]))
        out.append(result)
    return out


def _selective_reduce_combine(x: dict, a: dict, mesh) -> list:
    """Record by record: a token's slot k for local expert e (its activation record) holds the row that expert's
    dense block keeps for it, at the token's place in the expert's token map: in token-parallel shard s when s
    shards' even split (the first ones one more) reaches that place, its hidden pieces side by side over the
    data-parallel shards; on the chip the token came from (GPT-OSS's configuration: a line along mesh axis 0,
    4 x 3 worker cores)."""
    token_cores, hidden_cores = 4, 3
    chips = mesh[0] * mesh[1]
    line_tokens, k, hidden = a["batch_size"] * a["seq_size"], a["select_experts_k"], a["hidden_size"]
    out = {}
    for chip in range(chips):
        line = _line_of(chip, 0, mesh)
        experts, tokens = a["experts"] // len(line), line_tokens // len(line)
        rows = -(-tokens // token_cores)
        dense = x["dense_input_tensor"][chip].float().reshape(hidden_cores, token_cores, experts, rows, -1)
        counts = [int(c) for c in x["dense_token_counts_tensor"][chip].flatten()[:experts]]
        maps = x["dense_token_maps_tensor"][chip].flatten().long().reshape(experts, -1)
        stride = maps.shape[1] // (line_tokens + 1)
        listed = [[int(maps[e, i * stride]) for i in range(counts[e])] for e in range(experts)]
        records = (x["dense_activations_tensor"][chip].flatten().long() & 0xFFFFFFFF).reshape(line_tokens + 1, -1)
        for record in records:
            token = int(record[0])
            if token == 0xFFFFFFFF:
                break
            for e in range(experts):
                slot = int(record[1 + e])
                if slot >= k or token not in listed[e]:
                    continue
                place, shard = listed[e].index(token), 0
                while place >= counts[e] // token_cores + (shard < counts[e] % token_cores):
                    place -= counts[e] // token_cores + (shard < counts[e] % token_cores)
                    shard += 1
                row = torch.cat([dense[j, shard, e, place] for j in range(hidden_cores)])[:hidden]
                out.setdefault(line[token // tokens], torch.zeros(k, tokens, hidden))[slot, token % tokens] = row
    lines = {chip: len(_line_of(chip, 0, mesh)) for chip in range(chips)}
    return [out.get(chip, torch.zeros(k, line_tokens // lines[chip], hidden)) for chip in range(chips)]


def _moe_expert_token_remap(x: dict, a: dict, mesh) -> tuple[list, list]:
    """A token's score for each local expert it chose (its one-hot choices summed), and per block of
    reduction_size tokens whether any token chose it."""
    weights, blocks = [], []
    for chip in range(mesh[0] * mesh[1]):
        scores = x["topk_tensor"][chip].flatten(0, -2)
        chosen = F.one_hot(x["expert_metadata"][chip].flatten(0, -2).long(), scores.shape[-1]).sum(1) > 0
        per_device = scores.shape[-1] // x["expert_mapping"][chip].shape[-1]
        local = _holds(x["expert_mapping"][chip], chip).nonzero().flatten()[:per_device]
        width = (scores.shape[0], per_device)
        picked = F.pad(chosen[:, local], (0, width[1] - len(local)))
        weights.append((F.pad(scores[:, local], (0, width[1] - len(local))) * picked).reshape(
            *x["topk_tensor"][chip].shape[:-1], per_device))
        block = a["reduction_size"]
        counts = F.pad(picked.long(), (0, 0, 0, -width[0] % block)).reshape(-1, block, width[1]).sum(1)
        blocks.append((counts > 0).to(x["expert_metadata"][chip].dtype).reshape(1, 1, -1, per_device))
    return weights, blocks


# --- collectives, chip by chip from their definitions (the simulator's kernels in ttmlir.runtime.ccl work line by
# line; a golden that called them would agree with whatever they do) -------------------------------------------

def _chips(mesh: tuple[int, int]) -> range:
    return range(mesh[0] * mesh[1])


def _reduced(values: list[torch.Tensor], line: list[int], reduce_type: str) -> torch.Tensor:
    """The line's values combined element by element (sums in f32, rounded once to the values' type)."""
    members = [values[c].float() for c in line]
    if reduce_type in ("sum", "mean"):
        total = members[0]
        for v in members[1:]:
            total = total + v
        out = total / len(members) if reduce_type == "mean" else total
    elif reduce_type in ("max", "min", "prod"):
        step = {"max": torch.maximum, "min": torch.minimum, "prod": torch.mul}[reduce_type]
        out = members[0]
        for v in members[1:]:
            out = step(out, v)
    else:
        raise ValueError(f"reduce_type '{reduce_type}' is not supported by collectives")
    return out.to(values[line[0]].dtype)


def _piece(value: torch.Tensor, dim: int, parts: int, index: int) -> torch.Tensor:
    """Part `index` of `parts` equal parts of `value` along `dim`."""
    if value.shape[dim] % parts:
        raise ValueError(f"dimension {dim} of size {value.shape[dim]} does not split evenly over {parts} chips")
    size = value.shape[dim] // parts
    return value.narrow(dim, index * size, size)


def _reduce_scatter(x: dict, a: dict, mesh) -> list:
    """The line's sum, cut into as many parts along scatter_dim as the line has chips: each keeps its own."""
    out = []
    for chip in _chips(mesh):
        line = _line_of(chip, a["cluster_axis"], mesh)
        out.append(_piece(_reduced(x["input"], line, a["reduce_type"]), a["scatter_dim"], len(line), line.index(chip)))
    return out


def _mesh_partition(x: dict, a: dict, mesh) -> list:
    """Each chip's own part of its value: by its place along the cluster axis, or among all chips without one."""
    out = []
    for chip in _chips(mesh):
        line = list(_chips(mesh)) if a.get("cluster_axis") is None else _line_of(chip, a["cluster_axis"], mesh)
        out.append(_piece(x["input"][chip], a["dim"], len(line), line.index(chip)))
    return out


def _mesh_shard(x: dict, a: dict, mesh) -> list:
    """full_to_shard: the chip at (row, col) keeps block (row, col) of the value (mesh axis i cutting tensor dim
    shard_dims[i], none when it is negative); shard_to_full: every chip's block written into its place of the
    whole (chips that hold the same block, along an axis that cuts nothing, write the same values)."""
    values, dims, chips = x["input"], list(a["shard_dims"]), _chips(mesh)
    if a["shard_type"] == "identity":
        return list(values)
    if a["shard_type"] in ("replicate", "maximal"):
        return [values[0] for _ in chips]
    cuts = [(axis, dim) for axis, dim in enumerate(dims) if dim >= 0]
    if a["shard_direction"] == "full_to_shard":
        out = []
        for chip in chips:
            block = values[chip]
            for axis, dim in cuts:
                block = _piece(block, dim, mesh[axis], divmod(chip, mesh[1])[axis])
            out.append(block)
        return out
    shape = list(values[0].shape)
    for axis, dim in cuts:
        shape[dim] *= mesh[axis]
    whole = torch.empty(shape, dtype=values[0].dtype)
    for chip in chips:
        target = whole
        for axis, dim in cuts:
            size = values[chip].shape[dim]
            target = target.narrow(dim, divmod(chip, mesh[1])[axis] * size, size)
        target.copy_(values[chip])
    return [whole for _ in chips]


def _group_of(chip: int, groups) -> list[int]:
    """The replica group holding `chip` (a chip in none is a group of its own)."""
    return next((list(map(int, g)) for g in groups if chip in [int(c) for c in g]), [chip])


def _all_to_all(x: dict, a: dict, mesh) -> list:
    """The chip at place i of its replica group: part i (along split_dim) of each member's value, joined along
    concat_dim in the group's order."""
    out = []
    for chip in _chips(mesh):
        group = _group_of(chip, a["replica_groups"])
        place = group.index(chip)
        out.append(torch.cat([_piece(x["input"][m], a["split_dim"], len(group), place) for m in group],
                             a["concat_dim"]))
    return out


def _collective_permute(x: dict, a: dict, mesh) -> list:
    """Each chip: the value of the chip sending to it, zeros when none does."""
    pairs = [int(c) for pair in a["source_target_pairs"] for c in pair]
    senders = {target: source for source, target in zip(pairs[::2], pairs[1::2])}
    for chip in (*senders, *senders.values()):
        if chip not in _chips(mesh):
            raise ValueError(f"chip {chip} is outside the mesh of {len(_chips(mesh))} chips")
    return [x["input"][senders[c]] if c in senders else torch.zeros_like(x["input"][c]) for c in _chips(mesh)]


def _point_to_point(x: dict, a: dict, mesh) -> list:
    """The receiver holds the sender's value; every other chip what it held (the optional output's, if given)."""
    kept = x.get("optional_output_tensor") or x["input"]
    sender, receiver = (int(r) * mesh[1] + int(c) for r, c in (a["sender_coord"], a["receiver_coord"]))
    return [x["input"][sender] if chip == receiver else kept[chip] for chip in _chips(mesh)]


def _distributed_rms_norm(x: dict, a: dict, mesh: tuple[int, int]) -> list[torch.Tensor]:
    """RMS norm of the whole tensor each line of chips along the cluster axis holds in pieces along its last
    dimension, cut back into those pieces."""
    values = [v + r for v, r in zip(x["input"], x["residual"])] if "residual" in x else x["input"]
    out = list(values)
    for line in {tuple(_line_of(chip, a["cluster_axis"], mesh)) for chip in _chips(mesh)}:
        whole = torch.cat([values[c] for c in line], -1)
        weight = torch.cat([x["weight"][c] for c in line], -1) if "weight" in x else None
        normed = F.rms_norm(whole, [whole.shape[-1]], weight, a["epsilon"])
        for c, piece in zip(line, normed.split([values[c].shape[-1] for c in line], -1)):
            out[c] = piece
    return out


# the debug dialect's ops pass their operand through, or have no result
DEBUG_GOLDENS: dict[str, Golden] = {**dict.fromkeys(("annotate", "region_start", "region_end"), lambda x, a: x["operand"]),
                                    **dict.fromkeys(("breakpoint", "print", "dump", "memory_snapshot"), lambda x, a: ())}

MESH_GOLDENS = {
    "mesh_shard": _mesh(_mesh_shard),
    "all_gather": _mesh(lambda x, a, mesh: [torch.cat([x["input"][c] for c in _line_of(chip, a["cluster_axis"], mesh)],
                                                      a["all_gather_dim"]) for chip in _chips(mesh)]),
    **dict.fromkeys(("all_reduce", "all_reduce_async"), _mesh(
        lambda x, a, mesh: [_reduced(x["input"], _line_of(chip, a["cluster_axis"], mesh), a["reduce_type"])
                            for chip in _chips(mesh)])),
    "reduce_scatter": _mesh(_reduce_scatter),
    "collective_permute": _mesh(_collective_permute),
    "all_to_all": _mesh(_all_to_all),
    "collective_broadcast": _mesh(lambda x, a, mesh: [x["input"][_group_of(chip, a["replica_groups"])[0]]
                                                      for chip in _chips(mesh)]),
    "point_to_point": _mesh(_point_to_point),
    "mesh_partition": _mesh(_mesh_partition),
    "distributed_rms_norm": _mesh(_distributed_rms_norm),
    "all_to_all_dispatch": _mesh(_all_to_all_dispatch),
    "all_to_all_dispatch_metadata": _mesh(_all_to_all_dispatch_metadata),
    "all_to_all_combine": _mesh(_all_to_all_combine),
    "moe_expert_token_remap": _mesh(_moe_expert_token_remap),
    "moe_compute": _mesh(_moe_compute),
    "selective_reduce_combine": _mesh(_selective_reduce_combine),
}


# Ops whose values the TTIR does not define (a tt-lang kernel is opaque): no golden can check them.
