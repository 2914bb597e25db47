"""`--d2m-generic-tile-compute-loops`: the linalg ops of a unified generic are tiled so each DST round fits.

With the DST packing of the generic (dst_packing.py), each linalg op is tiled twice, as MLIR's linalg tiling does
it (loops over the tiled dims, `memref.subview`s of the operands, the op on the subviews): first into `scf.for`
loops of `num_outer_loop_iters` iterations (tiles of `num_tiles_per_result` output tiles), then the inner op into
loops of `num_dst_flips` iterations (tiles of `num_tiles_per_flip`), made `affine.for` (the outermost tagged
`d2m.scratch_space_loop`). The output block is cut row-major: inner dims first, an outer dim only once the inner
ones are whole. A linalg op reading a buffer an earlier one wrote first waits for its packing
(`d2m.unpack_stall_on_pack`). `max-dst-physical-size-tiles` caps the DST size used."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects import affine, arith, scf
from xdsl.dialects.builtin import IndexType, IntegerAttr, ModuleOp, UnitAttr
from xdsl.dialects.linalg import GenericOp as LinalgGenericOp
from xdsl.ir import Block, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr
from xdsl.passes import ModulePass

from ttmlir.dialects import affine_ext, d2m
from ttmlir.dialects.d2m_dst import UnpackStallOnPackOp
from ttmlir.dialects.memref_ext import subview
from ttmlir.errors import PassFailure, derive
from ttmlir.transforms.d2m.dst_packing import dst_packing
from ttmlir.transforms.d2m.dst_register_access import chip_of


def output_subblock_factors(shape: list[int], capacity: int) -> list[int]:
    """How many subblocks each output dim is cut into so a subblock fits `capacity` tiles, inner dims first."""
    remaining, factors = capacity, []
    for dim in reversed(shape):
        for factor in range(remaining, 0, -1):
            if dim % factor == 0:
                factors.append(dim // factor)
                remaining = remaining // factor if dim == factor else 1
                break
    return factors[::-1]


def _first_positions(op: LinalgGenericOp) -> list[int]:
    """For each loop dim, its position among the maps' results concatenated in reverse operand order (outputs,
    last first, then inputs, last first), where it is first indexed alone."""
    maps = [m.data for m in op.indexing_maps.data]
    concatenated = [r for m in reversed(maps) for r in m.results]
    positions = []
    for dim in range(maps[0].num_dims):
        position = next((i for i, r in enumerate(concatenated) if isinstance(r, AffineDimExpr) and r.position == dim),
                        None)
        if position is None:
            raise PassFailure(op, f"'linalg.generic' op loop dim d{dim} is indexed by no operand dim: it cannot be "
                                  "tiled")
        positions.append(position)
    return positions


def subblock_sizes(op: LinalgGenericOp, capacity: int) -> list[int]:
    """The loop tile sizes that cut the op's first output into subblocks of at most `capacity` tiles."""
    outputs, inputs = list(op.outputs), list(op.inputs)
    out_shape = list(outputs[0].type.get_shape())
    positions = _first_positions(op)
    factors = [1] * sum(len(o.type.get_shape()) for o in outputs[1:])
    factors += output_subblock_factors(out_shape, capacity)
    shapes = [d for o in reversed(outputs[1:]) for d in o.type.get_shape()] + out_shape + \
        [d for i in reversed(inputs) for d in i.type.get_shape()]
    factors += [1] * (len(shapes) - len(factors))
    return [shapes[p] // factors[p] for p in positions]


def _loop_extents(op: LinalgGenericOp) -> list[int]:
    positions = _first_positions(op)
    shapes = [d for v in reversed(list(op.operands)) for d in v.type.get_shape()]
    return [shapes[p] for p in positions]


def tile(op: LinalgGenericOp, sizes: list[int]) -> tuple[LinalgGenericOp, list[scf.ForOp]]:
    """The op tiled by `sizes` (one scf.for per tiled loop dim, subviews of the operands it tiles, the op on them),
    inserted before `op`; `op` is left for the caller to erase."""
    extents = _loop_extents(op)
    tiled_dims = [dim for dim, size in enumerate(sizes) if size]
    # every loop's bounds first, as MLIR builds a loop nest
    bounds = {dim: [arith.ConstantOp(IntegerAttr(v, IndexType())) for v in (0, extents[dim], sizes[dim])]
              for dim in tiled_dims}
    block, before = op.parent_block(), op
    block.insert_ops_before([c for dim in tiled_dims for c in bounds[dim]], op)
    loops, ivs = [], {}
    for dim in tiled_dims:
        body = Block(arg_types=[IndexType()])
        loop = scf.ForOp(*bounds[dim], [], Region(body))
        block.insert_op_before(loop, before)
        body.add_op(scf.YieldOp())
        loops.append(loop)
        ivs[dim] = body.args[0]
        block, before = body, body.last_op
    operands = []
    for value, map_ in zip(op.operands, [m.data for m in op.indexing_maps.data]):
        tiled = [isinstance(r, AffineDimExpr) and sizes[r.position] for r in map_.results]
        if not any(tiled):
            operands.append(value)
            continue
        shape = value.type.get_shape()
        offsets = [ivs[r.position] if t else 0 for r, t in zip(map_.results, tiled)]
        lengths = [sizes[r.position] if t else shape[i] for i, (r, t) in enumerate(zip(map_.results, tiled))]
        view = subview(value, offsets, lengths, [1] * len(shape))
        block.insert_op_before(view, before)
        operands.append(view.results[0])
    inner = op.clone()
    inner.operands = operands
    block.insert_op_before(inner, before)
    derive([inner, *loops], op)
    return inner, loops


def to_affine(loop: scf.ForOp) -> affine_ext.ForOp:
    """A constant-bounded scf.for as the same affine.for."""
    lower, upper, step = (v.owner.value.value.data for v in (loop.lb, loop.ub, loop.step))
    body = Block(arg_types=[IndexType()])
    affine_loop = affine_ext.for_loop(lower, upper, Region(body))
    affine_loop.properties["step"] = IntegerAttr(step, IndexType())
    old = loop.body.block
    old.args[0].replace_all_uses_with(body.args[0])
    for inner in list(old.ops):
        inner.detach()
        body.add_op(inner if not isinstance(inner, scf.YieldOp) else affine.YieldOp.get())
    loop.parent_block().insert_op_before(affine_loop, loop)
    loop.detach()
    loop.erase()
    return affine_loop


def tile_linalg(op: LinalgGenericOp, packing) -> None:
    out = op.outputs[0]
    result = packing.per_result.get(out)
    if result is None:
        raise PassFailure(op, "'linalg.generic' op has no DST packing for its output")
    outer, _ = tile(op, subblock_sizes(op, packing.num_tiles_per_result))
    inner, loops = tile(outer, subblock_sizes(outer, result.num_tiles_per_flip))
    outer.detach()
    outer.erase()
    affine_loops = [to_affine(loop) for loop in loops]
    if affine_loops:
        affine_loops[0].attributes["d2m.scratch_space_loop"] = UnitAttr()
    op.detach()
    op.erase()


@dataclass(frozen=True)
class D2MGenericTileComputeLoopsPass(ModulePass):
    name: ClassVar[str] = "d2m-generic-tile-compute-loops"
    max_dst_physical_size_tiles: int = 0

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for generic in [g for g in op.walk() if isinstance(g, d2m.GenericOp)]:
            packing = dst_packing(generic, chip_of(generic), self.max_dst_physical_size_tiles) \
                if generic.regions else {}
            if not packing:
                continue
            linalg_ops = [o for o in generic.regions[0].walk() if isinstance(o, LinalgGenericOp)]
            written: set[SSAValue] = set()
            for linalg_op in linalg_ops:
                if any(v in written for v in linalg_op.inputs):
                    linalg_op.parent_block().insert_op_before(UnpackStallOnPackOp.create(), linalg_op)
                written.update(linalg_op.outputs)
            for linalg_op in linalg_ops:
                region_packing = packing.get(linalg_op.parent_region())
                if region_packing is None:
                    continue
                tile_linalg(linalg_op, region_packing)
