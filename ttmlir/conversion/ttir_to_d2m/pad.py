"""`ttir.pad` and `ttir.repeat` as D2M programs: copies of the input's logical view (see `row_gather.py`). A pad's
view names, for each output element, the input element `low` places before it along each dim, one outside the input
left zero by the reader (a pad of another value is a `where` around this one first, see `valued_pad.py`); a repeat's
names the element at the output's index modulo the input's size along each dim."""

from __future__ import annotations

from xdsl.ir import SSAValue

from ttmlir.conversion.ttir_to_d2m.row_gather import gather_view, gathered
from ttmlir.errors import PassFailure
from ttmlir.ir.props import int_values
from ttmlir.ir.tt_op import TTOp


def pad(op: TTOp, tensors: list[SSAValue]):
    """(compute, maps, iterators, inputs) of a pad."""
    shape, result = tuple(tensors[0].type.get_shape()), tuple(op.results[0].type.get_shape())
    padding = int_values(op.prop("padding"))
    low = padding[0::2]
    if any(p < 0 for p in padding):
        raise PassFailure(op, f"'{op.name}' with negative padding {padding} is not converted to D2M yet")
    return gather_view(op, tensors, gathered(shape, result, lambda index: [e - n if n else e
                                                                           for e, n in zip(index, low)]))


def repeat(op: TTOp, tensors: list[SSAValue]):
    """(compute, maps, iterators, inputs) of a repeat."""
    shape, result = tuple(tensors[0].type.get_shape()), tuple(op.results[0].type.get_shape())
    return gather_view(op, tensors, gathered(shape, result, lambda index: [e % n if n != r else e for e, n, r in
                                                                           zip(index, shape, result)]))


PADS = {"pad": pad, "repeat": repeat}
