"""Data movement between the chips of a mesh: `mesh_shard` and the collectives.

A distributed value is a list with one tensor per chip, in row-major mesh order (chip `r * cols + c`
sits at mesh coordinates `(r, c)`). Mesh axis 0 runs along rows, axis 1 along columns; a collective
over `cluster_axis` exchanges data within each line of chips along that axis. These functions are
both the simulator's kernels and the builder's goldens.
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
    """The piece of `full` the chip at `coords` holds when mesh axis i splits tensor dim shard_dims[i]."""
    for axis, dim in enumerate(shard_dims):
        if dim >= 0:
            if full.shape[dim] % mesh[axis]:
                raise ValueError(f"dimension {dim} of size {full.shape[dim]} does not split evenly over "
                                 f"{mesh[axis]} chips along mesh axis {axis}")
            full = full.chunk(mesh[axis], dim)[coords[axis]]
    return full


def unshard(shards: Shards, shard_dims: Sequence[int], mesh: Mesh) -> torch.Tensor:
    """The full tensor from its pieces: concatenated along the tensor dims the mesh axes split."""
    col_dim = shard_dims[1] if len(shard_dims) > 1 else -1
    rows = [torch.cat(shards[r * mesh[1]:(r + 1) * mesh[1]], col_dim) if col_dim >= 0 else shards[r * mesh[1]]
            for r in range(mesh[0])]
    return torch.cat(rows, shard_dims[0]) if shard_dims[0] >= 0 else rows[0]


def mesh_shard(shards: Shards, shard_type: str, direction: str, shard_dims: Sequence[int], mesh: Mesh) -> Shards:
    """Split a full tensor over the mesh (full_to_shard) or put the pieces back together (shard_to_full)."""
    chips = mesh[0] * mesh[1]
    if shard_type == "identity":
        return list(shards)
    if shard_type in ("replicate", "maximal"):
        return [shards[0]] * chips
    if direction == "full_to_shard":
        return [shard_of(shards[d], shard_dims, divmod(d, mesh[1]), mesh) for d in range(chips)]
    return [unshard(shards, shard_dims, mesh)] * chips


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
