"""`ttir.argmax` over a matrix's last dim, written (in `--ttir-to-d2m`, before its ops convert) in ops the D2M path
computes: in f32, the row maxima m; each element's candidate position p + N * (x != m) (p its column, an arange row
host data; N the dim's size, so every element that is not a maximum ranks after every one that is, all exact in
f32 below 2^23); the first maximum is the least candidate, -max(-candidates) (there is no tile min reduction); that
is cast to the result's integer type. Argmaxes over other dims, above two dims, or of 2^23 or more elements along
the dim are refused naming what is missing."""

from __future__ import annotations

import math

from xdsl.dialects.builtin import Float32Type, TensorType

from ttmlir.dialects.ttir import TTIR_OP_CLASSES
from ttmlir.errors import PassFailure, derive
from ttmlir.ir.props import KINDS
from ttmlir.ir.tt_op import TTOp

EXACT = 1 << 23  # positions and their offsets by N stay exact in f32 below this


def decomposed_argmax(op: TTOp) -> list[TTOp]:
    """The TTIR ops replacing argmax `op`, where it was (see the module doc)."""
    (value,) = op.operands
    shape = tuple(value.type.get_shape())
    dims = op.properties.get("dim_arg")
    keep = op.properties.get("keep_dim")
    reduced = {d.value.data % len(shape) for d in dims.data} if dims is not None and shape else set()
    if len(shape) < 2 or reduced != {len(shape) - 1} or math.prod(shape[:-2]) != 1:
        raise PassFailure(op, "only argmaxes over the last dim of a matrix are converted to D2M yet")
    if keep is None or not keep.value.data:
        raise PassFailure(op, "only argmaxes with keep_dim = true are converted to D2M yet")
    if 2 * shape[-1] >= EXACT:
        raise PassFailure(op, f"an argmax over {shape[-1]} elements is not converted to D2M yet (its positions are "
                              "ranked in f32)")
    f32 = Float32Type()
    full, rows = TensorType(f32, shape), TensorType(f32, [*shape[:-1], 1])
    made: list[TTOp] = []

    def add(name: str, operands, result: TensorType, properties: dict | None = None) -> TTOp:
        made.append(TTIR_OP_CLASSES[name].create(operands=list(operands), result_types=[result],
                                                 properties=properties or {}))
        return made[-1].results[0]

    x = value if value.type.element_type == f32 else add("typecast", [value], full)
    maxima = add("max", [x], rows, dict(op.properties))
    elsewhere = add("ne", [x, maxima], full)
    ones = [1] * len(shape)
    size = add("full", [], TensorType(f32, ones), {"shape": KINDS["i32_darray"].build(ones),
                                                   "fill_value": KINDS["number"].build(float(shape[-1]))})
    positions = add("arange", [], TensorType(f32, [*ones[:-1], shape[-1]]), {
        "start": KINDS["si64"].build(0), "end": KINDS["si64"].build(shape[-1]), "step": KINDS["si64"].build(1),
        "arange_dimension": KINDS["i64"].build(len(shape) - 1)})
    candidates = add("add", [add("multiply", [elsewhere, size], full), positions], full)
    first = add("neg", [add("max", [add("neg", [candidates], full)], rows, dict(op.properties))], rows)
    result = op.results[0]
    cast = add("typecast", [first], result.type)
    derive(made, op)
    op.parent_block().insert_ops_before(made, op)
    result.replace_all_uses_with(cast)
    op.detach()
    op.erase()
    return [m for m in made if m.name != "ttir.arange"]  # host data, as the pass keeps every arange


DECOMPOSED = {"argmax": decomposed_argmax}
