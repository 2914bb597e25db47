"""Host transfers of the Metal simulator: a host tensor moves to and from an interleaved DRAM buffer a slice of pages
at a time (so staging a weight costs a slice, not whole-tensor copies), with the bytes and values a whole-tensor
transfer gives; a deallocated DRAM buffer's storage is dropped, except what a live buffer shares."""

import pytest
import torch

from ttmlir.runtime.metal import program as metal_program
from ttmlir.runtime.metal.core import DRAM_PAGE
from ttmlir.runtime.metal.grid import Grid
from ttmlir.runtime.metal.program import DeviceBuffer, ProgramRunner, read_buffer, write_buffer
from ttmlir.target import metal_generated as fbm

INTERLEAVED = fbm.BufferLayout.Interleaved


def _written(host: torch.Tensor, buffer: DeviceBuffer, slice_elements: int, monkeypatch) -> Grid:
    grid = Grid("wormhole_b0")
    with monkeypatch.context() as patch:
        patch.setattr(metal_program, "TRANSFER_ELEMENTS", slice_elements)
        write_buffer(grid, host, buffer)
    return grid


@pytest.mark.parametrize("shape, dtype, tiled, page, slice_elements", [
    ((3, 50, 70), torch.bfloat16, True, 2048, 1024),  # a batch of matrices, each padded to 2x3 tiles
    ((5, 1, 4, 30), torch.float32, True, 4096, 4096),  # matrices of a tile each, four to a slice
    ((2, 200, 64), torch.float32, True, 4096, 1024),  # a matrix larger than a slice: its tile rows in blocks
    ((50, 70), torch.float32, False, 96, 1024),  # row-major bytes whose pages straddle the slices
])
def test_a_transfer_in_slices_moves_what_a_whole_one_does(shape, dtype, tiled, page, slice_elements, monkeypatch):
    generator = torch.Generator().manual_seed(7)
    host = torch.randn(shape, generator=generator).to(dtype)
    name = "bf16" if dtype == torch.bfloat16 else "f32"
    buffer = DeviceBuffer(1, 0x40000, (1, 1, 1, 1), name, tiled, INTERLEAVED, page)
    sliced, whole = _written(host, buffer, slice_elements, monkeypatch), _written(host, buffer, 1 << 30, monkeypatch)
    assert sliced.dram.keys() == whole.dram.keys()
    assert all(torch.equal(sliced.dram[key], whole.dram[key]) for key in whole.dram)
    with monkeypatch.context() as patch:
        patch.setattr(metal_program, "TRANSFER_ELEMENTS", slice_elements)
        back = read_buffer(sliced, buffer, tuple(shape))
    assert back.dtype == dtype  # a 16-bit float buffer is held in its own type, no f32 copy
    assert torch.equal(back, host)


@pytest.mark.parametrize("batch, rows, cols", [(7, 64, 96), (7, 32, 32), (1, 320, 32)])
def test_a_slice_is_bounded_whatever_the_tensor(batch, rows, cols, monkeypatch):
    """The slices of a batch of tile-padded matrices cover each tile row once, in page order, none above the bound
    (but a tile row wider than it)."""
    monkeypatch.setattr(metal_program, "TRANSFER_ELEMENTS", 4096)
    slices = list(metal_program._tile_slices(batch, rows, cols))
    assert all((b1 - b0) * (r1 - r0) * cols <= max(4096, 32 * cols) for b0, b1, r0, r1 in slices)
    covered = [(b, r) for b0, b1, r0, r1 in slices for b in range(b0, b1) for r in range(r0, r1, 32)]
    assert covered == [(b, r) for b in range(batch) for r in range(0, rows, 32)]
    assert len(slices) > 1


def test_a_deallocated_dram_buffer_is_dropped_but_what_a_live_one_shares():
    grid = Grid("wormhole_b0")
    runner = ProgramRunner(grid, None)
    banks, page = grid.facts.num_dram_channels, 2048
    # in each bank `old` takes DRAM pages 1 and 2 and page 3 but its last tile, where `live` is
    per_bank = 3 * DRAM_PAGE // page - 1
    old = DeviceBuffer(1, DRAM_PAGE, (1, 1, 1, per_bank * banks), "bf16", True, INTERLEAVED, page)
    live = DeviceBuffer(2, DRAM_PAGE + per_bank * page, (1, 1, 1, banks), "bf16", True, INTERLEAVED, page)
    runner.device = {2: live}
    grid.write_interleaved(old.address, torch.ones(per_bank * page * banks, dtype=torch.uint8), page)
    grid.write_interleaved(live.address, torch.full((page * banks,), 7, dtype=torch.uint8), page)
    assert {p for _, p in grid.dram} == {1, 2, 3}
    runner.release(old)
    assert {p for _, p in grid.dram} == {3}  # pages 1 and 2 of each bank were old's alone
    assert int(grid.read(grid.dram_addr(0, DRAM_PAGE), 16).sum()) == 0  # a dropped page reads 0
    assert torch.equal(grid.read_interleaved(live.address, page * banks, page),
                       torch.full((page * banks,), 7, dtype=torch.uint8))
