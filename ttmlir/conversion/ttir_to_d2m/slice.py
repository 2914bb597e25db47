"""`ttir.slice_static` as a D2M program where the slice is a rectangle of whole tiles of the input's device form: the
input moved onto the device (interleaved in DRAM, so a large tensor needs no core's L1), a `d2m.view_layout` of it
whose remapping shifts the tile coordinates to the slice's first tile, `(g0, g1, t0, t1) -> (g0, g1, t0 + r, t1 + c)`
on the tensors' 1x1-grid forms, and a generic copying the view's blocks into the result (its program reads each tile
of the rectangle from the input, wherever it is).

On the device the leading dims fold into tile rows (each matrix padded to whole tiles), so a slice keeps whole
tiles when it takes every row of each matrix, starts the last dim at a tile boundary (and ends it at one or at the
end), steps by 1, and takes a range of one leading dim with only dims of size 1 before it (its matrices are then
consecutive tile rows). Other slices (any begins, ends and steps) are a copy of the input's logical view (see
`row_gather.py`; gathered by face rows where the last dim starts at a multiple of 16 and steps by 1)."""

from __future__ import annotations

import math

from xdsl.ir import SSAValue
from xdsl.ir.affine import AffineExpr

from ttmlir.conversion.ttir_to_d2m.row_gather import gather_view, gathered, tile_view
from ttmlir.ir.props import int_values
from ttmlir.ir.tt_op import TTOp

TILE = 32


class CutsTiles(Exception):
    """A slice that is not a rectangle of whole tiles (why, in words)."""


def _bounds(op: TTOp, shape: tuple[int, ...]) -> tuple[list[int], list[int], list[int]]:
    """The slice's begins, ends and steps, negative ones counted from the end, ends clamped to the shape."""
    begins, ends, steps = (int_values(op.prop(name)) for name in ("begins", "ends", "step"))
    begins = [b % s if b < 0 else b for b, s in zip(begins, shape)]
    ends = [e % s if e < 0 else min(e, s) for e, s in zip(ends, shape)]
    return begins, ends, steps


def tile_offsets(op: TTOp, shape: tuple[int, ...]) -> tuple[int, int]:
    """The (tile row, tile column) of the input's device form the slice starts at; CutsTiles when it cuts tiles."""
    begins, ends, steps = _bounds(op, shape)
    pad = max(0, 2 - len(shape))
    shape, begins, ends, steps = (1,) * pad + shape, [0] * pad + begins, [1] * pad + ends, [1] * pad + steps
    if any(s != 1 for s in steps):
        raise CutsTiles("steps by more than 1")
    if (begins[-2], ends[-2]) != (0, shape[-2]):
        raise CutsTiles("takes part of a matrix's rows")
    if begins[-1] % TILE or (ends[-1] % TILE and ends[-1] != shape[-1]):
        raise CutsTiles("cuts the last dim inside a tile")
    cut = [d for d in range(len(shape) - 2) if (begins[d], ends[d]) != (0, shape[d])]
    if len(cut) > 1 or (cut and any(shape[d] != 1 for d in range(cut[0]))):
        raise CutsTiles("takes matrices that are not consecutive")
    row = begins[cut[0]] * math.prod(shape[cut[0] + 1:-2]) * -(-shape[-2] // TILE) if cut else 0
    return row, begins[-1] // TILE


def slice_static(op: TTOp, tensors: list[SSAValue]):
    """(compute, maps, iterators, inputs) of a slice: of whole tiles, a copy of the shifted view of the input (the
    move to DRAM and the view are inserted before `op`); else a copy of its logical view (see `row_gather.py`)."""

    source, result = tensors[0].type, op.results[0].type
    shape = tuple(source.get_shape())
    try:
        row, col = tile_offsets(op, shape)
    except CutsTiles:
        begins, _, steps = _bounds(op, shape)
        return gather_view(op, tensors, gathered(shape, tuple(result.get_shape()), lambda index: [
            e * step + begin if step != 1 else e + begin if begin else e
            for e, begin, step in zip(index, begins, steps)]))
    dims = [AffineExpr.dimension(d) for d in range(4)]
    return tile_view(op, tensors, dims[2] + row if row else dims[2], dims[3] + col if col else dims[3])


SLICES = {"slice_static": slice_static}
