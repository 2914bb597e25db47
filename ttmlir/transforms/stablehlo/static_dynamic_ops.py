"""StableHLO's dynamic ops whose shape operands are constants, written as their static forms.

`dynamic_broadcast_in_dim`, `dynamic_reshape`, `dynamic_pad`, `dynamic_gather` and `dynamic_conv` take as operands
what their static forms take as attributes (output shape, paddings, slice sizes). With a static result type and
constant operands they mean exactly the static op, which is what the conversion to TTIR lowers (StableHLO's own
simplification does the same). One whose operands are computed at run time is left as it is, and refused where it
is converted.
"""

from __future__ import annotations

from typing import Callable

from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, TensorType, i64
from xdsl.ir import Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from ttmlir.dialects import stablehlo as shlo
from ttmlir.ir.props import dense_values


def constant_ints(value: SSAValue, count: int) -> list[int] | None:
    """The `count` integers of a constant operand (a splat repeated), or None when it is not a constant."""
    owner = value.owner
    if getattr(owner, "name", None) != "stablehlo.constant":
        return None
    values = [int(v) for v in dense_values(owner.properties["value"])]
    return values * count if len(values) == 1 else values


def _broadcast_in_dim(op: Operation, rank: int):
    return "broadcast_in_dim", op.operands[:1], {"broadcast_dimensions": op.properties["broadcast_dimensions"]}


def _reshape(op: Operation, rank: int):
    return "reshape", op.operands[:1], {}


def _pad(op: Operation, rank: int):
    edges = [constant_ints(v, rank) for v in op.operands[2:]]
    if None in edges:
        return None
    names = ("edge_padding_low", "edge_padding_high", "interior_padding")
    return "pad", op.operands[:2], {n: shlo.i64_array(e) for n, e in zip(names, edges)}


def _gather(op: Operation, rank: int):
    sizes = constant_ints(op.operands[2], len(op.operands[0].type.get_shape()))
    if sizes is None:
        return None
    return "gather", op.operands[:2], {**op.properties, "slice_sizes": shlo.i64_array(sizes)}


def _convolution(op: Operation, rank: int):
    spatial = rank - 2
    pads = constant_ints(op.operands[2], 2 * spatial)
    if pads is None:
        return None
    padding = DenseIntOrFPElementsAttr.from_list(TensorType(i64, [spatial, 2]), pads)
    return "convolution", op.operands[:2], {**op.properties, "padding": padding}


# dynamic op -> its static form: (name, operands, properties) from the op and its result's rank, or None
STATIC_FORMS: dict[str, Callable] = {
    "stablehlo.dynamic_broadcast_in_dim": _broadcast_in_dim, "stablehlo.dynamic_reshape": _reshape,
    "stablehlo.dynamic_pad": _pad, "stablehlo.dynamic_gather": _gather, "stablehlo.dynamic_conv": _convolution}


def make_static(op: Operation) -> bool:
    """Replace `op` by its static form when its result type is static and its shape operands constant."""
    if op.name not in STATIC_FORMS:
        return False
    result = op.results[0].type
    if not isinstance(result, TensorType) or -1 in result.get_shape():
        return False
    form = STATIC_FORMS[op.name](op, len(result.get_shape()))
    if form is None:
        return False
    name, operands, properties = form
    static = shlo.OPS[name].create(operands=list(operands), result_types=[result], properties=dict(properties),
                                   attributes=dict(op.attributes))
    Rewriter.insert_op(static, InsertPoint.before(op))
    op.results[0].replace_all_uses_with(static.results[0])
    Rewriter.erase_op(op)
    return True
