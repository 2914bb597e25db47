"""How the tiles a unified generic's linalg ops produce are packed into DST (upstream's DstRegisterAnalysis).

Each op's output shard is computed in `num_dst_flips` rounds of `num_tiles_per_flip` tiles: a flip is as many tiles
as DST holds for the op (half of it for SFPU work, shared by the op's outputs), at most half the shard so there are
at least two flips to overlap packing with compute. The ops of one region then share `num_outer_loop_iters` outer
iterations (a common divisor of their flip counts, at most half of each), each computing `num_tiles_per_result`
tiles of every result."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from xdsl.dialects.builtin import MemRefType
from xdsl.dialects.linalg import GenericOp as LinalgGenericOp
from xdsl.ir import Region, SSAValue

from ttmlir.dialects import d2m, ttcore
from ttmlir.errors import PassFailure
from ttmlir.dialects.d2m_dst import element_bits
from ttmlir.transforms.d2m.dst_register_access import dst_capacity_tiles

FPU_OPS = frozenset({"d2m.tile_matmul", "d2m.tile_reduce_max", "d2m.tile_reduce_sum", "d2m.tile_reduce_mean"})
FPU_OR_SFPU = frozenset({"d2m.tile_add", "d2m.tile_sub", "d2m.tile_mul"})


@dataclass
class PerResult:
    num_dst_flips: int
    num_tiles_per_flip: int
    num_tiles_per_result: int


@dataclass
class RegionPacking:
    num_outer_loop_iters: int = 1
    num_tiles_per_result: int = 1
    per_result: dict[SSAValue, PerResult] = field(default_factory=dict)


def factors(n: int) -> list[int]:
    return [f for f in range(1, n + 1) if n % f == 0]


def _volume(shape) -> int:
    return math.prod(shape)


def _runs_on_fpu(op: LinalgGenericOp) -> bool:
    """Whether every tile op of a linalg op runs on the FPU (reading CBs; else DST holds its inputs too)."""
    seen = False
    for inner in op.body.walk():
        if not inner.name.startswith("d2m.tile_"):
            continue
        seen = True
        if inner.name in FPU_OPS:
            continue
        if inner.name in FPU_OR_SFPU:
            lhs, rhs = inner.operand_types
            if any(isinstance(t, ttcore.TileType) and t.dtype == "f32" for t in (lhs, rhs)) or \
                    not isinstance(rhs, ttcore.TileType):
                return False
            continue
        return False
    return seen


def max_dst_tiles(op: LinalgGenericOp, chip: dict, override: int) -> int | None:
    """The tiles of one output an op may hold in DST at once."""
    if not op.outputs:
        return None
    logical = None
    for out in op.outputs:
        element = out.type.get_element_type() if isinstance(out.type, MemRefType) else None
        if not isinstance(element, ttcore.TileType):
            return None
        tiles = dst_capacity_tiles(chip["dst_physical_size_tiles"], element_bits(element))
        logical = tiles if logical is None else min(logical, tiles)
    if override > 0:
        logical = min(logical, override)
    on_hardware = logical if _runs_on_fpu(op) else logical // 2
    if on_hardware < len(op.outputs):
        return None
    return on_hardware // len(op.outputs)


def largest_chunk(shard: int, max_tiles: int) -> int:
    """The largest divisor of the shard that fits DST and leaves at least two flips."""
    if shard == 1:
        return 1
    for size in range(min(max_tiles, shard // 2), 0, -1):
        if shard % size == 0:
            return size
    raise AssertionError("a chunk of one tile always divides the shard")


def common_outer_iters(flips: list[int]) -> int:
    limit = min(f // 2 for f in flips)
    divisor = math.gcd(*flips)
    return max(f for f in factors(divisor) if f <= limit)


def _shared_parallel_chunking(ops: list[LinalgGenericOp], chip: dict, override: int) -> RegionPacking | None:
    """For ops of different shard sizes over the same rows: outer iterations over row blocks."""
    infos = []
    rows = None
    for op in ops:
        out = op.outputs[0]
        shape = out.type.get_shape()
        if len(shape) < 2 or any(d < 0 for d in shape):
            return None
        columns = _volume(shape[1:])
        shard = shape[0] * columns
        max_tiles = max_dst_tiles(op, chip, override)
        if shard <= 1 or max_tiles is None or (rows is not None and shape[0] != rows):
            return None
        rows = shape[0]
        infos.append((out, columns, shard, max_tiles))
    if len(infos) < 2 or rows < 2:
        return None
    for block_rows in reversed(factors(rows)):
        if block_rows >= rows or block_rows < 2:
            continue
        outer = rows // block_rows
        packing = RegionPacking()
        for out, columns, shard, max_tiles in infos:
            per_iter = shard // outer
            if per_iter < 2:
                break
            per_flip = min(largest_chunk(per_iter, max_tiles), columns)
            flips = per_iter // per_flip
            if flips < 2:
                break
            packing.per_result.setdefault(out, PerResult(flips, per_flip, per_iter))
        else:
            packing.num_outer_loop_iters = outer
            packing.num_tiles_per_result = infos[0][2] // outer
            return packing
    return None


def region_packing(generic: d2m.GenericOp, ops: list[LinalgGenericOp], chip: dict,
                   override: int) -> RegionPacking | None:
    pending: list[list] = []  # [output, shard, tiles per flip, flips]
    single: list[SSAValue] = []
    for op in ops:
        for out in op.outputs:
            shape = out.type.get_shape() if isinstance(out.type, MemRefType) else None
            if shape is None or any(d < 0 for d in shape):
                raise PassFailure(op, "'linalg.generic' op expected static shaped output to compute shard size")
            shard = _volume(shape)
            if shard == 1:
                single.append(out)
                continue
            max_tiles = max_dst_tiles(op, chip, override)
            if max_tiles is None:
                raise PassFailure(op, "'linalg.generic' op failed to compute max DST tile capacity")
            per_flip = largest_chunk(shard, max_tiles)
            pending.append([out, shard, per_flip, shard // per_flip])
    if pending:  # one flip size for all, where it divides their shards
        smallest = min(p[2] for p in pending)
        for p in pending:
            if p[2] != smallest and p[1] % smallest == 0:
                p[2], p[3] = smallest, p[1] // smallest
    if single and not pending:
        return RegionPacking(1, 1, {out: PerResult(1, 1, 1) for out in single})
    if single:
        raise PassFailure(generic, "'d2m.generic' op expected all linalg.generic outputs in a region to have shard "
                                   "size 1")
    if not pending:
        return None
    outer = common_outer_iters([p[3] for p in pending])
    if outer <= 1 and len(pending) >= 2 and any(p[2] * p[3] != pending[0][2] * pending[0][3] for p in pending):
        shared = _shared_parallel_chunking(ops, chip, override)
        if shared is not None:
            return shared
    packing = RegionPacking(num_outer_loop_iters=outer)
    for out, _, per_flip, flips in pending:
        flips //= outer
        result = PerResult(flips, per_flip, flips * per_flip)
        if out not in packing.per_result or per_flip < packing.per_result[out].num_tiles_per_flip:
            packing.per_result[out] = result
    packing.num_tiles_per_result = next(iter(packing.per_result.values())).num_tiles_per_result
    return packing


def is_unified(generic: d2m.GenericOp) -> bool:
    threads = generic.attributes.get("threads")
    return threads is not None and len(threads.data) == 1 and threads.data[0].thread == "unified"


def dst_packing(generic: d2m.GenericOp, chip: dict, override: int) -> dict[Region, RegionPacking]:
    """The packing of each region (of the generic's first region) holding linalg ops, for a unified generic."""
    if not is_unified(generic) or not generic.regions:
        return {}
    by_region: dict[Region, list[LinalgGenericOp]] = {}
    for op in generic.regions[0].walk():
        if isinstance(op, LinalgGenericOp):
            by_region.setdefault(op.parent_region(), []).append(op)
    packing = {}
    for region, ops in by_region.items():
        info = region_packing(generic, ops, chip, override)
        if info is not None:
            packing[region] = info
    return packing
