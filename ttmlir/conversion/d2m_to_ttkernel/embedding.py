"""The program of a `d2m.embedding` generic: one data-movement kernel per core of the output's grid gathering the
table rows of its shard, as upstream's `d2m.indexed_row_copy` does (read the indices in the data-movement kernel,
NoC-read the table's rows), on tiled tensors.

For each tile row of its shard the kernel reads the indices' tile holding that row's 32 indices into an L1 scratch
page (from wherever the indices are), then for each output row that is not padding loads its index from the
scratch page (`load_from_l1`) and NoC-reads the table row's 16-element face rows from its DRAM tile pages into the
output tiles' face rows; a DRAM output's shard is then written to its pages."""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.dialects.builtin import DenseArrayBase, IndexType, i32
from xdsl.ir import Operation, SSAValue

from ttmlir.conversion.d2m_to_ttkernel.kernel_builder import TILE, KernelOps, ShardLayout
from ttmlir.conversion.d2m_to_ttkernel.programs import READER_CORE, Launch, ProgramKernels
from ttmlir.dialects import d2m, ttkernel
from ttmlir.errors import PassFailure

FACE = 16  # a tile's face is 16x16 elements, a tile row two face rows


def face_offset(ops: KernelOps, row: SSAValue, column: SSAValue, unit: int) -> SSAValue:
    """The offset (in units of `unit` bytes per element) in a tile of element (row, column), as i32: faces in
    row-major order, each row-major."""
    index = IndexType()
    sixteen = ops.const(FACE, index)
    face = ops.emit(arith.AddiOp(ops.emit(arith.MuliOp(ops.emit(arith.DivUIOp(row, sixteen)), ops.const(2, index))),
                                 ops.emit(arith.DivUIOp(column, sixteen))))
    within = ops.emit(arith.AddiOp(ops.emit(arith.MuliOp(ops.emit(arith.RemUIOp(row, sixteen)), sixteen)),
                                   ops.emit(arith.RemUIOp(column, sixteen))))
    offset = ops.emit(arith.AddiOp(ops.emit(arith.MuliOp(face, ops.const(FACE * FACE, index))), within))
    return ops.emit(arith.IndexCastOp(ops.emit(arith.MuliOp(offset, ops.const(unit, index))), i32))


def embedding_body(chip: dict, indices: ShardLayout, table: ShardLayout, layout: ShardLayout, shape: tuple[int, ...],
                   column_vector: bool, ops: KernelOps, writer) -> None:
    """The kernel's ops into `ops` (args: CB ports of the index scratch page and the output, then the addresses of
    the indices, the table and, for a DRAM output, the output). Output device row R is row R mod P of matrix
    R div P (P: the indices' last dim n padded to whole tiles), whose index is element (m, R mod P) of the indices
    seen as matrices of shape[-2] rows (m: the matrix's position in the indices' leading dims); indices given as a
    `column_vector` (shape `shape` + (1,), a gather's index vectors of one element) have it at (m * P + R mod P, 0).
    """
    index = IndexType()
    last, padded_last = shape[-1], -(-shape[-1] // TILE) * TILE
    rows = shape[-2] if len(shape) > 1 else 1
    padded_rows = -(-rows // TILE) * TILE
    unit = table.page // (TILE * TILE)  # bytes of an element
    scratch_port = ops.arg(0, ttkernel.CBType(ttkernel.IntAttr(1), indices.tile))
    out_port = ops.arg(1, ttkernel.CBType(ttkernel.IntAttr(layout.tiles), layout.tile))
    indices_base, table_base = ops.address(2), ops.address(3)
    count = ops.const(layout.tiles)
    ops.call("cb_reserve_back", scratch_port, ops.const(1))
    ops.call("cb_reserve_back", out_port, count)
    scratch = ops.call("get_write_ptr", scratch_port, result=i32)
    local = ops.call("get_write_ptr", out_port, result=i32)
    words = ops.call("reinterpret_cast", scratch, result=ttkernel.L1AddrPtrType(32))
    page, banks = ops.const(table.page), ops.const(int(chip["num_dram_channels"]))
    size, thirty_two = ops.const(FACE * unit), ops.const(TILE, index)
    sy, sx = layout.shard
    y, x = ops.coords(layout)

    def c(body: KernelOps, v: int) -> SSAValue:
        return body.const(v, index)

    def tile_row(body: KernelOps, t: SSAValue) -> None:
        first = body.emit(arith.MuliOp(body.emit(arith.AddiOp(body.emit(arith.MuliOp(y, c(body, sy))), t)),
                                       thirty_two))
        matrix = body.emit(arith.DivUIOp(first, c(body, padded_last)))
        start = body.emit(arith.RemUIOp(first, c(body, padded_last)))
        if column_vector:  # index j of matrix m at row m * P + j, column 0
            at = body.emit(arith.AddiOp(body.emit(arith.MuliOp(matrix, c(body, padded_last))), start))
            tile_col = c(body, 0)
        else:  # index j of matrix m at row m of the indices' matrices, column j
            at = body.emit(arith.AddiOp(body.emit(arith.MuliOp(body.emit(arith.DivUIOp(matrix, c(body, rows))),
                                                               c(body, padded_rows))),
                                        body.emit(arith.RemUIOp(matrix, c(body, rows)))))
            tile_col = body.emit(arith.DivUIOp(start, thirty_two))
        body.read_tile(chip, indices, body.emit(arith.DivUIOp(at, thirty_two)), tile_col, indices_base, scratch)
        body.barrier("read")
        within = body.emit(arith.RemUIOp(at, thirty_two))

        def row(inner: KernelOps, r: SSAValue) -> None:
            column = inner.emit(arith.AddiOp(start, r))

            def gather(then: KernelOps) -> None:
                word = face_offset(then, r, c(then, 0), 1) if column_vector else \
                    face_offset(then, within, then.emit(arith.RemUIOp(column, thirty_two)), 1)
                looked_up = then.emit(arith.IndexCastOp(then.call("load_from_l1", words, word, result=i32), index))
                source_row = then.emit(arith.RemUIOp(looked_up, thirty_two))
                source_tile_row = then.emit(arith.MuliOp(then.emit(arith.DivUIOp(looked_up, thirty_two)),
                                                         c(then, table.tensor_tiles[1])))

                def tile(each: KernelOps, k: SSAValue) -> None:
                    source_page = each.emit(arith.IndexCastOp(each.emit(arith.AddiOp(
                        source_tile_row, each.emit(arith.AddiOp(each.emit(arith.MuliOp(x, c(each, sx))), k)))), i32))
                    far = each.emit(arith.AddiOp(table_base, each.emit(arith.MuliOp(
                        each.emit(arith.DivUIOp(source_page, banks)), page))))
                    bank = each.emit(arith.RemUIOp(source_page, banks))
                    near = each.emit(arith.AddiOp(local, each.emit(arith.MuliOp(each.emit(arith.IndexCastOp(
                        each.emit(arith.AddiOp(each.emit(arith.MuliOp(t, c(each, sx))), k)), i32)), page))))
                    for half in (0, FACE):
                        each.append(ttkernel.NocAsyncReadOp.create(
                            operands=[bank, each.emit(arith.AddiOp(far, face_offset(each, source_row, c(each, half),
                                                                                    unit))),
                                      each.emit(arith.AddiOp(near, face_offset(each, r, c(each, half), unit))), size,
                                      each.noc],
                            properties={"operandSegmentSizes": DenseArrayBase.from_list(i32, [0, 1, 1, 1, 1, 1])}))

                then.loop(sx, tile)

            inner.if_else(inner.emit(arith.CmpiOp(column, c(inner, last), "ult")), gather, lambda _: None)

        body.loop(TILE, row)
        body.barrier("read")

    ops.loop(sy, tile_row)
    ops.call("cb_push_back", out_port, count)
    if layout.memory == "dram":
        writer(ops, out_port, 4, layout, read=False)


def launch_embedding(builder: ProgramKernels, embed: Operation, out: SSAValue, op: Operation) -> Launch:
    """The program of generic `op` whose region is the `d2m.embedding` `embed` writing `out`: the kernel above on
    data-movement core 1 (NoC 0), its CBs an L1 scratch page for the indices and the output's shard."""
    indices, table, layout = (builder.layout_of(v) for v in (embed.indices, embed.weight, out))
    if table.memory != "dram":
        raise PassFailure(op, "a 'd2m.embedding' table is read by face rows from its DRAM pages; move it to DRAM")
    if layout.nd is not None or indices.nd is not None:
        raise PassFailure(op, "a 'd2m.embedding' on tensors kept above two dims is not lowered to TTMetal yet")
    shape = tuple(embed.indicesShape.get_values())
    column_vector = tuple(embed.indices.type.encoding.data.logical_shape) == (*shape, 1)
    cbs = [builder.l1_buffer(layout, (1, 1), indices.dtype, op), builder.cb_of(out, op)]
    layouts = [indices, table, layout]
    plan, spec = builder.dm_args([0, 1], [0, 1, 2] if layout.memory == "dram" else [0, 1], layouts)
    ops = KernelOps(0, plan)
    embedding_body(builder.chip, indices, table, layout, shape, column_vector, ops, builder.dm.dram_transfer)
    kernel = builder.kernel("datamovement", "noc", ops, spec)
    return Launch([embed.indices, embed.weight, out], cbs, [d2m.ThreadAttr.get("datamovement", kernel, READER_CORE)])
