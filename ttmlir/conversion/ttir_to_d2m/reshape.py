"""`ttir.reshape`, `ttir.squeeze` and `ttir.unsqueeze` as D2M programs, where the new shape keeps every element in
the tile it was in.

On the device a tensor is its matrices (its last two dims) each padded to whole tiles, the leading dims folded into
tile rows. A reshape that keeps the last dim and either keeps each matrix's rows (only leading dims of the batch
regrouped, squeezed or unsqueezed) or, with whole tiles of rows on both sides, only regroups those rows, leaves every
element at the same place in the same tile: its program copies the input's blocks into the result's (a generic whose
region stores the block it loads, as upstream's data-movement-only generics do). Any other reshape moves elements
between tiles: a copy of the input seen through the view of the element of the same row-major position (see
`row_gather.py`; gathered by face rows where it keeps the last dim or changes it between multiples of 16)."""

from __future__ import annotations

import math

from xdsl.dialects.builtin import AffineMapAttr
from xdsl.ir import SSAValue
from xdsl.ir.affine import AffineMap

from ttmlir.conversion.ttir_to_d2m.row_gather import copy_block, gather_view, reshaped
from ttmlir.errors import PassFailure
from ttmlir.ir.tt_op import TTOp

TILE = 32


def _matrices(shape: tuple[int, ...]) -> tuple[int, int, int]:
    """(batch, rows, cols) of a shape, a vector or scalar being one row."""
    dims = (1,) * max(0, 2 - len(shape)) + tuple(shape)
    return math.prod(dims[:-2]), dims[-2], dims[-1]


def keeps_tiles(source: tuple[int, ...], result: tuple[int, ...]) -> bool:
    """Whether reshaping `source` to `result` leaves every element where it is on the device."""
    (b, h, w), (b2, h2, w2) = _matrices(source), _matrices(result)
    if w != w2:
        return False
    return (b, h) == (b2, h2) or (h % TILE == 0 and h2 % TILE == 0 and b * h == b2 * h2)


def reshape(op: TTOp, tensors: list[SSAValue]):
    """(compute, maps, iterators, inputs) of a reshape: a block copy where it keeps every element in its tile, else
    a copy of its logical view."""
    source, result = tuple(tensors[0].type.get_shape()), tuple(op.results[0].type.get_shape())
    if tensors[0].type.element_type != op.results[0].type.element_type:
        raise PassFailure(op, f"'{op.name}' changes the element type")
    if not keeps_tiles(source, result):
        return gather_view(op, tensors, reshaped(source, result))
    return copy_block, [AffineMapAttr(AffineMap.identity(2))] * 2, ["parallel"] * 2, tensors


RESHAPES = {name: reshape for name in ("reshape", "squeeze", "unsqueeze")}
