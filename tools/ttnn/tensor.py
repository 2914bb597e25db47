"""`ttnn.Tensor`: a runtime tensor (value in its data format, layout, placement, buffer) and its device."""

from __future__ import annotations

import math
from types import SimpleNamespace

import torch

from ttmlir.runtime.tensor import Tensor as RuntimeTensor, materialize
from ttmlir.target import binary_generated as fb

TORCH_TYPES = {torch.float32: "f32", torch.bfloat16: "bf16", torch.float16: "bf16", torch.float64: "f32",
               torch.int32: "si32", torch.int64: "si32", torch.int16: "si32", torch.int8: "si32", torch.uint8: "u8",
               torch.bool: "bf16"}


def describe(shape, dtype: str, layout: str, buffer: str, memory_layout: str | None = None) -> fb.TensorRefT:
    """A tensor reference as the flatbuffer writer describes a tensor of this type (same descriptor, same size)."""
    from xdsl.dialects.builtin import Float32Type, TensorType

    from ttmlir.dialects import ttnn as ttnn_dialect
    from ttmlir.target.ttnn import ProgramWriter

    if memory_layout not in (None, "interleaved"):
        raise ValueError(f"a {memory_layout} tensor cannot be placed by the simulated ttnn API (interleaved only)")
    shape = tuple(int(d) for d in shape)
    element = ttnn_dialect.DATA_TYPE_TO_MLIR.get(dtype, Float32Type())
    encoding = ttnn_dialect.layout_for(shape, element, buffer, layout == "tile", dtype)
    ref = fb.TensorRefT()
    ref.desc, ref.size = ProgramWriter._new_desc(None, SimpleNamespace(type=TensorType(element, shape, encoding)))
    return ref


class Tensor:
    """A tensor on the host or on a simulated device."""

    def __init__(self, data, shape, dtype, layout, device=None, memory_config=None):
        """`ttnn.Tensor(values, shape, dtype, layout[, device, memory_config])`: a tensor of `values` (flat, row-major),
        on `device` when given (as the compiler's constants are)."""
        from ttnn.operations import construct

        if len(data) != math.prod(shape):
            raise ValueError(f"ttnn.Tensor: {len(data)} values for shape {list(shape)}")
        made = construct("constant", (device,), {"value": data, "dtype": dtype, "layout": layout,
                                                 "memory_config": memory_config}, list(shape))
        self.value, self._device = made.value, made._device

    @classmethod
    def of(cls, value: RuntimeTensor, device=None) -> Tensor:
        """The ttnn tensor holding a runtime tensor."""
        tensor = cls.__new__(cls)
        tensor.value, tensor._device = value, device
        return tensor

    @property
    def shape(self):
        from ttnn import Shape
        return Shape(self.value.shape)

    @property
    def padded_shape(self):
        from ttnn import Shape
        shape = list(self.value.shape)
        if self.value.layout == "tile" and shape:
            shape[-1] = math.ceil(shape[-1] / 32) * 32
            if len(shape) > 1:
                shape[-2] = math.ceil(shape[-2] / 32) * 32
        return Shape(shape)

    @property
    def dtype(self):
        from ttnn import DataType
        return DataType(self.value.dtype)

    @property
    def layout(self):
        from ttnn import Layout
        return Layout(self.value.layout)

    def memory_config(self):
        from ttnn import BufferType, MemoryConfig, TensorMemoryLayout
        if not self.value.on_device:
            return None
        return MemoryConfig(TensorMemoryLayout(self.value.memory_layout or "interleaved"),
                            BufferType(self.value.buffer_type))

    def device(self):
        return self._device if self.value.on_device else None

    def storage_type(self) -> str:
        return "DEVICE" if self.value.on_device else "HOST"

    def is_allocated(self) -> bool:
        return not self.value.on_device or self.value.address is not None

    def deallocate(self, force: bool = False) -> None:
        self.value.deallocate()

    def to_torch(self) -> torch.Tensor:
        return to_torch(self)

    def cpu(self):
        from ttnn import from_device
        return from_device(self)

    def __len__(self) -> int:
        return self.value.shape[0]

    def __repr__(self) -> str:
        where = f"{self.value.buffer_type}" + (f" @ {self.value.address}" if self.value.address is not None else "")
        return f"ttnn.Tensor(shape={list(self.value.shape)}, dtype={self.dtype.name}, layout={self.layout.name}, {where})"

    # operators as ttnn defines them
    def __add__(self, other):
        from ttnn import add
        return add(self, other)

    def __sub__(self, other):
        from ttnn import subtract
        return subtract(self, other)

    def __mul__(self, other):
        from ttnn import multiply
        return multiply(self, other)

    def __truediv__(self, other):
        from ttnn import divide
        return divide(self, other)

    def __matmul__(self, other):
        from ttnn import matmul
        return matmul(self, other)

    def __neg__(self):
        from ttnn import neg
        return neg(self)


def from_torch(tensor: torch.Tensor, dtype=None, layout=None, device=None, memory_config=None) -> Tensor:
    """A torch tensor as a ttnn tensor: stored in `dtype` (from the torch type by default), row-major unless
    `layout` says tile, on `device` (DRAM interleaved unless `memory_config` says otherwise) or on the host."""
    from ttnn import Layout

    if not isinstance(tensor, torch.Tensor):
        raise TypeError(f"ttnn.from_torch expects a torch.Tensor, got {type(tensor).__name__}")
    dtype_name = dtype.value if dtype is not None else TORCH_TYPES.get(tensor.dtype)
    if dtype_name is None:
        raise TypeError(f"ttnn.from_torch: no ttnn data type for torch {tensor.dtype}; pass dtype=")
    layout_name = (layout or Layout.ROW_MAJOR).value
    buffer, memory_layout = "system_memory", None
    if device is not None:
        buffer = memory_config.buffer_type.value if memory_config is not None else "dram"
        memory_layout = memory_config.memory_layout.value if memory_config is not None else "interleaved"
    elif memory_config is not None:
        raise ValueError("ttnn.from_torch: a memory_config needs a device")
    ref = describe(tensor.shape, dtype_name, layout_name, buffer, memory_layout)
    value = materialize(ref, tensor.detach(), device.mesh if device is not None else None, "ttnn.from_torch")
    return Tensor.of(value, device)


def to_torch(tensor: Tensor, dtype=None) -> torch.Tensor:
    """The tensor's values as torch holds its data format (bf16 as torch.bfloat16, block floats as float32)."""
    if not isinstance(tensor, Tensor):
        raise TypeError(f"ttnn.to_torch expects a ttnn.Tensor, got {type(tensor).__name__}")
    data = tensor.value.data
    return data if dtype is None else data.to(dtype)
