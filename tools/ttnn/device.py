"""Simulated devices: a mesh of Wormhole/Blackhole chips with the runtime's allocator, and the op log the perf
model fills (what `ttrt emitpy --memory` and the perf report read)."""

from __future__ import annotations

from ttmlir.runtime.device import MeshDevice
from ttmlir.runtime.executor import ProgramContext


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

    def id(self) -> int:
        return self.device_id

    def arch(self) -> str:
        return self.mesh.arch

    def get_num_devices(self) -> int:
        return self.mesh.num_chips

    @property
    def shape(self) -> tuple[int, int]:
        return self.mesh.mesh_shape

    def compute_with_storage_grid_size(self):
        from types import SimpleNamespace

        y, x = self.mesh.chips[0].facts.grid
        return SimpleNamespace(x=x, y=y)

    def global_id(self) -> int:
        self.next_id += 1
        return self.next_id

    def __repr__(self) -> str:
        return f"<simulated {self.mesh.arch} device {self.device_id}, mesh {self.mesh.mesh_shape}>"


def open_device(device_id: int = 0, arch: str = "wormhole_b0", mesh_shape: tuple[int, int] = (1, 1)) -> Device:
    """A simulated device (`arch` wormhole_b0 or blackhole)."""
    if arch not in ("wormhole_b0", "blackhole"):
        raise ValueError(f"unknown arch '{arch}': wormhole_b0 or blackhole")
    return Device(device_id, arch, mesh_shape)


def close_device(device: Device) -> None:
    device.is_open = False


class CoreCoord(tuple):
    """A Tensix core's (x, y) on the device grid: `ttnn.CoreCoord(0, 0)`."""

    def __new__(cls, x: int, y: int):
        return super().__new__(cls, (int(x), int(y)))


class CoreRange(tuple):
    """The cores of a rectangle, corners included: `ttnn.CoreRange(ttnn.CoreCoord(0, 0), ttnn.CoreCoord(7, 7))`."""

    def __new__(cls, start: CoreCoord, end: CoreCoord):
        return super().__new__(cls, (CoreCoord(*start), CoreCoord(*end)))


class CoreRangeSet(frozenset):
    """A set of core ranges: `ttnn.CoreRangeSet([ttnn.CoreRange(...)])`."""

    def __new__(cls, ranges=()):
        return super().__new__(cls, (CoreRange(*r) for r in ranges))

    def num_cores(self) -> int:
        return len({(x, y) for (x0, y0), (x1, y1) in self for x in range(x0, x1 + 1) for y in range(y0, y1 + 1)})


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
