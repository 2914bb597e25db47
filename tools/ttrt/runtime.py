"""`ttrt.runtime`: devices, tensors and the callback API of seed 001, on the simulated runtime."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

import torch

from ttmlir.cli import UserError
from ttmlir.runtime.device import MeshDevice
from ttmlir.runtime.executor import Binary, DebugHooks, OpContext, ProgramContext, golden_to_torch, run_program
from ttmlir.runtime.formats import to_format
from ttmlir.runtime.tensor import Tensor


class DeviceRuntime(Enum):
    Disabled = 0
    TTNN = 1
    TTMetal = 2


class DispatchCoreType(Enum):
    WORKER = 0
    ETH = 1


@dataclass
class MeshDeviceOptions:
    mesh_shape: tuple[int, int] = (1, 1)
    mesh_offset: tuple[int, int] = (0, 0)
    device_ids: tuple[int, ...] = ()
    num_hw_cqs: int = 1
    enable_program_cache: bool = False
    l1_small_size: int | None = None
    trace_region_size: int | None = None
    dispatch_core_type: DispatchCoreType = DispatchCoreType.WORKER
    arch: str = "wormhole_b0"


_current_runtime = DeviceRuntime.TTNN


def set_current_device_runtime(runtime: DeviceRuntime) -> None:
    global _current_runtime
    if runtime == DeviceRuntime.TTMetal:
        raise UserError("the TTMetal runtime is not supported by this build; use DeviceRuntime.TTNN")
    _current_runtime = runtime


def get_current_device_runtime() -> DeviceRuntime:
    return _current_runtime


def get_num_available_devices() -> int:
    return 1


def open_mesh_device(mesh_shape=None, options: MeshDeviceOptions | None = None) -> MeshDevice:
    """`open_mesh_device(options)` or `open_mesh_device(mesh_shape, options)`."""
    if isinstance(mesh_shape, MeshDeviceOptions):
        mesh_shape, options = None, mesh_shape
    options = options or MeshDeviceOptions()
    return MeshDevice(options.arch, tuple(mesh_shape or options.mesh_shape))


def close_mesh_device(device: MeshDevice) -> None:
    device.is_open = False


def submit(device: MeshDevice, binary: Binary, program_index: int, inputs: list[torch.Tensor],
           exact_numerics: bool = False) -> list[Tensor]:
    """Run one program of a binary on an open device (in f32 arithmetic with `exact_numerics`); returns its output
    tensors."""
    if not device.is_open:
        raise UserError("the device is closed")
    return run_program(binary, program_index, inputs, device, exact=exact_numerics)[0]


# --- the callback API ---------------------------------------------------------------------------

def get_op_loc_info(op_context: OpContext) -> str:
    return op_context.loc


def get_op_debug_str(op_context: OpContext) -> str:
    return op_context.debug_str


def get_debug_info_golden(binary: Binary, loc: str):
    return binary.golden(loc)


def get_op_output_tensor(op_context: OpContext, program_context: ProgramContext) -> Tensor | None:
    """The op's first output (after the op has run), or None before it or for ops without outputs."""
    return op_context.outputs[0] if op_context.outputs else None


def memory_report(program_context: ProgramContext) -> dict:
    return program_context.device.chips[0].memory_report()


# --- tensor helpers -----------------------------------------------------------------------------

def create_host_tensor(data: torch.Tensor, dtype: str = "f32") -> Tensor:
    return Tensor(to_format(data, dtype), dtype)


def to_host(tensor: Tensor) -> Tensor:
    return Tensor(tensor.data, tensor.dtype, tensor.layout)


def to_layout(tensor: Tensor, layout: str) -> Tensor:
    if layout not in ("tile", "row_major"):
        raise UserError(f"unknown layout '{layout}': expected 'tile' or 'row_major'")
    return Tensor(tensor.data, tensor.dtype, layout, tensor.buffer_type, tensor.memory_layout)


def get_tensor_shape(tensor: Tensor) -> list[int]:
    return tensor.shape


def get_tensor_stride(tensor: Tensor) -> list[int]:
    return tensor.stride


def get_tensor_data_type(tensor: Tensor) -> str:
    return tensor.dtype


def get_tensor_volume(tensor: Tensor) -> int:
    return tensor.volume


def deallocate_tensor(tensor: Tensor) -> None:
    tensor.deallocate()


__all__ = ["Binary", "DebugHooks", "DeviceRuntime", "DispatchCoreType", "MeshDeviceOptions", "golden_to_torch"]
