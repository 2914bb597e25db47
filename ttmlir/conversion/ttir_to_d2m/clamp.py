"""`ttir.clamp_tensor` as one elementwise D2M program, as upstream writes it: each tile raised to its lower bound's
(`d2m.tile_maximum`), then lowered to its upper bound's (`d2m.tile_minimum`). The bounds are read as any elementwise
operand (broadcast along the rows, columns or both); a `ttir.clamp_scalar`'s are two tiles of its bounds made on the
device, read as scalars (upstream's own d2m.tile_clamp_scalar is not built here)."""

from __future__ import annotations

from xdsl.dialects.builtin import AffineMapAttr
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.dialects.linalg.ops import GenericOp as LinalgGenericOp, YieldOp as LinalgYieldOp
from xdsl.ir import Block, Operation, Region, SSAValue

from ttmlir.conversion.ttir_to_d2m.tiles import TILE_CLASSES, spread_leaves


def _clamp(ops: list[Operation], loaded: list[SSAValue], out: SSAValue, maps: list[AffineMapAttr]) -> SSAValue:
    tile = out.type.element_type
    body = Block(arg_types=[*(v.type.element_type for v in loaded), tile])
    value, low, high = spread_leaves(body, maps)
    raised = TILE_CLASSES["tile_maximum"].create(operands=[value, low], result_types=[tile])
    lowered = TILE_CLASSES["tile_minimum"].create(operands=[raised.results[0], high], result_types=[tile])
    body.add_ops([raised, lowered, LinalgYieldOp(lowered.results[0])])
    generic = LinalgGenericOp(loaded, [out], Region(body), maps,
                              [IteratorTypeAttr.parallel()] * maps[-1].data.num_dims, [out.type])
    ops.append(generic)
    return generic.res[0]


# name -> (compute, tile operands), as the pass's elementwise ops
CLAMPS = {"clamp_tensor": (_clamp, 3)}
