"""Slices and permutes above two dims that keep each matrix's last two dims whole, as upstream's TTIRToD2M lowers
them (its D2MTensorManipulationOpRewriter with canBeTilized): kept at their rank and in tiles (each matrix padded
to whole tiles on its own), the input moved onto the device in that form, a `d2m.view_layout` naming for each output
tile the input tile it is (the op's logical map on the tensors' unit-grid device forms, the last two dims counted in
tiles and mapped to themselves), a generic copying the view into the output, which is moved back.

Grid selection puts both tensors on virtual grids of their rank (upstream's computeOptimalVirtualGrid, laid onto a
rectangle of cores: `d2m_grid_selection`); the copy's data-movement kernel reads each output tile from the core
holding its source tile (`d2m_to_ttkernel/tile_gather.py`); host data is written row-major into shards on those
cores and tilized there, the result untilized there and read back (upstream's host transfers of such tensors).

The other slices and permutes keep their paths (`row_major.py`, `slice.py`, `permute.py`): those cutting a matrix's
last two dims (and, in ttnn-mode, all), slices taking consecutive whole matrices (a rectangle of the collapsed
input's tiles, one program where the tensors around are collapsed too), tensors of two dims or fewer, and copies
whose shards would take over half a core's free L1."""

from __future__ import annotations

import math

from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, TensorType, i64
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap

from ttmlir import hardware
from ttmlir.conversion.d2m_to_ttkernel.kernel_builder import DTYPES
from ttmlir.conversion.ttir_to_d2m.row_major import _chip, _tilizable, row_major_slice, view_copy
from ttmlir.conversion.ttir_to_d2m.slice import CutsTiles, _bounds, tile_offsets
from ttmlir.conversion.ttir_to_d2m.tiles import TILE, _dtype
from ttmlir.dialects import d2m, ttcore
from ttmlir.ir.tt_op import TTOp
from ttmlir.transforms.d2m.virtual_grid import nd_virtual_grid


def tiled_rank_type(shape: tuple[int, ...], element: Attribute, memory: str) -> TensorType:
    """A tensor kept at its rank in tiles on a unit grid: each matrix's last two dims in whole tiles, no dims
    collapsed (as upstream writes a tensor manipulation's layout)."""
    n = len(shape)
    intervals = DenseIntOrFPElementsAttr.from_list(TensorType(i64, [0, 2]), [])
    layout = ttcore.MetalLayoutAttr(ttcore.MetalLayout(tuple(shape), (1,) * (n - 2) + (TILE, TILE), intervals, memory,
                                                       "sharded"))
    tiles = (*shape[:-2], -(-shape[-2] // TILE), -(-shape[-1] // TILE))
    return TensorType(ttcore.TileType((TILE, TILE), _dtype(element)), [*(1,) * n, *tiles], layout)


def _fits(units: list[tuple[int, ...]], dtype: str, chip: dict) -> bool:
    """Whether the tiled shards and row-major staging shards of tensors of `units` (tiles; last two dims in tiles),
    on the virtual grids grid selection gives them, take at most half a core's free L1."""
    grid_shape = tuple(chip["grid"])
    total = 0
    for u in units:
        total += 2 * math.prod(u) // math.prod(nd_virtual_grid(u, grid_shape)) * hardware.tile_bytes(DTYPES[dtype])
    return total <= (int(chip["l1_size"]) - int(chip["l1_unreserved_base"])) // 2


def _tiled_copy(convert, op: TTOp, logical: AffineMap) -> tuple[list[Operation], SSAValue] | None:
    """`op` as a copy of a view of its input kept at its rank in tiles, the view's remapping `logical` (output
    index -> input index) on the unit-grid forms; None where the op keeps its other paths (see the module doc)."""
    source, result = op.operands[0], op.results[0]
    shape, out_shape = tuple(source.type.get_shape()), tuple(result.type.get_shape())
    element = source.type.element_type
    if convert.ttnn_mode or len(shape) <= 2 or str(element) not in DTYPES or \
            "l1" != convert.memory_of(source, False) or "l1" != convert.memory_of(result, True):
        return None
    types = [tiled_rank_type(shape, element, "l1"), tiled_rank_type(out_shape, element, "l1")]
    chip = _chip(op)
    if chip is None or not _fits([tuple(t.get_shape()[len(shape):]) for t in types], str(element), chip):
        return None
    return view_copy(convert, source, result, types, logical)


def tiled_slice(convert, op: TTOp, device: tuple[int, int]) -> tuple[list[Operation], SSAValue] | None:
    """A `ttir.slice_static` keeping each matrix whole (upstream's canBeTilized) at its rank in tiles; a slice cutting
    a matrix's last two dims in row-major elements (`row_major.py`); None for the others."""
    shape = tuple(op.operands[0].type.get_shape())
    begins, ends, steps = _bounds(op, shape)
    if len(shape) <= 2 or not _tilizable(begins, ends, steps, shape):
        return row_major_slice(convert, op, device)
    try:  # consecutive whole matrices stay a copy of a rectangle of the collapsed input's tiles (`slice.py`)
        tile_offsets(op, shape)
        return None
    except CutsTiles:
        pass
    d = [AffineExpr.dimension(k) for k in range(len(shape))]
    logical = AffineMap(len(shape), 0, tuple(d[k] * step + begin if step != 1 else d[k] + begin if begin else d[k]
                                             for k, (begin, step) in enumerate(zip(begins, steps))))
    return _tiled_copy(convert, op, logical)


def tiled_permute(convert, op: TTOp, device: tuple[int, int]) -> tuple[list[Operation], SSAValue] | None:
    """A `ttir.permute` of the dims before each matrix's last two (upstream's canBeTilized) at its rank in tiles;
    None for the others (an identity, one moving a matrix's dims)."""
    rank = len(op.operands[0].type.get_shape())
    order = [int(v) % max(1, rank) for v in op.prop("permutation").get_values()]
    if rank <= 2 or order[-2:] != [rank - 2, rank - 1] or order == list(range(rank)):
        return None
    # input dim k is the output dim the permutation puts it at
    logical = AffineMap(rank, 0, tuple(AffineExpr.dimension(order.index(k)) for k in range(rank)))
    return _tiled_copy(convert, op, logical)


AT_RANK = {"slice_static": tiled_slice, "permute": tiled_permute}
