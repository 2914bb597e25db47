"""Reductions the tile reductions do not compute as they are, written (in `--ttir-to-d2m`, before its ops convert)
as one they do: `ttir.sum`, `mean`, `max` and `min` over several dims, over a dim other than the last (or the rows
of a single matrix), or without keep_dim. The input is seen as a matrix (`Rows.matrix`): its kept dims moved before
its reduced ones (a permute, when they are not already there) and folded into rows, the reduced ones into columns
(a reshape); the same reduction over that matrix's last dim with keep_dim; its column reshaped to the result's
shape. A mean over the folded columns is the mean over the reduced dims. When the last dim is one of several
reduced and that matrix would pad to more tiles than the input fills, the last dim is reduced first (keeping it),
so the matrix folds that many times fewer elements (a mean of equal groups' means is their mean). `argmax.py` sees its input the same way."""

from __future__ import annotations

import math

from xdsl.dialects.builtin import TensorType
from xdsl.ir import SSAValue

from ttmlir.conversion.ttir_to_d2m.tiles import TILE
from ttmlir.dialects.ttir import TTIR_OP_CLASSES
from ttmlir.errors import derive
from ttmlir.ir.props import KINDS
from ttmlir.ir.tt_op import TTOp

REDUCED = ("sum", "mean", "max", "min")


def reduced_dims(op: TTOp, rank: int) -> list[int]:
    """The dims `op` reduces, in order: those of its dim_arg, or all of them without one."""
    dims = op.properties.get("dim_arg")
    if dims is None:
        return list(range(rank))
    return sorted({d.value.data % rank for d in dims.data}) if rank else []


def tiles(shape: tuple[int, ...]) -> int:
    """The tiles a tensor of `shape` fills (its matrices' rows and columns padded to whole tiles)."""
    *batch, rows, cols = (1,) * max(0, 2 - len(shape)) + tuple(shape)
    return math.prod(batch) * -(-rows // TILE) * -(-cols // TILE)


def kept_along(dims: list[int]) -> dict:
    """A reduction's properties reducing `dims`, keeping them."""
    return {"dim_arg": KINDS["i32_array"].build(dims), "keep_dim": KINDS["bool"].build(True)}


def along_rows() -> dict:
    """A reduction's properties reducing a matrix's last dim, keeping it."""
    return kept_along([1])


class Rows(list):
    """The TTIR ops written for one op, in order, and the values they make."""

    def add(self, name: str, operands: list[SSAValue], result: TensorType, properties: dict | None = None) -> SSAValue:
        self.append(TTIR_OP_CLASSES[name].create(operands=list(operands), result_types=[result],
                                                 properties=properties or {}))
        return self[-1].results[0]

    def reshaped(self, x: SSAValue, target: list[int]) -> SSAValue:
        """`x` reshaped to `target` (itself when it has that shape)."""
        if list(x.type.get_shape()) == target:
            return x
        return self.add("reshape", [x], TensorType(x.type.element_type, target),
                        {"shape": KINDS["i32_array"].build(target)})

    def matrix(self, x: SSAValue, reduced: list[int]) -> SSAValue:
        """`x` as a matrix whose rows hold the elements each index of its kept dims reduces, in row-major order of
        the reduced dims."""
        shape = tuple(x.type.get_shape())
        kept = [d for d in range(len(shape)) if d not in reduced]
        if kept + reduced != list(range(len(shape))):
            x = self.add("permute", [x], TensorType(x.type.element_type, [shape[d] for d in kept + reduced]),
                         {"permutation": KINDS["i64_darray"].build(kept + reduced)})
        return self.reshaped(x, [math.prod(shape[d] for d in kept), math.prod(shape[d] for d in reduced)])

    def replace(self, op: TTOp, value: SSAValue) -> None:
        """These ops put where `op` was, `value` standing for its result, `op` erased."""
        derive(list(self), op)
        op.parent_block().insert_ops_before(list(self), op)
        op.results[0].replace_all_uses_with(value)
        op.detach()
        op.erase()


def direct(shape: tuple[int, ...], reduced: list[int], keep: bool) -> bool:
    """Whether a tile reduction computes a reduction as it is: with keep_dim, over one dim of a tensor of rank >= 2
    (dims of one element fold nothing), its last, or a single matrix's rows or both its dims."""
    folded = [d for d in reduced if shape[d] != 1] or reduced[-1:]
    if not keep or len(shape) < 2:
        return False
    last, matrix = len(shape) - 1, math.prod(shape[:-2]) == 1
    return folded == [last] or (matrix and folded in ([last - 1], [last - 1, last]))


def row_reduction(op: TTOp) -> list[TTOp]:
    """The ops converting reduction `op`: itself when a tile reduction computes it as it is, else the reduction of
    its input seen as a matrix, put where it was (see the module doc)."""
    (value,) = op.operands
    shape = tuple(value.type.get_shape())
    reduced = reduced_dims(op, len(shape))
    keep = op.properties.get("keep_dim")
    if direct(shape, reduced, keep is not None and bool(keep.value.data)):
        return [op]
    made, result = Rows(), op.results[0]
    element = result.type.element_type
    folded = [d for d in reduced if shape[d] != 1]
    matrix = (math.prod(n for d, n in enumerate(shape) if d not in reduced), math.prod(shape[d] for d in reduced))
    if len(folded) > 1 and folded[-1] == len(shape) - 1 and tiles(matrix) > tiles(shape):  # the last dim first,
        # along each row, when the matrix pads more than the input does (a 128x96 sum as one row is 384 tiles)
        value = made.add(op.ROW.name, [value], TensorType(element, [*shape[:-1], 1]), kept_along([len(shape) - 1]))
        shape = tuple(value.type.get_shape())
        if direct(shape, reduced, True):  # a matrix's columns left: reduced as they are (no reshape)
            kept = made.add(op.ROW.name, [value], TensorType(element, [1 if d in reduced else n for d, n in
                                                                       enumerate(shape)]), kept_along(reduced))
            made.replace(op, made.reshaped(kept, list(result.type.get_shape())))
            return list(made)
    x = made.matrix(value, reduced)
    rows = x.type.get_shape()[0]
    column = made.add(op.ROW.name, [x], TensorType(result.type.element_type, [rows, 1]), along_rows())
    made.replace(op, made.reshaped(column, list(result.type.get_shape())))
    return list(made)


ROW_REDUCTIONS = {name: row_reduction for name in REDUCED}
