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
