"""The program of a copy between tiled tensors kept at their rank on virtual grids (a slice or permute keeping each
matrix whole, `ttir_to_d2m/tiled_at_rank.py`): one data-movement kernel per core of the output's virtual grid
filling its shard in place, tile by tile, from the source tiles the view names, wherever they are.

The view's remapping is the op's logical map on the unit-grid forms, `(g..., s...) -> (0..., f(s...))`, the last two
dims counted in tiles: output tile s (its index in the tensor's tiles, the batch dims in elements) is source tile
f(s). A core computes, for each tile of its shard, the source tile's index, the source shard holding it (its grid
index, the core that grid index is laid onto row by row from the grid's first core, plus the chip's NoC translation
offset) and the tile's offset in that shard, and NoC-reads the tile's page. The grids divide the tensors' tiles, so
no tile is outside them: a matrix's padding rows and columns are copied with its tiles."""

from __future__ import annotations

import math

from xdsl.dialects import arith
from xdsl.dialects.builtin import DenseArrayBase, IndexType, i32
from xdsl.ir import SSAValue
from xdsl.ir.affine import AffineExpr

from ttmlir.conversion.d2m_to_ttkernel.datamovement import affine_value
from ttmlir.conversion.d2m_to_ttkernel.kernel_builder import KernelOps, ShardLayout
from ttmlir.conversion.d2m_to_ttkernel.programs import Launch, ProgramKernels
from ttmlir.conversion.d2m_to_ttkernel.row_major_gather import (core_position, launch_view_gather, linear_index,
                                                                unlinear_index)
from ttmlir.dialects import d2m, ttkernel


def gather_tiles(chip: dict, source: ShardLayout, layout: ShardLayout, remapping, port: SSAValue, base: SSAValue,
                 ops: KernelOps) -> None:
    """The kernel's ops into `ops`: this core's output shard (its CB at `port`) filled from the source whose shards
    are at `base` (see the module doc)."""
    index = IndexType()
    grid, shard = layout.nd
    src_grid, src_shard = source.nd
    n = len(grid)
    tiles = [e.replace_dims_and_symbols([AffineExpr.constant(0)] * n + [AffineExpr.dimension(k) for k in range(n)],
                                        []) for e in remapping.results[n:]]
    count = ops.const(layout.tiles)
    ops.call("cb_reserve_back", port, count)
    local = ops.call("get_write_ptr", port, result=i32)
    y, x = ops.coords(layout)
    mine, _ = core_position(ops, layout, y, x, grid, shard)
    offset_y, offset_x = (ops.const(o + g, index) for o, g in zip(chip["coord_translation_offsets"], source.origin))
    columns = source.cores[1]

    def tile(body: KernelOps, t: SSAValue) -> None:
        def c(v: int) -> SSAValue:
            return body.const(v, index)

        at = [body.emit(arith.AddiOp(body.emit(arith.MuliOp(g, c(size))), s))
              for g, size, s in zip(mine, shard, unlinear_index(body, t, shard))]
        held, within = [], []
        for e, size in zip(tiles, src_shard):
            v = affine_value(body, e, at)
            held.append(body.emit(arith.DivUIOp(v, c(size))))
            within.append(body.emit(arith.RemUIOp(v, c(size))))
        core = linear_index(body, held, src_grid)
        noc_y = body.emit(arith.AddiOp(body.emit(arith.DivUIOp(core, c(columns))), offset_y))
        noc_x = body.emit(arith.AddiOp(body.emit(arith.RemUIOp(core, c(columns))), offset_x))
        far = body.emit(arith.AddiOp(base, body.emit(arith.IndexCastOp(
            body.emit(arith.MuliOp(linear_index(body, within, src_shard), c(source.page))), i32))))
        near = body.emit(arith.AddiOp(local, body.emit(arith.IndexCastOp(body.emit(arith.MuliOp(t, c(layout.page))),
                                                                         i32))))
        body.append(ttkernel.NocAsyncReadOp.create(
            operands=[noc_x, noc_y, far, near, body.const(source.page), body.noc],
            properties={"operandSegmentSizes": DenseArrayBase.from_list(i32, [2, 0, 1, 1, 1, 1])}))

    ops.loop(math.prod(shard), tile)
    ops.barrier("read")
    ops.call("cb_push_back", port, count)


def launch_tile_gather(builder: ProgramKernels, generic: d2m.GenericOp, out: SSAValue) -> Launch:
    """The program of copy generic `generic` reading a view of a tiled tensor kept at its rank into tiled `out` (on
    a virtual grid of its rank): the kernel above (`launch_view_gather`)."""
    return launch_view_gather(builder, generic, out, True, gather_tiles)
