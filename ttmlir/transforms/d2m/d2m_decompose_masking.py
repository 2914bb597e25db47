"""`--d2m-decompose-masking`: each `d2m.mask` on buffers (outside a generic) becomes a generic on its output's grid
(keeping a virtual grid's mappings) whose cores each load their shard of the input, write every tile of it into a
local output and store that: tiles inside `logical_shape` pass through, the last partial row (column) of tiles is
chosen element by element against a row (column) mask tile (`d2m.write_row_mask_tile`, `d2m.tile_where`) with a
tile of the fill value, the corner tile against both, and tiles past the logical shape are the fill tile. Each
region's loops run over the part of it in the core's shard (bounds from `d2m.core_index`)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects import arith, memref, scf
from xdsl.dialects.builtin import (ArrayAttr, DenseArrayBase, FloatAttr, IndexType, IntegerAttr, IntegerType,
                                   MemRefType, ModuleOp, NoneAttr, UnitAttr, i32, i64)
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ttmlir.dialects import d2m, ttcore
from ttmlir.dialects.d2m_index import CoreIndexOp
from ttmlir.dialects.d2m_mask import MaskOp
from ttmlir.dialects.d2m_mask_tiles import TileWhereOp, WriteColMaskTileOp, WriteRowMaskTileOp
from ttmlir.dialects.ttnn_attrs import element_type_for
from ttmlir.errors import PassFailure
from ttmlir.ir.syntax import affine_map_str

TILE = 32


def _fill_attr(element, fill: str):
    """The fill value in the tile's element type (an integer's infinities saturate to its range)."""
    if isinstance(element, IntegerType):
        width, unsigned = element.width.data, element.signedness.data.value == "unsigned"
        value = {"undef": 0, "zero": 0, "one": 1,
                 "inf": (1 << width) - 1 if unsigned else (1 << (width - 1)) - 1,
                 "neginf": 0 if unsigned else -(1 << (width - 1))}[fill]
        return IntegerAttr(value, IntegerType(width))
    return FloatAttr({"undef": 0.0, "zero": 0.0, "one": 1.0, "inf": math.inf, "neginf": -math.inf}[fill], element)


def _grid_attr(output: SSAValue, grid: tuple[int, ...]) -> ttcore.GridAttr:
    """The generic's grid: the output's, with the virtual grid mappings its buffer was allocated with."""
    owner = output.owner
    forward = owner.attributes.get("d2m.virtualGridForwardMapping") if isinstance(owner, Operation) else None
    inverse = owner.attributes.get("d2m.virtualGridInverseMapping") if isinstance(owner, Operation) else None
    if forward is None or inverse is None:
        return ttcore.GridAttr(ttcore.Grid(grid))
    amap = forward.data
    rank = len(grid)
    zeros = [AffineExpr.constant(0)] * (amap.num_dims - rank)
    dims = [AffineExpr.dimension(i) for i in range(rank)]
    cores = [r.replace_dims_and_symbols([*dims, *zeros], []) for r in amap.results[:2]]
    to_physical = AffineMap(rank, 0, (AffineExpr.constant(0), *cores))
    return ttcore.GridAttr(ttcore.Grid(grid, (affine_map_str(to_physical), affine_map_str(inverse.data)), True))


class _Body:
    """Ops appended to a block in order."""

    def __init__(self, block: Block):
        self.block = block

    def add(self, op: Operation) -> SSAValue | None:
        self.block.add_op(op)
        return op.results[0] if op.results else None

    def index(self, value: int) -> SSAValue:
        return self.add(arith.ConstantOp(IntegerAttr(value, IndexType())))

    def loop(self, lower: SSAValue, upper: SSAValue, step: SSAValue, root: bool = False) -> "_Body":
        body = Block(arg_types=[IndexType()])
        loop = scf.ForOp(lower, upper, step, [], Region(body))
        if root:
            loop.attributes["d2m.linalg_root"] = UnitAttr()
            loop.attributes["d2m.scheduled"] = UnitAttr()
        self.add(loop)
        inner = _Body(body)
        inner.iv = body.args[0]
        return inner

    def close(self) -> None:
        self.block.add_op(scf.YieldOp())


def _decompose(op: MaskOp) -> None:
    source, target = op.input, op.output
    if not isinstance(source.type, MemRefType) or not isinstance(target.type, MemRefType):
        raise PassFailure(op, "d2m.mask is decomposed on buffers (run after bufferization)")
    shape = tuple(target.type.get_shape())
    rank = len(shape) // 2
    grid, shard = shape[:rank], tuple(source.type.get_shape())[rank:]
    tile = source.type.element_type
    if rank < 2 or not isinstance(tile, ttcore.TileType):
        raise PassFailure(op, "d2m.mask is decomposed on a grid of at least 2 dims of tiles")
    logical = op.logical_shape.get_values()
    rows, cols = logical[-2], logical[-1]
    space = target.type.memory_space
    local_type = MemRefType(tile, shard, NoneAttr(), space)
    mask_type = MemRefType(tile, [1, 1], NoneAttr(), space)

    body = _Body(Block())
    local_in = body.add(memref.AllocOp([], [], local_type))
    local_out = body.add(memref.AllocOp([], [], local_type))
    row_mask = body.add(memref.AllocOp([], [], mask_type))
    col_mask = body.add(memref.AllocOp([], [], mask_type))
    cores = [body.add(CoreIndexOp.create(properties={"dim": IntegerAttr(d, i64)}, result_types=[IndexType()]))
             for d in range(rank)]
    body.add(d2m.RemoteLoadOp.create(operands=[local_in, source, *cores], properties={
        "operandSegmentSizes": DenseArrayBase.from_list(i32, [1, 1, rank, 0, 0, 0, 0])}))

    shard_rows, shard_cols = shard[-2], shard[-1]
    last_row, last_col = (rows - 1) // TILE, (cols - 1) // TILE
    valid_rows, valid_cols = rows % TILE or TILE, cols % TILE or TILE
    partial_row, partial_col = valid_rows != TILE, valid_cols != TILE
    total_rows, total_cols = shard_rows * grid[-2], shard_cols * grid[-1]
    tile_rows, tile_cols = last_row + 1, last_col + 1
    interior_rows = last_row if partial_row else tile_rows
    interior_cols = last_col if partial_col else tile_cols

    zero, one = body.index(0), body.index(1)
    element = element_type_for(tile.dtype)
    fill = body.add(arith.ConstantOp(_fill_attr(element, op.fill_value.data.value)))
    core_y = body.add(CoreIndexOp.create(properties={"dim": IntegerAttr(rank - 2, i64)}, result_types=[IndexType()]))
    core_x = body.add(CoreIndexOp.create(properties={"dim": IntegerAttr(rank - 1, i64)}, result_types=[IndexType()]))
    n_rows, n_cols = body.index(valid_rows), body.index(valid_cols)
    if partial_row:
        body.add(WriteRowMaskTileOp.create(operands=[n_rows, row_mask]))
    if partial_col:
        body.add(WriteColMaskTileOp.create(operands=[n_cols, col_mask]))

    def local_bounds(start: int, end: int, core: SSAValue, size: int) -> tuple[SSAValue, SSAValue]:
        """[start, end) of the tensor's tiles along a dim, in the coordinates of the core's shard."""
        size_v = body.index(size)
        first = body.add(arith.MuliOp(core, size_v))
        start_v, end_v = body.index(start), body.index(end)
        local_start = body.add(arith.SubiOp(start_v, body.add(arith.MinUIOp(start_v, first))))
        last = body.add(arith.AddiOp(first, size_v))
        clamped = body.add(arith.MaxUIOp(body.add(arith.MinUIOp(end_v, last)), first))
        return local_start, body.add(arith.SubiOp(clamped, first))

    def tile_fill(b: _Body) -> SSAValue:
        return b.add(d2m.TileFillOp.create(operands=[fill], result_types=[tile]))

    def masked(b: _Body, value: SSAValue, mask: SSAValue) -> SSAValue:
        other = tile_fill(b)
        condition = b.add(memref.LoadOp.get(mask, [zero, zero]))
        return b.add(TileWhereOp.create(operands=[condition, value, other], result_types=[tile]))

    def region(row_range: tuple[int, int], col_range: tuple[int, int], emit) -> None:
        if row_range[0] >= row_range[1] or col_range[0] >= col_range[1]:
            return
        row_lo, row_hi = local_bounds(*row_range, core_y, shard_rows)
        col_lo, col_hi = local_bounds(*col_range, core_x, shard_cols)
        loops, leading = [], []
        current = body
        for d in range(len(shard) - 2):  # a shard's leading dims, whole
            current = current.loop(zero, body.index(shard[d]), one)
            loops.append(current)
            leading.append(current.iv)
        row_loop = current.loop(row_lo, row_hi, one)
        col_loop = row_loop.loop(col_lo, col_hi, one, root=True)
        indices = [*leading, row_loop.iv, col_loop.iv]
        value = emit(col_loop, indices)
        col_loop.add(memref.StoreOp.get(value, local_out, indices))
        for b in (col_loop, row_loop, *reversed(loops)):
            b.close()

    def passthrough(b, indices):
        return b.add(memref.LoadOp.get(local_in, indices))

    def row_masked(b, indices):
        return masked(b, b.add(memref.LoadOp.get(local_in, indices)), row_mask)

    def col_masked(b, indices):
        return masked(b, b.add(memref.LoadOp.get(local_in, indices)), col_mask)

    def corner(b, indices):
        return masked(b, row_masked(b, indices), col_mask)

    region((0, interior_rows), (0, interior_cols), passthrough)
    if partial_row:
        region((last_row, last_row + 1), (0, interior_cols), row_masked)
    if partial_col:
        region((0, interior_rows), (last_col, last_col + 1), col_masked)
    if partial_row and partial_col:
        region((last_row, last_row + 1), (last_col, last_col + 1), corner)
    region((tile_rows, total_rows), (0, total_cols), lambda b, indices: tile_fill(b))
    region((0, tile_rows), (tile_cols, total_cols), lambda b, indices: tile_fill(b))
    body.add(d2m.RemoteStoreOp.create(operands=[target, *cores, local_out], properties={
        "operandSegmentSizes": DenseArrayBase.from_list(i32, [1, rank, 1, 0])}))

    empty = ArrayAttr([])
    generic = d2m.GenericOp.create(
        operands=[source, target], result_types=[], regions=[Region(body.block)],
        attributes={"block_factors": empty, "grid": _grid_attr(target, grid), "indexing_maps": empty,
                    "iterator_types": empty, "threads": ArrayAttr([d2m.ThreadAttr.get("unified")])},
        properties={"operandSegmentSizes": DenseArrayBase.from_list(i32, [1, 1, 0])})
    for inner in generic.walk():
        inner.location = op.location
    Rewriter.insert_op(generic, InsertPoint.before(op))
    op.result.replace_all_uses_with(target)
    Rewriter.erase_op(op)


@dataclass(frozen=True)
class D2MDecomposeMaskingPass(ModulePass):
    """Each d2m.mask on buffers as a generic writing its tiles (see the module doc)."""

    name: ClassVar[str] = "d2m-decompose-masking"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for mask in [o for o in op.walk() if isinstance(o, MaskOp)]:
            parent = mask.parent_op()
            while parent is not None and not isinstance(parent, d2m.GenericOp):
                parent = parent.parent_op()
            if parent is None:
                _decompose(mask)
