"""Simulated devices: a mesh of Wormhole/Blackhole chips with the runtime's allocator, the op log the perf model
fills (what `ttrt emitpy --memory` and the perf report read) and tt-metal's program cache."""

from __future__ import annotations

import contextlib

from ttmlir.runtime.device import L1_SMALL_SIZE, MeshDevice
from ttmlir.runtime.executor import ProgramContext
from ttnn.types import (Arch, CoreCoord, CoreGrid, CoreRangeSet, DispatchCoreAxis, DispatchCoreConfig,
                        DispatchCoreType)


class Device:
    """`ttnn.open_device(device_id=0)`: one simulated chip (or a mesh); its tensors, op log and peak memory."""

    def __init__(self, device_id: int = 0, arch: str = "wormhole_b0", mesh_shape: tuple[int, int] = (1, 1),
                 mesh: MeshDevice | None = None, num_command_queues: int = 1,
                 dispatch_core_config: DispatchCoreConfig | None = None, **regions):
        self.device_id = device_id
        # on `mesh`: a device the runtime opened (`ttrt.runtime.open_mesh_device`), its memory shared with its programs
        self.mesh = mesh if mesh is not None else MeshDevice(arch, tuple(mesh_shape), **regions)
        # the executor's program context: its perf list and peaks accumulate over the device's life
        self.context = ProgramContext(binary=None, program_index=0, device=self.mesh)
        self.next_id = 0
        self.is_open = True
        # tt-metal caches one compiled program per op and operand signature; on by default, as in tt-metal
        self.program_cache: set | None = set()
        self.num_command_queues = num_command_queues
        self.async_mode = False
        self.sub_device_managers: list = []  # create_sub_device_manager's partitions; the loaded one's sub-devices
        self.sub_devices: list | None = None
        self.dispatch_core_config = dispatch_core_config or DispatchCoreConfig()

    def id(self) -> int:
        return self.device_id

    def arch(self) -> Arch:
        return Arch(self.mesh.arch)

    def get_num_devices(self) -> int:
        return self.mesh.num_chips

    def get_device_ids(self) -> list[int]:
        return list(range(self.mesh.num_chips))

    @property
    def shape(self) -> tuple[int, int]:
        return self.mesh.mesh_shape

    def compute_with_storage_grid_size(self) -> CoreCoord:
        y, x = self.mesh.chips[0].facts.grid
        return CoreCoord(x, y)

    def dram_grid_size(self) -> CoreCoord:
        """The DRAM banks as a grid of one row, as DRAM-sharded shard specs name them (bank x at (x, 0))."""
        return CoreCoord(self.mesh.chips[0].allocators["dram"].num_banks, 1)

    @property
    def core_grid(self) -> CoreGrid:
        y, x = self.mesh.chips[0].facts.grid
        return CoreGrid(y=y, x=x)

    def enable_async(self, enabled: bool) -> None:
        """tt-metal's asynchronous dispatch (a host thread queues ops and returns). The simulated device runs each
        op to completion when it is called, so the values and the modelled device time are the same in either
        mode; the mode is kept for `async_mode`."""
        self.async_mode = bool(enabled)

    def create_sub_device_manager(self, sub_devices, local_l1_size: int) -> int:
        """A partition of the worker grid into sub-devices (disjoint core sets); `load_sub_device_manager` makes
        ops run on them. A sub-device's own L1 region (`local_l1_size`) is not modelled: it must be 0."""
        if local_l1_size:
            raise ValueError("create_sub_device_manager: a sub-device local L1 region is not modelled by the "
                             "simulated device (local_l1_size must be 0)")
        gy, gx = self.mesh.chips[0].facts.grid
        seen: set = set()
        for sub in sub_devices:
            cores = set(sub.cores.cores())
            outside = [c for c in cores if not (c.x < gx and c.y < gy)]
            if outside or cores & seen:
                raise ValueError(f"create_sub_device_manager: core {tuple((outside or sorted(cores & seen))[0])} is "
                                 f"{'outside the worker grid' if outside else 'in two sub-devices'}")
            seen |= cores
        self.sub_device_managers.append(list(sub_devices))
        return len(self.sub_device_managers) - 1

    def load_sub_device_manager(self, manager_id: int) -> None:
        self.sub_devices = self.sub_device_managers[manager_id]

    def clear_loaded_sub_device_manager(self) -> None:
        self.sub_devices = None

    def remove_sub_device_manager(self, manager_id: int) -> None:
        if self.sub_devices is self.sub_device_managers[manager_id]:
            raise RuntimeError("remove_sub_device_manager: the manager is loaded; clear it first")
        self.sub_device_managers[manager_id] = None

    def sub_device_cores(self, ids=None) -> int | None:
        """The cores ops run on under the loaded sub-devices (those of `ids`, else all of them); None: the grid."""
        if self.sub_devices is None:
            if ids:
                raise ValueError("sub_device_ids: no sub-device manager is loaded on the device")
            return None
        chosen = self.sub_devices if not ids else [self.sub_devices[int(i)] for i in ids]
        return len({c for sub in chosen for c in sub.cores.cores()})

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


def open_device(device_id: int = 0, *, l1_small_size: int = L1_SMALL_SIZE, trace_region_size: int = 0,
                worker_l1_size: int | None = None, num_command_queues: int = 1,
                dispatch_core_config: DispatchCoreConfig | None = None, arch: str = "wormhole_b0",
                mesh_shape: tuple[int, int] = (1, 1)) -> Device:
    """A simulated device (`arch` wormhole_b0 or blackhole, or a `ttnn.device.Arch`). The region sizes are the
    allocator's: `l1_small_size` bytes of each core's L1 (what convolutions and pools keep their configs in),
    `trace_region_size` bytes of each DRAM bank for traces, `worker_l1_size` the unreserved L1 per core."""
    arch = arch.value if isinstance(arch, Arch) else arch
    if arch not in ("wormhole_b0", "blackhole"):
        raise ValueError(f"unknown arch '{arch}': wormhole_b0 or blackhole")
    for key, value in (("l1_small_size", l1_small_size), ("trace_region_size", trace_region_size),
                       ("worker_l1_size", worker_l1_size if worker_l1_size is not None else 0)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ValueError(f"ttnn.open_device(): {key} must be a size in bytes, got {value!r}")
    if num_command_queues not in (1, 2):  # tt-metal's devices have one or two hardware command queues
        raise ValueError(f"ttnn.open_device(): num_command_queues must be 1 or 2, got {num_command_queues!r}")
    check_dispatch(dispatch_core_config)
    try:
        return Device(device_id, arch, mesh_shape, num_command_queues=num_command_queues,
                      dispatch_core_config=dispatch_core_config, l1_small_size=l1_small_size,
                      trace_region_size=trace_region_size, worker_l1_size=worker_l1_size)
    except ValueError as exc:
        raise ValueError(f"ttnn.open_device(): {exc}") from None


def open_mesh_device(mesh_shape=None, *, l1_small_size: int = L1_SMALL_SIZE, trace_region_size: int = 0,
                     num_command_queues: int = 1, dispatch_core_config: DispatchCoreConfig | None = None,
                     offset=None, physical_device_ids=None, worker_l1_size: int | None = None,
                     arch: str = "wormhole_b0") -> Device:
    """A mesh of simulated chips, `mesh_shape` (rows, columns) of them (`ttnn.MeshShape(1, 2)`); without one, the
    simulated system's single chip. The chips are simulated, so there is no physical placement to choose: an
    `offset` into a larger system mesh or explicit `physical_device_ids` are refused."""
    if offset is not None or physical_device_ids:
        raise ValueError("ttnn.open_mesh_device(): offset/physical_device_ids place a mesh on a physical system; the "
                         "simulated mesh has no such placement")
    shape = tuple(int(d) for d in mesh_shape) if mesh_shape is not None else (1, 1)
    if len(shape) == 1:
        shape = (1, shape[0])
    if len(shape) != 2 or min(shape) < 1:
        raise ValueError(f"ttnn.open_mesh_device(): a mesh shape is (rows, columns) of chips, got {list(shape)}")
    return open_device(0, l1_small_size=l1_small_size, trace_region_size=trace_region_size,
                       worker_l1_size=worker_l1_size, num_command_queues=num_command_queues,
                       dispatch_core_config=dispatch_core_config, arch=arch, mesh_shape=shape)


def close_mesh_device(mesh_device: Device) -> None:
    close_device(mesh_device)


def check_dispatch(config: DispatchCoreConfig | None) -> None:
    """The simulated chip's command queues run on dispatch cores outside its compute grid (a row of Tensix cores
    beside it, or the Ethernet cores), as an n150's do, so both leave the whole grid computing; dispatch on a
    column of the worker grid would take cores from it, which the simulator does not model."""
    if config is None:
        return
    if not isinstance(config, DispatchCoreConfig):
        raise TypeError("ttnn.open_device(): dispatch_core_config must be a ttnn.DispatchCoreConfig")
    if config.type == DispatchCoreType.WORKER and config.axis == DispatchCoreAxis.COL:
        raise ValueError("ttnn.open_device(): column dispatch cores (DispatchCoreAxis.COL) are not modelled by the "
                         "simulated device; use DispatchCoreAxis.ROW or DispatchCoreType.ETH")


def check_queue(callee: str, queue_id, device) -> None:
    """An op's command queue must be one the device opened (ops run to completion in call order on either)."""
    count = device.num_command_queues if device is not None else 1
    if queue_id is not None and not (isinstance(queue_id, int) and 0 <= queue_id < count):
        raise ValueError(f"ttnn.{callee}(): queue_id {queue_id!r} is not one of the device's {count} command "
                         f"queue(s) (open it with num_command_queues=2 for a second)")


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
