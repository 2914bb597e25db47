"""Comparisons of integer tensors as upstream writes them: the SFPU's `*_binary_tile` comparisons write f32 1.0/0.0
into DST, which an si32 tile would read as other bits, so `a <c> b` is the difference `a - b` (`d2m.tile_sub`,
`sub_int_tile`) compared with zero (`d2m.tile_<c>z`, the `*z_tile_int32` entry points)."""

from __future__ import annotations

from xdsl.dialects.builtin import IntegerType
from xdsl.ir import SSAValue

from ttmlir.conversion.ttir_to_d2m.tiles import tile_chain

COMPARISONS = ("eq", "ne", "gt", "ge", "lt", "le")


def integer_comparison(name: str, operands: list[SSAValue]):
    """The compute of comparison `name` when its operands are integer tensors (None otherwise)."""
    if name in COMPARISONS and all(isinstance(v.type.element_type, IntegerType) for v in operands):
        return tile_chain(lambda made, leaves: made(f"tile_{name}z", made("tile_sub", *leaves)))
    return None
