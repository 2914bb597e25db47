"""Facts about the simulated chips: one row per chip, shared by compiler and runtime.

Values follow upstream tt-mlir's default system descriptors (DESIGN §5). Nothing here imports
xDSL or torch, so the system descriptor, layout passes, allocator and perf model all read it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

DATA_TYPES = ("f32", "f16", "bf16", "bfp_f8", "bfp_bf8", "bfp_f4", "bfp_bf4", "bfp_f2", "bfp_bf2",
              "u32", "u16", "u8", "si32")
DTYPE_BYTES = {"f32": 4, "f16": 2, "bf16": 2, "bfp_f8": 1, "bfp_bf8": 1, "bfp_f4": 0.5, "bfp_bf4": 0.5,
               "bfp_f2": 0.25, "bfp_bf2": 0.25, "u32": 4, "u16": 2, "u8": 1, "si32": 4}
TILE_SIZES = ((4, 16), (16, 16), (32, 16), (4, 32), (16, 32), (32, 32))


@dataclass(frozen=True)
class ChipFacts:
    arch: str
    grid: tuple[int, int]
    coord_translation_offsets: tuple[int, int]
    l1_size: int
    num_dram_channels: int
    dram_channel_size: int
    noc_l1_address_align_bytes: int
    pcie_address_align_bytes: int
    noc_dram_address_align_bytes: int
    l1_unreserved_base: int
    erisc_l1_unreserved_base: int
    dram_unreserved_base: int
    dram_unreserved_end: int
    dst_physical_size_tiles: int = 16
    num_cbs: int = 32
    num_compute_threads: int = 1
    num_datamovement_threads: int = 2
    # Perf-model rates (ttmlir.runtime.perf), in GB/s: AI clock, DRAM bandwidth over all channels, PCIe to
    # host, one ethernet link between chips (Wormhole 100 GbE, Blackhole 400 GbE).
    clock_ghz: float = 1.0
    dram_gbps: float = 288.0
    pcie_gbps: float = 24.0
    eth_gbps: float = 12.5


CHIPS: dict[str, ChipFacts] = {
    "wormhole_b0": ChipFacts("wormhole_b0", (8, 8), (18, 18), 1_499_136, 12, 1 << 30, 16, 32, 32,
                             1024, 1024, 1024, 1 << 30),
    "blackhole": ChipFacts("blackhole", (10, 13), (2, 1), 1_572_864, 8, 4_278_190_080, 16, 64, 64,
                           98_304, 98_304, 64, 4_276_383_744, clock_ghz=1.35, dram_gbps=512.0, pcie_gbps=48.0,
                           eth_gbps=50.0),
}

ARCHS = ("grayskull", "wormhole_b0", "blackhole")


# What a TensorAccessorArgs reads from its compile-time args: a word naming the buffer's kind, then for a sharded
# buffer where its pages are (tt-metal's accessor args carry its shard spec and bank cores the same way).
TENSOR_ACCESSOR_INTERLEAVED, TENSOR_ACCESSOR_SHARDED = 1, 2


def tensor_accessor_words(grid: tuple[int, int] | None = None, shard: tuple[int, int] = (0, 0),
                          origin: tuple[int, int] = (0, 0), cores: tuple[int, int] = (0, 0)) -> tuple[int, ...]:
    """A buffer's description to a TensorAccessor: interleaved (no grid), or its grid of shards (in pages) on the
    rectangle of cores `cores` from core `origin`, filled row by row."""
    if grid is None:
        return (TENSOR_ACCESSOR_INTERLEAVED,)
    return (TENSOR_ACCESSOR_SHARDED, *grid, *shard, *origin, *cores)


def tensor_accessor_size(sharded: bool) -> int:
    """The compile-time words a buffer's TensorAccessorArgs take."""
    return len(tensor_accessor_words((0, 0)) if sharded else tensor_accessor_words())


def tile_padded(shape: tuple[int, ...], tile: int = 32) -> tuple[int, int, int]:
    """A tensor as the device holds it: a batch of matrices, each padded to whole tiles (batch, rows, cols)."""
    shape = (1,) * max(0, 2 - len(shape)) + tuple(shape)
    return math.prod(shape[:-2]), *(-(-d // tile) * tile for d in shape[-2:])


def tile_padded_strides(shape: tuple[int, ...]) -> tuple[int, ...]:
    """The row-major element strides of `shape` laid out with each matrix padded to whole tiles."""
    _, rows, cols = tile_padded(shape)
    padded = (*shape[:-2], rows, cols)[-len(shape):]
    return tuple(math.prod(padded[i + 1:]) for i in range(len(shape)))


def tile_bytes(dtype: str, tile: tuple[int, int] = (32, 32)) -> int:
    """Bytes of one tile; block-float tiles add one shared exponent byte per 16 values."""
    elements = tile[0] * tile[1]
    return int(elements * DTYPE_BYTES[dtype]) + (elements // 16 if dtype.startswith("bfp") else 0)


def chip_desc(arch: str) -> tuple[tuple[str, object], ...]:
    """A chip's `#ttcore.system_desc` fields, in upstream's order."""
    f = CHIPS[arch]
    return (("arch", arch), ("grid", f.grid), ("coord_translation_offsets", f.coord_translation_offsets),
            ("l1_size", f.l1_size), ("num_dram_channels", f.num_dram_channels),
            ("dram_channel_size", f.dram_channel_size), ("noc_l1_address_align_bytes", f.noc_l1_address_align_bytes),
            ("pcie_address_align_bytes", f.pcie_address_align_bytes),
            ("noc_dram_address_align_bytes", f.noc_dram_address_align_bytes),
            ("l1_unreserved_base", f.l1_unreserved_base), ("erisc_l1_unreserved_base", f.erisc_l1_unreserved_base),
            ("dram_unreserved_base", f.dram_unreserved_base), ("dram_unreserved_end", f.dram_unreserved_end),
            ("supported_data_types", DATA_TYPES), ("supported_tile_sizes", TILE_SIZES),
            ("dst_physical_size_tiles", f.dst_physical_size_tiles), ("num_cbs", f.num_cbs),
            ("num_compute_threads", f.num_compute_threads), ("num_datamovement_threads", f.num_datamovement_threads))


def system_desc(arch: str = "wormhole_b0", num_chips: int = 1) -> dict:
    """A host CPU and `num_chips` identical chips: the fields of `#ttcore.system_desc`."""
    return {"cpus": ((("role", "host"), ("target_triple", "x86_64-pc-linux-gnu")),),
            "chips": (chip_desc(arch),) * num_chips, "chip_desc_indices": tuple(range(num_chips)),
            "chip_capabilities": tuple(3 if i == 0 else 1 for i in range(num_chips)),
            "chip_coords": tuple((0, 0, 0, i) for i in range(num_chips)), "chip_channels": ""}
