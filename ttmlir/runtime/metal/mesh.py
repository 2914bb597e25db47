"""The commands of a `.ttm` program that see every chip of its mesh (`program.MeshProgramRunner` runs the others on
each chip's grid in lockstep, as tt-metal's mesh workloads run the same kernels on each chip's data): a `MeshShardCommand` cuts each chip's piece from its host tensor (every chip
is given the program's inputs) or joins the pieces into one host tensor on all chips; a `CollectiveCommand` runs
its collective over the ethernet fabric among the chips of each line along its mesh axis, with the data movement
the TTNN path's collectives use (`runtime/ccl.py`)."""

from __future__ import annotations

import math
from typing import Callable

import torch

from ttmlir import hardware
from ttmlir.runtime import ccl
from ttmlir.runtime.perf import CALIBRATION
from ttmlir.runtime.metal.core import MetalError
from ttmlir.target import flatbuffer as fbu
from ttmlir.target import metal_generated as fbm

_KINDS = fbu.enum_names(fbm.CollectiveKind)
_REDUCTIONS = fbu.enum_names(fbm.ReduceType)
_ALL_CHIPS = 0xFFFFFFFF  # the cluster_axis of an exchange among all chips (a mesh_partition without an axis, or by
# chip ids)
_ON_AN_AXIS = ("all_gather", "all_reduce", "reduce_scatter")


def _named(names: dict[int, str], value: int, what: str) -> str:
    if value not in names:
        raise MetalError(f"corrupted flatbuffer ({what} {value} is out of range)")
    return names[value]


def mesh_of(program: fbm.ProgramT) -> tuple[int, int]:
    shape = program.meshShape
    return (int(shape.y), int(shape.x)) if shape is not None and shape.y > 0 and shape.x > 0 else (1, 1)


def _joined(values: list[torch.Tensor], dims: list[int], mesh: tuple[int, int]) -> torch.Tensor:
    """The chips' pieces as one tensor: along each mesh axis concatenated along the dim it split, or (an axis that
    split nothing) the first chip's along it."""
    rows, cols = mesh
    dims = (list(dims) + [-1, -1])[:2]
    lines = [torch.cat(values[r * cols:(r + 1) * cols], dims[1]) if dims[1] >= 0 else values[r * cols]
             for r in range(rows)]
    return torch.cat(lines, dims[0]) if dims[0] >= 0 else lines[0]


def mesh_shard(values: list[torch.Tensor], table: fbm.MeshShardCommandT, mesh: tuple[int, int]) -> list[torch.Tensor]:
    kind = _named(fbu.enum_names(fbm.ShardType), table.shardType, "shard type")
    full_to_shard = _named(fbu.enum_names(fbm.ShardDirection), table.shardDirection, "shard direction") == \
        "full_to_shard"
    dims = [int(d) for d in fbu.as_list(table.shardDims)]
    piece = tuple(int(d) for d in fbu.as_list(table.dst.desc.shape))
    if kind == "identity" and all(tuple(v.shape) == piece for v in values):  # each chip holds its piece already
        return list(values)
    if kind == "replicate":
        return list(values) if full_to_shard else [values[0]] * len(values)
    if kind not in ("devices", "identity"):
        raise MetalError(f"a mesh_shard of shard_type {kind} is not run")
    try:
        # an identity split of an input sharded in advance, given whole (ttrt gives every chip the program's
        # inputs): each chip's the piece it would have been given
        if full_to_shard or kind == "identity":
            return [ccl.shard_of(v, dims, divmod(chip, mesh[1]), mesh) for chip, v in enumerate(values)]
        return [_joined(values, dims, mesh)] * len(values)
    except (ValueError, RuntimeError) as error:
        raise MetalError(f"mesh_shard over the {mesh[0]}x{mesh[1]} mesh: {error}") from None


def collective(values: list[torch.Tensor], table: fbm.CollectiveCommandT, mesh: tuple[int, int]) -> list[torch.Tensor]:
    kind, axis, dim = _named(_KINDS, table.kind, "collective kind"), int(table.clusterAxis), int(table.dim)
    if axis not in (0, 1) and not (kind not in _ON_AN_AXIS and axis == _ALL_CHIPS):
        raise MetalError(f"{kind}: cluster_axis {axis} is not an axis of the {mesh[0]}x{mesh[1]} mesh")
    try:
        if kind == "all_gather":
            return ccl.all_gather(values, dim, axis, mesh)
        if kind == "all_reduce":
            return ccl.all_reduce(values, _named(_REDUCTIONS, table.reduceType, "reduce type"), axis, mesh)
        if kind == "reduce_scatter":
            return ccl.reduce_scatter(values, _named(_REDUCTIONS, table.reduceType, "reduce type"), dim, axis, mesh)
        if kind == "mesh_partition":
            return ccl.mesh_partition(values, dim, None if axis == _ALL_CHIPS else axis, mesh)
        ids, width = [int(c) for c in fbu.as_list(table.chipIds)], int(table.chipIdsWidth)
        rows = [ids[i:i + width] for i in range(0, len(ids), width)] if width else []
        if any(not 0 <= chip < len(values) for chip in ids):
            raise MetalError(f"{kind}: chip ids {ids} name a chip outside the {mesh[0]}x{mesh[1]} mesh")
        if kind == "collective_permute":
            return ccl.collective_permute(values, ids)
        if kind == "all_to_all":
            return ccl.all_to_all(values, dim, int(table.concatDim), rows)
        return ccl.collective_broadcast(values, rows)
    except (ValueError, RuntimeError) as error:
        raise MetalError(f"{kind} over the {mesh[0]}x{mesh[1]} mesh: {error}") from None


MESH_COMMANDS: dict[type, Callable] = {fbm.MeshShardCommandT: mesh_shard, fbm.CollectiveCommandT: collective}

# a collective among n chips as steps around their ring of ethernet links, each step every chip sending one piece
# to the next: (pieces of the input per step, steps)
_STEPS = {"all_gather": lambda n: (1, n - 1), "reduce_scatter": lambda n: (1 / n, n - 1),
          "all_reduce": lambda n: (1 / n, 2 * (n - 1)), "mesh_partition": lambda n: (0, 0),
          "all_to_all": lambda n: (1 / n, n - 1), "collective_broadcast": lambda n: (1, n - 1),
          "collective_permute": lambda n: (1, 1)}


def fabric_ns(table: fbm.CollectiveCommandT, mesh: tuple[int, int], arch: str) -> float:
    """The modelled time a collective spends on the fabric: each step a piece over one link (bytes / link rate)
    and the hop's latency; a mesh_partition moves nothing between chips."""
    kind, axis = _named(_KINDS, table.kind, "collective kind"), int(table.clusterAxis)
    width = int(table.chipIdsWidth)
    chips = mesh[axis] if axis in (0, 1) else width if kind in ("all_to_all", "collective_broadcast") and width \
        else mesh[0] * mesh[1]
    share, steps = _STEPS[kind](chips)
    piece = math.prod(int(d) for d in fbu.as_list(table.src.desc.shape)) * int(table.src.desc.pageSize) * share
    return steps * (piece / hardware.CHIPS[arch].eth_gbps + CALIBRATION[arch].eth_latency_ns) if piece else 0.0
