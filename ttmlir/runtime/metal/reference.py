"""Hand-written tt-metal programs (kernels in `reference/`): an eltwise op and a matmul over DRAM-interleaved
tensors, split over any set of cores. They are the simulator's own yardstick (tests, benchmarks) and a
worked example of the kernel API, one reader, one compute and one writer kernel per core."""

from __future__ import annotations

from importlib import resources

import torch

from ttmlir.runtime.metal import tile_math
from ttmlir.runtime.metal.grid import Grid
from ttmlir.runtime.metal.core import CBConfig, KernelLaunch, Program, ProgramStats

CB_BASE = 64 * 1024
IN0, IN1, OUT = 0, 1, 16
INPUT_ADDRS = (1 << 20, 64 << 20)
OUTPUT_ADDR = 128 << 20


def kernel(name: str) -> str:
    """The C++ source of a reference kernel, e.g. `kernel("compute_add_fpu.cpp")`."""
    return resources.files("ttmlir.runtime.metal").joinpath("reference", name).read_text()


def _split(tiles: int, cores) -> dict:
    """Contiguous tile ranges per core, as even as the count allows."""
    cores = list(cores)
    base, extra = divmod(tiles, len(cores))
    ranges, start = {}, 0
    for i, core in enumerate(cores):
        count = base + (i < extra)
        ranges[tuple(core)] = (start, count)
        start += count
    return ranges


def _cbs(fmt: str, cores, pages: int = 2) -> tuple[CBConfig, ...]:
    page = tile_math.tile_bytes(fmt)
    return tuple(CBConfig(port, CB_BASE + i * pages * page, page, pages, fmt, tuple(cores))
                 for i, port in enumerate((IN0, IN1, OUT)))


def _run(grid: Grid, inputs, program: Program, out_shape, fmt: str) -> tuple[torch.Tensor, ProgramStats]:
    page = tile_math.tile_bytes(fmt)
    for address, tensor in zip(INPUT_ADDRS, inputs):
        grid.write_interleaved(address, tile_math.tilize(tensor, fmt), page)
    stats = grid.run(program)
    tiles = out_shape[0] * out_shape[1] // (tile_math.TILE * tile_math.TILE)
    return tile_math.untilize(grid.read_interleaved(OUTPUT_ADDR, tiles * page, page), out_shape, fmt), stats


def _writer(grid: Grid, ranges: dict) -> KernelLaunch:
    return KernelLaunch("writer", kernel("writer_unary.cpp"), "brisc", tuple(ranges),
                        ct_args=(grid.facts.num_dram_channels,),
                        rt_args={c: (OUTPUT_ADDR, s, n) for c, (s, n) in ranges.items()})


def eltwise(grid: Grid, a: torch.Tensor, b: torch.Tensor, compute_source: str, fmt: str, cores, *,
            fp32_dest: bool = False) -> tuple[torch.Tensor, ProgramStats]:
    """`compute_source` applied tile by tile to `a` and `b` (2-d, sides multiples of 32) on `cores`; the compute
    kernel gets the tile count as runtime argument 0 and the CB ports (in0, in1, out) as compile-time arguments."""
    ranges = _split(a.numel() // (tile_math.TILE * tile_math.TILE), cores)
    program = Program((
        KernelLaunch("reader", kernel("reader_binary.cpp"), "ncrisc", tuple(ranges),
                     ct_args=(grid.facts.num_dram_channels,),
                     rt_args={c: (*INPUT_ADDRS, s, n) for c, (s, n) in ranges.items()}),
        KernelLaunch("compute", compute_source, "compute", tuple(ranges), ct_args=(IN0, IN1, OUT),
                     rt_args={c: (n,) for c, (_, n) in ranges.items()}, fp32_dest_acc_en=fp32_dest),
        _writer(grid, ranges)), _cbs(fmt, ranges))
    return _run(grid, (a, b), program, tuple(a.shape), fmt)


def matmul(grid: Grid, a: torch.Tensor, b: torch.Tensor, fmt: str, cores, *,
           fp32_dest: bool = False) -> tuple[torch.Tensor, ProgramStats]:
    """a @ b on `cores`, each output tile accumulated over K in the dst register."""
    mt, kt, nt = a.shape[0] // tile_math.TILE, a.shape[1] // tile_math.TILE, b.shape[1] // tile_math.TILE
    ranges = _split(mt * nt, cores)
    program = Program((
        KernelLaunch("reader", kernel("reader_matmul.cpp"), "ncrisc", tuple(ranges),
                     ct_args=(grid.facts.num_dram_channels,),
                     rt_args={c: (*INPUT_ADDRS, s, n, kt, nt) for c, (s, n) in ranges.items()}),
        KernelLaunch("compute", kernel("compute_matmul.cpp"), "compute", tuple(ranges),
                     rt_args={c: (n, kt) for c, (_, n) in ranges.items()}, fp32_dest_acc_en=fp32_dest),
        _writer(grid, ranges)), _cbs(fmt, ranges))
    return _run(grid, (a, b), program, (a.shape[0], b.shape[1]), fmt)
