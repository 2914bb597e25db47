"""`--fold-memref-alias-ops`: MLIR's fold of loads and stores through a `memref.subview` into accesses of the
subview's source. Each index becomes `offset + index * stride` of the view (an `affine.apply`, the view's static
offsets and strides as constants of its map, its dynamic ones as symbols; `--lower-affine` lowers it), so the
accesses name the buffer itself and later passes see plain row-major memrefs. A rank-reducing view, and aliases
other than subviews, are left as they are."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects import affine, memref
from xdsl.dialects.builtin import AffineMapAttr, ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, PatternRewriteWalker, RewritePattern


def _mixed(static, dynamic) -> list[int | SSAValue]:
    operands = iter(dynamic)
    return [next(operands) if value == memref.DYNAMIC_INDEX else value for value in static.get_values()]


def _source_indices(view: memref.SubviewOp, indices, rewriter: PatternRewriter) -> list[SSAValue] | None:
    """The source's indices of an access at `indices` of the view, or None for a rank-reducing view."""
    offsets, strides = _mixed(view.static_offsets, view.offsets), _mixed(view.static_strides, view.strides)
    if len(offsets) != len(indices):
        return None
    folded = []
    for index, offset, stride in zip(indices, offsets, strides):
        if offset == 0 and stride == 1:
            folded.append(index)
            continue
        operands = [index]
        symbol = iter(AffineExpr.symbol(i) for i in range(2))

        def term(value: int | SSAValue) -> AffineExpr:
            if isinstance(value, int):
                return AffineExpr.constant(value)
            operands.append(value)
            return next(symbol)

        scale = term(stride)
        expr = term(offset) + AffineExpr.dimension(0) * scale
        apply = affine.ApplyOp(operands, AffineMapAttr(AffineMap(1, len(operands) - 1, (expr,))))
        rewriter.insert_op(apply)
        folded.append(apply.result)
    return folded


class FoldAccessOfSubview(RewritePattern):
    """A load or store through a subview: the same access of the subview's source at the mapped indices."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /):
        if not isinstance(op, memref.LoadOp | memref.StoreOp) or not isinstance(op.memref.owner, memref.SubviewOp):
            return
        view = op.memref.owner
        indices = _source_indices(view, list(op.indices), rewriter)
        if indices is None:
            return
        rewriter.replace_op(op, memref.LoadOp.get(view.source, indices) if isinstance(op, memref.LoadOp)
                            else memref.StoreOp.get(op.value, view.source, indices))


@dataclass(frozen=True)
class FoldMemRefAliasOpsPass(ModulePass):
    name: ClassVar[str] = "fold-memref-alias-ops"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(FoldAccessOfSubview(), apply_recursively=True).rewrite_module(op)
        for view in [o for o in op.walk() if isinstance(o, memref.SubviewOp) and not o.result.uses]:
            view.detach()
            view.erase()  # a view nothing reads through any more
