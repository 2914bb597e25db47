"""Simulated devices: a mesh of Wormhole/Blackhole chips with the runtime's allocator, the op log the perf model
fills (what `ttrt emitpy --memory` and the perf report read) and tt-metal's program cache."""

from __future__ import annotations

import contextlib

from ttmlir.runtime.device import MeshDevice
from ttmlir.runtime.executor import ProgramContext
from ttnn.types import Arch, CoreCoord, CoreGrid, CoreRangeSet, DispatchCoreConfig


class Device:
    """`ttnn.open_device(device_id=0)`: one simulated chip (or a mesh); its tensors, op log and peak memory."""

    def __init__(self, device_id: int = 0, arch: str = "wormhole_b0", mesh_shape: tuple[int, int] = (1, 1),
                 mesh: MeshDevice | None = None):
        self.device_id = device_id
        # on `mesh`: a device the runtime opened (`ttrt.runtime.open_mesh_device`), its memory shared with its programs
        self.mesh = mesh if mesh is not None else MeshDevice(arch, tuple(mesh_shape))
        # the executor's program context: its perf list and peaks accumulate over the device's life
        self.context = ProgramContext(binary=None, program_index=0, device=self.mesh)
        self.next_id = 0
        self.is_open = True
        # tt-metal caches one compiled program per op and operand signature; on by default, as in tt-metal
        self.program_cache: set | None = set()

    def id(self) -> int:
        return self.device_id

    def arch(self) -> Arch:
        return Arch(self.mesh.arch)

    def get_num_devices(self) -> int:
        return self.mesh.num_chips

    @property
    def shape(self) -> tuple[int, int]:
        return self.mesh.mesh_shape

    def compute_with_storage_grid_size(self) -> CoreCoord:
        y, x = self.mesh.chips[0].facts.grid
        return CoreCoord(x, y)

    @property
    def core_grid(self) -> CoreGrid:
        y, x = self.mesh.chips[0].facts.grid
        return CoreGrid(y=y, x=x)

    def enable_program_cache(self) -> None:
        if self.program_cache is None:
            self.program_cache = set()

    def disable_and_clear_program_cache(self) -> None:
        self.program_cache = None

    def clear_program_cache(self) -> None:
        if self.program_cache is not None:
            self.program_cache.clear()

    def num_program_cache_entries(self) -> int:
        return len(self.program_cache or ())

    def note_program(self, key) -> None:
        """An op ran: its program is compiled once per signature while the cache is on."""
        if self.program_cache is not None:
            self.program_cache.add(key)

    def global_id(self) -> int:
        self.next_id += 1
        return self.next_id

    def __repr__(self) -> str:
        return f"<simulated {self.mesh.arch} device {self.device_id}, mesh {self.mesh.mesh_shape}>"


# open_device's keywords that size device regions or pick dispatch cores: the simulated device models the
# L1/DRAM banks and trace region from its chip's facts, so these are checked but change nothing it models
SIZING_KEYWORDS = ("l1_small_size", "trace_region_size", "num_command_queues", "worker_l1_size")


def open_device(device_id: int = 0, arch: str = "wormhole_b0", mesh_shape: tuple[int, int] = (1, 1),
                dispatch_core_config: DispatchCoreConfig | None = None, **sizes) -> Device:
    """A simulated device (`arch` wormhole_b0 or blackhole, or a `ttnn.device.Arch`)."""
    arch = arch.value if isinstance(arch, Arch) else arch
    if arch not in ("wormhole_b0", "blackhole"):
        raise ValueError(f"unknown arch '{arch}': wormhole_b0 or blackhole")
    for key, value in sizes.items():
        if key not in SIZING_KEYWORDS:
            raise TypeError(f"ttnn.open_device() got an unexpected keyword argument '{key}'")
        if not isinstance(value, int) or value < 0:
            raise ValueError(f"ttnn.open_device(): {key} must be a size in bytes, got {value!r}")
    if dispatch_core_config is not None and not isinstance(dispatch_core_config, DispatchCoreConfig):
        raise TypeError("ttnn.open_device(): dispatch_core_config must be a ttnn.DispatchCoreConfig")
    return Device(device_id, arch, mesh_shape)


def close_device(device: Device) -> None:
    device.is_open = False


def CreateDevice(device_id: int = 0, **kwargs) -> Device:  # noqa: N802 (tt-metal's name)
    return open_device(device_id, **kwargs)


def CloseDevice(device: Device) -> None:  # noqa: N802
    close_device(device)


@contextlib.contextmanager
def manage_device(device_id: int = 0, **kwargs):
    """`with ttnn.manage_device(device_id=0) as device:` opens the device and closes it after."""
    device = open_device(device_id, **kwargs)
    try:
        yield device
    finally:
        close_device(device)


def synchronize_device(device: Device, cq_id: int = 0) -> None:
    """Ops run to completion when called: nothing is in flight on the simulated device."""


class GlobalSemaphore:
    """A semaphore word on each core of a set, living beyond one op (`ttnn.create_global_semaphore`)."""

    def __init__(self, device: Device, cores: CoreRangeSet, value: int):
        self.device, self.cores, self.value = device, cores, value


def create_global_semaphore(mesh_device: Device, cores: CoreRangeSet, initial_value: int = 0) -> GlobalSemaphore:
    if not isinstance(mesh_device, Device):
        raise TypeError(f"ttnn.create_global_semaphore(): expected a ttnn device, got {type(mesh_device).__name__}")
    y, x = mesh_device.mesh.chips[0].facts.grid
    outside = [r for r in cores for (cx, cy) in r if not (0 <= cx < x and 0 <= cy < y)]
    if outside:
        raise ValueError(f"ttnn.create_global_semaphore(): core range {outside[0]} is outside the {x}x{y} core grid")
    return GlobalSemaphore(mesh_device, CoreRangeSet(cores), int(initial_value))


def reset_global_semaphore_value(semaphore: GlobalSemaphore, value: int) -> None:
    if not isinstance(semaphore, GlobalSemaphore):
        raise TypeError(f"ttnn.reset_global_semaphore_value(): expected a ttnn.GlobalSemaphore, "
                        f"got {type(semaphore).__name__}")
    semaphore.value = int(value)
