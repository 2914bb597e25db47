"""The data-movement kernels of the Metal path's programs: readers filling an op's input CBs (an L1 shard handed
over, DRAM pages read, tiles gathered for a broadcast or transpose, a reduction's operand streamed), writers draining
its output CB (to DRAM pages), and the matmul operand movers multicasting blocks along the grid's rows and columns."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from xdsl.dialects import arith
from xdsl.dialects.builtin import DenseArrayBase, IndexType, IntegerType, i32
from xdsl.ir import Attribute, SSAValue
from xdsl.ir.affine import AffineBinaryOpKind, AffineConstantExpr, AffineDimExpr, AffineExpr

from ttmlir.dialects import ttkernel
from ttmlir.conversion.d2m_to_ttkernel.kernel_builder import ArgPlan, KernelOps, Placed, ShardLayout
from ttmlir.conversion.d2m_to_ttkernel.views import RowGather, TileGather


# an affine map's binary ops on the non-negative indices a reader computes
AFFINE_OPS = {AffineBinaryOpKind.Add: arith.AddiOp, AffineBinaryOpKind.Mul: arith.MuliOp,
              AffineBinaryOpKind.FloorDiv: arith.DivUIOp, AffineBinaryOpKind.Mod: arith.RemUIOp}



def shard_tile(ops: KernelOps, k: SSAValue, core: tuple[SSAValue, SSAValue],
               shard: tuple[SSAValue, SSAValue]) -> tuple[SSAValue, SSAValue]:
    """The tensor's tile (row, column) in page k of the shard (of `shard` tiles) core `core` holds."""
    (y, x), (sy, sx) = core, shard
    return (ops.emit(arith.AddiOp(ops.emit(arith.MuliOp(y, sy)), ops.emit(arith.DivUIOp(k, sx)))),
            ops.emit(arith.AddiOp(ops.emit(arith.MuliOp(x, sx)), ops.emit(arith.RemUIOp(k, sx)))))


def zeroed_page(ops: KernelOps, near: SSAValue, size: int, zero: SSAValue) -> None:
    """The `size` bytes of L1 at `near` set to `zero` word by word (what a gather leaves unwritten is padding:
    zeros)."""
    words = ops.call("reinterpret_cast", near, result=ttkernel.L1AddrPtrType(32))
    ops.loop(size // 4, lambda inner, w: inner.call("store_to_l1", zero, words, inner.emit(arith.IndexCastOp(w, i32))))


def affine_value(ops: KernelOps, expr: AffineExpr, dims: list[SSAValue]) -> SSAValue:
    """`expr` of the index values `dims`, as the kernel's index arithmetic."""
    if isinstance(expr, AffineDimExpr):
        return dims[expr.position]
    if isinstance(expr, AffineConstantExpr):
        return ops.const(expr.value, IndexType())
    return ops.emit(AFFINE_OPS[expr.kind](affine_value(ops, expr.lhs, dims), affine_value(ops, expr.rhs, dims)))


def in_source(ops: KernelOps, gather: RowGather, coords: list[SSAValue]) -> SSAValue:
    """Whether the source index (i0, ..., r', c') a view names is inside its source, each dim on its own (a padded
    or concatenated view names some outside it, negative ones wrapping around as unsigned, and leaves those elements
    zero)."""
    bounds = (*gather.batch, *gather.source)
    # a constant index inside its dim needs no check (a dim of 1 a view names as 0)
    checks = [ops.emit(arith.CmpiOp(v, ops.const(n, IndexType()), "ult"))
              for v, n, e in zip(coords, bounds, gather.remapping.results)
              if not (isinstance(e, AffineConstantExpr) and 0 <= e.value < n)]
    inside = checks[0] if checks else ops.const(1, IntegerType(1))
    for check in checks[1:]:
        inside = ops.emit(arith.AndIOp(inside, check))
    return inside


def source_matrix(ops: KernelOps, gather: RowGather, coords: list[SSAValue]) -> SSAValue:
    """The matrix m' (the source's leading dims flattened row-major) of a source index (i0, ..., r', c')."""
    index = IndexType()
    matrix = ops.const(0, index)
    for value, size in zip(coords[:-2], gather.batch):
        matrix = ops.emit(arith.AddiOp(ops.emit(arith.MuliOp(matrix, ops.const(size, index))), value))
    return matrix


@dataclass
class DataMovementKernels:
    """Kernel bodies moving tiles over the NoC on a chip of the system descriptor."""

    chip: dict

    def read_inputs(self, ops: KernelOps, cb_types: list[Attribute], inputs: list[Placed], layout: ShardLayout,
                    gathers: list[str | RowGather | TileGather | None]) -> None:
        """Each input's CB filled for the whole shard: an L1 shard is handed over as it is, DRAM pages are read,
        gathered inputs fetch each output tile's source tile (see `launch`)."""
        count = ops.const(layout.tiles)
        ports = [ops.arg(i, t) for i, t in enumerate(cb_types[:len(inputs)])]
        address_arg = len(inputs)  # addresses follow the CB ports among the compile-time args
        for placed, port, gather in zip(inputs, ports, gathers):
            ops.call("cb_reserve_back", port, count)
            if gather:
                self.gather_into(ops, port, ops.address(address_arg), placed.layout, layout, gather)
                address_arg += 1
            elif placed.layout.memory == "dram":
                self.dram_transfer(ops, port, address_arg, placed.layout, read=True)
                address_arg += 1
            ops.call("cb_push_back", port, count)  # an L1 shard is there already

    def gather_into(self, ops: KernelOps, port: SSAValue, base: SSAValue, source: ShardLayout, layout: ShardLayout,
                    gather: str | RowGather | TileGather) -> None:
        """Output tile (i, j) of this core's shard into CB page k from source tile (j, i) ("transpose"), (0, j)
        ("row"), (i, 0) ("col"), (0, 0) ("scalar"), or the tile a view of whole tiles names
        (a `TileGather`), wherever that tile is."""
        if isinstance(gather, RowGather):
            local = ops.call("get_write_ptr", port, result=i32)
            page, sy, sx = ops.const(source.page), *(ops.const(n, IndexType()) for n in layout.shard)
            # an element gather's scratch page after the shard's pages
            scratch = None if gather.faces else ops.emit(arith.AddiOp(local, ops.const(layout.tiles * source.page)))
            fill = self.row_gather(ops, base, source, gather, scratch)
            y, x = ops.coords(layout)

            def gathered(body: KernelOps, k: SSAValue) -> None:
                i, j = shard_tile(body, k, (y, x), (sy, sx))
                fill(body, body.emit(arith.AddiOp(local, body.emit(arith.MuliOp(body.emit(
                    arith.IndexCastOp(k, i32)), page)))), i, j)

            ops.loop(layout.tiles, gathered)
            if gather.faces:
                ops.barrier("read")
            return
        index = IndexType()
        sy, sx = ops.const(layout.shard[0], index), ops.const(layout.shard[1], index)
        page = ops.const(source.page)
        local = ops.call("get_write_ptr", port, result=i32)
        y, x = ops.coords(layout)

        def fetch(body: KernelOps, k: SSAValue) -> None:
            i, j = shard_tile(body, k, (y, x), (sy, sx))
            near = body.emit(arith.AddiOp(local, body.emit(arith.MuliOp(body.emit(arith.IndexCastOp(k, i32)), page))))
            body.read_tile(self.chip, source, *self.source_tile(body, gather, i, j), base, near)

        ops.loop(layout.tiles, fetch)
        ops.barrier("read")

    @staticmethod
    def source_tile(body: KernelOps, gather: str | TileGather, i: SSAValue, j: SSAValue) -> tuple[SSAValue, SSAValue]:
        """The source tile output tile (i, j) reads under `gather` (see `gather_into`)."""
        zero = body.const(0, IndexType())
        if isinstance(gather, TileGather):  # the source's tile its view names
            return tuple(affine_value(body, e, [zero, zero, i, j]) for e in gather.remapping.results[2:])
        return {"transpose": (j, i), "row": (zero, j), "col": (i, zero), "scalar": (zero, zero),
                "same": (i, j)}[gather]

    def stream_inputs(self, ops: KernelOps, cb_types: list[Attribute], inputs: list[Placed], layout: ShardLayout,
                      gathers: list[str | RowGather | TileGather | None], streamed: list[bool],
                      scratch: dict[int, tuple[int, Attribute]] | None = None) -> None:
        """The reader of a launch whose copies stream: an input in L1 on the output's cores is handed over whole;
        the others (`streamed`: a DRAM input or a gathered one) are moved a tile at a time into CBs of a few
        pages, output tile k's source tile (or, for a `RowGather`, its face rows or elements) for every such input
        before the next. An element gather's source tiles go to the scratch CB `scratch` gives for its input (its
        arg index and type), a buffer of its own: the pages of the input's CB are a ring its scratch page would be
        in."""
        index = IndexType()
        whole, one = ops.const(layout.tiles), ops.const(1)
        ports = [ops.arg(i, t) for i, t in enumerate(cb_types[:len(inputs)])]
        bases, address_arg = {}, len(inputs)  # addresses follow the CB ports, for the inputs read over the NoC
        for n, (placed, gather) in enumerate(zip(inputs, gathers)):
            if gather or placed.layout.memory == "dram":
                bases[n] = ops.address(address_arg)
                address_arg += 1
            if not streamed[n]:
                ops.call("cb_reserve_back", ports[n], whole)
                ops.call("cb_push_back", ports[n], whole)
        sy, sx = ops.const(layout.shard[0], index), ops.const(layout.shard[1], index)
        y, x = ops.coords(layout)
        moving = [n for n in range(len(inputs)) if streamed[n]]
        scratch = scratch or {}
        fills = {n: self.row_gather(ops, bases[n], inputs[n].layout, gathers[n],
                                    ops.call("get_write_ptr", ops.arg(*scratch[n]), result=i32) if n in scratch
                                    else None)
                 for n in moving if isinstance(gathers[n], RowGather)}

        def tile(body: KernelOps, k: SSAValue) -> None:
            i, j = shard_tile(body, k, (y, x), (sy, sx))
            for n in moving:
                body.call("cb_reserve_back", ports[n], one)
                near = body.call("get_write_ptr", ports[n], result=i32)
                if n in fills:
                    fills[n](body, near, i, j)
                    continue
                row, col = self.source_tile(body, gathers[n] or "same", i, j)
                body.read_tile(self.chip, inputs[n].layout, row, col, bases[n], near)
            body.barrier("read")
            for n in moving:
                body.call("cb_push_back", ports[n], one)

        ops.loop(layout.tiles, tile)

    def stream_output(self, ops: KernelOps, cb: Attribute, layout: ShardLayout, cb_arg: int, address_arg: int
                      ) -> None:
        """A DRAM output that streams (its CB port and address at args `cb_arg`, `address_arg`): each tile written
        to its DRAM page as it comes."""
        index = IndexType()
        out, one = ops.arg(cb_arg, cb), ops.const(1)
        base = ops.address(address_arg)
        banks, page = ops.const(int(self.chip["num_dram_channels"])), ops.const(layout.page)
        sy, sx, wt = (ops.const(v, index) for v in (*layout.shard, layout.tensor_tiles[1]))
        y, x = ops.coords(layout)

        def tile(body: KernelOps, k: SSAValue) -> None:
            body.call("cb_wait_front", out, one)
            near = body.call("get_read_ptr", out, result=i32)
            r, c = shard_tile(body, k, (y, x), (sy, sx))
            page_id = body.emit(arith.IndexCastOp(body.emit(arith.AddiOp(body.emit(arith.MuliOp(r, wt)), c)), i32))
            if not body.transfer_tile(False, base, page_id, near):
                bank = body.emit(arith.RemUIOp(page_id, banks))
                far = body.emit(arith.AddiOp(base, body.emit(arith.MuliOp(body.emit(arith.DivUIOp(page_id, banks)),
                                                                          page))))
                body.append(ttkernel.NocAsyncWriteOp.create(
                    operands=[near, bank, far, page, body.noc],
                    properties={"operandSegmentSizes": DenseArrayBase.from_list(i32, [1, 0, 1, 1, 1, 1])}))
            body.barrier("write")
            body.call("cb_pop_front", out, one)

        ops.loop(layout.tiles, tile)

    def row_gather(self, ops: KernelOps, base: SSAValue, source: ShardLayout, gather: RowGather,
                   scratch: SSAValue | None) -> Callable[[KernelOps, SSAValue, SSAValue, SSAValue], None]:
        """`fill(body, near, i, j)`, writing output tile (i, j) into the L1 page at `near` as `gather` names its
        elements (by face rows or element by element, see `rows_filler` and `elements_filler`), from the source
        whose pages are at `base`; its constants emitted into `ops`. An element gather reads source tiles into the
        L1 page at `scratch` (a page and a word after it that no CB's pages reach)."""
        if gather.faces:
            return self.rows_filler(ops, base, source, gather)
        return self.elements_filler(ops, base, source, gather, scratch)

    def rows_filler(self, ops: KernelOps, base: SSAValue, source: ShardLayout, gather: RowGather
                    ) -> Callable[[KernelOps, SSAValue, SSAValue, SSAValue], None]:
        """Output tile (i, j) zeroed at its L1 page, then each of its 16-element face rows that is not padding read
        from the DRAM source's face row holding the element `gather.remapping` names for its first (the lowering
        checked the other 15 follow it in that face row); the reads are left for the caller's barrier."""
        index = IndexType()
        (source_rows, _), (rows, width) = gather.source, gather.result
        padded_in, padded_out = (-(-h // 32) * 32 for h in (source_rows, rows))
        size = source.page // 1024 * 16  # bytes of a face row
        page, wt = ops.const(source.page), ops.const(source.tensor_tiles[1], index)
        banks, zero = ops.const(int(self.chip["num_dram_channels"])), ops.const(0)

        def c(body: KernelOps, v: int) -> SSAValue:
            return body.const(v, index)

        def face_row(body: KernelOps, r: SSAValue, half: SSAValue) -> SSAValue:
            """The byte offset in a tile of the face row holding half `half` (16 columns) of its row r."""
            face = body.emit(arith.AddiOp(body.emit(arith.MuliOp(body.emit(arith.DivUIOp(r, c(body, 16))),
                                                                 c(body, 2))), half))
            offset = body.emit(arith.AddiOp(body.emit(arith.MuliOp(face, c(body, 16))),
                                            body.emit(arith.RemUIOp(r, c(body, 16)))))
            return body.emit(arith.IndexCastOp(body.emit(arith.MuliOp(offset, c(body, size))), i32))

        def tile(body: KernelOps, near: SSAValue, i: SSAValue, j: SSAValue) -> None:
            zeroed_page(body, near, source.page, zero)

            def row(inner: KernelOps, r: SSAValue) -> None:
                out_row = inner.emit(arith.AddiOp(inner.emit(arith.MuliOp(i, c(inner, 32))), r))
                matrix = inner.emit(arith.DivUIOp(out_row, c(inner, padded_out)))
                within = inner.emit(arith.RemUIOp(out_row, c(inner, padded_out)))
                for half in (0, 1):
                    column = inner.emit(arith.AddiOp(inner.emit(arith.MuliOp(j, c(inner, 32))), c(inner, 16 * half)))
                    inside = inner.emit(arith.AndIOp(inner.emit(arith.CmpiOp(within, c(inner, rows), "ult")),
                                                     inner.emit(arith.CmpiOp(column, c(inner, width), "ult"))))

                    def copy(then: KernelOps, column=column, half=half) -> None:
                        coords = [affine_value(then, e, [matrix, within, column]) for e in gather.remapping.results]
                        then.if_else(in_source(then, gather, coords),
                                     lambda ok: read(ok, source_matrix(ok, gather, coords), *coords[-2:], half),
                                     lambda _: None)

                    def read(then: KernelOps, m: SSAValue, line: SSAValue, at_column: SSAValue, half: int) -> None:
                        at = then.emit(arith.AddiOp(then.emit(arith.MuliOp(m, c(then, padded_in))), line))
                        tile_in = then.emit(arith.IndexCastOp(then.emit(arith.AddiOp(then.emit(arith.MuliOp(
                            then.emit(arith.DivUIOp(at, c(then, 32))), wt)), then.emit(arith.DivUIOp(
                                at_column, c(then, 32))))), i32))
                        bank = then.emit(arith.RemUIOp(tile_in, banks))
                        far = then.emit(arith.AddiOp(base, then.emit(arith.MuliOp(then.emit(arith.DivUIOp(
                            tile_in, banks)), page))))
                        source_half = then.emit(arith.DivUIOp(then.emit(arith.RemUIOp(at_column, c(then, 32))),
                                                              c(then, 16)))
                        then.append(ttkernel.NocAsyncReadOp.create(
                            operands=[bank, then.emit(arith.AddiOp(far, face_row(
                                then, then.emit(arith.RemUIOp(at, c(then, 32))), source_half))),
                                then.emit(arith.AddiOp(near, face_row(then, r, c(then, half)))), then.const(size),
                                then.noc],
                            properties={"operandSegmentSizes": DenseArrayBase.from_list(i32, [0, 1, 1, 1, 1, 1])}))

                    inner.if_else(inside, copy, lambda _: None)

            body.loop(32, row)

        return tile

    def elements_filler(self, ops: KernelOps, base: SSAValue, source: ShardLayout, gather: RowGather,
                        scratch: SSAValue) -> Callable[[KernelOps, SSAValue, SSAValue, SSAValue], None]:
        """Output tile (i, j) zeroed at its L1 page, then each of its elements that is not padding copied from the
        source element `gather.remapping` names: the DRAM source's tile holding it read whole (a page, aligned as
        the NoC needs) into the page at `scratch`, unless it is the one read last (its page id kept in the word
        after the scratch page), the element copied within L1."""
        index = IndexType()
        (source_rows, _), (rows, width) = gather.source, gather.result
        padded_in, padded_out = (-(-h // 32) * 32 for h in (source_rows, rows))
        bits = source.page // 1024 * 8  # an element's
        page, wt = ops.const(source.page), ops.const(source.tensor_tiles[1], index)
        banks, zero = ops.const(int(self.chip["num_dram_channels"])), ops.const(0)
        cached = ops.call("reinterpret_cast", ops.emit(arith.AddiOp(scratch, page)), result=ttkernel.L1AddrPtrType(32))
        held = ops.call("reinterpret_cast", scratch, result=ttkernel.L1AddrPtrType(bits))
        ops.call("store_to_l1", ops.const(-1), cached, zero)  # no tile read yet

        def c(body: KernelOps, v: int) -> SSAValue:
            return body.const(v, index)

        def position(body: KernelOps, r: SSAValue, col: SSAValue) -> SSAValue:
            """The element index in a tile of its element (r, col): face (r / 16, col / 16), row-major within."""
            sixteen = c(body, 16)
            face = body.emit(arith.AddiOp(body.emit(arith.MuliOp(body.emit(arith.DivUIOp(r, sixteen)), c(body, 2))),
                                          body.emit(arith.DivUIOp(col, sixteen))))
            within = body.emit(arith.AddiOp(body.emit(arith.MuliOp(body.emit(arith.RemUIOp(r, sixteen)), sixteen)),
                                            body.emit(arith.RemUIOp(col, sixteen))))
            return body.emit(arith.IndexCastOp(body.emit(arith.AddiOp(body.emit(arith.MuliOp(face, c(body, 256))),
                                                                      within)), i32))

        def tile(body: KernelOps, near: SSAValue, i: SSAValue, j: SSAValue) -> None:
            zeroed_page(body, near, source.page, zero)
            out = body.call("reinterpret_cast", near, result=ttkernel.L1AddrPtrType(bits))

            def row(inner: KernelOps, r: SSAValue) -> None:
                out_row = inner.emit(arith.AddiOp(inner.emit(arith.MuliOp(i, c(inner, 32))), r))
                matrix = inner.emit(arith.DivUIOp(out_row, c(inner, padded_out)))
                within = inner.emit(arith.RemUIOp(out_row, c(inner, padded_out)))

                def element(each: KernelOps, col: SSAValue) -> None:
                    column = each.emit(arith.AddiOp(each.emit(arith.MuliOp(j, c(each, 32))), col))
                    inside = each.emit(arith.AndIOp(each.emit(arith.CmpiOp(within, c(each, rows), "ult")),
                                                    each.emit(arith.CmpiOp(column, c(each, width), "ult"))))

                    def copy(then: KernelOps) -> None:
                        coords = [affine_value(then, e, [matrix, within, column]) for e in gather.remapping.results]
                        then.if_else(in_source(then, gather, coords),
                                     lambda ok: read(ok, source_matrix(ok, gather, coords), *coords[-2:]),
                                     lambda _: None)

                    def read(then: KernelOps, m: SSAValue, line: SSAValue, at_column: SSAValue) -> None:
                        at = then.emit(arith.AddiOp(then.emit(arith.MuliOp(m, c(then, padded_in))), line))
                        tile_in = then.emit(arith.IndexCastOp(then.emit(arith.AddiOp(then.emit(arith.MuliOp(
                            then.emit(arith.DivUIOp(at, c(then, 32))), wt)), then.emit(arith.DivUIOp(
                                at_column, c(then, 32))))), i32))

                        def fetch(again: KernelOps) -> None:
                            bank = again.emit(arith.RemUIOp(tile_in, banks))
                            far = again.emit(arith.AddiOp(base, again.emit(arith.MuliOp(again.emit(arith.DivUIOp(
                                tile_in, banks)), page))))
                            again.append(ttkernel.NocAsyncReadOp.create(
                                operands=[bank, far, scratch, page, again.noc],
                                properties={"operandSegmentSizes": DenseArrayBase.from_list(i32, [0, 1, 1, 1, 1, 1])}))
                            again.barrier("read")
                            again.call("store_to_l1", tile_in, cached, again.const(0))

                        last = then.call("load_from_l1", cached, then.const(0), result=i32)
                        then.if_else(then.emit(arith.CmpiOp(last, tile_in, "ne")), fetch, lambda _: None)
                        value = then.call("load_from_l1", held, position(
                            then, then.emit(arith.RemUIOp(at, c(then, 32))),
                            then.emit(arith.RemUIOp(at_column, c(then, 32)))), result=IntegerType(bits))
                        then.call("store_to_l1", value, out, position(then, r, col))

                    each.if_else(inside, copy, lambda _: None)

                inner.loop(32, element)

            body.loop(32, row)

        return tile

    def write_strip(self, ops: KernelOps, cb: Attribute, layout: ShardLayout, width: int, column: SSAValue,
                    cb_arg: int, address_arg: int) -> None:
        """Wait for a strip of `width` columns of the output shard from shard column `column` (its CB port is
        compile-time arg `cb_arg`), write it to its DRAM pages (at compile-time arg `address_arg`) and free it."""
        count, out = ops.const(layout.shard[0] * width), ops.arg(cb_arg, cb)
        ops.call("cb_wait_front", out, count)
        self.dram_transfer(ops, out, address_arg, layout, read=False, strip=(width, column))
        ops.call("cb_pop_front", out, count)

    def write_output(self, ops: KernelOps, cb: Attribute, layout: ShardLayout, cb_arg: int, address_arg: int) -> None:
        """Wait for the output shard (its CB port is compile-time arg `cb_arg`) and, for a DRAM result, write it
        to its pages (at compile-time arg `address_arg`)."""
        count, out = ops.const(layout.tiles), ops.arg(cb_arg, cb)
        ops.call("cb_wait_front", out, count)
        if layout.memory == "dram":
            self.dram_transfer(ops, out, address_arg, layout, read=False)

    def dram_transfer(self, ops: KernelOps, cb: SSAValue, address_arg: int, layout: ShardLayout, read: bool,
                      strip: tuple[int, SSAValue] | None = None) -> None:
        """Each tile of this core's shard between its CB page and its DRAM page: tile (r, c) of the tensor is
        page r * Wt + c, in bank page % banks at row page / banks. With `strip` (a width in tiles and the shard
        column it starts at), only that strip of the shard's columns, its rows one after the other in the CB."""
        index = IndexType()
        banks, page = ops.const(int(self.chip["num_dram_channels"])), ops.const(layout.page)
        sy, sx, wt = (ops.const(v, index) for v in (*layout.shard, layout.tensor_tiles[1]))
        width, column = (sx, None) if strip is None else (ops.const(strip[0], index), strip[1])
        base = ops.address(address_arg)
        local = ops.call("get_write_ptr" if read else "get_read_ptr", cb, result=i32)
        y, x = ops.coords(layout)

        def transfer(body: KernelOps, i: SSAValue) -> None:
            r = body.emit(arith.AddiOp(body.emit(arith.MuliOp(y, sy)), body.emit(arith.DivUIOp(i, width))))
            c = body.emit(arith.AddiOp(body.emit(arith.MuliOp(x, sx)), body.emit(arith.RemUIOp(i, width))))
            if column is not None:
                c = body.emit(arith.AddiOp(c, column))
            tile = body.emit(arith.IndexCastOp(body.emit(arith.AddiOp(body.emit(arith.MuliOp(r, wt)), c)), i32))
            near = body.emit(arith.AddiOp(local, body.emit(arith.MuliOp(body.emit(arith.IndexCastOp(i, i32)), page))))
            if body.transfer_tile(read, base, tile, near):
                return
            bank = body.emit(arith.RemUIOp(tile, banks))
            far = body.emit(arith.AddiOp(base, body.emit(arith.MuliOp(body.emit(arith.DivUIOp(tile, banks)), page))))
            if read:
                body.append(ttkernel.NocAsyncReadOp.create(
                    operands=[bank, far, near, page, body.noc],
                    properties={"operandSegmentSizes": DenseArrayBase.from_list(i32, [0, 1, 1, 1, 1, 1])}))
            else:
                body.append(ttkernel.NocAsyncWriteOp.create(
                    operands=[near, bank, far, page, body.noc],
                    properties={"operandSegmentSizes": DenseArrayBase.from_list(i32, [1, 0, 1, 1, 1, 1])}))

        ops.loop(layout.tiles if strip is None else layout.shard[0] * strip[0], transfer)
        ops.barrier("read" if read else "write")

    def reduction_reader(self, ops: KernelOps, at, streams: list[Attribute], single: Attribute,
                         sources: list[ShardLayout], layout: ShardLayout, dim: str, k_tiles: int) -> None:
        """The scaler tile handed to its CB (port len(sources)), then for each output tile the input tiles along the
        reduced dim (all of them, row by row, for a "scalar" one) of each source n streamed into CB n, wherever they
        are."""
        index = IndexType()
        one = ops.const(1)
        ports = [ops.arg(at(("cb_port", n)), t) for n, t in enumerate(streams)]
        scaler = ops.arg(at(("cb_port", len(sources))), single)
        bases = [ops.address(at(("buffer_address", n))) for n in range(len(sources))]
        ops.call("cb_reserve_back", scaler, one)
        ops.call("cb_push_back", scaler, one)
        sy, sx = ops.const(layout.shard[0], index), ops.const(layout.shard[1], index)
        # a "scalar" reduction reads the whole matrix, row by row
        columns = ops.const(sources[0].tensor_tiles[1], index) if dim == "scalar" else None
        y, x = ops.coords(layout)

        def output_tile(body: KernelOps, t: SSAValue) -> None:
            i, j = body.tile_in_tensor((y, x), (sy, sx), t)

            def step(inner: KernelOps, k: SSAValue) -> None:
                if dim == "row":
                    row, col = i, k
                elif dim == "col":
                    row, col = k, j
                else:
                    row, col = inner.emit(arith.DivUIOp(k, columns)), inner.emit(arith.RemUIOp(k, columns))
                for port, source, base in zip(ports, sources, bases):
                    inner.call("cb_reserve_back", port, one)
                    inner.read_tile(self.chip, source, row, col, base, inner.call("get_write_ptr", port, result=i32))
                inner.barrier("read")
                for port in ports:
                    inner.call("cb_push_back", port, one)

            body.loop(k_tiles, step)

        ops.loop(layout.tiles, output_tile)

    def matmul_mover(self, a_side: bool, cb: Attribute, source: ShardLayout, layout: ShardLayout, k_block: int,
                     steps: int, transpose: bool, plan: ArgPlan, n_block: int | None = None,
                     after_strip: Callable[[KernelOps, SSAValue], None] | None = None) -> KernelOps:
        """The kernel moving one matmul operand into its CB on every core (see `launch_matmul`), one block of
        `k_block` K tiles per step: A's block (rows of this core's shard: page i * KB + k) on NoC 0, or B's (this
        core's columns: page k * NB + j; tile (j, k) of a B given transposed) on NoC 1. The shard's columns are
        computed in strips of `n_block` tiles (all of them by default), all K steps of a strip before the next
        (A's blocks sent again for each strip); `after_strip(ops, column)` follows each strip. Over several blocks
        each receiver clears its valid flag once the block is in, before it counts itself ready for the next."""
        ops, index = KernelOps(0 if a_side else 1, plan), IndexType()
        sy, sx = layout.shard
        nb = n_block or sx
        strips = sx // nb
        tiles = sy * k_block if a_side else k_block * nb
        port, base, count = ops.arg(0 if a_side else 1, cb), ops.address(3), ops.const(tiles)
        y, x = ops.coords(layout)
        ready_address, ready = ops.semaphore(0 if a_side else 2)
        valid_address, valid = ops.semaphore(1 if a_side else 3)
        offset_y, offset_x = (ops.const(o + g, index) for o, g in zip(self.chip["coord_translation_offsets"],
                                                                      layout.origin))
        peers = layout.grid[1 if a_side else 0] - 1
        page = ops.const(source.page)
        shard_y, shard_x, kt = ops.const(sy, index), ops.const(sx, index), ops.const(k_block, index)
        strip_x = ops.const(nb, index)
        noc_y, noc_x = ops.emit(arith.AddiOp(y, offset_y)), ops.emit(arith.AddiOp(x, offset_x))
        sender = ops.emit(arith.CmpiOp(x if a_side else y, ops.const(0, index), "eq"))
        # the rest of this core's row (A) or column (B), in NoC coordinates
        first = ops.emit(arith.AddiOp(offset_x if a_side else offset_y, ops.const(1, index)))
        last = ops.emit(arith.AddiOp(offset_x if a_side else offset_y, ops.const(peers, index)))
        start, end = ((first, noc_y), (last, noc_y)) if a_side else ((noc_x, first), (noc_x, last))

        def block(step_ops: KernelOps, k0: SSAValue | None, n0: SSAValue | None) -> None:
            """One block of K tiles from K tile `k0` (None: all of K, in one step) for the strip of columns from
            shard column `n0` (None: all of them)."""
            step_ops.call("cb_reserve_back", port, count)
            local = step_ops.call("get_write_ptr", port, result=i32)

            def fetch(body: KernelOps, t: SSAValue) -> None:
                if a_side:
                    i, k = body.emit(arith.DivUIOp(t, kt)), body.emit(arith.RemUIOp(t, kt))
                    row = body.emit(arith.AddiOp(body.emit(arith.MuliOp(y, shard_y)), i))
                else:
                    k, j = body.emit(arith.DivUIOp(t, strip_x)), body.emit(arith.RemUIOp(t, strip_x))
                    column = body.emit(arith.AddiOp(body.emit(arith.MuliOp(x, shard_x)), j))
                    if n0 is not None:
                        column = body.emit(arith.AddiOp(column, n0))
                if k0 is not None:
                    k = body.emit(arith.AddiOp(k0, k))
                row, col = (row, k) if a_side else (column, k) if transpose else (k, column)
                near = body.emit(arith.AddiOp(local, body.emit(arith.MuliOp(body.emit(arith.IndexCastOp(t, i32)),
                                                                            page))))
                body.read_tile(self.chip, source, row, col, base, near)

            def send(body: KernelOps) -> None:
                body.loop(tiles, fetch)
                body.barrier("read")
                if not peers:
                    return
                receivers = body.const(peers)
                body.call("noc_semaphore_wait", ready, receivers)
                body.call("noc_semaphore_set", ready, body.const(0))
                body.append(ttkernel.NocAsyncWriteMulticastOp.create(
                    operands=[local, body.const(tiles * source.page), receivers, *start, *end, local, body.noc],
                    properties={"operandSegmentSizes": DenseArrayBase.from_list(i32, [1, 1, 1, 2, 2, 1, 1])}))
                body.call("noc_semaphore_set", valid, body.const(1))
                everyone = body.call("get_noc_multicast_addr", *start, *end, valid_address, body.noc,
                                     result=ttkernel.NocAddrType())
                body.call("noc_semaphore_set_multicast", valid_address, everyone, receivers)
                body.barrier("write")

            def receive(body: KernelOps) -> None:
                sender_xy = (offset_x, noc_y) if a_side else (noc_x, offset_y)
                at_sender = body.call("get_noc_addr", *sender_xy, ready_address, body.noc,
                                      result=ttkernel.NocAddrType())
                body.call("noc_semaphore_inc", at_sender, body.const(1), body.noc)
                body.call("noc_semaphore_wait", valid, body.const(1))
                if steps * strips > 1:
                    body.call("noc_semaphore_set", valid, body.const(0))

            step_ops.if_else(sender, send, receive)
            step_ops.call("cb_push_back", port, count)

        def strip(strip_ops: KernelOps, n0: SSAValue | None) -> None:
            if steps == 1:
                block(strip_ops, None, n0)
            else:
                strip_ops.loop(steps, lambda body, s: block(body, body.emit(arith.MuliOp(s, body.const(k_block, index))),
                                                            n0))
            if after_strip is not None:
                after_strip(strip_ops, n0)

        if strips == 1:
            strip(ops, None)
        else:
            ops.loop(strips, lambda body, n: strip(body, body.emit(arith.MuliOp(n, strip_x))))
        return ops
