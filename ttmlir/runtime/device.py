"""Simulated chips and their memory: bank allocators for DRAM, L1, l1_small and trace.

An interleaved buffer spreads its pages round-robin over all banks of its kind and occupies the same
address range in every bank, as tt-metal's allocator does; so each kind keeps one free list of
per-bank addresses. Sizes come from `ttmlir.hardware` (DESIGN §5):

- DRAM: one bank per channel, `dram_unreserved_end - dram_unreserved_base` bytes each.
- L1: one bank per worker core, `l1_size - l1_unreserved_base - l1_small_size` bytes each (or, when a device is
  opened with tt-metal's `worker_l1_size`, that many bytes less l1_small). A sharded buffer holds one shard per
  core of its grid and, like an interleaved one, the same address range on every bank (tt-metal allocates L1 in
  lockstep).
- l1_small: `l1_small_size` bytes per worker core, carved out of L1 (`L1_SMALL_SIZE`, tt-metal's default, unless
  the device is opened with another); trace: `trace_region_size` bytes per DRAM bank, none unless asked.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from ttmlir import hardware

L1_SMALL_SIZE = 32768


class OutOfMemory(Exception):
    pass


@dataclass
class Block:
    id: int
    address: int
    size: int
    allocated: bool


@dataclass
class BankAllocator:
    """First-fit allocation of per-bank address ranges, with a block table for memory reports."""

    kind: str
    num_banks: int
    bank_size: int
    alignment: int
    blocks: list[Block] = field(default_factory=list)
    next_id: int = 1

    def __post_init__(self):
        self.blocks = [Block(0, 0, self.bank_size, False)]

    def allocate(self, size_per_bank: int, what: str = "buffer") -> int:
        size = max(self.alignment, math.ceil(size_per_bank / self.alignment) * self.alignment)
        for i, block in enumerate(self.blocks):
            if not block.allocated and block.size >= size:
                if block.size > size:
                    rest = Block(self.next_id, block.address + size, block.size - size, False)
                    self.next_id += 1
                    self.blocks.insert(i + 1, rest)
                block.size, block.allocated = size, True
                return block.address
        raise OutOfMemory(f"out of memory: {what} needs {size} bytes per bank in {self.kind} "
                          f"({self.num_banks} banks), largest free block is {self.largest_free()} bytes per bank "
                          f"({self.free_bytes()} free of {self.bank_size})")

    def free(self, address: int) -> None:
        i = next(i for i, b in enumerate(self.blocks) if b.address == address and b.allocated)
        self.blocks[i].allocated = False
        for j in (i + 1, i):  # merge with the free neighbours
            if 0 < j < len(self.blocks) and not self.blocks[j].allocated and not self.blocks[j - 1].allocated:
                self.blocks[j - 1].size += self.blocks[j].size
                del self.blocks[j]

    def allocated_bytes(self) -> int:
        return sum(b.size for b in self.blocks if b.allocated)

    def free_bytes(self) -> int:
        return self.bank_size - self.allocated_bytes()

    def largest_free(self) -> int:
        return max((b.size for b in self.blocks if not b.allocated), default=0)

    def view_text(self) -> str:
        """The memory view as tt-mlir's runtime prints one (MemoryView::toString: sizes in MB, three decimals)."""
        mb = 1024 * 1024
        return (f"MemoryView{{numBanks: {self.num_banks}, totalBytesPerBank: {self.bank_size / mb:.3f} MB, "
                f"totalBytesAllocatedPerBank: {self.allocated_bytes() / mb:.3f} MB, "
                f"totalBytesFreePerBank: {self.free_bytes() / mb:.3f} MB, "
                f"largestContiguousBytesFreePerBank: {self.largest_free() / mb:.3f} MB}}")

    def report(self) -> dict:
        """The memory view in ttrt's memory report format."""
        table = []
        for i, b in enumerate(self.blocks):
            table.append({"allocated": "yes" if b.allocated else "no",
                          "nextID": str(self.blocks[i + 1].id) if i + 1 < len(self.blocks) else "-1",
                          "prevID": str(self.blocks[i - 1].id) if i else "-1",
                          "size": str(b.size), "address": str(b.address), "blockID": str(b.id)})
        return {"num_banks": self.num_banks, "total_bytes_per_bank": self.bank_size,
                "total_bytes_allocated_per_bank": self.allocated_bytes(),
                "total_bytes_free_per_bank": self.free_bytes(),
                "largest_contiguous_bytes_free_per_bank": self.largest_free(), "block_table": table}


class Chip:
    """One simulated chip: its facts and an allocator per buffer type."""

    def __init__(self, arch: str, chip_id: int = 0, trace_region_size: int = 0, l1_small_size: int = L1_SMALL_SIZE,
                 worker_l1_size: int | None = None):
        self.facts = f = hardware.CHIPS[arch]
        self.arch, self.id = arch, chip_id
        cores = f.grid[0] * f.grid[1]
        worker_l1 = f.l1_size - f.l1_unreserved_base
        if worker_l1_size is not None:
            if worker_l1_size > worker_l1:
                raise ValueError(f"worker_l1_size {worker_l1_size} exceeds the {worker_l1} bytes of unreserved L1 "
                                 f"per {arch} core")
            worker_l1 = worker_l1_size
        if l1_small_size > worker_l1:
            raise ValueError(f"l1_small_size {l1_small_size} exceeds the {worker_l1} bytes of worker L1 per core")
        dram_bank = f.dram_unreserved_end - f.dram_unreserved_base
        if trace_region_size > dram_bank:
            raise ValueError(f"trace_region_size {trace_region_size} exceeds a DRAM bank's {dram_bank} bytes")
        # the trace region is carved out of each DRAM bank, as tt-metal reserves it
        self.allocators = {
            "dram": BankAllocator("dram", f.num_dram_channels, dram_bank - trace_region_size,
                                  f.noc_dram_address_align_bytes),
            "l1": BankAllocator("l1", cores, worker_l1 - l1_small_size, f.noc_l1_address_align_bytes),
            "l1_small": BankAllocator("l1_small", cores, l1_small_size, f.noc_l1_address_align_bytes),
            "trace": BankAllocator("trace", f.num_dram_channels, trace_region_size, f.noc_dram_address_align_bytes),
        }

    def memory_report(self) -> dict:
        return {kind: alloc.report() for kind, alloc in self.allocators.items()}


class MeshDevice:
    """A mesh of identical chips; buffers are allocated on every chip of the mesh."""

    def __init__(self, arch: str = "wormhole_b0", mesh_shape: tuple[int, int] = (1, 1), **regions):
        """`regions`: the chips' l1_small_size, trace_region_size and worker_l1_size (`Chip`)."""
        self.arch, self.mesh_shape = arch, tuple(mesh_shape)
        self.chips = [Chip(arch, i, **regions) for i in range(mesh_shape[0] * mesh_shape[1])]
        self.is_open = True
        self.traces: dict[int, list] = {}  # trace id -> recorded (operation, index, tensor pool)
        self.capturing: int | None = None   # the trace being recorded
        self.trace_cache: dict[tuple, tuple] = {}  # capture_or_execute_trace's (trace id, input, output slots)
        self.const_eval_cache: dict[tuple, tuple] = {}  # load_cached's (input versions, results, the inputs' values)

    @property
    def num_chips(self) -> int:
        """The chips this process simulates: the whole mesh, or under tt-run this rank's part of it."""
        return len(self.chips)

    @property
    def chip_ids(self) -> list[int]:
        """The mesh positions (row-major) of the chips this process simulates."""
        return [chip.id for chip in self.chips]

    def run_mesh_kernel(self, name: str, kernel, inputs: dict, table):
        """A collective's kernel on every chip's values (`inputs`: one list per field, a value per chip); under
        tt-run the rank's device first fetches the other ranks' values it reads."""
        return kernel(inputs, table, self.mesh_shape)

    def gather(self, tensor, root: int | None = None) -> list:
        """Every chip's value of a tensor, in mesh order (under tt-run, at rank `root` only)."""
        return tensor.chip_values(self.num_chips)

    def lockstep(self, body):
        """Run a program (`body`); a rank's device makes a failure end every rank."""
        return body()

    def allocate(self, buffer_type: str, size_per_bank: int, what: str) -> int:
        addresses = {chip.allocators[buffer_type].allocate(size_per_bank, what) for chip in self.chips}
        return addresses.pop()

    def free(self, buffer_type: str, address: int) -> None:
        for chip in self.chips:
            chip.allocators[buffer_type].free(address)

    def per_bank_bytes(self, buffer_type: str, total: int, page: int, shard_grid: tuple[int, int] | None = None) -> int:
        """Interleaved pages are spread round-robin over the banks: the busiest bank holds ceil(pages / banks).
        A sharded buffer puts one shard on each core of its grid, at the same address on every L1 bank; a DRAM-sharded
        one puts one shard in each DRAM bank of its grid (a row of at most as many shards as there are banks)."""
        if shard_grid is not None and buffer_type == "dram":
            banks = self.chips[0].allocators["dram"].num_banks
            if min(shard_grid) != 1 or max(shard_grid) > banks:
                raise ValueError(f"a {shard_grid[0]}x{shard_grid[1]} shard grid does not fit the {banks} DRAM banks "
                                 "(one shard per bank, in a row)")
            return math.ceil(total / max(shard_grid))
        if shard_grid is not None:
            worker = self.chips[0].facts.grid
            if buffer_type not in ("l1", "l1_small") or shard_grid[0] > worker[0] or shard_grid[1] > worker[1]:
                raise ValueError(f"a {shard_grid[0]}x{shard_grid[1]} shard grid does not fit the "
                                 f"{worker[0]}x{worker[1]} worker cores' {buffer_type} banks")
            return math.ceil(total / (shard_grid[0] * shard_grid[1]))
        banks = self.chips[0].allocators[buffer_type].num_banks
        pages = max(1, math.ceil(total / max(page, 1)))
        return math.ceil(pages / banks) * page

    def allocated_bytes(self) -> dict[str, int]:
        return {kind: alloc.allocated_bytes() for kind, alloc in self.chips[0].allocators.items()}

    def program_bytes(self) -> dict[str, int]:
        """Per bank, what programs hold: allocated bytes less the trace slots and cached const-eval results,
        which the device owns."""
        held = self.allocated_bytes()
        slots = {id(slot): slot for _, inputs, outputs in self.trace_cache.values() for slot in (*inputs, *outputs)}
        slots.update((id(t), t) for _, results, _ in self.const_eval_cache.values() for t in results)
        for slot in slots.values():
            if slot.address is not None:
                blocks = self.chips[0].allocators[slot.buffer_type].blocks
                held[slot.buffer_type] -= next(b.size for b in blocks if b.address == slot.address and b.allocated)
        return held
