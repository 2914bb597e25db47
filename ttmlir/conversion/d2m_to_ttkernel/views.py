"""Views a program reads through: a `d2m.view_layout` between the tiled layouts of two logical shapes of one size
(`ttir.reshape`'s form, see reshape.py) is read as its input, each output face row gathered from the input's
16-element face row of the same logical index ("rows<Hs>_<Ws>_<Ho>_<Wo>", the matrices' rows and columns on each
side); a `d2m.view_layout` shifting a tensor's tile coordinates (`ttir.slice_static`'s
form, `(g0, g1, t0, t1) -> (g0, g1, t0 + r, t1 + c)` on the 1x1-grid forms) is read as its input, each output tile
(i, j) gathered from the input's tile (i + r, j + c) wherever that tile is (d2m-grid-selection regrids the view's
result for the program's grid; the constants of its remapping stay tile offsets of the collapsed tensors); the view
itself moves nothing and is dropped once no program reads it."""

from __future__ import annotations

import math

from xdsl.dialects.func import FuncOp
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineBinaryOpExpr, AffineBinaryOpKind, AffineConstantExpr, AffineExpr

from ttmlir.dialects import d2m
from ttmlir.errors import PassFailure


def _offset(expr: AffineExpr, dim: int) -> int | None:
    """c when `expr` is `d<dim> + c`, 0 when it is `d<dim>`, else None."""
    if expr == AffineExpr.dimension(dim):
        return 0
    if isinstance(expr, AffineBinaryOpExpr) and expr.kind == AffineBinaryOpKind.Add and \
            expr.lhs == AffineExpr.dimension(dim) and isinstance(expr.rhs, AffineConstantExpr):
        return expr.rhs.value
    return None


def _logical(t) -> tuple[int, ...]:
    return tuple(t.encoding.data.logical_shape)


def _matrix_rows(shape: tuple[int, ...]) -> int:
    """The rows of each matrix of a logical shape (a vector being one row)."""
    return shape[-2] if len(shape) >= 2 else 1


def shifted_view(value: SSAValue, op: Operation) -> tuple[SSAValue, str]:
    """(the tensor a copy reads, how its reader gathers it): a shifted view's input and "shift<r>_<c>", or the
    value itself read tile for tile ("same")."""
    view = value.owner
    if not isinstance(view, d2m.ViewLayoutOp):
        return value, "same"
    shapes = [_logical(t) for t in (view.input.type, view.result.type)]
    if shapes[0] != shapes[1] and math.prod(shapes[0]) == math.prod(shapes[1]):  # a reshape: its rows regrouped
        return view.input, "rows" + "_".join(str(v) for shape in shapes for v in (_matrix_rows(shape), shape[-1]))
    results = view.remapping.data.results
    offsets = [_offset(e, d) for d, e in enumerate(results)]
    if len(results) != 4 or None in offsets or offsets[:2] != [0, 0]:
        raise PassFailure(op, "a program reads a view_layout whose remapping is not a shift of the tile coordinates; "
                              "that is not lowered to TTKernel yet")
    return view.input, f"shift{offsets[2]}_{offsets[3]}"


def drop_dead_views(func: FuncOp) -> None:
    """The views no program reads any more."""
    for view in [op for op in func.walk() if isinstance(op, d2m.ViewLayoutOp) and not op.result.uses]:
        view.detach()
        view.erase()
