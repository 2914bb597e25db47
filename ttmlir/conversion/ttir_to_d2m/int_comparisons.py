"""Comparisons of integer tensors as upstream writes them: the SFPU's `*_binary_tile` comparisons write f32 1.0/0.0
into DST, which an si32 tile would read as other bits, so `a <c> b` is the difference `a - b` (`d2m.tile_sub`,
`sub_int_tile`) compared with zero (`d2m.tile_<c>z`, the `*z_tile_int32` entry points)."""

from __future__ import annotations

from xdsl.dialects.builtin import AffineMapAttr, IntegerType
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.dialects.linalg.ops import GenericOp as LinalgGenericOp, YieldOp as LinalgYieldOp
from xdsl.ir import Block, Operation, Region, SSAValue

from ttmlir.conversion.ttir_to_d2m.logical import CLASSES
from ttmlir.conversion.ttir_to_d2m.tiles import spread_leaves

COMPARISONS = ("eq", "ne", "gt", "ge", "lt", "le")


def _against_zero(comparison: str):
    """A linalg.generic over two loaded blocks: each pair of tiles' difference compared with zero."""

    def compute(ops: list[Operation], loaded: list[SSAValue], out: SSAValue, maps: list[AffineMapAttr]) -> SSAValue:
        tile = out.type.element_type
        body = Block(arg_types=[*(v.type.element_type for v in loaded), tile])
        difference = CLASSES["tile_sub"].create(operands=spread_leaves(body, maps), result_types=[tile])
        compared = CLASSES[f"tile_{comparison}z"].create(operands=[difference.results[0]], result_types=[tile])
        body.add_ops([difference, compared, LinalgYieldOp(compared.results[0])])
        generic = LinalgGenericOp(loaded, [out], Region(body), maps,
                                  [IteratorTypeAttr.parallel()] * maps[-1].data.num_dims, [out.type])
        ops.append(generic)
        return generic.res[0]

    return compute


def integer_comparison(name: str, operands: list[SSAValue]):
    """The compute of comparison `name` when its operands are integer tensors (None otherwise)."""
    if name in COMPARISONS and all(isinstance(v.type.element_type, IntegerType) for v in operands):
        return _against_zero(name)
    return None
