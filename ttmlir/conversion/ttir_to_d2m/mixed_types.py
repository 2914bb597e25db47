"""Elementwise TTIR ops whose operands mix float types (a model multiplying f32 scales into bf16 activations): each
operand not of the result's type cast to it first (a `ttir.typecast` before the op), as the tile computation takes
operands of the result's format. Comparisons are left as they are (their result type is not their operands'). Run
by `--ttir-to-d2m` before it converts the ops."""

from __future__ import annotations

from xdsl.dialects.builtin import BFloat16Type, Float32Type, TensorType
from xdsl.ir import Operation

from ttmlir.dialects.ttir import TTIR_OP_CLASSES
from ttmlir.errors import derive
from ttmlir.ir.tt_op import TTOp

FLOATS = (Float32Type(), BFloat16Type())
COMPARISONS = ("eq", "ne", "gt", "ge", "lt", "le")


def cast_mixed_operands(module: Operation, elementwise: set[str]) -> None:
    """Each operand of an op in `elementwise` (TTIR names without the prefix) mixing float operand types whose type
    is not the op's float result's, cast to it."""
    for op in [o for o in module.walk() if isinstance(o, TTOp) and o.name.startswith("ttir.")]:
        if op.ROW.name not in elementwise or len(op.results) != 1:
            continue
        element = op.results[0].type.element_type
        floats = {v.type.element_type for v in op.operands if isinstance(v.type, TensorType)}
        if element not in FLOATS or len(floats) < 2 or not floats <= set(FLOATS) or op.ROW.name in COMPARISONS:
            continue  # operands of one type (a comparison's result type says nothing of its operands')
        for index, value in enumerate(op.operands):
            if isinstance(value.type, TensorType) and value.type.element_type in FLOATS and \
                    value.type.element_type != element:
                cast = TTIR_OP_CLASSES["typecast"].create(operands=[value], result_types=[
                    TensorType(element, value.type.get_shape())])
                derive([cast], op)
                op.parent_block().insert_op_before(cast, op)
                op.operands[index] = cast.results[0]
