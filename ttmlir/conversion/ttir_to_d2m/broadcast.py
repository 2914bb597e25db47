"""`ttir.broadcast` as a D2M program: a `linalg.generic` whose body yields its operand's tile, the operand read
through a map naming the one block row, column or tile it has for every block of the result (its reader gathers
that tile for each output tile, the compute spreads its first row, column or value over the tile).

On the device the leading dims fold into tile rows, so a broadcast along the last dim keeps each matrix's tile rows
and is a column gather whatever the batch; a broadcast of one element is a scalar gather; one along a matrix's rows
is a row gather when there is one matrix (or one row of one matrix, whatever the batch). Broadcasts along batch dims
alone copy a view of whole tiles (each output matrix's tiles from its source matrix's). Other broadcasts keeping the
last dim move whole face rows: a copy of the input's logical view (see `row_gather.py`); one along the last dim and
others at once is that view's broadcast followed by the column gather (`decompose_broadcasts` splits it, and
materializes an elementwise operand's implicit broadcast the same way where its map cannot read it)."""

from __future__ import annotations

import math

from xdsl.dialects.builtin import AffineMapAttr, TensorType
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.dialects.linalg.ops import GenericOp as LinalgGenericOp, YieldOp as LinalgYieldOp
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap

from ttmlir.conversion.ttir_to_d2m.row_gather import batch_rows, gather_view, gathered, matrix_dims, tile_view
from ttmlir.conversion.ttir_to_d2m.tiles import spread_leaves
from ttmlir.dialects.ttir import TTIR_OP_CLASSES
from ttmlir.errors import PassFailure, derive
from ttmlir.ir.props import KINDS
from ttmlir.ir.tt_op import TTOp


def copy_through_maps(ops: list[Operation], loaded: list[SSAValue], out: SSAValue, maps) -> SSAValue:
    """A linalg.generic yielding the loaded operand's tile for each output tile, as its map reads it (spread over
    the tile by a `d2m.tile_bcast` where the map reads one block row, column or tile for all)."""
    body = Block(arg_types=[loaded[0].type.element_type, out.type.element_type])
    body.add_op(LinalgYieldOp(*spread_leaves(body, maps)))
    generic = LinalgGenericOp(loaded, [out], Region(body), maps, [IteratorTypeAttr.parallel()] * 2, [out.type])
    ops.append(generic)
    return generic.res[0]


def _tiles(row: AffineExpr | None, col: AffineExpr | None) -> AffineMapAttr:
    """`(d0, d1) -> (row, col)` over the output's tiles, None the constant 0 (the one tile along that dim)."""
    return AffineMapAttr(AffineMap(2, 0, tuple(AffineExpr.constant(0) if e is None else e for e in (row, col))))


def tile_map(s: tuple[int, ...], r: tuple[int, ...]) -> AffineMapAttr | None:
    """The map over the output's tiles reading a source of shape `s` broadcast to `r` (of its rank) tile by tile,
    or None when the broadcast moves face rows between tiles."""
    s, r = matrix_dims(s), matrix_dims(r)  # a vector is one row
    spread = [d for d in range(len(r)) if s[d] != r[d]]
    rank, d0, d1 = len(r), AffineExpr.dimension(0), AffineExpr.dimension(1)
    if not spread:
        return _tiles(d0, d1)
    if spread == [rank - 1]:
        return _tiles(d0, None)
    if set(spread) <= {rank - 2, rank - 1} and math.prod(r[:-2]) == 1:
        return _tiles(None if rank - 2 in spread else d0, None if rank - 1 in spread else d1)
    if math.prod(s) == 1:
        return _tiles(None, None)
    if rank - 2 in spread and math.prod(s[:-2]) == 1:  # one row of one matrix: its tile row for every tile
        return _tiles(None, None if rank - 1 in spread else d1)
    return None


def broadcast(op: TTOp, tensors: list[SSAValue]):
    """(compute, maps, iterators, inputs) of a broadcast."""
    source: TensorType = tensors[0].type
    s, r = tuple(source.get_shape()), tuple(op.results[0].type.get_shape())
    if source.element_type != op.results[0].type.element_type or len(s) != len(r):
        raise PassFailure(op, f"'{op.name}' keeps the rank and element type")
    spread = [d for d in range(len(r)) if s[d] != r[d]]
    if any(s[d] != 1 for d in spread):
        raise PassFailure(op, f"'{op.name}': {'x'.join(map(str, s))} does not broadcast to {'x'.join(map(str, r))}")
    amap = tile_map(s, r)
    if amap is not None:
        d0, d1 = AffineExpr.dimension(0), AffineExpr.dimension(1)
        return copy_through_maps, [amap, _tiles(d0, d1)], ["parallel"] * 2, tensors

    def index_of(index: list[AffineExpr]) -> list[AffineExpr]:
        return [AffineExpr.constant(0) if d in spread else e for d, e in enumerate(index)]

    if max(spread) < len(r) - 2:  # whole matrices repeated along the batch: tiles
        return tile_view(op, tensors, batch_rows(s, r, gathered(s, r, index_of)), AffineExpr.dimension(3))
    if len(r) - 1 not in spread:  # whole face rows repeated
        return gather_view(op, tensors, gathered(s, r, index_of))
    raise PassFailure(op, f"'{op.name}' of {'x'.join(map(str, s))} to {'x'.join(map(str, r))} spreads along the last "
                          "dim and others at once; that is converted split in two (along the others, then the last), "
                          "not on TTNN tensors yet")


def reads_in_place(s: tuple[int, ...], r: tuple[int, ...]) -> bool:
    """Whether an elementwise op reads an operand of shape `s` broadcast to `r` through its tile map: the same
    shape, the same rank with the matrices' rows and batch kept (along the last dim), or one matrix."""
    if s == r:
        return True
    return len(s) == len(r) and (s[:-1] == r[:-1] or (len(r) >= 2 and math.prod(r[:-2]) == 1))


def _made(kind: str, value: SSAValue, shape: tuple[int, ...], **properties) -> TTOp:
    return TTIR_OP_CLASSES[kind].create(operands=[value], properties=properties,
                                        result_types=[TensorType(value.type.element_type, list(shape))])


def _spread(value: SSAValue, shape: tuple[int, ...]) -> list[TTOp]:
    """`value` broadcast to `shape` (aligned to its rank first): along the leading dims and rows, then along the
    last dim, each a ttir.broadcast one program converts."""
    s = tuple(value.type.get_shape())
    made: list[TTOp] = []
    if len(s) != len(shape):
        s = (1,) * (len(shape) - len(s)) + s
        made.append(_made("reshape", value, s, shape=KINDS["i32_array"].build(list(s))))
    steps = [tuple(shape[:-1]) + s[-1:], tuple(shape)] if tile_map(s, shape) is None and s[-1] != shape[-1] else \
        [tuple(shape)] if s != tuple(shape) else []
    for step in steps:
        previous = made[-1].results[0] if made else value
        made.append(_made("broadcast", previous, step, broadcast_dimensions=KINDS["i64_darray"].build(
            [t if o == 1 and t != 1 else 1 for o, t in zip(previous.type.get_shape(), step)])))
    return made


def decompose_broadcasts(op: TTOp, elementwise: bool) -> list[TTOp]:
    """The ops converting `op`, in order: a ttir.broadcast along the last dim and others at once split in two
    (see `broadcast`), an elementwise op's operands its tile map cannot read broadcast first (inserted before `op`,
    its operands replaced), else `op` alone."""
    made: list[TTOp] = []
    result = op.results[0] if len(op.results) == 1 and isinstance(op.results[0].type, TensorType) else None
    if result is None:
        return [op]
    r = tuple(result.type.get_shape())
    if op.name == "ttir.broadcast":
        s = tuple(op.operands[0].type.get_shape())
        if len(s) == len(r) and s[-1] != r[-1] and tile_map(s, r) is None:
            made = _spread(op.operands[0], r)
            derive(made, op)
            op.parent_block().insert_ops_before(made, op)
            result.replace_all_uses_with(made[-1].results[0])
            op.detach()
            op.erase()
            return made
        return [op]
    if not elementwise:
        return [op]
    for i, value in enumerate(op.operands):
        s = tuple(value.type.get_shape()) if isinstance(value.type, TensorType) else None
        if s is None or reads_in_place(s, r):
            continue
        spread = _spread(value, r[:-1] + (s[-1:] or (1,)))  # the last dim spread by the tile map
        derive(spread, op)
        op.parent_block().insert_ops_before(spread, op)
        op.operands[i] = spread[-1].results[0]
        made += spread
    return [*made, op]


BROADCASTS = {"broadcast": broadcast}
