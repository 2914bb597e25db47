"""`ttnn.reports` (also at tt-metal's `ttnn._ttnn.reports`): what the device's allocator holds, as tt-metal's
memory reports list it."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class BufferPage:
    """One bank's piece of an allocated buffer: the simulator's allocator places a buffer as the same address range
    on every bank of its kind, so a buffer has one such record per bank (tt-metal lists each page)."""

    device_id: int
    buffer_type: str
    bank_id: int
    address: int
    page_size: int


def get_buffer_pages(device) -> list[BufferPage]:
    """The allocated pieces of every buffer on the device's first chip (DRAM, L1, l1_small and trace banks)."""
    pages = []
    for kind, allocator in device.mesh.chips[0].allocators.items():
        for block in allocator.blocks:
            if block.allocated:
                pages += [BufferPage(device.device_id, kind, bank, block.address, block.size)
                          for bank in range(allocator.num_banks)]
    return pages


def get_buffers(device) -> list[BufferPage]:
    """One record per allocated buffer (its first bank's piece)."""
    return [page for page in get_buffer_pages(device) if page.bank_id == 0]
