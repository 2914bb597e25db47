"""The compute kernels of the Metal path's programs: tile by tile through the dst register (SFPU ops, FPU binary
ops, fused elementwise trees, typecasts by the packer or, to or from si32, by the SFPU, transposes), reductions by
reduce_tile against a scaler tile, tile or block matmuls accumulating over K, and tilize/untilize of row-major
data."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import IndexType, IntegerAttr, i32
from xdsl.ir import Attribute, Block, Operation, SSAValue

from ttmlir.dialects import ttcore, ttkernel
from ttmlir.dialects.d2m_tile_reduce import INTEGER_DTYPES
from ttmlir.conversion.d2m_to_ttkernel.kernel_builder import (BROADCASTS, FORMAT_TOLD, FPU_BINARY, INT_BINARY,
                                                              INT_VARIANTS, MATMUL_ACCUMULATOR, SFPU_BINARY,
                                                              SFPU_REDUCE, SFPU_TERNARY, SFPU_UNARY, SHARED_INITS,
                                                              TILE, KernelOps, SfpuCall, ShardLayout, dst_schedule)


@dataclass
class ComputeKernels:
    """Kernel bodies for the compute thread; `use_tile_matmul` picks matmul_tiles over matmul_block; the dst register
    holds `dst_physical_tiles` tiles, half of them for the math thread (the packer drains the other half), an f32
    tile taking two slots."""

    use_tile_matmul: bool = False
    dst_physical_tiles: int = 16

    def reduction_compute(self, streams: list[Attribute], single: Attribute, shard: Attribute, layout: ShardLayout,
                          kind: str, dim: str, k_tiles: int, computed: tuple | None = None) -> list[Operation]:
        """Each output tile: the streamed input tiles reduced into dst 0 (reduce_tile, times the scaler tile), then
        packed. Integer tiles reduce on the SFPU instead (no scaler): dst 0 seeded with the pool's identity, each
        input tile copied to dst 1, reduced there along the dim (sfpu_reduce) and folded into dst 0 (add_int_tile,
        binary_max_int32_tile), as the staged path's sfpu_reduce does. With `computed` (the prologue tree of the
        ops fused into the reduction over the streamed tiles, leaf n the tile of stream n, and the type of the CB at
        compile-time arg 3; streams after the first at args 4 on), each output tile's input tiles first go through
        those ops in dst, packed into that CB, and are reduced from it."""
        ops, index = KernelOps(), IndexType()
        one = ops.const(1)
        a, scaler, out = ops.ct_arg(0, streams[0]), ops.ct_arg(1, single), ops.ct_arg(2, shard)
        dst = ops.const(0, index)
        data_type = streams[0].element.data_type
        integer = data_type.data.value in INTEGER_DTYPES
        attrs = {"reduce_type": ttkernel.ReduceTypeAttr(ttkernel.ReduceTypeAttr.enum_type(
                     "reduce_max" if kind == "max" else "reduce_sum")),
                 "reduce_dim": ttkernel.ReduceDimAttr(ttkernel.ReduceDimAttr.enum_type(f"reduce_dim_{dim}"))}
        reduced, before = a, None  # the CB the reduction reads, what fills it before each output tile
        if computed is not None:
            reduced = ops.ct_arg(3, computed[1])
            before = self.prologue(computed[0], [a, *(ops.ct_arg(4 + n, t) for n, t in enumerate(streams[1:]))],
                                   reduced, layout.dtype, k_tiles)
        if integer or computed is not None:
            ops.call("init_sfpu", a, out if computed is None else reduced)
        else:
            ops.call("reduce_init", a, scaler, out, **attrs)
        ops.call("cb_wait_front", scaler, one)  # handed over by the reader (unused by integer reductions)
        if integer:
            pool, identity, fold = SFPU_REDUCE[f"tile_sfpu_reduce_{kind}"]
            scratch, pool = ops.const(1, index), ttkernel.ReduceTypeAttr(ttkernel.ReduceTypeAttr.enum_type(pool))
            reduce_dims = [ttkernel.ReduceDimAttr(ttkernel.ReduceDimAttr.enum_type(f"reduce_dim_{d}"))
                           for d in (("col", "row") if dim == "scalar" else (dim,))]  # both: columns, then rows
            told = {"dtype": data_type} if fold in FORMAT_TOLD else {}

            def fold_tile(inner: KernelOps) -> None:
                inner.call("copy_tile_init", reduced)
                inner.call("copy_tile", reduced, inner.const(0, index), scratch)
                inner.call("sfpu_reduce_init", reduce_type=pool, data_format=data_type)
                for reduce_dim in reduce_dims:
                    inner.call("sfpu_reduce", scratch, reduce_type=pool, data_format=data_type, reduce_dim=reduce_dim)
                inner.call(f"{fold}_init")
                inner.call(fold, scratch, dst, dst, **told)

            seed = lambda body: (body.call("fill_tile_init"), body.call("fill_tile_int", dst, body.const(identity)))
            self.accumulate(ops, [reduced], out, layout, k_tiles, fold_tile, seed, before)
            return ops
        reduce_tile = lambda inner: inner.call("reduce_tile", reduced, scaler, dst, dst, dst, **attrs)  # noqa: E731
        if computed is None:
            self.accumulate(ops, [reduced], out, layout, k_tiles, reduce_tile)
            return ops
        # the SFPU runs the prologue between output tiles: the reduction set up again after it, and undone
        self.accumulate(ops, [reduced], out, layout, k_tiles, reduce_tile, None,
                        lambda body: (before(body), body.call("reduce_init", reduced, scaler, out, **attrs)),
                        lambda body: body.call("reduce_uninit"))
        return ops

    def prologue(self, tree, ins: list[SSAValue], mid: SSAValue, dtype: str, k_tiles: int):
        """What fills the CB `mid` before each output tile's reduction: each step's tiles of the CBs `ins` through
        the ops of `tree` in dst, packed into `mid` (which holds the `k_tiles` of one output tile)."""

        def step(inner: KernelOps, _k: SSAValue) -> None:
            one, first = inner.const(1), inner.const(0, IndexType())
            for cb in ins:
                inner.call("cb_wait_front", cb, one)
            inner.call("tile_regs_acquire")
            calls, slot = self.sfpu_tree(tree, ins, mid, [None] * len(ins), [first] * len(ins), dtype)
            inner.extend(calls)
            inner.call("tile_regs_commit")
            inner.call("tile_regs_wait")
            inner.call("cb_reserve_back", mid, one)
            inner.call("pack_tile", slot, mid, first, out_of_order=IntegerAttr(0, 1))
            inner.call("cb_push_back", mid, one)
            inner.call("tile_regs_release")
            for cb in ins:
                inner.call("cb_pop_front", cb, one)

        return lambda body: body.loop(k_tiles, step)

    def matmul_compute(self, cb_a: Attribute, cb_b: Attribute, cb_out: Attribute, layout: ShardLayout, k_block: int,
                       steps: int, transpose_b: bool, n_block: int | None = None,
                       strip_out: bool = False) -> list[Operation]:
        """Each output tile (i, j) of the shard: sum over k of A page i * KB + k times B page k * NB + j, over the
        `steps` blocks of `k_block` K tiles the movers push, strip by strip of `n_block` of the shard's columns
        (all of them by default). With tile matmuls, one tile at a time in dst 0 (matmul_tiles over k); with
        block matmuls, a run of the row's tiles at once (experimental::matmul_block over the block's K; B tiles
        transposed in the tile when B came transposed). Over several steps each run's partial sums go to the CB at
        compile-time arg 3 after every step but the last, and come back into dst (copy_tile) before the next step
        adds to them. The output CB holds the shard, or (`strip_out`) one strip at a time, pushed as it is done."""
        ops, index = KernelOps(), IndexType()
        sy, sx = layout.shard
        nb = n_block or sx
        strips = sx // nb
        a, b, out = ops.ct_arg(0, cb_a), ops.ct_arg(1, cb_b), ops.ct_arg(2, cb_out)
        partials = ops.ct_arg(3, ttkernel.CBType(cb_out.pages, ttcore.TileType((TILE, TILE), MATMUL_ACCUMULATOR))) \
            if steps > 1 else None
        transpose = ops.const(int(transpose_b))
        held = self.dst_physical_tiles // 4  # the dst register in 32-bit mode (MATMUL_ACCUMULATOR)
        run = max(w for w in range(1, min(nb, held) + 1) if nb % w == 0)  # output tiles of a row dst holds at once
        if self.use_tile_matmul:
            ops.call("mm_init", a, b, out, transpose)
        else:
            ops.call("mm_block_init", a, b, out, transpose, ops.const(run), ops.const(1), ops.const(k_block))
        count, dst = ops.const(sy * nb if strip_out else layout.tiles), ops.const(0, index)
        kt, shard_x, strip_x = ops.const(k_block, index), ops.const(sx, index), ops.const(nb, index)
        blocks = ((a, sy * k_block), (b, k_block * nb))
        if not strip_out:
            ops.call("cb_reserve_back", out, count)

        def position(body: KernelOps, t: SSAValue) -> tuple[SSAValue, SSAValue]:
            return body.emit(arith.DivUIOp(t, strip_x)), body.emit(arith.RemUIOp(t, strip_x))

        def multiply(body: KernelOps, t: SSAValue, width: int) -> None:
            """dst[0..width) += the block's products for output tiles t..t+width (of one row)."""
            i, j = position(body, t)
            row = body.emit(arith.MuliOp(i, kt))
            if self.use_tile_matmul:
                body.loop(k_block, lambda inner, k: inner.call(
                    "matmul_tiles", a, b, inner.emit(arith.AddiOp(row, k)),
                    inner.emit(arith.AddiOp(inner.emit(arith.MuliOp(k, strip_x)), j)), dst))
            else:
                body.call("experimental.matmul_block", a, b, row, j, dst, transpose, body.const(width),
                          body.const(1), body.const(k_block), body.const(nb))

        def pack(body: KernelOps, into: SSAValue, t: SSAValue | None, width: int) -> None:
            """dst[0..width) packed at tile t on of `into` (None: at its reserved front, as the run's partials)."""
            if t is None:
                body.call("cb_reserve_back", into, body.const(width))
            for c in range(width):
                at = body.const(c, index) if t is None else body.emit(arith.AddiOp(t, body.const(c, index)))
                body.call("pack_tile", body.const(c, index), into, at, out_of_order=IntegerAttr(0, 1))
            if t is None:
                body.call("cb_push_back", into, body.const(width))

        def output_run(body: KernelOps, g: SSAValue, step: SSAValue | None, n0: SSAValue | None) -> None:
            t = body.emit(arith.MuliOp(g, body.const(run, index)))
            at = t  # where the run is packed: in the strip, or in the shard (row i, column n0 + j)
            if n0 is not None and not strip_out:
                i, j = position(body, t)
                at = body.emit(arith.AddiOp(body.emit(arith.MuliOp(i, shard_x)), body.emit(arith.AddiOp(n0, j))))
            body.call("tile_regs_acquire")
            if step is not None:  # the run's partial sums of the steps before, back into dst
                def reload(then: KernelOps) -> None:
                    width = then.const(run)
                    then.call("cb_wait_front", partials, width)
                    then.call("copy_tile_init", partials)
                    for c in range(run):
                        then.call("copy_tile", partials, then.const(c, index), then.const(c, index))
                    then.call("cb_pop_front", partials, width)
                    if self.use_tile_matmul:
                        then.call("mm_init_short", a, b, transpose)
                    else:
                        then.call("mm_block_init_short", a, b, transpose, then.const(run), then.const(1),
                                  then.const(k_block))

                body.if_else(body.emit(arith.CmpiOp(step, body.const(0, index), "ne")), reload, lambda _: None)
            multiply(body, t, run)
            body.call("tile_regs_commit")
            body.call("tile_regs_wait")
            if step is None:
                pack(body, out, at, run)
            else:
                final = body.emit(arith.CmpiOp(step, body.const(steps - 1, index), "eq"))
                body.if_else(final, lambda then: pack(then, out, at, run),
                             lambda other: pack(other, partials, None, run))
            body.call("tile_regs_release")

        def k_step(body: KernelOps, step: SSAValue | None, n0: SSAValue | None) -> None:
            for port, tiles in blocks:
                body.call("cb_wait_front", port, body.const(tiles))
            body.loop(sy * nb // run, lambda inner, g: output_run(inner, g, step, n0))
            for port, tiles in blocks:
                body.call("cb_pop_front", port, body.const(tiles))

        def strip(body: KernelOps, n0: SSAValue | None) -> None:
            if strip_out:
                body.call("cb_reserve_back", out, count)
            if steps == 1:
                k_step(body, None, n0)
            else:
                body.loop(steps, lambda inner, step: k_step(inner, step, n0))
            if strip_out:
                body.call("cb_push_back", out, count)

        if strips == 1:
            strip(ops, None)
        else:
            ops.loop(strips, lambda body, n: strip(body, body.emit(arith.MuliOp(n, strip_x))))
        if not strip_out:
            ops.call("cb_push_back", out, count)
        return ops

    @staticmethod
    def accumulate(ops: KernelOps, streams: list[SSAValue], out: SSAValue, layout: ShardLayout, k_tiles: int,
                   consume, seed=None, before=None, after=None) -> None:
        """For each output tile of the shard: dst 0 (set up by `seed(ops)`, if given) accumulates `consume(ops)`
        over k, each step taking one page of every CB in `streams`, then is packed into the tile's place in the
        output CB; `before(ops)` and `after(ops)`, if given, go before the tile's dst is acquired and after it is
        released."""
        index = IndexType()
        one, count, dst = ops.const(1), ops.const(layout.tiles), ops.const(0, index)
        ops.call("cb_reserve_back", out, count)

        def output_tile(body: KernelOps, t: SSAValue) -> None:
            if before is not None:
                before(body)
            body.call("tile_regs_acquire")
            if seed is not None:
                seed(body)

            def step(inner: KernelOps, k: SSAValue) -> None:
                for stream in streams:
                    inner.call("cb_wait_front", stream, one)
                consume(inner)
                for stream in streams:
                    inner.call("cb_pop_front", stream, one)

            body.loop(k_tiles, step)
            body.call("tile_regs_commit")
            body.call("tile_regs_wait")
            body.call("pack_tile", dst, out, t, out_of_order=IntegerAttr(0, 1))
            body.call("tile_regs_release")
            if after is not None:
                after(body)

        ops.loop(layout.tiles, output_tile)
        ops.call("cb_push_back", out, count)

    @staticmethod
    def _call_result(name: str, result: Attribute, *operands: SSAValue) -> Operation:
        return ttkernel.OP_CLASSES[name].create(operands=list(operands), result_types=[result])

    def sfpu_tree(self, tree, ins: list[SSAValue], out: SSAValue, broadcasts: list[str | None],
                  tiles: list[SSAValue], dtype: str) -> tuple[list[Operation], SSAValue]:
        """`tree` computed in dst as `dst_schedule` orders it, leaf n at page `tiles[n]` of its CB: a leaf copied
        into its slot from its CB (or broadcast: its first row, column or value spread over the tile), an op applied
        to its operands' slots. Also the index of the slot holding the result."""
        ops: list[Operation] = []
        slot = None
        for step in dst_schedule(tree):
            slot = arith.ConstantOp(IntegerAttr(step.result, IndexType()))
            ops.append(slot)
            if step.node is None:
                cb, broadcast, tile = ins[step.leaf], broadcasts[step.leaf], tiles[step.leaf]
                if broadcast:
                    kind_attr = {"bcast_type": ttkernel.BcastTypeAttr(ttkernel.BcastTypeAttr.enum_type(broadcast))}
                    ops += [self._call("unary_bcast_init", cb, out, **kind_attr),
                            self._call("unary_bcast", cb, tile, slot.result, **kind_attr)]
                else:
                    ops += [self._call("copy_tile_init", cb), self._call("copy_tile", cb, tile, slot.result)]
                continue
            kind = step.node[0]
            operands = [slot, *(arith.ConstantOp(IntegerAttr(k, IndexType())) for k in step.operands[1:])]
            ops += operands[1:]
            if isinstance(kind, SfpuCall):
                params = [arith.ConstantOp(IntegerAttr(p, i32)) for p in kind.params]
                ops += [*params, self._call(kind.init), self._call(kind.call, slot.result, *(p.result for p in params))]
            elif kind in SFPU_TERNARY:
                ops += [self._call(f"{SFPU_TERNARY[kind]}_init"), self._call(
                    SFPU_TERNARY[kind], *(o.result for o in operands), slot.result,
                    dtype=ttcore.DataTypeAttr(ttcore.DataTypeAttr.enum_type(dtype)))]
            elif kind in SFPU_BINARY:
                init, call = INT_BINARY[kind] if dtype == "si32" and kind in INT_BINARY else \
                    (SHARED_INITS.get(kind, f"{SFPU_BINARY[kind]}_init"), SFPU_BINARY[kind])
                told = {"dtype": ttcore.DataTypeAttr(ttcore.DataTypeAttr.enum_type(dtype))}
                ops += [self._call(init, **(told if init in FORMAT_TOLD else {})),
                        self._call(call, slot.result, operands[1].result, slot.result,
                                   **(told if call in ttkernel.DTYPE_BINARY or call in FORMAT_TOLD else {}))]
            else:
                name = SFPU_UNARY[kind]
                entry = INT_VARIANTS.get(kind, f"{name}_tile") if dtype == "si32" else f"{name}_tile"
                ops += [self._call(SHARED_INITS.get(kind, f"{name}_tile_init")), self._call(entry, slot.result)]
        return ops, slot.result

    def tilize_body(self, kind: str, cb_types: list[Attribute], layout: ShardLayout) -> list[Operation]:
        """Row-major shards into tiles ("tilize") or back ("untilize"): each 32-row block of the shard (as many
        tile-sized pages as the shard is tiles wide) converted at once."""
        ops = KernelOps()
        cb_in, cb_out = (ops.ct_arg(i, t) for i, t in enumerate(cb_types))
        width = ops.const(layout.shard[1])
        ops.call("tilize_init", cb_in, width, cb_out) if kind == "tilize" else ops.call("untilize_init", cb_in)

        def block(body: KernelOps, _row: SSAValue) -> None:
            body.call("cb_wait_front", cb_in, width)
            body.call("cb_reserve_back", cb_out, width)
            body.call(f"{kind}_block", cb_in, width, cb_out)
            body.call("cb_push_back", cb_out, width)
            body.call("cb_pop_front", cb_in, width)

        ops.loop(layout.shard[0], block)
        return ops

    def compute_body(self, kind: str | tuple, cb_types: list[Attribute], layout: ShardLayout,
                     gathers: list[str | None], streamed: list[bool] | None = None) -> list[Operation]:
        """The shard tile by tile through dst. A CB that `streamed` marks (per input, then the output) holds a few
        pages the data-movement kernels fill or drain a tile at a time: each step waits for (reserves) one page of
        it and works at its front; the others hold the whole shard, waited for (reserved) once."""
        streamed = streamed or [False] * len(cb_types)
        count = arith.ConstantOp(IntegerAttr(layout.tiles, i32))
        zero, one = arith.ConstantOp(IntegerAttr(0, IndexType())), arith.ConstantOp(IntegerAttr(1, IndexType()))
        upper = arith.ConstantOp(IntegerAttr(layout.tiles, IndexType()))
        page = arith.ConstantOp(IntegerAttr(1, i32))
        cbs = [ttkernel.OP_CLASSES["get_compile_time_arg_val"].create(
            properties={"arg_index": IntegerAttr(i, i32)}, result_types=[t]) for i, t in enumerate(cb_types)]
        ins, out = [c.results[0] for c in cbs[:-1]], cbs[-1].results[0]
        broadcasts = [g if g in BROADCASTS else None for g in gathers]
        fpu = layout.dtype == "bf16" and isinstance(kind, str) and kind in FPU_BINARY and not any(broadcasts)
        ops: list[Operation] = [count, zero, one, upper, *([page] if any(streamed) else []), *cbs]
        if kind == "transpose":
            ops.append(self._call("transpose_wh_init", ins[0], out))
        else:
            ops.append(self._call("binary_op_init_common", ins[0], ins[1], out) if fpu else
                       self._call("init_sfpu", ins[0], out))
        ops += [self._call("cb_wait_front", c, count.result) for c, s in zip(ins, streamed) if not s]
        if not streamed[-1]:
            ops.append(self._call("cb_reserve_back", out, count.result))
        body = Block(arg_types=[IndexType()])
        i = body.args[0]
        at = [zero.result if s else i for s in streamed[:-1]]  # each input's page of this step's tile
        step: list[Operation] = [self._call("cb_wait_front", c, page.result) for c, s in zip(ins, streamed) if s]
        step.append(self._call("tile_regs_acquire"))
        result = zero.result  # the dst slot packed
        if kind == "typecast":
            step += [self._call("copy_tile_init", ins[0]), self._call("copy_tile", ins[0], at[0], zero.result)]
            formats = {name: ttcore.DataTypeAttr(ttcore.DataTypeAttr.enum_type(t)) for name, t in
                       (("in_dtype", cb_types[0].element.dtype), ("out_dtype", layout.dtype))}
            if "si32" in (cb_types[0].element.dtype, layout.dtype) and len(set(formats.values())) == 2:
                # the packer converts between float formats; integers to or from floats take the SFPU
                step += [self._call("typecast_tile_init", **formats), self._call("typecast_tile", zero.result,
                                                                                 **formats)]
        elif kind == "transpose":
            step.append(self._call("transpose_wh_tile", ins[0], at[0], zero.result))
        elif fpu:
            step += [self._call(f"{FPU_BINARY[kind]}_init", ins[0], ins[1]),
                     self._call(FPU_BINARY[kind], ins[0], ins[1], at[0], at[1], zero.result)]
        else:
            tree = kind if isinstance(kind, (tuple, int)) else (kind, list(range(len(ins))), 0)  # int: a leaf copied
            computed, result = self.sfpu_tree(tree, ins, out, broadcasts, at, layout.dtype)
            step += computed
        step += [self._call("tile_regs_commit"), self._call("tile_regs_wait")]
        if streamed[-1]:
            step += [self._call("cb_reserve_back", out, page.result),
                     self._call("pack_tile", result, out, zero.result, out_of_order=IntegerAttr(0, 1)),
                     self._call("cb_push_back", out, page.result)]
        else:
            step.append(self._call("pack_tile", result, out, i, out_of_order=IntegerAttr(0, 1)))
        step.append(self._call("tile_regs_release"))
        step += [self._call("cb_pop_front", c, page.result) for c, s in zip(ins, streamed) if s]
        body.add_ops([*step, scf.YieldOp()])
        ops.append(scf.ForOp(zero.result, upper.result, one.result, [], body))
        if not streamed[-1]:
            ops.append(self._call("cb_push_back", out, count.result))
        ops += [self._call("cb_pop_front", c, count.result) for c, s in zip(ins, streamed) if not s]
        return ops

    @staticmethod
    def _call(name: str, *operands: SSAValue, **props) -> Operation:
        return ttkernel.OP_CLASSES[name].create(operands=list(operands), properties=props)
