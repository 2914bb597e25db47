"""`--ttir-implicit-broadcast-fold`: elementwise ops broadcast their operands themselves.

An explicit `ttir.broadcast` feeding an elementwise op is dropped: the op takes the broadcast's input and
broadcasts it implicitly, as TTNN's elementwise kernels do, so no repeated copy is made. When no operand is as
large as the result any more, the op computes on the smaller shape and one broadcast after it restores the
result's (computing on fewer elements).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from ttmlir.ir.props import KINDS, int_values
from ttmlir.ir.tt_op import TTOp
from ttmlir.dialects.ttir import TTIR_OP_CLASSES
from ttmlir.dialects.ttir_shapes import broadcast_shape

BROADCASTABLE = frozenset({"unary", "binary", "ternary"})  # upstream's Broadcastable trait: the elementwise ops
NOT_BROADCASTABLE = frozenset({"clamp_tensor"})  # its bounds are broadcast explicitly (its canonicalization)
MAX_BROADCAST_RANK = 6  # tt-metal broadcasts implicitly over the last six dimensions


def _folds(value) -> bool:
    op = value.owner
    if not (isinstance(op, TTOp) and op.name == "ttir.broadcast"):
        return False
    return all(d == 1 for d in int_values(op.prop("broadcast_dimensions"))[:-MAX_BROADCAST_RANK])


def fold(op: TTOp) -> bool:
    """Take the inputs of `op`'s explicit broadcasts; broadcast the result after `op` if it shrank."""
    operands = [v.owner.operands[0] if _folds(v) else v for v in op.operands]
    shape: tuple[int, ...] = ()
    for value in operands:
        shape = broadcast_shape(shape, tuple(value.type.get_shape()))
    if operands == list(op.operands) or len(shape) != len(op.results[0].type.get_shape()):
        return False  # nothing to fold, or a rank would be lost
    for i, (old, new) in enumerate(zip(list(op.operands), operands)):
        op.operands[i] = new
        if old is not new and not old.uses:
            Rewriter.erase_op(old.owner)
    broadcast_result(op)
    return True


def broadcast_result(op: TTOp) -> None:
    """When `op`'s operands broadcast to less than its result, compute on that shape and broadcast after."""
    shape: tuple[int, ...] = ()
    for value in op.operands:
        shape = broadcast_shape(shape, tuple(value.type.get_shape()))
    result = op.results[0]
    full = tuple(result.type.get_shape())
    if shape == full:
        return
    result = Rewriter.replace_value_with_new_type(result, TensorType(result.type.element_type, shape))
    uses = list(result.uses)
    dims = KINDS["i64_darray"].build([f // s for f, s in zip(full, shape)])
    after = TTIR_OP_CLASSES["broadcast"].create(operands=[result], result_types=[TensorType(
        result.type.element_type, full)], properties={"broadcast_dimensions": dims})
    after.location = op.location
    op.parent.insert_op_after(after, op)
    for use in uses:
        use.operation.operands[use.index] = after.results[0]


@dataclass(frozen=True)
class TTIRImplicitBroadcastFoldPass(ModulePass):
    """Fold explicit broadcasts into the elementwise ops that use them."""

    name: ClassVar[str] = "ttir-implicit-broadcast-fold"

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        for op in list(module.walk()):
            if isinstance(op, TTOp) and op.name.startswith("ttir.") and op.ROW.family in BROADCASTABLE \
                    and op.ROW.name not in NOT_BROADCASTABLE:
                while fold(op):  # to a fixed point: an operand may be a broadcast of a broadcast
                    pass
