"""The simulated Tensix core and what runs on it: the NoC and DRAM constants, circular buffers, cores, kernel
launches, programs and their statistics, and the errors a kernel raises."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import torch

from ttmlir.runtime import RuntimeFailure
from ttmlir.runtime.metal import tile_math


LOCAL_BITS = 36
NODE_BITS = 6
SEMAPHORE_BASE = 256
SEMAPHORE_SLOTS = 16
NOC_LATENCY = 100
NOC_BYTES_PER_CYCLE = 32
DRAM_BYTES_PER_CYCLE = 24
DRAM_PAGE = 1 << 16  # the simulated DRAM's storage unit per bank: small, so a buffer's last page wastes little
PROCESSORS = ("brisc", "ncrisc", "compute")
SPIN_LIMIT = 10_000_000  # passes of a kernel's unbounded loops (while, general for) before it counts as a hang


class MetalError(RuntimeFailure):
    """A kernel did something the hardware cannot (or would silently corrupt): names core, kernel, line."""


class KernelHang(MetalError):
    """No thread can progress: each blocked thread is named with what it waits on."""


@dataclass(frozen=True)
class CBConfig:
    """A circular buffer of a program: its port (0-31) on `cores`, at `address` in their L1."""
    port: int
    address: int
    page_size: int
    num_pages: int
    data_format: str
    cores: tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class KernelLaunch:
    """One kernel on a set of cores: its C++ source, the processor it runs on, and its arguments."""
    name: str
    source: str
    processor: str  # brisc / ncrisc (data movement) or compute
    cores: tuple[tuple[int, int], ...]
    ct_args: tuple[int, ...] = ()
    common_rt_args: tuple[int, ...] = ()
    rt_args: dict = field(default_factory=dict)  # (y, x) -> per-core runtime args
    fp32_dest_acc_en: bool = False
    math_approx_mode: bool = False
    math_fidelity: str = "hifi4"


@dataclass(frozen=True)
class Program:
    kernels: tuple[KernelLaunch, ...]
    cbs: tuple[CBConfig, ...] = ()
    semaphores: tuple[int, ...] = ()  # initial values, by semaphore id, on every core the program uses


@dataclass
class ProgramStats:
    cycles: int
    cores: int
    noc_bytes: int
    tiles_computed: int
    kernels: tuple = ()  # per kernel and core: ((y, x), kernel name, processor, cycles)


@dataclass
class Wait:
    """What a blocked thread waits for, for the hang report: its text, or a function making it (a thread may wait
    many rounds; the text is made only if the grid hangs, from the state it hangs in)."""
    text: str | Callable[[], str]

    @property
    def what(self) -> str:
        return self.text() if callable(self.text) else self.text


class CircularBuffer:
    """tt-metal's CB: a producer reserves and pushes pages, a consumer waits for and pops them; read and
    write pointers wrap at the end. Each pushed page carries the producer's clock, each freed slot the
    consumer's, so a waiting thread's clock moves to the moment it could go on."""

    def __init__(self, config: CBConfig):
        self.config = config
        self.num_pages, self.address, self.page_size = config.num_pages, config.address, config.page_size
        self.pushed = self.popped = self.reserved = self.waited = 0
        self.push_times: list[int] = []
        self.pop_times: list[int] = []

    @property
    def available(self) -> int:
        return self.pushed - self.popped

    @property
    def free(self) -> int:
        return self.num_pages - self.pushed + self.popped

    def pointer(self, page: int) -> int:
        return self.address + page % self.num_pages * self.page_size

    def describe(self) -> str:
        c = self.config
        return f"cb {c.port} ({c.num_pages} page(s) of {c.page_size} B at {c.address:#x})"


class Core:
    def __init__(self, grid, y: int, x: int):  # the Grid it belongs to
        self.grid, self.y, self.x = grid, y, x
        self.l1 = torch.zeros(grid.facts.l1_size, dtype=torch.uint8)
        self.cbs: dict[int, CircularBuffer] = {}
        self.l1_np = self.l1.numpy()
        self.dst = self.dst_np = None
        self.hold_integers(False)
        self.dst_state = "released"
        self.dst_written: set[int] = set()  # dst tiles a reduction has written since tile_regs_acquire
        # the packer adds the tiles it packs into L1's (llk_pack_reconfig_l1_acc); like the packer's own
        # configuration, it stays as the last program left it
        self.pack_l1_acc = False
        self.sem_times: dict[int, int] = {}

    @property
    def name(self) -> str:
        return f"core ({self.y},{self.x})"

    def hold_integers(self, integers: bool) -> None:
        """The dst register's values as f64 for a program with integer tiles (32-bit integers exactly; the register
        holds them bit for bit in its 32-bit mode), else as f32. `dst_np` is the same memory as numpy: a small copy
        or tile costs a numpy call far less than a torch one."""
        dtype = torch.float64 if integers else torch.float32
        if self.dst is None or self.dst.dtype != dtype:
            self.dst = torch.zeros(tile_math.DST_TILES, tile_math.TILE, tile_math.TILE, dtype=dtype)
            self.dst_np = self.dst.numpy()
