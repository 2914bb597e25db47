"""`ttir.concat` before its conversion to D2M: each input padded with zeros to the result's shape at its place
along the dim (a `ttir.pad`, converted as a copy of its logical view, see `pad.py`), the pads added (`ttir.add`,
elementwise): every element of the result is one input's plus zeros."""

from __future__ import annotations

from xdsl.dialects.builtin import FloatAttr, TensorType, f32

from ttmlir.dialects.ttir import TTIR_OP_CLASSES
from ttmlir.errors import derive
from ttmlir.ir.props import KINDS, scalar
from ttmlir.ir.tt_op import TTOp


def decompose_concat(op: TTOp) -> list[TTOp]:
    """The pads and adds replacing `op` (inserted where it was), in order."""
    result = op.results[0]
    shape = tuple(result.type.get_shape())
    dim = int(scalar(op.prop("dim"))) % len(shape)
    made: list[TTOp] = []
    offset, total = 0, None
    for value in op.operands:
        size = value.type.get_shape()[dim]
        padding = [0] * (2 * len(shape))
        padding[2 * dim], padding[2 * dim + 1] = offset, shape[dim] - offset - size
        offset += size
        padded = TTIR_OP_CLASSES["pad"].create(operands=[value], result_types=[TensorType(
            value.type.element_type, list(shape))], properties={"padding": KINDS["i32_darray"].build(padding),
                                                              "value": FloatAttr(0.0, f32)})
        made.append(padded)
        if total is not None:
            made.append(TTIR_OP_CLASSES["add"].create(operands=[total, padded.results[0]],
                                                      result_types=[result.type]))
        total = made[-1].results[0]
    derive(made, op)
    op.parent_block().insert_ops_before(made, op)
    result.replace_all_uses_with(total)
    op.detach()
    op.erase()
    return made
