"""The simulated top-k calls of tt-metal's compute API (part of `KernelApi`).

The SFPU's top-k works on four DST tiles from `idst`: the values of tiles A and B, then their indices. Each of the
32 columns is one sequence of 64 elements, A's 32 rows then B's, every value moving with its index. On silicon the
three calls are stages of a bitonic network; here each gives what its stage guarantees, computed outright:
- `topk_local_sort(idst, idir, end_phase, start_phase)`: runs of 2^(end_phase+1) elements each sorted, the first in
  direction `idir` (0: descending), the next the other way, and so on (a bitonic sequence of every pair of runs);
  the phases before `start_phase` are those a resumed sort has already run, so sorting the runs outright gives the
  same runs;
- `topk_merge(idst, m_iter, k)`: the best 32 of the 64 into A (in descending order: a bitonic run), the others
  into B, the best first;
- `topk_rebuild(idst, idir, m_iter, k, logk, skip_second)`: A's run (and B's, unless `skip_second`) sorted in
  direction `idir`.
Order among equal values is the index's: of two equal values the one with the lower index ranks first (what a
stable sort by index gives; the network keeps an unswapped pair in place, so this is one of the orders silicon can
produce). `experimental::fill_arange_tile<F>(cb)` writes a tile of its row-major element indices at the CB's back."""

from __future__ import annotations

import torch

from ttmlir.runtime.metal import tile_math
from ttmlir.runtime.metal.core import MetalError


def _ranked(values: torch.Tensor, indices: torch.Tensor, descending: bool) -> tuple[torch.Tensor, torch.Tensor]:
    """Each column of `values` (rows are positions) sorted, equal values by ascending index."""
    by_index = torch.argsort(indices, dim=0, stable=True)
    values, indices = values.gather(0, by_index), indices.gather(0, by_index)
    order = torch.argsort(values, dim=0, descending=descending, stable=True)
    return values.gather(0, order), indices.gather(0, order)


class TopkTiles:
    """The top-k calls; mixed into `KernelApi`, whose dst register and CBs they use."""

    def _topk_columns(self, idst: int, call: str) -> tuple[list[int], torch.Tensor, torch.Tensor]:
        self._compute_only(call)
        slots = [self._dst_index(int(idst) + i, call) for i in range(4)]
        dst = self.core.dst
        return slots, torch.cat([dst[slots[0]], dst[slots[1]]]), torch.cat([dst[slots[2]], dst[slots[3]]])

    def _topk_store(self, slots: list[int], values: torch.Tensor, indices: torch.Tensor) -> None:
        for slot, part in zip(slots, (values[:32], values[32:], indices[:32], indices[32:])):
            self._set_dst(slot, part)
        self.cycles += tile_math.CYCLES["sfpu_complex"]

    def _sorted_runs(self, values, indices, length: int, directions) -> None:
        """Each run of `length` rows sorted, run i descending when `directions(i)`."""
        for run in range(64 // length):
            rows = slice(run * length, (run + 1) * length)
            values[rows], indices[rows] = _ranked(values[rows], indices[rows], directions(run))

    def topk_local_sort(self, idst: int, idir: int, end_phase: int, start_phase: int = 0) -> None:
        slots, values, indices = self._topk_columns(idst, "topk_local_sort")
        first = int(idir) == 0
        self._sorted_runs(values, indices, min(2 ** (int(end_phase) + 1), 64), lambda run: first == (run % 2 == 0))
        self._topk_store(slots, values, indices)

    def topk_merge(self, idst: int, m_iter: int, k: int) -> None:
        slots, values, indices = self._topk_columns(idst, "topk_merge")
        values, indices = _ranked(values, indices, True)
        self._topk_store(slots, values, indices)

    def topk_rebuild(self, idst: int, idir: int, m_iter: int, k: int, logk: int, skip_second: int) -> None:
        slots, values, indices = self._topk_columns(idst, "topk_rebuild")
        length = min(2 ** int(logk), 64)
        if int(skip_second) and length < 64:  # A's run alone
            values[:length], indices[:length] = _ranked(values[:length], indices[:length], int(idir) == 0)
        else:
            self._sorted_runs(values, indices, length, lambda run: int(idir) == 0)
        self._topk_store(slots, values, indices)

    def fill_arange_tile_t(self, _format: str, port: int) -> None:
        cb = self._cb(port)
        if cb.reserved < 1:
            raise MetalError(f"fill_arange_tile into cb {port}, which has no page reserved")
        addr = cb.pointer(cb.pushed)
        tile = torch.arange(1024, dtype=torch.float32).reshape(32, 32)
        self.core.l1[addr:addr + cb.config.page_size] = tile_math.pack(tile, cb.config.data_format, self.num)
        self.cycles += tile_math.CYCLES["pack"]
