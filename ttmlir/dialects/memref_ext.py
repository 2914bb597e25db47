"""xDSL's `memref` dialect with MLIR's fold of a trivial `memref.subview`: a view at offset 0 (static or a constant
operand) with the source's whole shape and unit strides is the source itself, so the loads and stores through it
read the source directly (MLIR folds it to the source, through a memref.cast that its users absorb)."""

from __future__ import annotations

from xdsl.dialects import affine, arith
from xdsl.dialects import memref as xmemref
from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import Dialect, SSAValue
from xdsl.irdl import traits_def
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xdsl.traits import HasCanonicalizationPatternsTrait, NoMemoryEffect
from xdsl.transforms.canonicalization_patterns.memref import MemRefSubviewOfSubviewFolding

# ops that read or write through a memref of any layout (their types do not change with it)
LAYOUT_AGNOSTIC_USERS = (affine.LoadOp, affine.StoreOp, xmemref.LoadOp, xmemref.StoreOp)


def _values(static, dynamic) -> list[int | None]:
    """A subview's offsets (sizes, strides): each static value, or a dynamic operand's constant, or None."""
    operands = iter(dynamic)
    values = []
    for value in static.get_values():
        if value == xmemref.DYNAMIC_INDEX:
            owner = next(operands).owner
            constant = owner.value if isinstance(owner, arith.ConstantOp) else None
            values.append(constant.value.data if isinstance(constant, IntegerAttr) else None)
        else:
            values.append(value)
    return values


class FoldTrivialSubview(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: xmemref.SubviewOp, rewriter: PatternRewriter, /):
        shape = op.source.type.get_shape()
        if _values(op.static_offsets, op.offsets) != [0] * len(shape) or \
                _values(op.static_sizes, op.sizes) != list(shape) or \
                _values(op.static_strides, op.strides) != [1] * len(shape):
            return
        if any(not isinstance(use.operation, LAYOUT_AGNOSTIC_USERS) or
               (isinstance(use.operation, (affine.StoreOp, xmemref.StoreOp)) and use.operation.value is op.result)
               for use in op.result.uses):
            return
        source: SSAValue = op.source
        rewriter.replace_op(op, [], [source])


class _Canonicalization(HasCanonicalizationPatternsTrait):
    @classmethod
    def get_canonicalization_patterns(cls) -> tuple[RewritePattern, ...]:
        return (MemRefSubviewOfSubviewFolding(), FoldTrivialSubview())


class SubviewOp(xmemref.SubviewOp):  # xDSL's definition, inherited as it is; only its patterns differ
    traits = traits_def(_Canonicalization(), NoMemoryEffect())


MemRef = Dialect("memref", [*(op for op in xmemref.MemRef.operations if op.name != "memref.subview"), SubviewOp],
                 list(xmemref.MemRef.attributes))
