"""`pybuda._C.placer`: the placer's enums PyBuda scripts name. tt-buda's placer puts ops on cores in epochs and
queues in DRAM channels; the TTNN backend interleaves every DRAM buffer over all channels and runs ops one after
another, so a DRAM placement algorithm or chip placement policy other than what it does is refused at use."""

from __future__ import annotations

from enum import Enum

from pybuda.config import PyBudaError


class DRAMPlacementAlgorithm(Enum):
    ROUND_ROBIN = 1
    ROUND_ROBIN_FLIP_FLOP = 2
    GREATEST_CAPACITY = 3
    CLOSEST = 4


class ChipPlacementPolicy(Enum):
    MMIO_LAST = 0
    SNAKE = 1


def check_dram_placement(algorithm: DRAMPlacementAlgorithm) -> None:
    """Interleaving pages over every channel in turn is round robin; the others choose a channel per queue."""
    if algorithm is not DRAMPlacementAlgorithm.ROUND_ROBIN:
        raise PyBudaError(f"DRAM placement {algorithm.name} is not supported: the TTNN backend interleaves DRAM "
                          "buffers round robin over all channels (DRAMPlacementAlgorithm.ROUND_ROBIN)")
