"""The backend enums PyBuda scripts import: which chip, which backend, which device mode.

The simulated Wormhole (n150) and Blackhole (p150) chips of `ttmlir.hardware` stand in for silicon:
`BackendType.Silicon` and `BackendType.Golden` both run on that simulator.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from pybuda.errors import PyBudaError


class BackendDevice(Enum):
    Grayskull = "grayskull"
    Wormhole_B0 = "wormhole_b0"
    Blackhole = "blackhole"

    @classmethod
    def from_string(cls, name: str) -> "BackendDevice":
        for member in cls:
            if member.value == name.lower() or member.name.lower() == name.lower():
                return member
        raise ValueError(f"unknown device architecture '{name}' (expected one of "
                         f"{', '.join(m.value for m in cls)})")

    def to_string(self) -> str:
        return self.value


class BackendType(Enum):
    Golden = "golden"
    Model = "model"
    Versim = "versim"
    Emulation = "emulation"
    NoBackend = "nobackend"
    Silicon = "silicon"

    @classmethod
    def from_string(cls, name: str) -> "BackendType":
        return next(m for m in cls if m.value == name.lower())


class DeviceMode(Enum):
    CompileAndRun = "CompileAndRun"
    CompileOnly = "CompileOnly"
    RunOnly = "RunOnly"


@dataclass(frozen=True)
class DeviceGrid:
    """A chip's grid of Tensix cores: r rows by c columns."""
    r: int
    c: int


@dataclass(frozen=True)
class DeviceConfig:
    """The simulated system `get_device_config` describes: one chip of `ttmlir.hardware`'s tables."""
    arch: BackendDevice
    backend_type: str
    chip_ids: tuple[int, ...] = (0,)

    @property
    def _facts(self):
        from ttmlir.hardware import CHIPS

        return CHIPS[self.arch.value]

    @property
    def arch_name(self) -> str:
        return self.arch.value

    @property
    def grid_size(self) -> DeviceGrid:
        rows, cols = self._facts.grid
        return DeviceGrid(rows, cols)

    @property
    def l1_size(self) -> int:
        return self._facts.l1_size

    @property
    def dram_num_channels(self) -> int:
        return self._facts.num_dram_channels

    @property
    def dram_channel_capacity(self) -> int:
        return self._facts.dram_channel_size

    @property
    def device_yaml(self) -> str:
        return ""  # the chip is described by ttmlir.hardware, not a backend SoC file

    @property
    def cluster_config_yaml(self) -> str:
        return ""

    def get_ethernet_connections(self) -> dict[int, dict[int, tuple[int, int]]]:
        """Per chip, its ethernet channels and the (chip, channel) each reaches: a single chip has none."""
        return {chip: {} for chip in self.chip_ids}

    def get_harvested_cfg(self) -> dict[int, int]:
        """Per chip, the mask of harvested Tensix rows: the simulated chips are whole."""
        return {chip: 0 for chip in self.chip_ids}

    def get_dram_backend_reserved_max(self) -> int:
        """The DRAM bytes below which the runtime keeps its own data in each channel."""
        return self._facts.dram_unreserved_base


def detect_available_silicon_devices(only_detect_mmio: bool = True) -> list[BackendDevice]:
    """The Tenstorrent chips on this machine's PCIe: none, the devices here are simulated (pybuda's
    detect_available_devices lists those)."""
    return []


def get_output(*args, **kwargs):
    """Refused: reads a tensor from a netlist's output queue in the backend's DRAM; outputs here come back from
    run_inference's output queue (or a device's outputs) as pybuda.Tensors."""
    raise PyBudaError("backend_api.get_output is not supported: there are no netlist queues; read outputs from "
                      "run_inference's output queue")
