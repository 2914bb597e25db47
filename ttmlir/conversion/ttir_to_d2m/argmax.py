"""`ttir.argmax` written (in `--ttir-to-d2m`, before its ops convert) in ops the D2M path computes, over any dims of
a tensor of any rank, with or without keep_dim.

The input is first seen as a matrix (`reductions.Rows.matrix`: kept dims permuted first and folded into rows, the
reduced dims into columns), so each row holds the elements one index of the result ranges over, in the row-major
order of the reduced dims (the flat index the argmax returns). Then: the row maxima m, and where each element is one
(x == m), both in the input's type (exact); each element ranked in f32 as -p where it is a maximum, else -(p + N)
(p its column, N the row's length: the rows -p and -(p + N) are arange rows of host data, negated on the device), so
every maximum ranks above every other element and the first maximum (torch's choice among ties) above the later
ones; the greatest rank of each row is -(first position). That column, negated, is reshaped to the result's shape
and cast to its integer type. Positions are exact in f32 below 2^23, so rows of 2^22 or more elements are refused,
and integer inputs (there is no integer tile max reduction yet) too."""

from __future__ import annotations

import math

from xdsl.dialects.builtin import Float32Type, IntegerType, TensorType
from xdsl.ir import SSAValue

from ttmlir.conversion.ttir_to_d2m.reductions import Rows, along_rows, reduced_dims
from ttmlir.errors import PassFailure
from ttmlir.ir.props import KINDS
from ttmlir.ir.tt_op import TTOp

EXACT = 1 << 23  # positions and their offsets by N stay exact in f32 below this


def decomposed_argmax(op: TTOp) -> list[TTOp]:
    """The TTIR ops replacing argmax `op`, where it was (see the module doc)."""
    (value,) = op.operands
    shape, element = tuple(value.type.get_shape()), value.type.element_type
    if isinstance(element, IntegerType):
        raise PassFailure(op, f"an argmax of {element} is not converted to D2M yet (of f32 and bf16 is)")
    reduced = reduced_dims(op, len(shape))
    cols = math.prod(shape[d] for d in reduced)
    if 2 * cols >= EXACT:
        raise PassFailure(op, f"an argmax over {cols} elements is not converted to D2M yet (its positions are "
                              "ranked in f32)")
    f32 = Float32Type()
    made = Rows()
    x = made.matrix(value, reduced)
    rows = x.type.get_shape()[0]
    full, column = TensorType(element, [rows, cols]), TensorType(element, [rows, 1])
    hit = made.add("eq", [x, made.add("max", [x], column, along_rows())], full)

    def negated(start: int) -> SSAValue:
        """-(start + p) at each column p: a row of host data, negated on the device."""
        row = TensorType(f32, [1, cols])
        return made.add("neg", [made.add("arange", [], row, {
            "start": KINDS["si64"].build(start), "end": KINDS["si64"].build(start + cols),
            "step": KINDS["si64"].build(1), "arange_dimension": KINDS["i64"].build(1)})], row)

    ranked = made.add("where", [hit, negated(0), negated(cols)], TensorType(f32, [rows, cols]))
    greatest = made.add("max", [ranked], TensorType(f32, [rows, 1]), along_rows())
    first = made.add("neg", [greatest], TensorType(f32, [rows, 1]))
    result = op.results[0]
    made.replace(op, made.add("typecast", [made.reshaped(first, list(result.type.get_shape()))], result.type))
    return [m for m in made if m.name != "ttir.arange"]  # host data, as the pass keeps every arange


DECOMPOSED = {"argmax": decomposed_argmax}
