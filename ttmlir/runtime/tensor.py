"""Host and device tensors: logical values plus data format, layout, placement and buffer."""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch

from ttmlir import hardware
from ttmlir.runtime import RuntimeFailure
from ttmlir.runtime.device import MeshDevice
from ttmlir.runtime.formats import storage_dtype, to_format
from ttmlir.runtime.numerics import EXACT, Numerics
from ttmlir.target import binary_generated as fb
from ttmlir.target.flatbuffer import enum_names


@dataclass
class Tensor:
    """On a mesh, a tensor has a value on every chip: `data` on all of them (replicated), unless `shards`
    gives one value per chip (chip 0's is `data`), as after `mesh_shard` or a collective."""

    data: torch.Tensor                  # logical shape, stored as the data format stores it
    dtype: str                          # ttcore data type, e.g. "bf16"
    layout: str = "row_major"           # "tile" or "row_major"
    buffer_type: str = "system_memory"  # "system_memory" for host tensors
    memory_layout: str | None = None
    device: MeshDevice | None = None
    address: int | None = None
    size: int = 0                       # bytes in its buffer, padded to tiles
    shards: list[torch.Tensor] | None = None
    local: bool = False                 # holds per-chip pieces of an input sharded in advance, not its full shape
    shard_grid: tuple[int, int] | None = None  # cores holding one shard each, for a sharded memory layout
    retained: bool = False              # owned by the device (a trace's slot): outlives the program's deallocations

    def chip_values(self, chips: int) -> list[torch.Tensor]:
        return self.shards if self.shards is not None else [self.data] * chips

    @property
    def shape(self) -> list[int]:
        return list(self.data.shape)

    @property
    def stride(self) -> list[int]:
        return list(self.data.contiguous().stride())

    @property
    def volume(self) -> int:
        return self.data.numel()

    @property
    def on_device(self) -> bool:
        return self.buffer_type != "system_memory"

    def page_size(self) -> int:
        if self.layout == "tile":
            return hardware.tile_bytes(self.dtype)
        row = self.shape[-1] if self.shape else 1
        return max(1, int(math.ceil(row * hardware.DTYPE_BYTES[self.dtype])))

    def deallocate(self) -> None:
        if self.device is not None and self.address is not None and not self.retained:
            self.device.free(self.buffer_type, self.address)
            self.address = None

    def to_torch(self) -> torch.Tensor:
        return self.data


def desc_of(ref: fb.TensorRefT) -> dict:
    layout = ref.desc.layout
    config = layout.memoryConfig
    memory_layout = None if config is None or config.tensorMemoryLayout is None \
        else enum_names(fb.TensorMemoryLayout)[config.tensorMemoryLayout]
    return {"shape": [int(d) for d in ref.desc.shape], "dtype": enum_names(fb.DataType)[layout.dataType],
            "layout": enum_names(fb.TensorLayout)[layout.layout],
            "buffer_type": enum_names(fb.BufferType)[config.bufferType] if config is not None else "system_memory",
            "memory_layout": memory_layout,
            "shard_grid": (layout.grid.y, layout.grid.x) if (memory_layout or "").endswith("sharded") else None,
            "local_shape": [int(d) for d in ref.desc.localShape]
            if ref.desc.localShape is not None and len(ref.desc.localShape) else None}


def meta_value(ref: fb.TensorRefT, shape: list[int] | None = None) -> torch.Tensor:
    """A value without data ("meta") of the tensor's stored type, in its descriptor's shape or `shape`."""
    d = desc_of(ref)
    return torch.empty(d["shape"] if shape is None else shape, dtype=storage_dtype(d["dtype"]), device="meta")


def materialize(ref: fb.TensorRefT, values: torch.Tensor | list[torch.Tensor], device: MeshDevice | None,
                what: str, local: bool = False, num: Numerics = EXACT) -> Tensor:
    """A tensor as the descriptor places it: converted to its format (as `num`'s packer writes it), allocated in
    its buffer. `values` is one tensor (the same on every chip) or a list with one per chip of the mesh. With
    `local`, the values are per-chip pieces of a tensor sharded in advance, whose descriptor names the full
    shape."""
    d = desc_of(ref)
    per_chip = values if isinstance(values, list) else [values]
    local = local and list(per_chip[0].shape) != d["shape"]
    converted: dict[int, torch.Tensor] = {}  # a value shared by several chips is converted once
    for v in per_chip:
        if id(v) not in converted:
            converted[id(v)] = to_format(v if local else _shaped(v, d["shape"], what), d["dtype"], num)
    stored = [converted[id(v)] for v in per_chip]
    size = int(ref.size) * stored[0].numel() // max(1, math.prod(d["shape"])) if local else int(ref.size)
    tensor = Tensor(stored[0], d["dtype"], d["layout"], d["buffer_type"], d["memory_layout"], size=size,
                    shards=stored if len(converted) > 1 else None, local=local, shard_grid=d["shard_grid"])
    if tensor.on_device:
        if device is None:
            raise ValueError(f"{what}: a device tensor needs an open device")
        tensor.device = device
        try:
            per_bank = device.per_bank_bytes(tensor.buffer_type, tensor.size, tensor.page_size(), tensor.shard_grid)
        except ValueError as exc:
            raise ValueError(f"{what}: {exc}") from None
        tensor.address = device.allocate(tensor.buffer_type, per_bank, what)
    return tensor


WORD_RANGES = {"si32": (-(1 << 31), (1 << 31) - 1), "u32": (0, (1 << 32) - 1)}


def check_fits(values: torch.Tensor, dtype: str, what: str) -> None:
    """A program's 64-bit integer input is stored in 32 bits: a value that does not fit is refused, not cut to its
    low bits (results of the device's own ops wrap, as its integer units do). A meta input (timing runs) has no
    values to check."""
    if values.dtype != torch.int64 or dtype not in WORD_RANGES or values.numel() == 0 or values.is_meta:
        return
    low, high = WORD_RANGES[dtype]
    outside = (values < low) | (values > high)
    if outside.any():
        raise RuntimeFailure(f"{what}: value {int(values[outside][0])} does not fit {dtype}, the type the device "
                             f"stores it in ({low}..{high})")


def _shaped(values: torch.Tensor, shape: list[int], what: str) -> torch.Tensor:
    if list(values.shape) == shape:
        return values
    if values.numel() != math.prod(shape):
        raise ValueError(f"{what}: computed shape {list(values.shape)} does not match the compiled shape {shape}")
    return values.reshape(shape)
