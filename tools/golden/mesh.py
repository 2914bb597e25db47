"""Goldens of ops over a device mesh: collectives, mesh sharding and partitioning, distributed norms, MoE dispatch
and combine; each a function of the per-chip values."""

from __future__ import annotations

from typing import Callable

import torch
import torch.nn.functional as F

from ttmlir.runtime import ccl
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


def _distributed_rms_norm(x: dict, a: dict, mesh: tuple[int, int]) -> list[torch.Tensor]:
    """RMS norm of the whole tensor each line of chips along the cluster axis holds in pieces along its last
    dimension, cut back into those pieces."""
    values = [v + r for v, r in zip(x["input"], x["residual"])] if "residual" in x else x["input"]
    out = list(values)
    for line in ccl.groups(a["cluster_axis"], mesh):
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
    "mesh_shard": _mesh(lambda x, a, mesh: ccl.mesh_shard(x["input"], a["shard_type"], a["shard_direction"],
                                                          a["shard_dims"], mesh)),
    "all_gather": _mesh(lambda x, a, mesh: ccl.all_gather(x["input"], a["all_gather_dim"], a["cluster_axis"], mesh)),
    **dict.fromkeys(("all_reduce", "all_reduce_async"), _mesh(
        lambda x, a, mesh: ccl.all_reduce(x["input"], a["reduce_type"], a["cluster_axis"], mesh))),
    "reduce_scatter": _mesh(lambda x, a, mesh: ccl.reduce_scatter(x["input"], a["reduce_type"], a["scatter_dim"],
                                                                  a["cluster_axis"], mesh)),
    "collective_permute": _mesh(lambda x, a, mesh: ccl.collective_permute(
        x["input"], [chip for pair in a["source_target_pairs"] for chip in pair])),
    "all_to_all": _mesh(lambda x, a, mesh: ccl.all_to_all(x["input"], a["split_dim"], a["concat_dim"],
                                                          a["replica_groups"])),
    "collective_broadcast": _mesh(lambda x, a, mesh: ccl.collective_broadcast(x["input"], a["replica_groups"])),
    "point_to_point": _mesh(lambda x, a, mesh: ccl.point_to_point(x["input"], x.get("optional_output_tensor"),
                                                                  a["sender_coord"], a["receiver_coord"], mesh)),
    "mesh_partition": _mesh(lambda x, a, mesh: ccl.mesh_partition(x["input"], a["dim"], a.get("cluster_axis"), mesh)),
    "distributed_rms_norm": _mesh(_distributed_rms_norm),
    "all_to_all_dispatch": _mesh(_all_to_all_dispatch),
    "all_to_all_dispatch_metadata": _mesh(_all_to_all_dispatch_metadata),
    "all_to_all_combine": _mesh(_all_to_all_combine),
    "moe_expert_token_remap": _mesh(_moe_expert_token_remap),
}


# Ops whose values the TTIR does not define (a tt-lang kernel is opaque): no golden can check them.
