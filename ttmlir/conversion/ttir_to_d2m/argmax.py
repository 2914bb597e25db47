"""`ttir.argmax` written (in `--ttir-to-d2m`, before its ops convert) in ops the D2M path computes, over any dims of
a tensor of any rank, with or without keep_dim.

The input is first seen as a matrix: its kept dims moved before its reduced ones (a permute, when they are not
already) and folded into rows, the reduced dims into columns (a reshape, when it is not one already), so each row
holds the elements one index of the result ranges over, in the row-major order of the reduced dims (the flat index
the argmax returns). Then, in f32: the row maxima m; each element's candidate position p + N * (x != m) (p its
column, an arange row host data; N the row's length, so every element that is not a maximum ranks after every one
that is, all exact in f32 below 2^23); the first maximum (torch's choice among ties) is the least candidate,
-max(-candidates) (there is no tile min reduction). That column is reshaped to the result's shape and cast to its
integer type. Integer inputs (their f32 form is not exact) and rows of 2^22 or more elements are refused."""

from __future__ import annotations

import math

from xdsl.dialects.builtin import Float32Type, IntegerType, TensorType

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
        raise PassFailure(op, f"an argmax of {element} is not converted to D2M yet (its values are ranked in f32; "
                              "of f32 and bf16 is)")
    reduced = reduced_dims(op, len(shape))
    cols = math.prod(shape[d] for d in reduced)
    if 2 * cols >= EXACT:
        raise PassFailure(op, f"an argmax over {cols} elements is not converted to D2M yet (its positions are "
                              "ranked in f32)")
    f32 = Float32Type()
    made = Rows()
    x = made.matrix(value, reduced)
    rows = x.type.get_shape()[0]
    if element != f32:
        x = made.add("typecast", [x], TensorType(f32, [rows, cols]))
    full, column = TensorType(f32, [rows, cols]), TensorType(f32, [rows, 1])
    maxima = made.add("max", [x], column, along_rows())
    elsewhere = made.add("ne", [x, maxima], full)
    size = made.add("full", [], TensorType(f32, [1, 1]), {"shape": KINDS["i32_darray"].build([1, 1]),
                                                          "fill_value": KINDS["number"].build(float(cols))})
    positions = made.add("arange", [], TensorType(f32, [1, cols]), {
        "start": KINDS["si64"].build(0), "end": KINDS["si64"].build(cols), "step": KINDS["si64"].build(1),
        "arange_dimension": KINDS["i64"].build(1)})
    candidates = made.add("add", [made.add("multiply", [elsewhere, size], full), positions], full)
    first = made.add("neg", [made.add("max", [made.add("neg", [candidates], full)], column, along_rows())], column)
    result = op.results[0]
    made.replace(op, made.add("typecast", [made.reshaped(first, list(result.type.get_shape()))], result.type))
    return [m for m in made if m.name != "ttir.arange"]  # host data, as the pass keeps every arange


DECOMPOSED = {"argmax": decomposed_argmax}
