"""The Tensix grid that runs a Metal program's kernels: per-core L1 and the DRAM banks as bytes, circular
buffers with page accounting, the NoC, semaphores, the dst register, and a cooperative scheduler over
every core's two data-movement threads and its compute thread.

Addresses are the compiler's: a CB lives at its L1 address, a buffer at its bank address. A NoC address
packs a node's coordinates above a 36-bit local address (`y << 42 | x << 36 | addr`), as tt-metal's
`get_noc_addr` does. Worker cores sit at their logical coordinates plus the chip's translation offset;
DRAM bank `b` is the node (x=0, y=b). Semaphores live at `SEMAPHORE_BASE + 16 * id` in each core's L1.

Each thread keeps a clock in cycles: NoC transfers cost `NOC_LATENCY` plus their bytes over
`NOC_BYTES_PER_CYCLE` (a DRAM bank's transfers at `DRAM_BYTES_PER_CYCLE`, the chip's DRAM bandwidth over
its banks); tile math costs what `tile_math.CYCLES` says; a wait ends no earlier than the event it waited
for (the push of the page, the pop that freed it, the semaphore write). A program takes as long as its
slowest thread, and no less than its busiest DRAM bank needs to move its bytes (threads run in scheduling
order, not clock order, so banks are not queued transfer by transfer).
"""

from __future__ import annotations

import sys

import numpy
import torch

from ttmlir import hardware
from ttmlir.runtime.host_memory import host_memory_available
from ttmlir.runtime.metal import tile_math
from ttmlir.runtime.metal.kernel_cpp import CompiledKernel, KernelCompileError, compile_kernel
from ttmlir.runtime.metal.kernel_api import BLOCKING, KernelApi
from ttmlir.runtime.metal.core import (CircularBuffer, Core, DRAM_BYTES_PER_CYCLE, DRAM_PAGE, KernelHang, LOCAL_BITS,
                                       MetalError, NODE_BITS, PROCESSORS, Program, ProgramStats, SEMAPHORE_BASE, Wait)

class Grid:
    """One chip's worker grid and DRAM, holding bytes across programs (buffers stay where they were put)."""

    def __init__(self, arch: str = "wormhole_b0", grid: tuple[int, int] | None = None, exact: bool = False):
        self.facts = hardware.CHIPS[arch]
        self.exact = exact  # f32 tile math instead of the hardware's numerics
        self.shape = grid or self.facts.grid
        self.cores: dict[tuple[int, int], Core] = {}
        self.node_l1s: dict[tuple[int, int], numpy.ndarray] = {}  # NoC node (x, y) -> its worker's L1, when it is one
        self.dram: dict[tuple[int, int], torch.Tensor] = {}  # (bank, page) -> bytes, made on first write
        self.dram_views: dict[tuple[int, int], tuple] = {}  # (bank, page) -> (the page, its memory as numpy)
        self.dram_page_limit: int | None = None
        self.shared_pages: set[tuple[int, int]] = set()  # pages another chip's grid holds too: copied on write
        self.kernel_cache: dict = {}
        self.events = 0  # every change another thread could wait for; unchanged over a round = a hang
        self.bank_bytes: dict[int, int] = {}  # DRAM bank -> bytes moved by the running program

    def core(self, y: int, x: int) -> Core:
        if not (0 <= y < self.shape[0] and 0 <= x < self.shape[1]):
            raise MetalError(f"core ({y},{x}) is outside the {self.shape[0]}x{self.shape[1]} worker grid")
        if (y, x) not in self.cores:
            self.cores[(y, x)] = Core(self, y, x)
        return self.cores[(y, x)]

    # --- addresses -------------------------------------------------------------------------------------
    def noc_xy(self, y: int, x: int) -> tuple[int, int]:
        oy, ox = self.facts.coord_translation_offsets
        return x + ox, y + oy

    def noc_addr(self, x: int, y: int, addr: int) -> int:
        return (y << (LOCAL_BITS + NODE_BITS)) | (x << LOCAL_BITS) | addr

    def resolve(self, noc_addr: int, size: int) -> tuple[str, object, int]:
        """The memory a NoC address names: ('l1', core, addr) or ('dram', bank, addr); out of range refused."""
        addr = noc_addr & ((1 << LOCAL_BITS) - 1)
        x = (noc_addr >> LOCAL_BITS) & ((1 << NODE_BITS) - 1)
        y = (noc_addr >> (LOCAL_BITS + NODE_BITS)) & ((1 << NODE_BITS) - 1)
        if x == 0 and y < self.facts.num_dram_channels:
            if addr + size > self.facts.dram_channel_size:
                raise MetalError(f"DRAM bank {y} address {addr:#x} + {size} B is outside the bank "
                                 f"({self.facts.dram_channel_size} B)")
            return "dram", y, addr
        oy, ox = self.facts.coord_translation_offsets
        cy, cx = y - oy, x - ox
        if not (0 <= cy < self.shape[0] and 0 <= cx < self.shape[1]):
            raise MetalError(f"NoC address {noc_addr:#x} names node (x={x}, y={y}), which is neither a worker "
                             f"core of the {self.shape[0]}x{self.shape[1]} grid nor a DRAM bank")
        self.check_l1(addr, size, f"core ({cy},{cx})")
        return "l1", self.core(cy, cx), addr

    def l1_of_node(self, x: int, y: int) -> numpy.ndarray | None:
        """The L1 (as numpy bytes) of the worker core at NoC node (x, y), None for any other node (`resolve`'s rule)."""
        held = self.node_l1s.get((x, y))
        if held is None:
            oy, ox = self.facts.coord_translation_offsets
            if x == 0 and y < self.facts.num_dram_channels or not (0 <= y - oy < self.shape[0] and
                                                                    0 <= x - ox < self.shape[1]):
                return None
            held = self.node_l1s[(x, y)] = self.core(y - oy, x - ox).l1_np
        return held

    def check_l1(self, addr: int, size: int, where: str) -> None:
        if addr < 0 or size < 0 or addr + size > self.facts.l1_size:
            raise MetalError(f"{where} L1 address {addr:#x} + {size} B is outside L1 ({self.facts.l1_size} B)")

    def read(self, noc_addr: int, size: int) -> torch.Tensor:
        kind, where, addr = self.resolve(noc_addr, size)
        if kind == "l1":
            return where.l1[addr:addr + size].clone()
        parts = [self.dram[(where, page)][lo:hi] if (where, page) in self.dram  # a page never written reads 0
                 else torch.zeros(hi - lo, dtype=torch.uint8) for page, lo, hi in _pages(addr, size)]
        return torch.cat(parts) if parts else torch.zeros(0, dtype=torch.uint8)

    def write(self, noc_addr: int, data: torch.Tensor) -> None:
        kind, where, addr = self.resolve(noc_addr, data.numel())
        self.events += 1
        if kind == "l1":
            where.l1[addr:addr + data.numel()] = data
            return
        done = 0
        for page, lo, hi in _pages(addr, data.numel()):
            self._dram_page(where, page)[lo:hi] = data[done:done + hi - lo]
            done += hi - lo

    def read_into(self, noc_addr: int, out: numpy.ndarray) -> None:
        """`read` into `out` (uint8, a view of the reader's L1): the kernels' NoC reads, without tensors between."""
        kind, where, addr = self.resolve(noc_addr, out.size)
        if kind == "l1":
            out[:] = where.l1_np[addr:addr + out.size]
            return
        page, lo = divmod(addr, DRAM_PAGE)
        if lo + out.size <= DRAM_PAGE:  # the usual transfer: within one page
            held = self.dram_view(where, page)
            out[:] = 0 if held is None else held[lo:lo + out.size]
            return
        done = 0
        for page, lo, hi in _pages(addr, out.size):
            held = self.dram_view(where, page)
            out[done:done + hi - lo] = 0 if held is None else held[lo:hi]
            done += hi - lo

    def write_from(self, noc_addr: int, data: numpy.ndarray) -> None:
        """`write` of a uint8 array (a view of the writer's L1; numpy copies overlapping ranges correctly)."""
        kind, where, addr = self.resolve(noc_addr, data.size)
        self.events += 1
        if kind == "l1":
            where.l1_np[addr:addr + data.size] = data
            return
        done = 0
        for page, lo, hi in _pages(addr, data.size):
            held = None if (where, page) in self.shared_pages else self.dram_view(where, page)
            if held is None:
                self._dram_page(where, page)
                held = self.dram_view(where, page)
            held[lo:hi] = data[done:done + hi - lo]
            done += hi - lo

    def dram_view(self, bank: int, page: int) -> numpy.ndarray | None:
        """A DRAM page held, as a numpy array of its memory (made once per page), or None."""
        held = self.dram.get((bank, page))
        if held is None:
            return None
        view = self.dram_views.get((bank, page))
        if view is None or view[0] is not held:
            view = self.dram_views[(bank, page)] = (held, held.numpy())
        return view[1]

    def _dram_page(self, bank: int, page: int) -> torch.Tensor:
        """A page of a DRAM bank to write, held from its first write on; the pages held are bounded by half this
        machine's available memory, so a program writing all over DRAM is an error, not the host out of memory. A
        page shared with another chip's grid becomes this grid's own copy first."""
        key = (bank, page)
        if key in self.shared_pages:
            self.shared_pages.discard(key)
            self.dram_views.pop(key, None)
            self.dram[key] = self.dram[key].clone()
        elif key not in self.dram:
            owned = len(self.dram) - len(self.shared_pages)
            if self.dram_page_limit is None or owned >= self.dram_page_limit:  # (re)measured when reached
                room = (host_memory_available() or 8 << 30) // 2 // DRAM_PAGE
                self.dram_page_limit = owned + (room if self.dram_page_limit is not None else max(64, room))
            if owned >= self.dram_page_limit:
                raise MetalError(f"the programs wrote to more than {owned * DRAM_PAGE >> 20} MiB of DRAM, "
                                 "more than this simulation holds (half the host's available memory)")
            self.dram[key] = torch.zeros(DRAM_PAGE, dtype=torch.uint8)
        return self.dram[key]

    def share_dram(self, source: "Grid", start: int, end: int) -> None:
        """Every bank's [start, end) as `source` holds it: its whole pages shared (each grid copies a shared page
        before writing it), the parts of pages at the range's ends copied. A replicated input written to every chip
        of a mesh so takes its DRAM bytes once."""
        pages = [(bank, page) for bank in range(self.facts.num_dram_channels)
                 for page in range(start // DRAM_PAGE, -(-end // DRAM_PAGE)) if (bank, page) in source.dram]
        for bank, page in pages:
            held = source.dram[(bank, page)]
            lo, hi = max(start - page * DRAM_PAGE, 0), min(end - page * DRAM_PAGE, DRAM_PAGE)
            if (lo, hi) == (0, DRAM_PAGE):
                self.dram[(bank, page)] = held
                self.dram_views.pop((bank, page), None)
                self.shared_pages.add((bank, page))
                source.shared_pages.add((bank, page))
            else:
                self._dram_page(bank, page)[lo:hi] = held[lo:hi]

    def dram_addr(self, bank: int, addr: int) -> int:
        if not 0 <= bank < self.facts.num_dram_channels:
            raise MetalError(f"DRAM bank {bank} does not exist ({self.facts.num_dram_channels} banks)")
        return self.noc_addr(0, bank, addr)

    def l1_addr(self, y: int, x: int, addr: int) -> int:
        return self.noc_addr(*self.noc_xy(y, x), addr)

    # --- host access: buffers DRAM-interleaved page by page over the banks, or in one core's L1 ----------
    def write_interleaved(self, address: int, data: torch.Tensor, page_size: int, first_page: int = 0) -> None:
        """`data` as the buffer's pages from page `first_page` on (a host write may come a slice at a time)."""
        for page, start in enumerate(range(0, data.numel(), page_size), first_page):
            bank, row = divmod(page, self.facts.num_dram_channels)[::-1]
            self.write(self.dram_addr(bank, address + row * page_size), data[start:start + page_size])

    def read_interleaved(self, address: int, size: int, page_size: int, first_page: int = 0) -> torch.Tensor:
        pages = []
        for page, start in enumerate(range(0, size, page_size), first_page):
            bank, row = divmod(page, self.facts.num_dram_channels)[::-1]
            pages.append(self.read(self.dram_addr(bank, address + row * page_size), min(page_size, size - start)))
        return torch.cat(pages)

    def release_dram(self, start: int, end: int) -> None:
        """Every bank's whole pages of [start, end) dropped (a deallocated buffer's): they read 0 until rewritten."""
        first, last = -(-start // DRAM_PAGE), end // DRAM_PAGE
        for key in [key for key in self.dram if first <= key[1] < last]:
            del self.dram[key]
            self.dram_views.pop(key, None)  # its numpy view would keep the page's memory
            self.shared_pages.discard(key)

    # --- programs --------------------------------------------------------------------------------------
    def run(self, program: Program) -> ProgramStats:
        """Run every kernel of `program` on its cores until all finish; a hang or a bad access raises."""
        used = sorted({c for k in program.kernels for c in k.cores} | {c for cb in program.cbs for c in cb.cores})
        integers = any(tile_math.is_integer(cb.data_format) for cb in program.cbs)
        for y, x in used:
            core = self.core(y, x)
            core.cbs, core.dst_state, core.sem_times = {}, "released", {}
            core.hold_integers(integers)
            words = core.l1_np[SEMAPHORE_BASE:SEMAPHORE_BASE + 16 * len(program.semaphores)].view(numpy.int32)
            words[::4] = program.semaphores  # semaphore i's word at SEMAPHORE_BASE + 16 * i
        for cb in program.cbs:
            if not 0 <= cb.port < self.facts.num_cbs:
                raise MetalError(f"cb {cb.port}: a core has {self.facts.num_cbs} CB ports (0-{self.facts.num_cbs - 1})")
            tile_math.tile_bytes(cb.data_format)
            for y, x in cb.cores:
                self.check_l1(cb.address, cb.page_size * cb.num_pages, f"core ({y},{x}) cb {cb.port}")
                self.core(y, x).cbs[cb.port] = CircularBuffer(cb)
        threads = []
        for launch in program.kernels:
            if launch.processor not in PROCESSORS:
                raise MetalError(f"kernel '{launch.name}': unknown processor '{launch.processor}' "
                                 f"(one of {', '.join(PROCESSORS)})")
            compiled = compile_kernel(launch.source, launch.name, BLOCKING, self.kernel_cache)
            for y, x in launch.cores:
                api = KernelApi(self, self.core(y, x), launch, compiled)
                threads.append(_Thread(api, compiled.entry(api)))
        self.bank_bytes = {}
        self._schedule(threads)
        busiest_bank = max(self.bank_bytes.values(), default=0) // DRAM_BYTES_PER_CYCLE
        return ProgramStats(max([busiest_bank, *(t.api.cycles for t in threads)]), len(used),
                            sum(t.api.noc_bytes for t in threads), sum(t.api.tiles for t in threads),
                            tuple(((t.api.core.y, t.api.core.x), t.api.launch.name, t.api.launch.processor,
                                   t.api.cycles) for t in threads))

    def _schedule(self, threads: list["_Thread"]) -> None:
        live = list(threads)
        while live:
            before, finished = self.events, False
            for thread in list(live):
                try:
                    thread.waiting = next(thread.gen)
                except StopIteration:
                    live.remove(thread)
                    finished = True
                except MetalError as error:
                    raise type(error)(f"{thread.where()}: {error}") from None
                except KernelCompileError:
                    raise
                except Exception as error:  # a C++ fault in the kernel: division by zero, a bad index
                    raise MetalError(f"{thread.where()}: {type(error).__name__}: {error}") from None
            if live and not finished and self.events == before:
                blocked = "; ".join(f"{t.where()} waits in {t.waiting.what}" for t in live)
                raise KernelHang(f"hang: no thread can progress: {blocked}")


def _pages(addr: int, size: int):
    end = addr + size
    while addr < end:
        page, lo = divmod(addr, DRAM_PAGE)
        hi = min(DRAM_PAGE, lo + end - addr)
        yield page, lo, hi
        addr += hi - lo


class _Thread:
    def __init__(self, api: "KernelApi", gen):
        self.api, self.gen, self.waiting = api, gen, Wait("")

    def where(self) -> str:
        """Core, kernel and the C++ line it is at (the innermost kernel frame of the generator chain)."""
        line, gen = None, self.gen
        while gen is not None and getattr(gen, "gi_frame", None) is not None:
            frame = gen.gi_frame
            if frame.f_code.co_filename.startswith("<kernel "):
                line = self.api.compiled.cpp_line(frame.f_lineno) or line
            gen = getattr(gen, "gi_yieldfrom", None)
        if line is None:
            line = _traceback_line(self.api.compiled)
        at = f" line {line}" if line else ""
        return f"{self.api.core.name} kernel '{self.api.launch.name}'{at}"


def _traceback_line(compiled: CompiledKernel) -> int | None:
    tb = sys.exc_info()[2]
    line = None
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == f"<kernel {compiled.name}>":
            line = compiled.cpp_line(tb.tb_lineno) or line
        tb = tb.tb_next
    return line


