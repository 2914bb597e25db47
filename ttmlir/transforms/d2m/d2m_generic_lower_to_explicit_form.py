"""`--d2m-generic-lower-to-explicit-form`: a generic's blocking becomes explicit in its region, and the generic
keeps no blocking attributes (`block_factors`, `indexing_maps`, `iterator_types` emptied: explicit data movement).
Each `d2m.get_block_factor(i)` is the constant factor; each `d2m.block_offset(i)` is the factor times this core's
index along the grid dim the output's indexing map puts loop dim i at (`d2m.core_index`), or 0 for a dim not on the
grid; each blocking `affine.for` becomes an `scf.for` with constant bounds (its loop marks kept). If the module holds
an `affine.apply`, the affine ops are then lowered to scf/arith (as `--lower-affine`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects import affine, arith, scf
from xdsl.dialects.builtin import ArrayAttr, IndexType, IntegerAttr, ModuleOp, i64
from xdsl.ir import Block, Region
from xdsl.ir.affine import AffineDimExpr
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from ttmlir.dialects import d2m
from ttmlir.dialects.d2m_index import BlockOffsetOp, CoreIndexOp, GetBlockFactorOp
from ttmlir.dialects.d2m_verify import grid_inverse_map
from ttmlir.errors import PassFailure, derive
from ttmlir.transforms.d2m.d2m_generate_outer_loops import BLOCKING_LOOP, REDUCTION_LOOP
from ttmlir.transforms.lower_affine import LowerAffinePass


def _const(value: int) -> arith.ConstantOp:
    return arith.ConstantOp.from_int_and_width(value, IndexType())


def _grid_dims(generic: d2m.GenericOp, loop_dims: int) -> list[int]:
    """For each loop dim, the grid dim the output's indexing map puts it at (-1: none)."""
    maps = generic.attributes["indexing_maps"].data
    output = maps[len(generic.inputs)].data
    inverse = grid_inverse_map(generic.attributes.get("grid"))
    grid_rank = 2 if inverse is None else len(inverse.results) - 1
    found = []
    for dim in range(loop_dims):
        positions = [i for i, r in enumerate(output.results) if isinstance(r, AffineDimExpr) and r.position == dim]
        found.append(positions[0] if positions and positions[0] < grid_rank else -1)
    return found


def _to_scf(loop: affine.ForOp) -> None:
    lower = loop.lowerBoundMap.data
    if lower.num_dims or lower.num_symbols or len(lower.results) != 1 or len(loop.upperBoundOperands) != 1:
        raise PassFailure(loop, "'affine.for' op a blocking loop must run from a constant to one bound value")
    start, step = _const(lower.results[0].value), _const(loop.step.value.data)
    body = Block(arg_types=[IndexType()])
    loop.body.block.args[0].replace_all_uses_with(body.args[0])
    for op in list(loop.body.block.ops)[:-1]:  # all but the affine.yield
        op.detach()
        body.add_op(op)
    body.add_op(scf.YieldOp())
    new = scf.ForOp(start.result, loop.upperBoundOperands[0], step.result, [], Region(body))
    for mark in (BLOCKING_LOOP, REDUCTION_LOOP):
        if mark in loop.attributes:
            new.attributes[mark] = loop.attributes[mark]
    derive([start, step, new], loop)
    Rewriter.replace_op(loop, [start, step, new])


def lower(generic: d2m.GenericOp) -> None:
    factors_attr = generic.attributes.get("block_factors")
    factors = [f.value.data for f in factors_attr.data] if isinstance(factors_attr, ArrayAttr) else []
    if not factors:
        return
    for op in [o for o in generic.walk() if isinstance(o, GetBlockFactorOp)]:
        dim = op.dim.value.data
        if dim >= len(factors):
            raise PassFailure(op, f"'{op.name}' op dim {dim} is out of range for the generic's block factors")
        constant = _const(factors[dim])
        derive([constant], op)
        Rewriter.replace_op(op, constant)
    grid_dims = _grid_dims(generic, len(factors))
    for op in [o for o in generic.walk() if isinstance(o, BlockOffsetOp)]:
        dim = op.dim.value.data
        if dim >= len(factors):
            raise PassFailure(op, f"'{op.name}' op dim {dim} is out of range for the generic's block factors")
        if grid_dims[dim] < 0:
            ops = [_const(0)]
        else:
            factor = _const(factors[dim])
            core = CoreIndexOp.create(properties={"dim": IntegerAttr(grid_dims[dim], i64)},
                                      result_types=[IndexType()])
            ops = [factor, core, arith.MuliOp(factor.result, core.result)]
        derive(ops, op)
        Rewriter.replace_op(op, ops)
    # innermost first, as a post-order walk finds them
    for loop in reversed([o for o in generic.walk() if isinstance(o, affine.ForOp) and BLOCKING_LOOP in o.attributes]):
        _to_scf(loop)


@dataclass(frozen=True)
class D2MGenericLowerToExplicitFormPass(ModulePass):
    name: ClassVar[str] = "d2m-generic-lower-to-explicit-form"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        generics = [o for o in op.walk() if isinstance(o, d2m.GenericOp)]
        for generic in generics:
            lower(generic)
        for generic in generics:
            generic.attributes.update(block_factors=ArrayAttr([]), indexing_maps=ArrayAttr([]),
                                      iterator_types=ArrayAttr([]))
        if any(isinstance(o, affine.ApplyOp) for o in op.walk()):
            LowerAffinePass().apply(ctx, op)
