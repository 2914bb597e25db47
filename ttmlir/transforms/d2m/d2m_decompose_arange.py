"""`--d2m-decompose-arange`: each `d2m.arange_block` (on buffers, inside a generic) written out tile by tile. The
scratch tile is filled with its own element indices (`d2m.fill_arange_tile`); then for each tile of the block, in
two `scf.for` loops (rows outer, or columns outer when column-major), the tile's first index in the whole tensor
is computed from the core's coordinates (`d2m.core_index`), the blocking loops around the op (`scf.for` tagged
`d2m.blocking_loop`, their trip counts multiplying a core's span) and the tile's place, and the tile is
`(scratch + offset) * step + start` (the scratch transposed first when column-major), stored into the block."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects import arith, memref, scf
from xdsl.dialects.builtin import (FloatAttr, IndexType, IntegerAttr, IntegerType, MemRefType, ModuleOp, UnitAttr,
                                   i64)
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ttmlir.dialects import d2m, ttcore
from ttmlir.dialects.d2m_arange import ArangeBlockOp, FillArangeTileOp
from ttmlir.dialects.d2m_index import CoreIndexOp
from ttmlir.dialects.ttnn_attrs import element_type_for
from ttmlir.errors import PassFailure

TILE = 32


def _blocking(op: Operation, dim: int) -> tuple[SSAValue | None, int]:
    """The induction variable and trip count of the blocking loop along `dim` around `op` (none: 1)."""
    parent = op.parent_op()
    while parent is not None:
        tag = parent.attributes.get("d2m.blocking_loop") if isinstance(parent, scf.ForOp) else None
        if isinstance(tag, IntegerAttr) and tag.value.data == dim:
            bounds = [v.owner.value.value.data if isinstance(v.owner, arith.ConstantOp) else None
                      for v in (parent.lb, parent.ub, parent.step)]
            if None in bounds or bounds[2] <= 0:
                raise PassFailure(parent, "a blocking loop has constant bounds")
            lb, ub, step = bounds
            return parent.body.block.args[0], (ub - lb + step - 1) // step
        parent = parent.parent_op()
    return None, 1


class _Writer:
    def __init__(self):
        self.ops: list[Operation] = []

    def add(self, op: Operation) -> SSAValue:
        self.ops.append(op)
        return op.results[0] if op.results else None

    def index(self, value: int) -> SSAValue:
        return self.add(arith.ConstantOp(IntegerAttr(value, IndexType())))


def _decompose(op: ArangeBlockOp) -> None:
    output, scratch = op.output, op.index_tile_tensor
    t = output.type
    if not isinstance(t, MemRefType) or not isinstance(scratch.type, MemRefType):
        raise PassFailure(op, "d2m.arange_block is decomposed on buffers (run after bufferization)")
    shape = t.get_shape()
    if len(shape) < 2 or not isinstance(t.element_type, ttcore.TileType):
        raise PassFailure(op, "d2m.arange_block writes a block of at least 2 dims of tiles")
    generic = op.parent_op()
    while generic is not None and not isinstance(generic, d2m.GenericOp):
        generic = generic.parent_op()
    if generic is None:
        raise PassFailure(op, "d2m.arange_block is inside a d2m.generic")
    grid = generic.attributes["grid"].data.shape
    if len(grid) < 2:
        raise PassFailure(op, "d2m.arange_block's generic has a grid of at least 2 dims")
    tile = t.element_type
    element = element_type_for(tile.dtype)
    col_major = op.colMajor is not None and op.colMajor.value.data
    rows, cols = shape[-2], shape[-1]
    row_iv, row_blocks = _blocking(op, len(shape) - 2)
    col_iv, col_blocks = _blocking(op, len(shape) - 1)
    core_rows, core_cols = rows * row_blocks, cols * col_blocks
    total_rows, total_cols = core_rows * grid[-2], core_cols * grid[-1]

    w = _Writer()
    zero, one = w.index(0), w.index(1)
    n_rows, n_cols = w.index(rows), w.index(cols)
    w.add(FillArangeTileOp.create(operands=[scratch]))
    integer = isinstance(element, IntegerType)
    scalar_type = IntegerType(element.width.data) if integer else element

    def scalar(value: int) -> SSAValue:
        return w.add(arith.ConstantOp(IntegerAttr(value, scalar_type) if integer else FloatAttr(float(value),
                                                                                               scalar_type)))

    start, step = scalar(op.start.value.data), scalar(op.step.value.data)
    core_y = w.add(CoreIndexOp.create(properties={"dim": IntegerAttr(0, i64)}, result_types=[IndexType()]))
    core_x = w.add(CoreIndexOp.create(properties={"dim": IntegerAttr(1, i64)}, result_types=[IndexType()]))

    inner_block = Block(arg_types=[IndexType()])
    outer_block = Block(arg_types=[IndexType()])
    outer_iv, inner_iv = outer_block.args[0], inner_block.args[0]
    tile_row, tile_col = (inner_iv, outer_iv) if col_major else (outer_iv, inner_iv)

    b = _Writer()
    local = b.add(memref.LoadOp.get(scratch, [zero, zero]))
    consts = {n: b.index(n) for n in dict.fromkeys((rows, cols, total_cols, total_rows, TILE, core_rows, core_cols))}

    def mul(x, y):
        return b.add(arith.MuliOp(x, y))

    def add(x, y):
        return b.add(arith.AddiOp(x, y))

    global_row = add(mul(core_y, consts[core_rows]), tile_row)
    if row_iv is not None:
        global_row = add(global_row, mul(row_iv, consts[rows]))
    global_col = add(mul(core_x, consts[core_cols]), tile_col)
    if col_iv is not None:
        global_col = add(global_col, mul(col_iv, consts[cols]))
    if col_major:
        offset = add(mul(global_row, consts[TILE]),
                     mul(mul(mul(global_col, consts[total_rows]), consts[TILE]), consts[TILE]))
    else:
        offset = add(mul(mul(mul(global_row, consts[total_cols]), consts[TILE]), consts[TILE]),
                     mul(global_col, consts[TILE]))
    if integer:
        offset_scalar = b.add(arith.IndexCastOp(offset, scalar_type))
    else:
        offset_scalar = b.add(arith.SIToFPOp(b.add(arith.IndexCastOp(offset, i64)), scalar_type))
    if col_major:
        local = b.add(d2m.TILE_OP_CLASSES["tile_transpose"].create(operands=[local], result_types=[tile]))
    indexed = b.add(d2m.TILE_OP_CLASSES["tile_add"].create(operands=[local, offset_scalar], result_types=[tile]))
    scaled = b.add(d2m.TILE_OP_CLASSES["tile_mul"].create(operands=[indexed, step], result_types=[tile]))
    value = b.add(d2m.TILE_OP_CLASSES["tile_add"].create(operands=[scaled, start], result_types=[tile]))
    b.add(memref.StoreOp.get(value, output, [tile_row, tile_col]))
    b.add(scf.YieldOp())
    inner_block.add_ops(b.ops)
    inner = scf.ForOp(zero, n_rows if col_major else n_cols, one, [], Region(inner_block))
    inner.attributes["d2m.linalg_root"] = UnitAttr()
    inner.attributes["d2m.scheduled"] = UnitAttr()
    outer_block.add_ops([inner, scf.YieldOp()])
    w.add(scf.ForOp(zero, n_cols if col_major else n_rows, one, [], Region(outer_block)))
    for made in w.ops:
        for inner_op in made.walk():
            inner_op.location = op.location
    Rewriter.insert_op(w.ops, InsertPoint.before(op))
    op.result.replace_all_uses_with(output)
    Rewriter.erase_op(op)


@dataclass(frozen=True)
class D2MDecomposeArangePass(ModulePass):
    """Each d2m.arange_block written out tile by tile (see the module doc)."""

    name: ClassVar[str] = "d2m-decompose-arange"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for arange in [o for o in op.walk() if isinstance(o, ArangeBlockOp)]:
            _decompose(arange)
