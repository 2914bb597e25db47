"""Facts about the simulated chips: one row per chip, shared by compiler and runtime.

Values follow upstream tt-mlir's default system descriptors (DESIGN §5). Nothing here imports
xDSL or torch, so the system descriptor, layout passes, allocator and perf model all read it.
"""

from __future__ import annotations

from dataclasses import dataclass

DATA_TYPES = ("f32", "f16", "bf16", "bfp_f8", "bfp_bf8", "bfp_f4", "bfp_bf4", "bfp_f2", "bfp_bf2",
              "u32", "u16", "u8", "si32")
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


CHIPS: dict[str, ChipFacts] = {
    "wormhole_b0": ChipFacts("wormhole_b0", (8, 8), (18, 18), 1_499_136, 12, 1 << 30, 16, 32, 32,
                             1024, 1024, 1024, 1 << 30),
    "blackhole": ChipFacts("blackhole", (10, 13), (2, 1), 1_572_864, 8, 4_278_190_080, 16, 64, 64,
                           98_304, 98_304, 64, 4_276_383_744),
}

ARCHS = ("grayskull", "wormhole_b0", "blackhole")
