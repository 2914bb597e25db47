"""Data movement between the chips of a mesh: spreading a tensor over it and gathering it back, and the collectives.

A distributed value is a list with one tensor per chip, in row-major mesh order (chip `r * cols + c`
sits at mesh coordinates `(r, c)`). Mesh axis 0 runs along rows, axis 1 along columns; a collective
over `cluster_axis` exchanges data within each line of chips along that axis. These functions are the
simulator's kernels; the builder's goldens (`golden.mesh`) are written apart, so that they check them.
"""

from __future__ import annotations

from typing import Callable, Sequence

import torch

Shards = list[torch.Tensor]
Mesh = tuple[int, int]

REDUCE: dict[str, Callable[[Shards], torch.Tensor]] = {
    "sum": lambda ts: torch.stack(ts).sum(0), "mean": lambda ts: torch.stack(ts).mean(0),
    "max": lambda ts: torch.stack(ts).amax(0), "min": lambda ts: torch.stack(ts).amin(0),
    "prod": lambda ts: torch.stack(ts).prod(0)}


def shard_of(full: torch.Tensor, shard_dims: Sequence[int], coords: tuple[int, int], mesh: Mesh) -> torch.Tensor:
    """The piece of `full` the chip at `coords` holds when mesh axis i splits tensor dim shard_dims[i] (a
    presharded argument's piece)."""
    for axis, dim in enumerate(shard_dims):
        if dim >= 0:
            if full.shape[dim] % mesh[axis]:
                raise ValueError(f"dimension {dim} of size {full.shape[dim]} does not split evenly over "
                                 f"{mesh[axis]} chips along mesh axis {axis}")
            full = full.chunk(mesh[axis], dim)[coords[axis]]
    return full


def _chips_of(override: Sequence[int] | None, mesh: Mesh) -> tuple[tuple[int, int], list[int]]:
    """The (rows, columns) a mapper or composer takes the chips as, and those chips in row-major order: the
    device's mesh; a 2-D override is the sub-mesh at its origin, a 1-D one its first chips."""
    if not override:
        return mesh, list(range(mesh[0] * mesh[1]))
    if len(override) == 1:
        if override[0] > mesh[0] * mesh[1]:
            raise ValueError(f"mesh shape override [{override[0]}] has more chips than the {mesh[0]}x{mesh[1]} mesh")
        return (1, override[0]), list(range(override[0]))
    rows, cols = override
    if rows > mesh[0] or cols > mesh[1]:
        raise ValueError(f"mesh shape override [{rows}, {cols}] does not fit the {mesh[0]}x{mesh[1]} mesh")
    return (rows, cols), [r * mesh[1] + c for r in range(rows) for c in range(cols)]


def distribute(full: Shards, placements: Sequence[tuple[str, int]], override: Sequence[int] | None,
               mesh: Mesh) -> Shards:
    """A host tensor spread over the mesh: along each mesh axis the same tensor, or its slices of one dimension.
    Each chip's piece is cut from its own copy of the (replicated) host tensor."""
    shape, chips = _chips_of(override, mesh)
    if len(chips) != mesh[0] * mesh[1]:
        raise ValueError(f"mesh mapper: a {shape[0]}x{shape[1]} mesh does not hold the {mesh[0]}x{mesh[1]} mesh's chips")
    axes = list(placements) if len(placements) == 2 else [("replicate", -1), *placements]
    out: Shards = list(full)
    for index, chip in enumerate(chips):
        piece = full[chip]
        for coord, size, (kind, dim) in zip(divmod(index, shape[1]), shape, axes):
            if kind == "shard":
                if piece.shape[dim] % size:
                    raise ValueError(f"dimension {dim} of size {piece.shape[dim]} does not split evenly over {size} "
                                     "chips")
                piece = piece.chunk(size, dim)[coord]
        out[chip] = piece
    return out


def aggregate(shards: Shards, dims: Sequence[int], override: Sequence[int] | None, mesh: Mesh) -> Shards:
    """The chips' values joined into one host tensor: each row's along dims[-1], the rows along dims[0]."""
    (rows, cols), chips = _chips_of(override, mesh)
    values = [shards[c] for c in chips]
    joined = [torch.cat(values[r * cols:(r + 1) * cols], dims[-1]) for r in range(rows)]
    return [torch.cat(joined, dims[0]) if len(dims) == 2 else joined[0]] * (mesh[0] * mesh[1])


def groups(axis: int, mesh: Mesh) -> list[list[int]]:
    """The lines of chips along a mesh axis, each in order along it."""
    rows, cols = mesh
    if axis == 1:
        return [[r * cols + c for c in range(cols)] for r in range(rows)]
    return [[r * cols + c for r in range(rows)] for c in range(cols)]


def _per_group(shards: Shards, axis: int, mesh: Mesh, combine: Callable[[Shards], Sequence[torch.Tensor]]) -> Shards:
    out: Shards = list(shards)
    for group in groups(axis, mesh):
        for chip, value in zip(group, combine([shards[d] for d in group])):
            out[chip] = value
    return out


def reducer(reduce_type: str) -> Callable[[Shards], torch.Tensor]:
    if reduce_type not in REDUCE:
        raise ValueError(f"reduce_type '{reduce_type}' is not supported by collectives")
    return REDUCE[reduce_type]


def all_gather(shards: Shards, dim: int, axis: int, mesh: Mesh) -> Shards:
    return _per_group(shards, axis, mesh, lambda ts: [torch.cat(ts, dim)] * len(ts))


def all_reduce(shards: Shards, reduce_type: str, axis: int, mesh: Mesh) -> Shards:
    reduce = reducer(reduce_type)
    return _per_group(shards, axis, mesh, lambda ts: [reduce(ts)] * len(ts))


def reduce_scatter(shards: Shards, reduce_type: str, dim: int, axis: int, mesh: Mesh) -> Shards:
    reduce = reducer(reduce_type)

    def scatter(ts: Shards) -> Shards:
        total = reduce(ts)
        if total.shape[dim] % len(ts):
            raise ValueError(f"dimension {dim} of size {total.shape[dim]} does not scatter evenly over {len(ts)} chips")
        return list(total.chunk(len(ts), dim))

    return _per_group(shards, axis, mesh, scatter)


def mesh_partition(shards: Shards, dim: int, axis: int | None, mesh: Mesh) -> Shards:
    """Each chip keeps its piece of its (replicated) tensor: the one at its place along `axis`, or among all
    chips of the mesh when there is no axis."""
    lines = groups(axis, mesh) if axis is not None else [list(range(mesh[0] * mesh[1]))]
    out: Shards = list(shards)
    for line in lines:
        for place, chip in enumerate(line):
            if shards[chip].shape[dim] % len(line):
                raise ValueError(f"dimension {dim} of size {shards[chip].shape[dim]} does not split evenly over "
                                 f"{len(line)} chips")
            out[chip] = shards[chip].chunk(len(line), dim)[place]
    return out


def chip_at(coords: Sequence[int], mesh: Mesh) -> int:
    if len(coords) != 2 or not (0 <= coords[0] < mesh[0] and 0 <= coords[1] < mesh[1]):
        raise ValueError(f"mesh coordinates {list(coords)} are outside the {mesh[0]}x{mesh[1]} mesh")
    return coords[0] * mesh[1] + coords[1]


def point_to_point(shards: Shards, into: Shards | None, sender: Sequence[int], receiver: Sequence[int],
                   mesh: Mesh) -> Shards:
    """The receiver chip gets the sender chip's tensor; the others keep `into`'s (or their own input's)."""
    out = list(into if into is not None else shards)
    out[chip_at(receiver, mesh)] = shards[chip_at(sender, mesh)]
    return out


def all_to_all(shards: Shards, split_dim: int, concat_dim: int, replica_groups: Sequence[Sequence[int]]) -> Shards:
    """Within each replica group, the chip at place i gets piece i of every member's tensor (split along
    split_dim), joined along concat_dim in the group's order."""
    out = list(shards)
    for group in replica_groups:
        pieces = {chip: shards[chip].chunk(len(group), split_dim) for chip in group}
        for place, chip in enumerate(group):
            out[chip] = torch.cat([pieces[member][place] for member in group], concat_dim)
    return out


def collective_broadcast(shards: Shards, replica_groups: Sequence[Sequence[int]]) -> Shards:
    """Every chip of a replica group gets the tensor of the group's first chip."""
    out = list(shards)
    for group in replica_groups:
        for chip in group:
            out[chip] = shards[group[0]]
    return out


def collective_permute(shards: Shards, pairs: Sequence[int]) -> Shards:
    """Chip `target` receives chip `source`'s tensor for each (source, target) pair; others get zeros."""
    out = [torch.zeros_like(t) for t in shards]
    for source, target in zip(pairs[::2], pairs[1::2]):
        if not (0 <= source < len(shards) and 0 <= target < len(shards)):
            raise ValueError(f"pair ({source}, {target}) names a chip outside the mesh of {len(shards)} chips")
        out[target] = shards[source]
    return out


def _owners(mapping: torch.Tensor, experts: int | None = None) -> torch.Tensor:
    """expert_mapping [1, 1, E, D] as an [E, D] boolean: which chips hold each expert; given the number of
    experts, a [1, 1, D, E] mapping is read transposed (the documented order wins when E == D)."""
    owners = mapping.reshape(mapping.shape[-2], mapping.shape[-1]) != 0
    return owners.T if experts is not None and owners.shape[0] != experts else owners


def all_to_all_dispatch(tokens: Shards, indices: Shards, mapping: Shards, axis: int, mesh: Mesh,
                        shapes: tuple[Sequence[int], Sequence[int]]) -> tuple[Shards, Shards]:
    """Each chip gets, in slot (source place, token), the tokens of its line whose experts it holds (other slots
    are zeros), and the expert indices of every token of the line (an all-gather)."""
    dispatched, metadata = list(tokens), list(indices)
    for line in groups(axis, mesh):
        rows = [tokens[c].reshape(-1, tokens[c].shape[-1]) for c in line]
        chosen = [indices[c].reshape(rows[0].shape[0], -1).long() for c in line]
        gathered = torch.cat(chosen)
        for chip in line:
            held = _owners(mapping[chip])[:, chip]
            wanted = held[gathered].any(-1, keepdim=True)
            dispatched[chip] = torch.where(wanted, torch.cat(rows), 0).reshape(shapes[0])
            metadata[chip] = gathered.to(indices[chip].dtype).reshape(shapes[1])
    return dispatched, metadata


def all_to_all_combine(expert_out: Shards, metadata: Shards, mapping: Shards, axis: int, shard_dim: int,
                       mesh: Mesh) -> Shards:
    """result[k] of each of a chip's tokens is the output its k-th expert's chip (the first of the chip's line
    holding it) computed for it, read at the expert's place among that chip's experts; zeros when no chip of the
    line holds the expert (or holds more experts than it has outputs for). A chip's tokens are its share of the
    line's (B, S) tokens, split along `shard_dim`."""
    out = list(expert_out)
    for line in groups(axis, mesh):
        stacked = torch.stack([expert_out[c] for c in line])  # [chips, E_local, B, S, H]
        for place, chip in enumerate(line):
            owners = _owners(mapping[chip])[:, line]  # [E, chips of the line]
            slot = owners.long().cumsum(0) - 1  # an expert's place among its chip's experts
            share = metadata[chip].shape[shard_dim] // len(line)
            meta = metadata[chip][0].long().narrow(shard_dim - 1, place * share, share)  # [B', S', K]
            owner = owners[meta].long().argmax(-1)
            local = slot[meta, owner]
            held = owners[meta].any(-1) & (local < stacked.shape[1])
            rows, cols = (torch.arange(n)[:, None] for n in meta.shape[:2])
            if shard_dim == 1:
                rows = rows + place * share
            else:
                cols = cols + place * share
            picked = stacked[owner, local.clamp(0, stacked.shape[1] - 1), rows[:, :, None], cols[None, :, :]]
            out[chip] = torch.where(held[..., None], picked, 0).permute(2, 0, 1, 3).contiguous()
    return out


def moe_expert_token_remap(scores: Shards, mapping: Shards, metadata: Shards, reduction_size: int,
                           shapes: tuple[Sequence[int], Sequence[int]]) -> tuple[Shards, Shards]:
    """Per chip: each token's score for each of the chip's experts it chose (else 0), and per block of
    `reduction_size` tokens whether any token chose the expert. The chip's experts are those its column of
    expert_mapping marks, in expert order."""
    local_count = shapes[0][-1]
    weights, blocks = [], []
    for chip, (score, meta) in enumerate(zip(scores, metadata)):
        experts = _owners(mapping[chip], score.shape[-1])[:, chip].nonzero().flatten()[:local_count]
        rows, chosen = score.reshape(-1, score.shape[-1]), meta.reshape(score.numel() // score.shape[-1], -1).long()
        picked = torch.zeros(rows.shape[0], local_count, dtype=torch.bool)
        picked[:, :len(experts)] = (chosen[:, :, None] == experts).any(1)
        local = torch.zeros(rows.shape[0], local_count, dtype=rows.dtype)
        local[:, :len(experts)] = rows[:, experts]
        weights.append(torch.where(picked, local, 0).reshape(shapes[0]))
        padded = torch.zeros(-(-rows.shape[0] // reduction_size) * reduction_size, local_count, dtype=torch.bool)
        padded[:rows.shape[0]] = picked
        blocks.append(padded.reshape(-1, reduction_size, local_count).any(1).to(meta.dtype).reshape(shapes[1]))
    return weights, blocks


def all_to_all_dispatch_metadata(tokens: Shards, indices: Shards, scores: Shards, mapping: Shards, axis: int,
                                 mesh: Mesh) -> tuple[Shards, Shards, Shards]:
    """Slot (source place, token) of each chip holds the line's token when the chip its row of expert_mapping
    [D, E] names for one of the token's experts is this chip (else zeros); indices and scores are all-gathered."""
    dispatched, gathered_indices, gathered_scores = list(tokens), list(indices), list(scores)
    for line in groups(axis, mesh):
        rows = torch.cat([tokens[c].reshape(-1, tokens[c].shape[-1]) for c in line])
        chosen = torch.cat([indices[c].reshape(-1, indices[c].shape[-1]) for c in line])
        weights = torch.cat([scores[c].reshape(-1, scores[c].shape[-1]) for c in line])
        for chip in line:
            owner = mapping[chip][chip].long()  # [E]: the chip of each expert
            wanted = (owner[chosen.long()] == chip).any(-1, keepdim=True)
            dispatched[chip] = torch.where(wanted, rows, 0)[None]
            gathered_indices[chip], gathered_scores[chip] = chosen[None], weights[None]
    return dispatched, gathered_indices, gathered_scores
