"""Lookups whose indices come as floats (a model computing flat row indices with a matmul, in f32): the indices cast
to si32 first (a `ttir.typecast` before the op, in `--ttir-to-d2m` before its ops convert), as the data-movement
program reads indices of 32-bit integers. Integral values up to 2^24 (f32; 2^8 in bf16) are cast exactly."""

from __future__ import annotations

from xdsl.dialects.builtin import BFloat16Type, Float32Type, IntegerType, Signedness, TensorType

from ttmlir.dialects.ttir import TTIR_OP_CLASSES
from ttmlir.errors import derive
from ttmlir.ir.tt_op import TTOp

FLOATS = (Float32Type(), BFloat16Type())
INDEX_OPERAND = {"embedding": 0, "gather": 1}  # the operand holding a lookup's indices


def integer_indices(op: TTOp) -> list[TTOp]:
    """The ops converting lookup `op`: a typecast of its float indices to si32 and `op` reading them, or `op`."""
    position = INDEX_OPERAND[op.ROW.name]
    indices = op.operands[position]
    if not isinstance(indices.type, TensorType) or indices.type.element_type not in FLOATS:
        return [op]
    cast = TTIR_OP_CLASSES["typecast"].create(operands=[indices], result_types=[
        TensorType(IntegerType(32, Signedness.SIGNED), indices.type.get_shape())])
    derive([cast], op)
    op.parent_block().insert_op_before(cast, op)
    op.operands[position] = cast.results[0]
    return [cast, op]


FLOAT_INDICES = {name: integer_indices for name in INDEX_OPERAND}
