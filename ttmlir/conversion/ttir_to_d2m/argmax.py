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

from ttmlir.dialects.ttir import TTIR_OP_CLASSES
from ttmlir.errors import PassFailure, derive
from ttmlir.ir.props import KINDS
from ttmlir.ir.tt_op import TTOp

EXACT = 1 << 23  # positions and their offsets by N stay exact in f32 below this


def reduced_dims(op: TTOp, rank: int) -> list[int]:
    """The dims `op` reduces, in order: those of its dim_arg, or all of them without one."""
    dims = op.properties.get("dim_arg")
    if dims is None:
        return list(range(rank))
    return sorted({d.value.data % rank for d in dims.data}) if rank else []


def decomposed_argmax(op: TTOp) -> list[TTOp]:
    """The TTIR ops replacing argmax `op`, where it was (see the module doc)."""
    (value,) = op.operands
    shape, element = tuple(value.type.get_shape()), value.type.element_type
    if isinstance(element, IntegerType):
        raise PassFailure(op, f"an argmax of {element} is not converted to D2M yet (its values are ranked in f32; "
                              "of f32 and bf16 is)")
    reduced = reduced_dims(op, len(shape))
    kept = [d for d in range(len(shape)) if d not in reduced]
    rows, cols = math.prod(shape[d] for d in kept), math.prod(shape[d] for d in reduced)
    if 2 * cols >= EXACT:
        raise PassFailure(op, f"an argmax over {cols} elements is not converted to D2M yet (its positions are "
                              "ranked in f32)")
    f32 = Float32Type()
    made: list[TTOp] = []

    def add(name: str, operand_list, result: TensorType, properties: dict | None = None):
        made.append(TTIR_OP_CLASSES[name].create(operands=list(operand_list), result_types=[result],
                                                 properties=properties or {}))
        return made[-1].results[0]

    def as_shape(x, target: list[int]):
        """`x` reshaped to `target` (itself when it has that shape)."""
        if list(x.type.get_shape()) == target:
            return x
        return add("reshape", [x], TensorType(x.type.element_type, target),
                   {"shape": KINDS["i32_array"].build(target)})

    x = value
    if kept + reduced != list(range(len(shape))):
        x = add("permute", [x], TensorType(element, [shape[d] for d in kept + reduced]),
                {"permutation": KINDS["i64_darray"].build(kept + reduced)})
    x = as_shape(x, [rows, cols])
    if element != f32:
        x = add("typecast", [x], TensorType(f32, [rows, cols]))
    full, column = TensorType(f32, [rows, cols]), TensorType(f32, [rows, 1])
    along_rows = {"dim_arg": KINDS["i32_array"].build([1]), "keep_dim": KINDS["bool"].build(True)}
    maxima = add("max", [x], column, along_rows)
    elsewhere = add("ne", [x, maxima], full)
    size = add("full", [], TensorType(f32, [1, 1]), {"shape": KINDS["i32_darray"].build([1, 1]),
                                                     "fill_value": KINDS["number"].build(float(cols))})
    positions = add("arange", [], TensorType(f32, [1, cols]), {
        "start": KINDS["si64"].build(0), "end": KINDS["si64"].build(cols), "step": KINDS["si64"].build(1),
        "arange_dimension": KINDS["i64"].build(1)})
    candidates = add("add", [add("multiply", [elsewhere, size], full), positions], full)
    first = add("neg", [add("max", [add("neg", [candidates], full)], column, along_rows)], column)
    result = op.results[0]
    cast = add("typecast", [as_shape(first, list(result.type.get_shape()))], result.type)
    derive(made, op)
    op.parent_block().insert_ops_before(made, op)
    result.replace_all_uses_with(cast)
    op.detach()
    op.erase()
    return [m for m in made if m.name != "ttir.arange"]  # host data, as the pass keeps every arange


DECOMPOSED = {"argmax": decomposed_argmax}
