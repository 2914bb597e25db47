"""`--lower-affine`: MLIR's lowering of the affine dialect to scf and arith. `affine.for` becomes `scf.for` (bounds
evaluated from their maps and operands: the largest lower bound, the smallest upper bound), `affine.load`/`store` the
memref ops at their maps' evaluated indices, `affine.apply` its expression in arith ops, `affine.yield` `scf.yield`.
An index that is a plain dim or symbol of the map is its operand, with no ops. Loop attributes (such as
`d2m.blocking_loop`) stay on the loop. (xDSL's own pass drops the operands of loop bounds and of accesses.)"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects import affine, arith, memref, scf
from xdsl.dialects.builtin import IndexType, ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineBinaryOpExpr, AffineBinaryOpKind, AffineConstantExpr, AffineDimExpr, AffineExpr, \
    AffineMap, AffineSymExpr
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (GreedyRewritePatternApplier, PatternRewriter, PatternRewriteWalker,
                                   RewritePattern, op_type_rewrite_pattern)

from ttmlir.errors import PassFailure

_BINARY = {AffineBinaryOpKind.Add: arith.AddiOp, AffineBinaryOpKind.Mul: arith.MuliOp,
           AffineBinaryOpKind.Mod: arith.RemSIOp, AffineBinaryOpKind.FloorDiv: arith.FloorDivSIOp,
           AffineBinaryOpKind.CeilDiv: arith.CeilDivSIOp}


def expand(expr: AffineExpr, dims: Sequence[SSAValue], symbols: Sequence[SSAValue],
           ops: list[Operation]) -> SSAValue:
    """The expression's value, the ops computing it appended to `ops`."""
    if isinstance(expr, AffineDimExpr):
        return dims[expr.position]
    if isinstance(expr, AffineSymExpr):
        return symbols[expr.position]
    if isinstance(expr, AffineConstantExpr):
        constant = arith.ConstantOp.from_int_and_width(expr.value, IndexType())
        ops.append(constant)
        return constant.result
    assert isinstance(expr, AffineBinaryOpExpr)
    lhs = expand(expr.lhs, dims, symbols, ops)
    rhs = expand(expr.rhs, dims, symbols, ops)
    value = _BINARY[expr.kind](lhs, rhs)
    if expr.kind == AffineBinaryOpKind.Mod:  # an affine mod is never negative: add the divisor to a negative rest
        zero = arith.ConstantOp.from_int_and_width(0, IndexType())
        negative = arith.CmpiOp(value.result, zero.result, "slt")
        shifted = arith.AddiOp(value.result, rhs)
        ops += [value, zero, negative, shifted]
        chosen = arith.SelectOp(negative.result, shifted.result, value.result)
        ops.append(chosen)
        return chosen.result
    ops.append(value)
    return value.result


def expand_map(mapping: AffineMap, operands: Sequence[SSAValue], ops: list[Operation]) -> list[SSAValue]:
    dims, symbols = operands[:mapping.num_dims], operands[mapping.num_dims:]
    return [expand(r, dims, symbols, ops) for r in mapping.results]


def _bound(mapping: AffineMap, operands, combine, ops: list[Operation]) -> SSAValue:
    values = expand_map(mapping, operands, ops)
    value = values[0]
    for other in values[1:]:
        combined = combine(value, other)
        ops.append(combined)
        value = combined.result
    return value


class LowerFor(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: affine.ForOp, rewriter: PatternRewriter) -> None:
        ops: list[Operation] = []
        lower = _bound(op.lowerBoundMap.data, op.lowerBoundOperands, arith.MaxSIOp, ops)
        upper = _bound(op.upperBoundMap.data, op.upperBoundOperands, arith.MinSIOp, ops)
        step = arith.ConstantOp.from_int_and_width(op.step.value.data, IndexType())
        ops.append(step)
        loop = scf.ForOp(lower, upper, step.result, list(op.inits), rewriter.move_region_contents_to_new_regions(
            op.body))
        loop.attributes.update(op.attributes)
        rewriter.replace_op(op, [*ops, loop], loop.results)


class LowerLoad(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: affine.LoadOp, rewriter: PatternRewriter) -> None:
        ops: list[Operation] = []
        indices = expand_map(op.map.data, op.indices, ops) if op.map else list(op.indices)
        load = memref.LoadOp.get(op.memref, indices)
        rewriter.replace_op(op, [*ops, load], [load.res])


class LowerStore(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: affine.StoreOp, rewriter: PatternRewriter) -> None:
        ops: list[Operation] = []
        indices = expand_map(op.map.data, op.indices, ops) if op.map else list(op.indices)
        rewriter.replace_op(op, [*ops, memref.StoreOp.get(op.value, op.memref, indices)], [])


class LowerApply(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: affine.ApplyOp, rewriter: PatternRewriter) -> None:
        ops: list[Operation] = []
        value = expand_map(op.map.data, op.mapOperands, ops)[0]
        rewriter.replace_op(op, ops, [value])


class LowerYield(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: affine.YieldOp, rewriter: PatternRewriter) -> None:
        rewriter.replace_op(op, scf.YieldOp(*op.arguments))


@dataclass(frozen=True)
class LowerAffinePass(ModulePass):
    name: ClassVar[str] = "lower-affine"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for other in op.walk():
            if other.dialect_name() == "affine" and not isinstance(
                    other, (affine.ForOp, affine.LoadOp, affine.StoreOp, affine.ApplyOp, affine.YieldOp)):
                raise PassFailure(other, f"'{other.name}' op is not lowered by --lower-affine in this build")
        PatternRewriteWalker(GreedyRewritePatternApplier([LowerFor(), LowerLoad(), LowerStore(), LowerApply(),
                                                          LowerYield()]), apply_recursively=False).rewrite_module(op)
