"""The program of a batched matmul generic (`ttir_to_d2m/matmul.py`: its region's `linalg.generic` of
`d2m.tile_matmul` reads B in the rows of each output row's batch, a map with a floordiv): on each core of the
output's grid, for each tile (i, j) of its shard, a reader streams the tiles of A and B the linalg maps name for
(i, j, k) over k (A's (i, k) and B's (b * Kt + k, j), or B given transposed (b * Nt + j, k), transposed in the tile
by the block matmul, b = i div Mt; an operand's batch broadcast names its own matrix of b), into two CBs
of `stream_buffers` pages; the compute kernel accumulates their products in dst (1x1-tile block matmuls, or
matmul_tiles under use-tile-matmul) and packs the tile; the writer waits for the shard (and writes a DRAM output's
pages)."""

from __future__ import annotations

from typing import Callable

from xdsl.dialects.builtin import IndexType, i32
from xdsl.ir import SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap

from ttmlir.conversion.d2m_to_ttkernel.compute import ComputeKernels
from ttmlir.conversion.d2m_to_ttkernel.datamovement import affine_value
from ttmlir.conversion.d2m_to_ttkernel.kernel_builder import TILE, KernelOps
from ttmlir.conversion.d2m_to_ttkernel.programs import Arg, Launch, ProgramKernels, dm_arg_list
from ttmlir.dialects import d2m, ttkernel
from ttmlir.errors import PassFailure


def batched_operands(generic: d2m.GenericOp) -> tuple[SSAValue, SSAValue, bool, list[AffineMap]] | None:
    """(A, B, B transposed, the linalg maps of A and B over (i, j, k)) of a batched matmul generic; None for any
    other generic."""
    matmuls = [o for o in generic.region.walk() if o.name == "d2m.tile_matmul"]
    if len(matmuls) != 1 or matmuls[0].parent_op().name != "linalg.generic":
        return None
    linalg_op = matmuls[0].parent_op()
    maps = [m.data for m in linalg_op.indexing_maps.data]
    if isinstance(maps[1].results[0], AffineDimExpr):
        return None  # B read by its own rows: a 2-d matmul
    loads = {o.result: o.source for o in generic.region.walk() if isinstance(o, d2m.RemoteLoadOp)}
    a, b = (loads[v] for v in linalg_op.inputs)
    return a, b, maps[1].results[1] == AffineDimExpr(2), maps[:2]


def _tiles(n: int) -> int:
    return -(-n // TILE)


def launch_batched_matmul(builder: ProgramKernels, generic: d2m.GenericOp, a: SSAValue, b: SSAValue, out: SSAValue,
                          transpose_b: bool, maps: list[AffineMap]) -> Launch:
    """The program (see the module doc)."""
    la, lb, layout = (builder.layout_of(v) for v in (a, b, out))
    k_tiles = _tiles(a.type.encoding.data.logical_shape[-1])
    pages = builder.stream_buffers
    cbs = [builder.l1_buffer(layout, (1, pages), la.dtype, generic),
           builder.l1_buffer(layout, (1, pages), lb.dtype, generic), builder.cb_of(out, generic)]
    cb_a, cb_b = (ttkernel.CBType(ttkernel.IntAttr(pages), t.tile) for t in (la, lb))
    shard = ttkernel.CBType(ttkernel.IntAttr(layout.tiles), layout.tile)
    layouts = [la, lb, layout]
    index = IndexType()

    def read(reader: KernelOps, at: Callable[[Arg], int]) -> None:
        one = reader.const(1)
        port_a, port_b = reader.arg(0, cb_a), reader.arg(1, cb_b)
        base_a, base_b = reader.address(3), reader.address(4)
        sy, sx = reader.const(layout.shard[0], index), reader.const(layout.shard[1], index)
        y, x = reader.coords(layout)

        def output_tile(body: KernelOps, t: SSAValue) -> None:
            i, j = body.tile_in_tensor((y, x), (sy, sx), t)

            def step(inner: KernelOps, k: SSAValue) -> None:
                tiles = [[affine_value(inner, e, [i, j, k]) for e in m.results] for m in maps]
                for port, source, base, (row, col) in ((port_a, la, base_a, tiles[0]),
                                                       (port_b, lb, base_b, tiles[1])):
                    inner.call("cb_reserve_back", port, one)
                    inner.read_tile(builder.chip, source, row, col, base,
                                    inner.call("get_write_ptr", port, result=i32))
                inner.barrier("read")
                for port in (port_a, port_b):
                    inner.call("cb_push_back", port, one)

            body.loop(k_tiles, step)

        reader.loop(layout.tiles, output_tile)

    compute = KernelOps()
    ins = [compute.ct_arg(0, cb_a), compute.ct_arg(1, cb_b)]
    result = compute.ct_arg(2, shard)
    transpose, unit, zero = compute.const(int(transpose_b)), compute.const(1), compute.const(0, index)
    if builder.use_tile_matmul:  # matmul_tiles, as use-tile-matmul asks
        if transpose_b:
            raise PassFailure(generic, "'d2m.tile_matmul' op transpose_b is only supported by tile_matmul_block "
                                       "lowering")
        compute.call("mm_init", *ins, result, transpose)
        ComputeKernels.accumulate(compute, ins, result, layout, k_tiles,
                                  lambda inner: inner.call("matmul_tiles", *ins, zero, zero, zero))
    else:  # one tile of each operand a step, a block matmul of 1x1 blocks (which transposes B's tile when asked)
        compute.call("mm_block_init", *ins, result, transpose, unit, unit, unit)
        ComputeKernels.accumulate(compute, ins, result, layout, k_tiles, lambda inner: inner.call(
            "experimental.matmul_block", *ins, zero, zero, zero, transpose, unit, unit, unit, unit))
    dram_out = layout.memory == "dram"
    movers = builder.data_movement(
        layouts, dm_arg_list([0, 1, 2], [0, 1]), read, dm_arg_list([0, 1, 2], [2] if dram_out else []),
        lambda ops, at: builder.dm.write_output(ops, shard, layout, at(("cb_port", 2)),
                                                at(("buffer_address", 2)) if dram_out else 0),
        2 + dram_out, dram_out)  # A and B are read over the NoC
    compute_thread = d2m.ThreadAttr.get("compute", builder.compute_kernel(compute, [0, 1, 2]))
    return Launch([a, b, out], cbs, [*movers, compute_thread])


def batched_program(builder: ProgramKernels, generic: d2m.GenericOp, out: SSAValue) -> Launch | None:
    """The program of `generic` when it is a batched matmul, else None."""
    found = batched_operands(generic)
    return None if found is None else launch_batched_matmul(builder, generic, *found[:2], out, *found[2:])

