"""Views a program reads through: a `d2m.view_layout` whose remapping names each output element's source element
in logical coordinates, `(m, r, c) -> (m', r', c')` (the tensor manipulations' general form, see
`ttir_to_d2m/row_gather.py`), is read as its input, each output face row gathered from the input's face row its
remapping names, or element by element where a face row's elements come from several (a `RowGather`); a
`d2m.view_layout` of whole tiles (a slice's shift `(g0, g1, t0, t1) -> (g0, g1, t0 + r, t1 + c)` on the 1x1-grid
forms, a batch broadcast's or permutation's tile rows) is read as its input, each output tile (i, j) gathered from the
input's tile its remapping names (a `TileGather`) wherever that tile is (d2m-grid-selection regrids the view's
result for the program's grid; the constants of its remapping stay tile offsets of the collapsed tensors); the view
itself moves nothing and is dropped once no program reads it."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects.func import FuncOp
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap

from ttmlir.conversion.ttir_to_d2m.row_gather import FACE_ROW, column_offset, face_runs, matrix_dims, reshaped
from ttmlir.dialects import d2m
from ttmlir.dialects.d2m_composite_view import CompositeViewOp
from ttmlir.errors import PassFailure


def _logical(t) -> tuple[int, ...]:
    return tuple(t.encoding.data.logical_shape)


def _matrix(shape: tuple[int, ...]) -> tuple[int, int]:
    """(rows, columns) of each matrix of a logical shape (a vector or scalar being one row)."""
    dims = (1,) * max(0, 2 - len(shape)) + tuple(shape)
    return dims[-2], dims[-1]


@dataclass(frozen=True)
class RowGather:
    """How a reader fills each output tile from a logical view: `remapping` `(m, r, c) -> (i0, ..., r', c')` over
    the source's leading dims `batch` and its matrices' (rows, columns) `source`, and the result's (`result`: rows,
    columns); by face rows of 16 elements when `faces` (each a run of the source's face row, see `gather_of`), else
    element by element."""

    remapping: AffineMap
    batch: tuple[int, ...]
    source: tuple[int, int]
    result: tuple[int, int]
    faces: bool


def gather_of(remapping: AffineMap, source: tuple[int, ...], result: tuple[int, ...]) -> RowGather:
    """A view's gather: by face rows where each output face row's 16 elements are one source face row's (the
    source column the output's plus a multiple of 16, none of them past the source's last column unless all are;
    or a reshape or a window (`face_runs`) between last dims of multiples of 16), else element by element."""
    width, offset = _matrix(source)[1], column_offset(remapping)
    # a face row read whole when all of it is the source's row (or none of it: those are left zero)
    faces = (offset is not None and (width % FACE_ROW == 0 or 0 <= offset <= width - _matrix(result)[1])) or \
        (not (width % FACE_ROW or _matrix(result)[1] % FACE_ROW) and (remapping == reshaped(source, result) or
                                                                     face_runs(remapping)))
    return RowGather(remapping, matrix_dims(source)[:-2], _matrix(source), _matrix(result), faces)


@dataclass(frozen=True)
class TileGather:
    """How a reader fills each output tile from a view of whole tiles: output tile (i, j) (of the collapsed
    tensor) from the source's tile `remapping` names at (0, 0, i, j)."""

    remapping: AffineMap


def shifted_view(value: SSAValue, op: Operation) -> tuple[SSAValue, str | RowGather | TileGather]:
    """(the tensor a copy reads, how its reader gathers it): a logical view's input and its `RowGather`, a view of
    whole tiles' input and its `TileGather` (a composite view of one tensor re-splitting it: each tile where the
    tensor holds it), or the value itself read tile for tile ("same")."""
    view = value.owner
    if isinstance(view, CompositeViewOp) and len(view.operands) == 1:  # one tensor re-split: each tile as it is
        return view.operands[0], TileGather(AffineMap.identity(4))
    if not isinstance(view, d2m.ViewLayoutOp):
        return value, "same"
    if view.remapping.data.num_dims == 3:
        source = _logical(view.input.type)
        if len(view.remapping.data.results) != len(matrix_dims(source)):  # each source dim bounds-checked
            raise PassFailure(op, f"a logical view_layout names {len(view.remapping.data.results)} coordinates of a "
                                  f"source of rank {len(source)}; it names each of its dims (at least two)")
        return view.input, gather_of(view.remapping.data, source, _logical(view.result.type))
    amap = view.remapping.data
    grid = list(amap.results[:2]) if amap.num_dims == 4 and len(amap.results) == 4 else None
    if grid == [AffineExpr.dimension(0), AffineExpr.dimension(1)]:
        return view.input, TileGather(amap)  # made on its grid: output tile (i, j) reads tile amap(0, 0, i, j)
    if grid != [AffineExpr.constant(0)] * 2:
        raise PassFailure(op, "a program reads a view_layout whose remapping changes the grid coordinates; that is "
                              "not lowered to TTKernel yet")
    # regridded by d2m-grid-selection: the remapping names a source tile for each (grid, shard) coordinate of the
    # result, output tile (i, j) of the collapsed tensor at (i / S0, j / S1, i mod S0, j mod S1) (S its shard)
    i, j = AffineExpr.dimension(2), AffineExpr.dimension(3)
    s0, s1 = view.result.type.get_shape()[2:]
    return view.input, TileGather(amap.replace_dims_and_symbols([i // s0, j // s1, i % s0, j % s1], [], 4, 0))

def drop_dead_views(func: FuncOp) -> None:
    """The views no program reads any more."""
    for view in [op for op in func.walk() if isinstance(op, (d2m.ViewLayoutOp, CompositeViewOp)) and
                 not op.results[0].uses]:
        view.detach()
        view.erase()
