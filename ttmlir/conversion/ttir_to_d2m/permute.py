"""`ttir.permute` as a D2M program: a permutation swapping a matrix's two dims (the batch, if any, of one matrix) is
a transpose (each tile transposed and read from the swapped block, as `ttir.transpose` is); one that only moves
dims of size 1 keeps the elements in order and is the reshape to its result (a block copy where that keeps every
element in its tile, see `reshape.py`). Other permutations are a copy of the input's logical view (see
`row_gather.py`; gathered by face rows where the last dim stays last)."""

from __future__ import annotations

import math

from xdsl.ir import SSAValue

from ttmlir.conversion.ttir_to_d2m.reshape import reshape
from ttmlir.conversion.ttir_to_d2m.row_gather import gather_view, gathered
from ttmlir.ir.tt_op import TTOp
from ttmlir.conversion.ttir_to_d2m.tiles import _elementwise, _map


def permute(op: TTOp, tensors: list[SSAValue]):
    """(compute, maps, iterators, inputs) of a permute."""

    shape = tuple(tensors[0].type.get_shape())
    order = [int(v) % max(1, len(shape)) for v in op.prop("permutation").get_values()]
    rank = len(shape)
    # a matrix's swap first: one of a row or column keeps the element order but not the tiles
    if rank >= 2 and order == [*range(rank - 2), rank - 1, rank - 2] and math.prod(shape[:-2]) == 1:
        return _elementwise("tile_transpose", 1), [_map(2, 1, 0), _map(2, 0, 1)], ["parallel"] * 2, tensors
    moved = [d for d in order if shape[d] != 1]
    if moved == sorted(moved):  # dims of size 1 moved: the elements keep their order
        return reshape(op, tensors)
    result = tuple(op.results[0].type.get_shape())  # others: element by element, or by face rows keeping the last dim
    return gather_view(op, tensors, gathered(shape, result, lambda index: [index[order.index(d)] for d in range(rank)]))


PERMUTES = {"permute": permute}
