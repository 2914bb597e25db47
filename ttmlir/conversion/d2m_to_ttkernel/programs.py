"""The kernels of one program of the Metal path, on device tensors whose layouts are known: each a private function
in the ttkernel dialect (`ttkernel.thread`, and `ttkernel.arg_spec` naming, per argument, the program operand it
takes: the CB of a port, or a buffer's address), and the program they make (`Launch`: the buffers the kernels
address, the buffers its CBs work in, one per port, and its threads as a `d2m.generic` names them).

A program is three kernels on the output's cores: a reader (data-movement core 1, NoC 0) filling the input CBs,
a writer (core 0, NoC 1) draining the output CB, and a compute kernel walking the shard tile by tile through the
dst register (when at most one of its CBs moves data over the NoC, the reader and the writer are one kernel, as
upstream's d2m-schedule-dma leaves such a program one data-movement thread); a matmul's operands are moved by two
movers multicasting blocks along the grid's rows and columns
(streamed along K block by block when all of K does not fit, and the output shard computed in strips of
columns when even one K tile of B across it does not), and a reduction streams its operand through a CB of `stream_buffers` pages."""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import Callable, Sequence

from xdsl.dialects.builtin import StringAttr
from xdsl.dialects.func import FuncOp, ReturnOp
from xdsl.ir import Block, Operation, Region, SSAValue

from ttmlir import hardware
from ttmlir.dialects import d2m, ttkernel
from ttmlir.errors import PassFailure
from ttmlir.conversion.d2m_to_ttkernel.compute import ComputeKernels
from ttmlir.conversion.d2m_to_ttkernel.datamovement import DataMovementKernels
from ttmlir.conversion.d2m_to_ttkernel.kernel_builder import MATMUL_ACCUMULATOR, ArgPlan, KernelOps, Placed, \
    ShardLayout
from ttmlir.conversion.d2m_to_ttkernel.views import RowGather
from ttmlir.transforms.d2m.d2m_schedule_dma import dm_thread_count, lone_dm_core

READER_CORE, WRITER_CORE = 1, 0  # data-movement cores: core 1 drives NoC 0, core 0 NoC 1
DM_CORES = 2  # the data-movement cores a program's kernels run on

Arg = tuple[str, int]  # a kernel argument: its kind (cb_port, buffer_address) and the program operand it names
# appends one side's data movement to a kernel's ops, given where each of its arguments is among the kernel's
Mover = Callable[[KernelOps, Callable[[Arg], int]], None]


@dataclass
class Launch:
    """A program: the buffers its kernels address (inputs, then the output), the buffers its CBs work in (port i
    the i-th) and its threads (`#d2m.thread<datamovement, @kernel, dm_core = 1>`, ...)."""

    buffers: list[SSAValue]
    cbs: list[SSAValue]
    threads: list[d2m.ThreadAttr]
    outputs: int = 1  # the last buffers it writes


def kernel_function(kernels: list[FuncOp], base: str, thread: str, body: list[Operation],
                    spec: ttkernel.ArgSpecAttr) -> str:
    """A kernel function of `body` added to `kernels` (named `<base>_kernel<index>`, as upstream numbers them)."""
    name = f"{base}_kernel{len(kernels)}"
    func = FuncOp(name, ((), ()), Region(Block()), visibility="private")
    func.attributes["ttkernel.thread"] = ttkernel.ThreadAttr(ttkernel.ThreadAttr.enum_type(thread))
    func.attributes["ttkernel.arg_spec"] = spec
    func.attributes["tt.function_type"] = StringAttr("kernel")
    func.body.block.add_ops([*body, ReturnOp()])
    kernels.append(func)
    return name


def _spec(runtime: tuple, compile_time: tuple) -> ttkernel.ArgSpecAttr:
    return ttkernel.ArgSpecAttr((tuple((k, None, i) for k, i in runtime), tuple((k, None, i) for k, i in compile_time)))


def dm_arg_list(ports: Sequence[int], addresses: Sequence[int] = (), more_ports: Sequence[int] = ()) -> list[Arg]:
    """A data-movement kernel's arguments: CB ports, then buffer addresses, then more CB ports."""
    return [*(("cb_port", i) for i in ports), *(("buffer_address", i) for i in addresses),
            *(("cb_port", i) for i in more_ports)]


@dataclass
class ProgramKernels:
    """Builds programs' kernels into `kernels`. `layout_of` gives a device tensor's layout; `new_buffer(layout,
    op)` makes an L1 buffer of a layout for a CB to work in (a `d2m.empty` before the program)."""

    chip: dict
    kernels: list[FuncOp]
    layout_of: Callable[[SSAValue], ShardLayout]
    new_buffer: Callable[[ShardLayout, Operation], SSAValue]
    use_tile_matmul: bool = False
    accessor_dma: bool = False
    common_args: bool = True  # buffer addresses and CB ports as common runtime args (else compile-time args)
    stream_buffers: int = 2
    dst_physical_tiles: int = 16

    def __post_init__(self):
        self.dm = DataMovementKernels(self.chip)
        self.compute = ComputeKernels(self.use_tile_matmul, self.dst_physical_tiles)

    def l1_buffer(self, on: ShardLayout, shard: tuple[int, int], dtype: str, op: Operation) -> SSAValue:
        """An L1 buffer of `shard` tiles of `dtype` on each core holding a shard of `on` (a CB's pages)."""
        return self.new_buffer(ShardLayout(on.grid, shard, dtype, 0, "l1", on.origin, on.fold), op)

    def cb_of(self, value: SSAValue, op: Operation) -> SSAValue:
        """The L1 buffer a CB works in: the tensor's own shards in L1, or an L1 copy of a DRAM tensor's."""
        layout = self.layout_of(value)
        return value if layout.memory == "l1" else self.l1_buffer(layout, layout.shard, layout.dtype, op)

    def dm_args(self, ports: list[int], addresses: list[int], operands: list[ShardLayout], more_ports: list[int] = ()
                ) -> tuple[ArgPlan, ttkernel.ArgSpecAttr]:
        """A data-movement kernel's argument plan and spec: CB ports then buffer addresses (indices into
        `operands`), then `more_ports` (CBs of the kernel's own) as common runtime args, as upstream binds arguments
        every core shares (compile-time args when not `common_args`); under tensor-accessor DMA each buffer it
        moves pages of has its TensorAccessor description among the compile-time args (after those), its pages
        found through it."""
        return self.dm_spec(dm_arg_list(ports, addresses, more_ports), operands)

    def dm_spec(self, args: list[Arg], operands: list[ShardLayout]) -> tuple[ArgPlan, ttkernel.ArgSpecAttr]:
        """The argument plan and spec of a data-movement kernel of arguments `args` (see `dm_args`)."""
        addresses = [j for kind, j in args if kind == "buffer_address"]
        accessed = addresses if self.accessor_dma else []
        common = self.common_args
        slots = itertools.accumulate((hardware.tensor_accessor_size(operands[j].memory == "l1") for j in accessed),
                                     initial=0 if common else len(args))
        slot_of = dict(zip(accessed, slots))
        positions = {p: j for p, (kind, j) in enumerate(args) if kind == "buffer_address" and j in accessed}
        plan = ArgPlan(common, {p: slot_of[j] for p, j in positions.items()},
                       {p: operands[j].page for p, j in positions.items()})
        described = tuple(("tensor_accessor_args", j) for j in accessed)
        return plan, _spec(args, described) if common else _spec((), (*args, *described))

    def kernel(self, base: str, thread: str, body: list[Operation], spec: ttkernel.ArgSpecAttr) -> str:
        return kernel_function(self.kernels, base, thread, body, spec)

    def data_movement(self, operands: list[ShardLayout], reader_args: list[Arg], read: Mover, writer_args: list[Arg],
                      write: Mover, moving: int, writes_dram: bool) -> list[d2m.ThreadAttr]:
        """A program's data-movement kernels and their threads: a reader (its arguments `reader_args`, its body
        appended by `read`) on core 1 and a writer on core 0; or, when at most one of the program's CBs moves data
        over the NoC (`moving` of them do), one kernel reading then writing (its arguments the reader's, then the
        writer's it lacks) on the core d2m-schedule-dma gives a lone thread. Reading first cannot stall it: only
        the one moving CB can be a ring of a few pages, every other CB holds the whole shard."""
        if dm_thread_count(moving, DM_CORES) > 1:
            kernels = [(READER_CORE, reader_args, (read,)), (WRITER_CORE, writer_args, (write,))]
        else:
            args = [*reader_args, *(a for a in writer_args if a not in reader_args)]
            kernels = [(lone_dm_core(writes_dram, DM_CORES), args, (read, write))]
        threads = []
        for core, args, movers in kernels:
            plan, spec = self.dm_spec(args, operands)
            ops = KernelOps(1 - core, plan)  # core 1 drives NoC 0, core 0 NoC 1
            for mover in movers:
                mover(ops, args.index)
            threads.append(d2m.ThreadAttr.get("datamovement", self.kernel("datamovement", "noc", ops, spec), core))
        return threads

    def threads(self, reader: str, writer: str, compute: str) -> list[d2m.ThreadAttr]:
        return [d2m.ThreadAttr.get("datamovement", reader, READER_CORE),
                d2m.ThreadAttr.get("datamovement", writer, WRITER_CORE), d2m.ThreadAttr.get("compute", compute)]

    def compute_kernel(self, body: list[Operation], ports: list[int]) -> str:
        return self.kernel("compute", "compute", body, _spec((), tuple(("cb_port", i) for i in ports)))

    def launch(self, kind: str | tuple, inputs: list[SSAValue], out: SSAValue, op: Operation,
               gathers: list[str | None] | None = None) -> Launch:
        """One op's program. Per input, `gathers` says how its reader fills the input's CB: None, from the input's
        own shard (in L1, or its DRAM pages); "same", "transpose", "row", "col", "scalar": each output tile's
        source tile, fetched from wherever it is."""
        gathers = gathers or [None] * len(inputs)
        tensors = [*inputs, out]
        layouts = [self.layout_of(t) for t in tensors]
        layout = layouts[-1]
        # the CBs that are copies (a DRAM tensor's, a gathered input's, one gathered by rows or elements too)
        # stream a tile at a time when whole shards of them would take over a quarter of a core's free L1 (not a
        # tilize)
        copies = [bool(g) or t.memory == "dram" for t, g in zip(layouts, [*gathers, None])]
        streamed = [False] * len(tensors)
        if kind not in ("tilize", "untilize") and \
                sum(layout.tiles * t.page for t, c in zip(layouts, copies) if c) > self.l1_budget():
            streamed = copies

        def pages(n: int, gather: object) -> tuple[int, int]:
            """Each CB's buffer, per core: a stream's few pages, a shard, or (a gather element by element) a
            scratch page and its page id after the shard's pages (the CB's pages a multiple of the shard's)."""
            if streamed[n]:
                return 1, self.stream_buffers
            if isinstance(gather, RowGather) and not gather.faces:
                return layout.shard[0] * (3 if layout.tiles == 1 else 2), layout.shard[1]
            return layout.shard

        cbs = [self.l1_buffer(layout, pages(n, g), source.dtype, op) if g or streamed[n] else self.cb_of(t, op)
               for n, (t, source, g) in enumerate(zip(inputs, layouts, gathers))]
        # a streamed element gather's scratch page (and the page id it holds after it): a buffer of its own among
        # the program's, before the output (in the input's CB it would be a page of the ring), that the reader alone
        # uses through its CB
        scratch = [n for n, g in enumerate(gathers) if streamed[n] and isinstance(g, RowGather) and not g.faces]
        held = [ShardLayout(layout.grid, (1, 2), layouts[n].dtype, 0, "l1", layout.origin, layout.fold)
                for n in scratch]
        cbs += [self.new_buffer(h, op) for h in held]
        cbs.append(self.l1_buffer(layout, pages(len(inputs), None), layout.dtype, op) if streamed[-1]
                   else self.cb_of(out, op))
        o = len(cbs) - 1  # the output's operand index and CB port
        # each CB holds a shard's tiles (or a stream's pages) in its tensor's format (an input of a typecast differs
        # from the output)
        cb_types = [ttkernel.CBType(ttkernel.IntAttr(self.stream_buffers if s else layout.tiles), t.tile)
                    for t, s in zip(layouts, streamed)]
        in_dram = [i for i, (t, g) in enumerate(zip(layouts, gathers)) if g or t.memory == "dram"]
        operands = [*layouts[:-1], *held, layout]
        reader_args = dm_arg_list(range(len(inputs)), in_dram, [len(inputs) + k for k in range(len(held))])
        scratch_args = {n: (len(inputs) + len(in_dram) + k, ttkernel.CBType(ttkernel.IntAttr(2), layouts[n].tile))
                        for k, n in enumerate(scratch)}
        dram_out = layout.memory == "dram"
        writer_args = dm_arg_list([o], [o] if dram_out else [])
        placed = [Placed(t, source) for t, source in zip(inputs, layouts)]

        def read(ops: KernelOps, at: Callable[[Arg], int]) -> None:
            if any(streamed):
                self.dm.stream_inputs(ops, cb_types, placed, layout, gathers, streamed, scratch_args)
            else:
                self.dm.read_inputs(ops, cb_types, placed, layout, gathers)

        def write(ops: KernelOps, at: Callable[[Arg], int]) -> None:
            (self.dm.stream_output if streamed[-1] else self.dm.write_output)(
                ops, cb_types[-1], layout, at(("cb_port", o)), at(("buffer_address", o)) if dram_out else 0)

        movers = self.data_movement(operands, reader_args, read, writer_args, write, sum(copies), dram_out)
        compute = self.compute_kernel(self.compute.tilize_body(kind, cb_types, layout)
                                      if kind in ("tilize", "untilize") else
                                      self.compute.compute_body(kind, cb_types, layout, gathers, streamed),
                                      [*range(len(inputs)), o])
        tensors = [*inputs, *cbs[len(inputs):o], out]
        return Launch(tensors, cbs, [*movers, d2m.ThreadAttr.get("compute", compute)])

    def l1_budget(self) -> int:
        """The L1 a program's copies (CBs that are not a tensor's own shards) may take before they stream: a
        quarter of a core's free L1, the rest left to the tensors live around it."""
        return (int(self.chip["l1_size"]) - int(self.chip["l1_unreserved_base"])) // 4

    def k_block(self, la: ShardLayout, lb: ShardLayout, layout: ShardLayout, k_tiles: int) -> int:
        """The K tiles a matmul moves per step: all of K when the A and B blocks of it take at most a quarter of a
        core's free L1 (one step, as before), else the largest divisor of K whose double-buffered blocks do (at
        least one tile), so that an operand of any K is streamed block by block through its CB."""
        budget = self.l1_budget()
        sy, sx = layout.shard
        per_k = sy * la.page + sx * lb.page  # the bytes one K tile adds to the A and B blocks
        if per_k * k_tiles <= budget:
            return k_tiles
        return max(d for d in range(1, k_tiles + 1) if k_tiles % d == 0 and
                   (d == 1 or self.stream_buffers * per_k * d <= budget))

    def matmul_blocks(self, la: ShardLayout, lb: ShardLayout, layout: ShardLayout, k_tiles: int) -> tuple[int, int]:
        """The K tiles a matmul moves per step and the output columns it computes at once (a strip of the shard).
        All the shard's columns (`k_block` choosing K) unless the program's L1 (the A and B blocks, the partial
        sums, an L1 copy of a DRAM output) would then take over half a core's free L1, as a wide output's B blocks
        do even one K tile deep: then the widest strip, and for it the deepest K block, whose CBs (the output
        streamed a strip at a time) take at most a quarter."""
        sy, sx = layout.shard
        budget = self.l1_budget()

        def cost(kb: int, nb: int, strips: bool) -> int:
            steps = k_tiles // kb
            blocks = (1 if steps == 1 else self.stream_buffers) * kb * (sy * la.page + nb * lb.page)
            partials = sy * nb * hardware.tile_bytes(MATMUL_ACCUMULATOR) if steps > 1 else 0
            copy = sy * (nb if strips else sx) * layout.page if layout.memory == "dram" else 0
            return blocks + partials + copy

        kb = self.k_block(la, lb, layout, k_tiles)
        if cost(kb, sx, False) <= 2 * budget:
            return kb, sx
        for nb in sorted((d for d in range(1, sx + 1) if sx % d == 0), reverse=True):
            fitting = [d for d in range(1, k_tiles + 1) if k_tiles % d == 0 and cost(d, nb, True) <= budget]
            if fitting:
                return max(fitting), nb
        return 1, 1

    def launch_matmul(self, a: SSAValue, b: SSAValue, out: SSAValue, op: Operation, transpose_b: bool) -> Launch:
        """out = a @ b (b given as its transpose when `transpose_b`). Each core computes its output shard from the
        blocks of A (its rows) and B (its columns) along K, `k_block` K tiles at a time: all of K in one step, or
        (a K too long for L1) step by step through CBs of `stream_buffers` blocks, the partial sums kept in a CB
        of their own between steps. In each row of the grid the core in column 0 reads each A block and
        multicasts it along the row (NoC 0); in each column the core in row 0 reads each B block and multicasts
        it down the column (NoC 1), each after its receivers count themselves ready on a semaphore, then flags
        the data valid on theirs, as upstream's matmul moves its operands."""
        la, lb, layout = self.layout_of(a), self.layout_of(b), self.layout_of(out)
        k_tiles = la.tensor_tiles[1]
        sy, sx = layout.shard
        if layout.fold:
            raise PassFailure(op, "a matmul whose output grid is folded onto other cores is not lowered to TTMetal "
                                  "yet (its operands are multicast along the grid's rows and columns)")
        kb, nb = self.matmul_blocks(la, lb, layout, k_tiles)
        steps = k_tiles // kb
        strip_out = nb < sx and layout.memory == "dram"  # a DRAM output written a strip at a time
        held = 1 if steps == 1 else self.stream_buffers  # blocks each operand's CB holds
        tensors = [a, b, out]
        cbs = [self.l1_buffer(layout, (sy, kb * held), la.dtype, op),
               self.l1_buffer(layout, (kb * held, nb), lb.dtype, op),
               self.l1_buffer(layout, (sy, nb), layout.dtype, op) if strip_out else self.cb_of(out, op)]
        if steps > 1:  # the partial sums between K steps (of a strip): an L1 tensor of its own, its own CB
            partials = self.l1_buffer(layout, (sy, nb), MATMUL_ACCUMULATOR, op)
            tensors.insert(2, partials)
            cbs.insert(2, partials)
        o = len(tensors) - 1  # the output's operand index and CB port
        cb_a = ttkernel.CBType(ttkernel.IntAttr(sy * kb * held), la.tile)
        cb_b = ttkernel.CBType(ttkernel.IntAttr(kb * held * nb), lb.tile)
        shard = ttkernel.CBType(ttkernel.IntAttr(sy * nb if strip_out else layout.tiles), layout.tile)
        layouts = [la, lb, *([layout] if steps > 1 else []), layout]
        plan_a, spec_a = self.dm_args([0, 1, o], [0], layouts)
        plan_b, spec_b = self.dm_args([0, 1, o], [1, o] if layout.memory == "dram" else [1], layouts)
        mover_a = self.kernel("datamovement", "noc", self.dm.matmul_mover(True, cb_a, la, layout, kb, steps, False,
                                                                          plan_a, nb), spec_a)
        write_strip = (lambda ops, n0: self.dm.write_strip(ops, shard, layout, nb, n0, cb_arg=2, address_arg=4)) \
            if strip_out else None
        movers_b = self.dm.matmul_mover(False, cb_b, lb, layout, kb, steps, transpose_b, plan_b, nb, write_strip)
        if not strip_out:
            self.dm.write_output(movers_b, shard, layout, cb_arg=2, address_arg=4)
        mover_b = self.kernel("datamovement", "noc", movers_b, spec_b)
        compute = self.compute_kernel(self.compute.matmul_compute(cb_a, cb_b, shard, layout, kb, steps, transpose_b,
                                                                  nb, strip_out),
                                      [0, 1, o, *([2] if steps > 1 else [])])
        return Launch(tensors, cbs, self.threads(mover_a, mover_b, compute))

    def launch_reduction(self, sources: list[SSAValue], scaler: SSAValue, out: SSAValue, op: Operation, kind: str,
                         dim: str, prologue: tuple | None = None) -> Launch:
        """Each output tile reduced from the input tiles along the dim (streamed to its core over the NoC) with
        reduce_tile, times the tile of `scaler` (a tensor of one tile per core of the output's grid); with a
        `prologue` (elementwise ops fused into the reduction, over the tiles of each of `sources` streamed in
        together), of the tiles those compute, first packed into an L1 buffer of one output tile's input tiles."""
        sls, lscaler, layout = [self.layout_of(s) for s in sources], self.layout_of(scaler), self.layout_of(out)
        ls, n = sls[0], len(sources)
        k_tiles = {"row": ls.tensor_tiles[1], "col": ls.tensor_tiles[0]}.get(dim, math.prod(ls.tensor_tiles))
        # the buffers: the sources, the scaler, the prologue's tiles (a CB of its own), the output (the last)
        computed = [self.l1_buffer(layout, (1, k_tiles), ls.dtype, op)] if prologue is not None else []
        buffers = [*sources, scaler, *computed, out]
        cbs = [*(self.l1_buffer(layout, (1, self.stream_buffers), s.dtype, op) for s in sls), scaler, *computed,
               self.cb_of(out, op)]
        o = len(buffers) - 1
        streams = [ttkernel.CBType(ttkernel.IntAttr(self.stream_buffers), s.tile) for s in sls]
        single = ttkernel.CBType(ttkernel.IntAttr(1), ls.tile)
        shard = ttkernel.CBType(ttkernel.IntAttr(layout.tiles), layout.tile)
        dram_out = layout.memory == "dram"
        ports = [*range(n), n, o]
        movers = self.data_movement(
            [*sls, lscaler, *map(self.layout_of, computed), layout], dm_arg_list(ports, range(n)),
            lambda ops, at: self.dm.reduction_reader(ops, at, streams, single, sls, layout, dim, k_tiles),
            dm_arg_list(ports, [o] if dram_out else []),
            lambda ops, at: self.dm.write_output(ops, shard, layout, at(("cb_port", o)),
                                                 at(("buffer_address", o)) if dram_out else 0),
            n + dram_out, dram_out)  # the operands stream in over the NoC
        fused = (prologue, ttkernel.CBType(ttkernel.IntAttr(k_tiles), ls.tile)) if computed else None
        # the compute kernel's CBs: the first source's, the scaler's, the output's, the prologue's, the others'
        compute = self.compute_kernel(self.compute.reduction_compute(streams, single, shard, layout, kind, dim,
                                                                     k_tiles, fused),
                                      [0, n, o, *range(n + 1, o), *range(1, n)])
        return Launch(buffers, cbs, [*movers, d2m.ThreadAttr.get("compute", compute)])
