"""The general path of tensor manipulations that move elements between tiles: a `d2m.view_layout` whose remapping
names, for each output element, the input element it holds, copied by a program whose reader gathers each output
tile 16 elements at a time (a tile's face row, see `d2m_to_ttkernel/datamovement.py`).

The remapping is on logical coordinates, `(m, r, c) -> (i0, ..., r', c')`: an output element in matrix m (the
leading dims flattened, row-major), row r and column c of it holds the input's element of logical index
(i0, ..., r', c') (each of the input's leading dims named on its own, so that a reader bounds-checks each: an index
past one leading dim is padding, not the next matrix's row; `flattened` gives the matrix m' they name).
A face row of 16 output elements is one NoC read when its 16 source elements are consecutive in one face row of
the input: column c' is c plus a multiple of 16 (the last dim kept and offset by whole face rows), or both last
dims are multiples of 16 and the map keeps the row-major order (a reshape). Manipulations that split face rows
are refused by the op's lowering, naming it."""

from __future__ import annotations

import math
from typing import Callable

from xdsl.dialects.builtin import AffineMapAttr
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineBinaryOpExpr, AffineBinaryOpKind, AffineConstantExpr, AffineExpr, AffineMap

from ttmlir.conversion.ttir_to_d2m.tiles import TILE, metal_type
from ttmlir.dialects import d2m
from ttmlir.errors import derive
from ttmlir.ir.tt_op import TTOp

FACE_ROW = 16  # elements of a tile's face row: the unit the reader moves


def matrix_dims(shape: tuple[int, ...]) -> tuple[int, ...]:
    """A shape as at least a matrix (a vector or scalar is one row)."""
    return (1,) * max(0, 2 - len(shape)) + tuple(shape)


def _c(value: int) -> AffineExpr:
    return AffineExpr.constant(value)


def _div(expr: AffineExpr, n: int) -> AffineExpr:
    return expr if n == 1 else expr // n


def _mod(expr: AffineExpr, n: int) -> AffineExpr:
    return _c(0) if n == 1 else expr % n


def _scaled(expr: AffineExpr, n: int) -> AffineExpr:
    if isinstance(expr, AffineConstantExpr):
        return _c(expr.value * n)
    return expr if n == 1 else expr * n


def _sum(terms: list[AffineExpr]) -> AffineExpr:
    terms = [t for t in terms if not (isinstance(t, AffineConstantExpr) and t.value == 0)]
    total = terms[0] if terms else _c(0)
    for term in terms[1:]:
        total = total + term
    return total


def output_index(shape: tuple[int, ...]) -> list[AffineExpr]:
    """The logical index of the element at (m, r, c) = (d0, d1, d2) of a tensor of `shape`, one expr per dim."""
    dims = matrix_dims(shape)
    batch, m = dims[:-2], AffineExpr.dimension(0)
    index = [_div(m, math.prod(batch[k + 1:])) if k == 0 else _mod(_div(m, math.prod(batch[k + 1:])), batch[k])
             for k in range(len(batch))]
    index += [AffineExpr.dimension(1), AffineExpr.dimension(2)]
    return index[len(dims) - len(shape):] if len(shape) < 2 else index


def source_coordinates(shape: tuple[int, ...], index: list[AffineExpr]) -> AffineMap:
    """`(m, r, c) -> (i0, ..., r', c')` of a source of `shape` whose element at logical `index` is read (at least
    a matrix's two)."""
    return AffineMap(3, 0, tuple([_c(0)] * (len(matrix_dims(shape)) - len(shape)) + list(index)))


def flattened(amap: AffineMap, shape: tuple[int, ...]) -> AffineMap:
    """`(m, r, c) -> (m', r', c')`: a remapping `source_coordinates` made, its source's leading dims flattened
    row-major into the matrix m' (meaningful where each is inside its dim)."""
    batch, index = matrix_dims(shape)[:-2], amap.results
    m = _sum([_scaled(e, math.prod(batch[k + 1:])) for k, e in enumerate(index[:-2])])
    return AffineMap(3, 0, (m, index[-2], index[-1]))


def column_offset(amap: AffineMap) -> int | None:
    """k when the source column is the output's plus k, a multiple of 16 (each face row read in one piece)."""
    col = amap.results[-1]
    if col == AffineExpr.dimension(2):
        return 0
    if isinstance(col, AffineBinaryOpExpr) and col.kind == AffineBinaryOpKind.Add and \
            col.lhs == AffineExpr.dimension(2) and isinstance(col.rhs, AffineConstantExpr) and \
            col.rhs.value % FACE_ROW == 0:
        return col.rhs.value
    return None


def _terms(expr: AffineExpr) -> list[AffineExpr]:
    """The terms of a sum."""
    if isinstance(expr, AffineBinaryOpExpr) and expr.kind == AffineBinaryOpKind.Add:
        return _terms(expr.lhs) + _terms(expr.rhs)
    return [expr]


def _multiple_of(expr: AffineExpr, n: int) -> bool:
    """Whether `expr` is a multiple of `n` for every value of its dims (a sufficient test)."""
    if isinstance(expr, AffineConstantExpr):
        return expr.value % n == 0
    if isinstance(expr, AffineBinaryOpExpr) and expr.kind == AffineBinaryOpKind.Mul:
        return _multiple_of(expr.lhs, n) or _multiple_of(expr.rhs, n)
    return bool(_terms(expr)[1:]) and all(_multiple_of(t, n) for t in _terms(expr))


def _steady(expr: AffineExpr) -> bool:
    """Whether `expr` is the same for the 16 output columns d2 of a face row: it reads d2 only divided (floordiv)
    by a multiple of 16."""
    if isinstance(expr, AffineBinaryOpExpr):
        if expr.kind == AffineBinaryOpKind.FloorDiv and _multiple_of(expr.rhs, FACE_ROW):
            return True
        return _steady(expr.lhs) and _steady(expr.rhs)
    return expr != AffineExpr.dimension(2)


def face_runs(amap: AffineMap) -> bool:
    """Whether each 16-column face row of the output (d2 from a multiple of 16) reads 16 consecutive source
    elements starting at a multiple of 16 of a source row, without a sum of column offsets `column_offset` sees:
    the source column is d2 (or d2 mod a multiple of 16) plus terms that are multiples of 16 and the same across the
    face row, the matrix and the row the same across it (a convolution's windows of a channel dim of 16k)."""
    *rows, col = amap.results
    run = [t for t in _terms(col) if not _steady(t)]
    if len(run) != 1 or not all(_steady(e) for e in rows) or \
            not all(_multiple_of(t, FACE_ROW) for t in _terms(col) if t is not run[0]):
        return False
    d2 = AffineExpr.dimension(2)
    return run[0] == d2 or (isinstance(run[0], AffineBinaryOpExpr) and run[0].kind == AffineBinaryOpKind.Mod and
                            run[0].lhs == d2 and _multiple_of(run[0].rhs, FACE_ROW))


def reshaped(source: tuple[int, ...], result: tuple[int, ...]) -> AffineMap:
    """The map of a reshape: the element of the same row-major position (of the same column, in the row of the
    same position, when both keep the last dim)."""
    kept = 1 if source and result and source[-1] == result[-1] else 0
    rows = [_scaled(e, math.prod(result[k + 1:len(result) - kept]))
            for k, e in enumerate(output_index(result)[:len(result) - kept])]
    linear, lines = _sum(rows), source[:len(source) - kept]
    index = [_mod(_div(linear, math.prod(lines[k + 1:])), lines[k]) if k else _div(linear, math.prod(lines[1:]))
             for k in range(len(lines))]
    return source_coordinates(source, index + [AffineExpr.dimension(2)] * kept)


def gathered(source: tuple[int, ...], result: tuple[int, ...],
             index_of: Callable[[list[AffineExpr]], list[AffineExpr]]) -> AffineMap:
    """The map reading, for the output's logical index i, the source's `index_of(i)`."""
    return source_coordinates(source, index_of(output_index(result)))


def tile_view(op: TTOp, tensors: list[SSAValue], row: AffineExpr, col: AffineExpr):
    """(compute, maps, iterators, inputs) of a copy of the input's whole tiles: output tile (d2, d3) of the
    collapsed result is the input's tile (`row`, `col`), the remapping `(d0, d1, d2, d3) -> (d0, d1, row, col)` on
    their 1x1-grid forms (see `gather_view`)."""
    return gather_view(op, tensors, AffineMap(4, 0, (AffineExpr.dimension(0), AffineExpr.dimension(1), row, col)))


def batch_rows(source: tuple[int, ...], result: tuple[int, ...], amap: AffineMap) -> AffineExpr:
    """The input's tile row a logical map `amap` keeping each matrix's rows and columns reads for output tile row
    d2: the output's matrix d2 / Ht, its source matrix m' by `amap`, the same tile row of it."""
    height = -(-matrix_dims(result)[-2] // TILE)
    matrix = flattened(amap, source).results[0].replace_dims_and_symbols(
        [_div(AffineExpr.dimension(2), height), _c(0), _c(0)], [])
    return _sum([_scaled(matrix, height), _mod(AffineExpr.dimension(2), height)])


def gather_view(op: TTOp, tensors: list[SSAValue], amap: AffineMap):
    """(compute, maps, iterators, inputs) of a copy of the input seen through `amap`: the input moved to DRAM (so
    its reader finds any face row on any core) and a `d2m.view_layout` of it as the result (inserted before
    `op`)."""
    source, result = tensors[0].type, op.results[0].type
    target = d2m.EmptyOp.create(result_types=[metal_type(source.get_shape(), source.element_type, "dram")])
    moved = d2m.ToLayoutOp.create(operands=[tensors[0], target.result], result_types=[target.result.type])
    view = d2m.ViewLayoutOp.create(operands=[moved.results[0]], properties={"remapping": AffineMapAttr(amap)},
                                   result_types=[metal_type(result.get_shape(), result.element_type, "dram")])
    made: list[Operation] = [target, moved, view]
    derive(made, op)
    op.parent_block().insert_ops_before(made, op)
    identity = AffineMapAttr(AffineMap.identity(2))
    return copy_block, [identity, identity], ["parallel"] * 2, [view.result]


def copy_block(ops: list[Operation], loaded: list[SSAValue], out: SSAValue, maps) -> SSAValue:
    """The loaded block, stored as it is (no output block is computed)."""
    ops.remove(out.owner)
    return loaded[0]
