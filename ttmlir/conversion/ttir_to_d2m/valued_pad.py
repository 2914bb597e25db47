"""A `ttir.pad` of a value other than 0.0 (a max pool's -inf border): the D2M reader leaves what a view names outside
its source zero, so the pad is written, where it is, as `where(pad(ones), pad(x), full(value))`: the same zero pad
of a tensor of ones marks the input's elements, the others take the value. A pad of 0.0 converts as it is."""

from __future__ import annotations

from xdsl.dialects.builtin import FloatAttr

from ttmlir.conversion.ttir_to_d2m.conv2d import Program
from ttmlir.ir.props import scalar
from ttmlir.ir.tt_op import TTOp


def valued_pad(op: TTOp) -> list[TTOp]:
    """The TTIR ops a pad is converted as (see the module doc)."""
    value = float(scalar(op.prop("value")))
    if value == 0:
        return [op]
    program = Program(op, None)
    x, result = op.operands[0], op.results[0].type
    element, shape = result.element_type, list(result.get_shape())
    zero_pad = {**op.properties, "value": FloatAttr(0.0, op.prop("value").type)}
    inside = program.add("pad", [program.full(x.type.get_shape(), element, 1.0)], shape, element, zero_pad)
    padded = program.add("pad", [x], shape, element, zero_pad)
    return program.done(program.add("where", [inside, padded, program.full(shape, element, value)], shape, element))


VALUED_PADS = {"pad": valued_pad}
