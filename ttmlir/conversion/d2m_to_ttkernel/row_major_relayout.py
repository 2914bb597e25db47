"""A device tensor moved between a tiled layout (a matrix's tiles, the batch folded into tile rows, in L1 shards or
DRAM pages) and a row-major one kept at its rank (a row-major copy's input or output, `row_major_gather.py`), by
one data-movement kernel on the destination's cores, as upstream's to_layout untilizes and tilizes on the device.

Both read 16-element face rows: a tile's row r of columns 16h..16h+15 is face (r / 16) * 2 + h, row r mod 16 of
it. Into row-major shards (untilizing), each row of the destination's shard that is not padding takes its face
rows from the tiles holding them (the whole face row: what lies past the logical columns lands in the row's
padding). Into tiles (tilizing), each tile of the destination's shard is zeroed, then each of its face rows that
holds logical elements takes them from the row-major shard holding them, in one read (the row-major shards'
columns come in multiples of 32), its padding left zero; a tile of a DRAM destination is built in an L1 page and
written to its DRAM page."""

from __future__ import annotations

import math

from xdsl.dialects import arith
from xdsl.dialects.builtin import DenseArrayBase, IndexType, i32
from xdsl.ir import Operation, SSAValue

from ttmlir import hardware
from ttmlir.conversion.d2m_to_ttkernel.datamovement import shard_tile, zeroed_page
from ttmlir.conversion.d2m_to_ttkernel.kernel_builder import TILE, KernelOps, ShardLayout
from ttmlir.conversion.d2m_to_ttkernel.programs import READER_CORE, Launch, ProgramKernels
from ttmlir.conversion.d2m_to_ttkernel.row_major_gather import (core_position, linear_index, row_major_dims, run_reader,
                                                                 shard_row, unlinear_index)
from ttmlir.dialects import d2m, ttkernel

FACE = 16


def _face_offset(ops: KernelOps, row: SSAValue, column: SSAValue, unit: int) -> SSAValue:
    """The byte offset (i32) in a tile of its element (row, column), column a multiple of 16."""
    index = IndexType()
    sixteen = ops.const(FACE, index)
    face = ops.emit(arith.AddiOp(ops.emit(arith.MuliOp(ops.emit(arith.DivUIOp(row, sixteen)), ops.const(2, index))),
                                 ops.emit(arith.DivUIOp(column, sixteen))))
    element = ops.emit(arith.AddiOp(ops.emit(arith.MuliOp(face, ops.const(FACE * FACE, index))),
                                    ops.emit(arith.MuliOp(ops.emit(arith.RemUIOp(row, sixteen)), sixteen))))
    return ops.emit(arith.IndexCastOp(ops.emit(arith.MuliOp(element, ops.const(unit, index))), i32))


def _tile_address(ops: KernelOps, chip: dict, tiled: ShardLayout, row: SSAValue, col: SSAValue, base: SSAValue,
                  offset: SSAValue) -> tuple[list[SSAValue], int, SSAValue]:
    """Where byte `offset` of tile (row, col) of `tiled` is: (the NoC read/write endpoint operands, the operand
    segment count naming them: the core's x and y for an L1 shard, the bank for a DRAM page) and its address."""
    index = IndexType()
    page = ops.const(tiled.page)
    if tiled.memory == "dram":
        tile = ops.emit(arith.IndexCastOp(ops.emit(arith.AddiOp(
            ops.emit(arith.MuliOp(row, ops.const(tiled.tensor_tiles[1], index))), col)), i32))
        banks = ops.const(int(chip["num_dram_channels"]))
        far = ops.emit(arith.AddiOp(base, ops.emit(arith.MuliOp(ops.emit(arith.DivUIOp(tile, banks)), page))))
        return [ops.emit(arith.RemUIOp(tile, banks))], 1, ops.emit(arith.AddiOp(far, offset))
    sy, sx = ops.const(tiled.shard[0], index), ops.const(tiled.shard[1], index)
    core_y, core_x = tiled.core_of(ops, ops.emit(arith.DivUIOp(row, sy)), ops.emit(arith.DivUIOp(col, sx)))
    noc_y, noc_x = (ops.emit(arith.AddiOp(v, ops.const(o + g, index)))
                    for v, o, g in zip((core_y, core_x), chip["coord_translation_offsets"], tiled.origin))
    position = ops.emit(arith.AddiOp(ops.emit(arith.MuliOp(ops.emit(arith.RemUIOp(row, sy)), sx)),
                                     ops.emit(arith.RemUIOp(col, sx))))
    far = ops.emit(arith.AddiOp(base, ops.emit(arith.MuliOp(ops.emit(arith.IndexCastOp(position, i32)), page))))
    return [noc_x, noc_y], 2, ops.emit(arith.AddiOp(far, offset))


def untilize_rows(chip: dict, tiled: ShardLayout, layout: ShardLayout, logical: tuple[int, ...], port: SSAValue,
                  base: SSAValue, ops: KernelOps) -> None:
    """Tiled `tiled` (at `base`) into this core's row-major shard of `layout` (its CB at `port`)."""
    index = IndexType()
    unit = int(hardware.DTYPE_BYTES[layout.dtype])
    grid, shard = row_major_dims(layout)
    padded_rows = -(-logical[-2] // TILE) * TILE
    count = ops.const(layout.tiles)
    ops.call("cb_reserve_back", port, count)
    local = ops.call("get_write_ptr", port, result=i32)
    y, x = ops.coords(layout)
    mine, first_column = core_position(ops, layout, y, x, grid, shard)

    def c(body: KernelOps, v: int) -> SSAValue:
        return body.const(v, index)

    def row(body: KernelOps, r: SSAValue) -> None:
        at, inside = shard_row(body, r, mine, shard, logical, first_column)

        def copy(then: KernelOps) -> None:
            matrix = linear_index(then, at[:-1], logical[:-2])
            tiled_row = then.emit(arith.AddiOp(then.emit(arith.MuliOp(matrix, c(then, padded_rows))), at[-1]))
            tile_row, within = then.emit(arith.DivUIOp(tiled_row, c(then, TILE))), \
                then.emit(arith.RemUIOp(tiled_row, c(then, TILE)))
            start = then.emit(arith.MuliOp(r, c(then, shard[-1])))

            def face_row(each: KernelOps, q: SSAValue) -> None:
                step = each.emit(arith.MuliOp(q, c(each, FACE)))
                column = each.emit(arith.AddiOp(first_column, step))

                def read(ok: KernelOps) -> None:
                    at_column = ok.emit(arith.RemUIOp(column, c(ok, TILE)))
                    endpoint, segments, far = _tile_address(ok, chip, tiled, tile_row,
                                                            ok.emit(arith.DivUIOp(column, c(ok, TILE))), base,
                                                            _face_offset(ok, within, at_column, unit))
                    near = ok.emit(arith.AddiOp(local, ok.emit(arith.IndexCastOp(ok.emit(arith.MuliOp(
                        ok.emit(arith.AddiOp(start, step)), c(ok, unit))), i32))))
                    ok.append(ttkernel.NocAsyncReadOp.create(
                        operands=[*endpoint, far, near, ok.const(FACE * unit), ok.noc],
                        properties={"operandSegmentSizes": DenseArrayBase.from_list(
                            i32, [2 if segments == 2 else 0, 0 if segments == 2 else 1, 1, 1, 1, 1])}))

                each.if_else(each.emit(arith.CmpiOp(column, c(each, logical[-1]), "ult")), read, lambda _: None)

            then.loop(shard[-1] // FACE, face_row)

        body.if_else(inside, copy, lambda _: None)

    ops.loop(math.prod(shard[:-1]), row)
    ops.barrier("read")
    ops.call("cb_push_back", port, count)


def tilize_rows(chip: dict, source: ShardLayout, layout: ShardLayout, logical: tuple[int, ...], port: SSAValue,
                base: SSAValue, out_base: SSAValue | None, ops: KernelOps) -> None:
    """Row-major `source` (at `base`) into this core's tiles of `layout` (its CB at `port`: the shard itself in
    L1, or one page a tile is built in before it is written to its DRAM page at `out_base`)."""
    index = IndexType()
    unit = int(hardware.DTYPE_BYTES[layout.dtype])
    padded_rows = -(-logical[-2] // TILE) * TILE
    matrices = math.prod(logical[:-2])
    dram = layout.memory == "dram"
    count = ops.const(1 if dram else layout.tiles)
    ops.call("cb_reserve_back", port, count)
    local = ops.call("get_write_ptr", port, result=i32)
    read = run_reader(ops, chip, source, base)
    zero = ops.const(0)
    page = ops.const(layout.page)
    y, x = ops.coords(layout)
    sy, sx = ops.const(layout.shard[0], index), ops.const(layout.shard[1], index)

    def c(body: KernelOps, v: int) -> SSAValue:
        return body.const(v, index)

    def tile(body: KernelOps, k: SSAValue) -> None:
        i, j = shard_tile(body, k, (y, x), (sy, sx))
        near = local if dram else \
            body.emit(arith.AddiOp(local, body.emit(arith.MuliOp(body.emit(arith.IndexCastOp(k, i32)), page))))
        zeroed_page(body, near, layout.page, zero)

        def row(inner: KernelOps, r: SSAValue) -> None:
            tiled_row = inner.emit(arith.AddiOp(inner.emit(arith.MuliOp(i, c(inner, TILE))), r))
            matrix = inner.emit(arith.DivUIOp(tiled_row, c(inner, padded_rows)))
            within = inner.emit(arith.RemUIOp(tiled_row, c(inner, padded_rows)))
            inside = inner.emit(arith.AndIOp(inner.emit(arith.CmpiOp(matrix, c(inner, matrices), "ult")),
                                             inner.emit(arith.CmpiOp(within, c(inner, logical[-2]), "ult"))))

            def copy(then: KernelOps) -> None:
                batch = unlinear_index(then, matrix, logical[:-2])
                for half in (0, 1):
                    column = then.emit(arith.AddiOp(then.emit(arith.MuliOp(j, c(then, TILE))), c(then, FACE * half)))

                    def read_face(ok: KernelOps, column=column, half=half) -> None:
                        elements = ok.emit(arith.MinUIOp(c(ok, FACE), ok.emit(arith.SubiOp(c(ok, logical[-1]),
                                                                                            column))))
                        read(ok, [*batch, within, column],
                             ok.emit(arith.AddiOp(near, _face_offset(ok, r, c(ok, FACE * half), unit))), elements)

                    then.if_else(then.emit(arith.CmpiOp(column, c(then, logical[-1]), "ult")), read_face,
                                 lambda _: None)

            inner.if_else(inside, copy, lambda _: None)

        body.loop(TILE, row)
        body.barrier("read")
        if dram:
            endpoint, _, far = _tile_address(body, chip, layout, i, j, out_base, body.const(0))
            body.append(ttkernel.NocAsyncWriteOp.create(
                operands=[near, *endpoint, far, page, body.noc],
                properties={"operandSegmentSizes": DenseArrayBase.from_list(i32, [1, 0, 1, 1, 1, 1])}))
            body.barrier("write")  # before the page is built again

    ops.loop(layout.tiles, tile)
    ops.call("cb_push_back", port, count)


def launch_relayout(builder: ProgramKernels, source: SSAValue, dest: SSAValue, op: Operation) -> Launch:
    """The program moving device tensor `source` into `dest`, one of them tiled and the other row-major kept at
    its rank (see the module doc)."""
    src, layout = builder.layout_of(source), builder.layout_of(dest)
    logical = tuple(dest.type.encoding.data.logical_shape)
    into_tiles = layout.tiled
    dram_out = into_tiles and layout.memory == "dram"
    cbs = [builder.l1_buffer(layout, (1, 1), layout.dtype, op) if dram_out else builder.cb_of(dest, op)]
    plan, spec = builder.dm_args([0], [0, 1] if dram_out else [0], [src, layout])
    ops = KernelOps(0, plan)
    port = ops.arg(0, ttkernel.CBType(ttkernel.IntAttr(1 if dram_out else layout.tiles), layout.tile))
    base = ops.address(1)
    if into_tiles:
        tilize_rows(builder.chip, src, layout, logical, port, base, ops.address(2) if dram_out else None, ops)
    else:
        untilize_rows(builder.chip, src, layout, logical, port, base, ops)
    kernel = builder.kernel("datamovement", "noc", ops, spec)
    return Launch([source, dest], cbs, [d2m.ThreadAttr.get("datamovement", kernel, READER_CORE)])
