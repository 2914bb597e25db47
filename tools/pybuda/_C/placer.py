"""`pybuda._C.placer`: the placer's enums PyBuda scripts name. tt-buda's placer puts ops on cores in epochs and
queues in DRAM channels; the TTNN backend interleaves every DRAM buffer over all channels and runs ops one after
another, so a DRAM placement algorithm other than round robin is refused where it is set
(`pybuda.config.set_configuration_options`)."""

from __future__ import annotations

from enum import Enum


class DRAMPlacementAlgorithm(Enum):
    ROUND_ROBIN = 1
    ROUND_ROBIN_FLIP_FLOP = 2
    GREATEST_CAPACITY = 3
    CLOSEST = 4


class ChipPlacementPolicy(Enum):
    MMIO_LAST = 0
    SNAKE = 1

