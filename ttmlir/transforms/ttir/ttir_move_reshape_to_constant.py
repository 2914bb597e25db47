"""`--ttir-move-reshape-to-constant`: when an elementwise binary op reads a reshaped activation only to match a
constant operand's shape, the op runs in the activation's own shape with the inverse reshape on the constant
(where const-eval or folding removes it), and one reshape after it gives the old result.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass

from ttmlir.ir.props import KINDS
from ttmlir.ir.tt_op import TTOp
from ttmlir.dialects.ttir import TTIR_OP_CLASSES
from ttmlir.transforms.ttir.ttir_fold_constant_reshape_broadcast import MOVES, erase_dead, fold_moves


def from_constant(value: SSAValue) -> bool:
    """A constant, or a reshape/broadcast of one."""
    owner = value.owner
    while isinstance(owner, Operation) and owner.name in MOVES:
        owner = owner.operands[0].owner
    return isinstance(owner, Operation) and owner.name == "ttir.constant"


def _reshape(value: SSAValue, shape: tuple[int, ...], at: Operation) -> Operation:
    op = TTIR_OP_CLASSES["reshape"].create(operands=[value], result_types=[TensorType(value.type.element_type, shape)],
                                           properties={"shape": KINDS["i32_array"].build(list(shape))})
    op.location = at.location
    return op


def _move(op: TTOp) -> bool:
    for i in (0, 1):
        reshape, other = op.operands[i].owner, op.operands[1 - i]
        if not (isinstance(reshape, Operation) and reshape.name == "ttir.reshape") or \
                from_constant(op.operands[i]) or not from_constant(other):
            continue
        if reshape.results[0].uses.get_length() != 1:
            return False
        before, after = reshape.operands[0].type, reshape.results[0].type
        if tuple(other.type.get_shape()) != tuple(after.get_shape()):
            return False
        shape = tuple(before.get_shape())
        inverse = _reshape(other, shape, op)
        operands = [None, None]
        operands[i], operands[1 - i] = reshape.operands[0], inverse.results[0]
        out: TensorType = op.results[0].type
        new = type(op).create(operands=operands, result_types=[TensorType(out.element_type, shape)],
                              properties=dict(op.properties), attributes=dict(op.attributes))
        new.location = op.location
        back = _reshape(new.results[0], tuple(out.get_shape()), op)
        for added in (inverse, new, back):
            op.parent.insert_op_before(added, op)
        op.results[0].replace_all_uses_with(back.results[0])
        op.detach()
        op.erase()
        reshape.detach()
        reshape.erase()
        return True
    return False


@dataclass(frozen=True)
class TTIRMoveReshapeToConstantPass(ModulePass):
    """Move reshapes from activation paths to constant paths."""

    name: ClassVar[str] = "ttir-move-reshape-to-constant"

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        for op in list(module.walk()):
            if isinstance(op, TTOp) and op.name.startswith("ttir.") and op.ROW.family == "binary" and \
                    len(op.operands) == 2 and op.parent is not None:
                _move(op)
        fold_moves(module)  # the reshapes and broadcasts on the constant paths fold, as MLIR's rewriter folds them
        erase_dead(list(module.walk()))
