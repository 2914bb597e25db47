"""`ttnn.Tensor`: a runtime tensor (value in its data format, layout, placement, buffer) and its device, and the
host <-> device conversions (`from_torch`, `to_torch`)."""

from __future__ import annotations

import math
from types import SimpleNamespace
from typing import Callable

import torch

from ttmlir.runtime.device import OutOfMemory
from ttmlir.runtime.tensor import Tensor as RuntimeTensor, materialize
from ttmlir.target import binary_generated as fb
from ttmlir.target import flatbuffer as fbu
from ttnn.distributed import TensorTopology, replicated
from ttnn.types import (SHARDED, BufferType, DataType, Layout, MemoryConfig, ShardOrientation, ShardSpec, Shape,
                        StorageType, TensorMemoryLayout, padded)

TORCH_TYPES = {torch.float32: "f32", torch.bfloat16: "bf16", torch.float16: "bf16", torch.float64: "f32",
               torch.int32: "si32", torch.int64: "si32", torch.int16: "si32", torch.int8: "si32", torch.uint8: "u8",
               torch.bool: "bf16"}
# the op functions a tensor's methods and operators call (`a + b` is `ttnn.add(a, b)`): installed by
# ttnn.operations when the package loads, so the tensor type stands below the ops that return it
OPS: dict[str, Callable] = {}


def describe(shape, dtype: str, layout: str, buffer: str, memory_layout: str | None = None,
             shard_grid: tuple[int, int] | None = None) -> fb.TensorRefT:
    """A tensor reference as the flatbuffer writer describes a tensor of this type (same descriptor, same size); a
    sharded one names its memory layout and the (rows, columns) of cores holding one shard each."""
    from xdsl.dialects.builtin import Float32Type, TensorType

    from ttmlir.dialects import ttnn as ttnn_dialect
    from ttmlir.target.ttnn import ProgramWriter

    shape = tuple(int(d) for d in shape)
    element = ttnn_dialect.DATA_TYPE_TO_MLIR.get(dtype, Float32Type())
    encoding = ttnn_dialect.layout_for(shape, element, buffer, layout == "tile", dtype)
    ref = fb.TensorRefT()
    ref.desc, ref.size = ProgramWriter._new_desc(None, SimpleNamespace(type=TensorType(element, shape, encoding)))
    if memory_layout not in (None, "interleaved"):
        ref.desc.layout.memoryConfig.tensorMemoryLayout = fbu.enum_value(fb.TensorMemoryLayout, memory_layout)
        ref.desc.layout.grid.y, ref.desc.layout.grid.x = shard_grid
    return ref


def shard_grid(spec: ShardSpec, memory_layout: TensorMemoryLayout, shape, tiled: bool, device,
               in_dram: bool = False) -> tuple[int, int]:
    """The (rows, columns) of cores (or DRAM banks, `in_dram`) a sharded tensor takes, checked as tt-metal checks a
    shard spec: the shards must tile the tensor (flattened to 2D, padded to tiles when tiled) over the spec's
    cores, on the device's grid."""
    dims = padded(shape) if tiled else list(shape)
    height, width = (math.prod(dims[:-1]) if len(dims) > 1 else 1), (dims[-1] if dims else 1)
    sh, sw = spec.shape
    if tiled and (sh % 32 or sw % 32):
        raise ValueError(f"a tiled tensor's shard shape must be whole tiles (multiples of 32), got {[sh, sw]}")
    gy, gx = device.mesh.chips[0].facts.grid
    if in_dram:  # the spec's cores are DRAM banks, (bank, 0), as tt-metal's dram_grid_size() numbers them
        gy, gx = 1, device.dram_grid_size().x
    outside = [c for c in spec.grid.cores() if not (0 <= c[0] < gx and 0 <= c[1] < gy)]
    if outside:
        raise ValueError(f"shard core {tuple(outside[0])} is outside the device's {gx}x{gy} "
                         f"{'DRAM bank' if in_dram else 'core'} grid")
    cores = spec.num_cores()
    rows, cols = math.ceil(height / sh), math.ceil(width / sw)
    if memory_layout == TensorMemoryLayout.HEIGHT_SHARDED:
        if sw != width:
            raise ValueError(f"a height-sharded shard is the tensor's full width {width}, got {sw}")
        need, fit = rows, cores
    elif memory_layout == TensorMemoryLayout.WIDTH_SHARDED:
        if sh != height:
            raise ValueError(f"a width-sharded shard is the tensor's full height {height}, got {sh}")
        need, fit = cols, cores
    else:
        box = spec.grid.bounding_box().grid_size()
        grid_rows, grid_cols = (box.y, box.x) if spec.orientation == ShardOrientation.ROW_MAJOR else (box.x, box.y)
        if rows > grid_rows or cols > grid_cols:
            raise ValueError(f"{rows}x{cols} block shards of {[sh, sw]} do not fit the {grid_rows}x{grid_cols} "
                             f"core grid of the shard spec")
        return min(grid_rows, gy), min(grid_cols, gx)
    if need > fit:
        raise ValueError(f"{need} shards of {[sh, sw]} for a {height}x{width} tensor do not fit {fit} cores")
    return math.ceil(need / gx), min(need, gx)


class Tensor:
    """A tensor on the host or on a simulated device (or each chip of a mesh: `tensor_topology()`).

    `ttnn.Tensor(torch_tensor, dtype[, device, layout, mem_config])` makes one from torch values (as `from_torch`);
    `ttnn.Tensor(values, shape, dtype, layout[, device, memory_config])` from flat row-major values, as the
    compiler's constants are built."""

    def __init__(self, data, shape_or_dtype=None, dtype=None, layout=None, device=None, memory_config=None,
                 mem_config=None, tile=None):
        if tile is not None:
            raise ValueError("ttnn.Tensor: the simulated device stores 32x32 tiles only (no tile=)")
        if type(data).__module__ == "numpy":  # a numpy array holds values as a torch tensor does
            data = torch.from_numpy(data)
        if isinstance(data, torch.Tensor):
            made = from_torch(data, dtype=shape_or_dtype if dtype is None else dtype, layout=layout, device=device,
                              memory_config=memory_config or mem_config)
        else:
            shape = list(shape_or_dtype)
            if len(data) != math.prod(shape):
                raise ValueError(f"ttnn.Tensor: {len(data)} values for shape {shape}")
            made = OPS["constant"](device, value=data, dtype=dtype, layout=layout, memory_config=memory_config,
                                   shape=shape)
        self.value, self._device, self._shard_spec = made.value, made._device, made._shard_spec

    # a mesh mapper's placements (`from_torch(mesh_mapper=...)`), passed on to the results of ops on the tensor
    _topology: TensorTopology | None = None

    @classmethod
    def of(cls, value: RuntimeTensor, device=None, shard_spec: ShardSpec | None = None) -> Tensor:
        """The ttnn tensor holding a runtime tensor."""
        tensor = cls.__new__(cls)
        tensor.value, tensor._device, tensor._shard_spec = value, device, shard_spec
        return tensor

    @property
    def shape(self) -> Shape:
        return Shape(self.value.shape)

    @property
    def padded_shape(self) -> Shape:
        if self.value.layout != "tile":
            return Shape(self.value.shape)
        # a tile holds at least a 32x32 block: a tiled vector or scalar is stored as one tile row
        return Shape(padded([1] * (2 - len(self.value.shape)) + list(self.value.shape)))

    @property
    def logical_shape(self) -> Shape:
        return self.shape

    @property
    def dtype(self) -> DataType:
        return DataType(self.value.dtype)

    def get_dtype(self) -> DataType:
        return self.dtype

    @property
    def layout(self) -> Layout:
        return Layout(self.value.layout)

    def get_layout(self) -> Layout:
        return self.layout

    def memory_config(self) -> MemoryConfig:
        """Where the tensor lives; a host tensor reports tt-metal's default (DRAM interleaved), where `to_device`
        puts it."""
        if not self.value.on_device:
            return MemoryConfig(TensorMemoryLayout.INTERLEAVED, BufferType.DRAM)
        return MemoryConfig(TensorMemoryLayout(self.value.memory_layout or "interleaved"),
                            BufferType(self.value.buffer_type), self._shard_spec)

    def tensor_topology(self) -> TensorTopology:
        """How its chip values make up the whole (a mapper's placements; replicated when made without one)."""
        if self._topology is not None:
            return self._topology
        return replicated(self._device.shape if self._device is not None else (1, 1))

    def is_sharded(self) -> bool:
        return self.value.on_device and TensorMemoryLayout(self.value.memory_layout or "interleaved") in SHARDED

    def shard_spec(self) -> ShardSpec | None:
        return self._shard_spec

    def device(self):
        return self._device if self.value.on_device else None

    def storage_type(self) -> StorageType:
        return StorageType.DEVICE if self.value.on_device else StorageType.HOST

    def is_allocated(self) -> bool:
        return not self.value.on_device or self.value.address is not None

    def buffer_address(self) -> int:
        if self.value.address is None:
            raise RuntimeError("ttnn.Tensor.buffer_address: the tensor has no device buffer")
        return self.value.address

    def volume(self) -> int:
        return self.value.volume

    def deallocate(self, force: bool = False) -> None:
        self.value.deallocate()

    def to_torch(self, **kwargs) -> torch.Tensor:
        return to_torch(self, **kwargs)

    def cpu(self, blocking: bool = True):
        return OPS["from_device"](self)

    def to(self, target, memory_config=None):
        """`tensor.to(device)` moves it to a device, `tensor.to(layout)` changes its layout."""
        if isinstance(target, Layout):
            return OPS["to_layout"](self, target)
        return OPS["to_device"](self, target, memory_config=memory_config)

    def reshape(self, *shape):
        return OPS["reshape"](self, shape[0] if len(shape) == 1 else shape)

    def __len__(self) -> int:
        return self.value.shape[0]

    def __getitem__(self, index):
        return OPS["getitem"](self, index)

    def __repr__(self) -> str:
        """Its values and type, as tt-metal prints a tensor, and where it lives."""
        where = f"{self.value.buffer_type}" + (f" @ {self.value.address}" if self.value.address is not None else "")
        values = str(self.value.data.float()).removeprefix("tensor(").removesuffix(")") \
            if self.value.data is not None else "..."
        return (f"ttnn.Tensor({values}, shape=Shape({list(self.value.shape)}), dtype=DataType::{self.dtype.name}, "
                f"layout=Layout::{self.layout.name}, {where})")


def _operator(name: str):
    def method(self, other):
        return OPS[name](self, other)

    method.__name__ = name
    return method


# operators as ttnn defines them: each the op of that name
# (`2 + t` is add(t, 2), `2 - t` is rsub(t, 2))
for _dunder, _op in (("add", "add"), ("radd", "add"), ("sub", "subtract"), ("rsub", "rsub"), ("mul", "multiply"),
                     ("rmul", "multiply"), ("truediv", "divide"), ("rtruediv", "rdiv"), ("matmul", "matmul"),
                     ("pow", "pow"), ("eq", "eq"), ("ne", "ne"), ("lt", "lt"), ("le", "le"), ("gt", "gt"),
                     ("ge", "ge"), ("and", "logical_and"), ("or", "logical_or")):
    setattr(Tensor, f"__{_dunder}__", _operator(_op))
Tensor.__neg__ = lambda self: OPS["neg"](self)
Tensor.__abs__ = lambda self: OPS["abs"](self)
Tensor.__hash__ = object.__hash__


def placement(memory_config: MemoryConfig | None, device, shape, layout: str) -> tuple[str, str | None, tuple | None]:
    """The buffer, memory layout and shard grid a memory config gives a tensor of `shape` on `device`."""
    if memory_config is None:
        return "dram", "interleaved", None
    if not isinstance(memory_config, MemoryConfig):
        raise TypeError(f"memory_config must be a ttnn.MemoryConfig, got {type(memory_config).__name__}")
    grid = None
    memory_config = memory_config.for_shape(shape)
    if memory_config.is_sharded():
        if memory_config.shard_spec is None:
            raise ValueError(f"a {memory_config.memory_layout.name} tensor needs a shard spec "
                             f"(ttnn.create_sharded_memory_config)")
        grid = shard_grid(memory_config.shard_spec, memory_config.memory_layout, shape, layout == "tile", device,
                          memory_config.buffer_type == BufferType.DRAM)
    return memory_config.buffer_type.value, memory_config.memory_layout.value, grid


def from_torch(tensor: torch.Tensor, dtype=None, *, layout=None, device=None, memory_config=None, tile=None,
               pad_value=None, mesh_mapper=None, cq_id=None, spec=None) -> Tensor:
    """A torch tensor as a ttnn tensor: stored in `dtype` (from the torch type by default), row-major unless
    `layout` says tile, on `device` (DRAM interleaved unless `memory_config` says otherwise) or on the host.
    A `mesh_mapper` (`ttnn.ShardTensorToMesh`, ...) gives each chip of a mesh its own value, of one chip's shape."""
    if not isinstance(tensor, torch.Tensor):
        raise TypeError(f"ttnn.from_torch expects a torch.Tensor, got {type(tensor).__name__}")
    for key, value in (("tile", tile), ("pad_value", pad_value), ("spec", spec)):
        if value is not None:
            raise ValueError(f"ttnn.from_torch: {key}= is not supported by the simulated device")
    dtype_name = dtype.value if dtype is not None else TORCH_TYPES.get(tensor.dtype)
    if dtype_name is None:
        raise TypeError(f"ttnn.from_torch: no ttnn data type for torch {tensor.dtype}; pass dtype=")
    layout_name = (layout or Layout.ROW_MAJOR).value
    if dtype_name.startswith("bfp") and layout_name != "tile":
        raise ValueError(f"ttnn.from_torch: {DataType(dtype_name).name} tensors are stored in tiles (layout=TILE_LAYOUT)")
    values = _mapped(tensor.detach(), mesh_mapper, device)
    shape = values[0].shape
    buffer, memory_layout, grid = "system_memory", None, None
    if device is None and memory_config is not None:
        raise ValueError("ttnn.from_torch: a memory_config needs a device")
    try:
        if device is not None:
            buffer, memory_layout, grid = placement(memory_config, device, shape, layout_name)
        ref = describe(shape, dtype_name, layout_name, buffer, memory_layout, grid)
        value = materialize(ref, values if mesh_mapper is not None else values[0],
                            device.mesh if device is not None else None, "ttnn.from_torch")
    except (ValueError, OutOfMemory) as exc:  # tt-metal reports a bad placement and a full device as RuntimeErrors
        raise RuntimeError(str(exc)) from None
    made = Tensor.of(value, device, memory_config.for_shape(shape).shard_spec if grid is not None else None)
    if mesh_mapper is not None:
        made._topology = mesh_mapper.topology()
    return made


def _mapped(tensor: torch.Tensor, mesh_mapper, device) -> list[torch.Tensor]:
    """Each chip's value: the mapper's (checked against the device's mesh), else the one tensor."""
    if mesh_mapper is None:
        return [tensor]
    if not hasattr(mesh_mapper, "map"):
        raise TypeError(f"ttnn.from_torch: mesh_mapper must be a ttnn mesh mapper (ttnn.ShardTensorToMesh, ...), "
                        f"got {type(mesh_mapper).__name__}")
    values = mesh_mapper.map(tensor)
    if device is not None and len(values) != device.get_num_devices():
        raise ValueError(f"ttnn.from_torch: the mesh mapper gives {len(values)} chip values for a device of "
                         f"{device.get_num_devices()} chips")
    return values


def to_torch(tensor: Tensor, dtype=None, *, torch_rank: int | None = None, mesh_composer=None, device=None,
             cq_id=None) -> torch.Tensor:
    """The tensor's values as torch holds its data format (bf16 as torch.bfloat16, block floats as float32);
    `torch_rank` drops leading dimensions of size 1 down to that rank."""
    if isinstance(tensor, torch.Tensor):
        return tensor if dtype is None else tensor.to(dtype)
    if not isinstance(tensor, Tensor):
        raise TypeError(f"ttnn.to_torch expects a ttnn.Tensor, got {type(tensor).__name__}")
    data = tensor.value.data
    if mesh_composer is not None:
        if not hasattr(mesh_composer, "compose"):
            raise TypeError(f"ttnn.to_torch: mesh_composer must be a ttnn mesh composer (ttnn.ConcatMeshToTensor, "
                            f"...), got {type(mesh_composer).__name__}")
        rows, cols = mesh_composer.mesh_shape
        data = mesh_composer.compose(tensor.value.chip_values(rows * cols))
    if torch_rank is not None:
        while data.dim() > torch_rank:
            if data.shape[0] != 1:
                raise RuntimeError(f"ttnn.to_torch: cannot drop a dimension of size {data.shape[0]} to reach "
                                   f"rank {torch_rank}")
            data = data[0]
    return data if dtype is None else data.to(dtype)


def is_tensor_storage_on_device(tensor: Tensor) -> bool:
    return tensor.value.on_device


def is_sharded(tensor: Tensor) -> bool:
    return tensor.is_sharded()


def get_memory_config(tensor: Tensor) -> MemoryConfig | None:
    return tensor.memory_config()


def get_device_tensors(tensor: Tensor) -> list[Tensor]:
    """A mesh tensor's per-chip tensors, in mesh order (one for a single chip's)."""
    device = tensor._device
    chips = device.mesh.num_chips if device is not None else 1
    if chips == 1:
        return [tensor]
    if tensor.value.on_device:
        raise RuntimeError("ttnn.get_device_tensors: read a device tensor's chips from the host (tensor.cpu())")
    return [from_torch(value, dtype=tensor.dtype, layout=tensor.layout) for value in tensor.value.chip_values(chips)]
