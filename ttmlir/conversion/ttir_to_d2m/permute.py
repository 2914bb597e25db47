"""`ttir.permute` as D2M programs: a permutation swapping a matrix's two dims is a transpose (each tile transposed and
read from the swapped tile of its matrix, as `ttir.transpose` is); one that only moves dims of size 1 keeps the
elements in order and is the reshape to its result (a block copy where that keeps every element in its tile, see
`reshape.py`). Other permutations are a copy of the input's logical view (see `row_gather.py`): by face rows where
the last dim stays last, element by element where it moves. One moving the last dim to the rows (NCHW to NHWC) or
the rows to the last dim (NHWC to NCHW) is first split (`decompose_permute`) into a swap of each matrix's two dims
and a permute keeping the last dim, so that no element is gathered on its own."""

from __future__ import annotations

import math

from xdsl.ir import SSAValue
from xdsl.ir.affine import AffineExpr

from ttmlir.conversion.ttir_to_d2m.conv2d import Program
from ttmlir.conversion.ttir_to_d2m.reshape import reshape
from ttmlir.conversion.ttir_to_d2m.row_gather import _div, _mod, _scaled, _sum, gather_view, gathered, tile_view
from ttmlir.conversion.ttir_to_d2m.tiles import TILE, _elementwise, _map
from ttmlir.ir.tt_op import TTOp


def _order(op: TTOp) -> list[int]:
    rank = max(1, len(op.operands[0].type.get_shape()))
    return [int(v) % rank for v in op.prop("permutation").get_values()]


def _swap(rank: int) -> list[int]:
    """The permutation swapping a matrix's two dims."""
    return [*range(rank - 2), rank - 1, rank - 2]


def _in_order(shape: tuple[int, ...], order: list[int]) -> bool:
    """Whether `order` only moves dims of size 1 (the elements keep their order)."""
    moved = [d for d in order if shape[d] != 1]
    return moved == sorted(moved)


def transpose(op: TTOp, tensors: list[SSAValue]):
    """(compute, maps, iterators, inputs) of each matrix of the input transposed: one matrix's tiles read from the
    swapped block (spread over the grid); a batch's output tile (d2, d3) (matrix b = d2 / Ct, Ct the input's tile
    columns) read from the input's tile (b*Rt + d3, d2 mod Ct) of its view, then transposed."""
    shape = tuple(tensors[0].type.get_shape())
    if math.prod(shape[:-2]) == 1:
        return _elementwise("tile_transpose", 1), [_map(2, 1, 0), _map(2, 0, 1)], ["parallel"] * 2, tensors
    rows, cols = (-(-d // TILE) for d in shape[-2:])
    d2, d3 = AffineExpr.dimension(2), AffineExpr.dimension(3)
    _, maps, iterators, ins = tile_view(op, tensors, _sum([_scaled(_div(d2, cols), rows), d3]), _mod(d2, cols))
    return _elementwise("tile_transpose", 1), maps, iterators, ins


def permute(op: TTOp, tensors: list[SSAValue]):
    """(compute, maps, iterators, inputs) of a permute."""
    shape = tuple(tensors[0].type.get_shape())
    order, rank = _order(op), len(shape)
    if rank >= 2 and order == _swap(rank):
        return transpose(op, tensors)
    if _in_order(shape, order):
        return reshape(op, tensors)
    result = tuple(op.results[0].type.get_shape())  # others: element by element, or by face rows keeping the last dim
    return gather_view(op, tensors, gathered(shape, result, lambda index: [index[order.index(d)] for d in range(rank)]))


def decompose_permute(op: TTOp) -> list[TTOp]:
    """The permutes converting permute `op`, in order: one whose output's rows are the input's last dim (order
    [.., rank-1, k]) as the permute keeping the last dim with that order's last two swapped, then the swap; one whose
    output's last dim is the input's rows ([.., rank-2]) as the swap, then the permute of the swapped input keeping
    its last dim; else `op` alone."""
    shape = tuple(op.operands[0].type.get_shape())
    order, rank = _order(op), len(shape)
    swap = _swap(rank)
    if rank < 3 or order == swap or order[-1] == rank - 1 or _in_order(shape, order):
        return [op]
    if order[-2] == rank - 1:
        steps = [[order[d] for d in swap], swap]
    elif order[-1] == rank - 2:
        steps = [swap, [swap[d] for d in order]]
    else:
        return [op]
    program, value = Program(op, None), op.operands[0]
    for step in steps:
        value = program.permute(value, step)
    return program.done(value)


PERMUTES = {"permute": permute}
