"""`ttir.broadcast` as a D2M program: a `linalg.generic` whose body yields its operand's tile, the operand read
through a map naming the one block row, column or tile it has for every block of the result (its reader gathers
that tile for each output tile, the compute spreads its first row, column or value over the tile).

On the device the leading dims fold into tile rows, so a broadcast along the last dim keeps each matrix's tile rows
and is a column gather whatever the batch; a broadcast of one element is a scalar gather; one along a matrix's rows
is a row gather when there is one matrix; one matrix repeated along batch dims reads output tile row i from the
source's tile row i mod its tile rows. Other broadcasts (along batch dims and a matrix's dims at once, or along a
matrix's rows when there are several) are refused naming them."""

from __future__ import annotations

import math

from xdsl.dialects.builtin import AffineMapAttr, TensorType
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.dialects.linalg.ops import GenericOp as LinalgGenericOp, YieldOp as LinalgYieldOp
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap

from ttmlir.errors import PassFailure
from ttmlir.ir.tt_op import TTOp

TILE = 32


def copy_through_maps(ops: list[Operation], loaded: list[SSAValue], out: SSAValue, maps) -> SSAValue:
    """A linalg.generic yielding the loaded operand's tile for each output tile, as its map reads it."""
    body = Block(arg_types=[loaded[0].type.element_type, out.type.element_type])
    body.add_op(LinalgYieldOp(body.args[0]))
    generic = LinalgGenericOp(loaded, [out], Region(body), maps, [IteratorTypeAttr.parallel()] * 2, [out.type])
    ops.append(generic)
    return generic.res[0]


def _tiles(row: AffineExpr | None, col: AffineExpr | None) -> AffineMapAttr:
    """`(d0, d1) -> (row, col)` over the output's tiles, None the constant 0 (the one tile along that dim)."""
    return AffineMapAttr(AffineMap(2, 0, tuple(AffineExpr.constant(0) if e is None else e for e in (row, col))))


def broadcast(op: TTOp, tensors: list[SSAValue]):
    """(compute, maps, iterators, inputs) of a broadcast."""
    source: TensorType = tensors[0].type
    s, r = tuple(source.get_shape()), tuple(op.results[0].type.get_shape())
    if source.element_type != op.results[0].type.element_type or len(s) != len(r):
        raise PassFailure(op, f"'{op.name}' keeps the rank and element type")
    spread = [d for d in range(len(r)) if s[d] != r[d]]
    if any(s[d] != 1 for d in spread):
        raise PassFailure(op, f"'{op.name}': {'x'.join(map(str, s))} does not broadcast to {'x'.join(map(str, r))}")
    rank, d0, d1 = len(r), AffineExpr.dimension(0), AffineExpr.dimension(1)
    if math.prod(s) == 1 and spread:
        amap = _tiles(None, None)
    elif not spread:
        amap = _tiles(d0, d1)
    elif spread == [rank - 1]:
        amap = _tiles(d0, None)
    elif rank >= 2 and set(spread) <= {rank - 2, rank - 1} and math.prod(r[:-2]) == 1:
        amap = _tiles(None if rank - 2 in spread else d0, None if rank - 1 in spread else d1)
    elif max(spread) < rank - 2 and math.prod(s[:-2]) == 1:  # one matrix repeated along the batch
        amap = _tiles(d0 % -(-s[-2] // TILE), d1)
    else:
        raise PassFailure(op, f"'{op.name}' of {'x'.join(map(str, s))} to {'x'.join(map(str, r))} spreads along a "
                              "batch dim and a matrix's dims at once (or a matrix's rows, with several matrices); that "
                              "is not converted to D2M yet (one along the last dim, along batch dims of one matrix, of "
                              "one element, or along a single matrix's rows is)")
    return copy_through_maps, [amap, _tiles(d0, d1)], ["parallel"] * 2, tensors


BROADCASTS = {"broadcast": broadcast}
