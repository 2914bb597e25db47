"""ttnn's value types: data types, layouts, buffers, memory configs (sharded ones included), core coordinates and
grids, and the configuration records ops take. Plain data: nothing here touches the device."""

from __future__ import annotations

import enum
import math
from types import SimpleNamespace

from ttmlir.conversion import ttnn_api


def _enum(name: str, members: dict[str, str]) -> type[enum.Enum]:
    """An enum whose members are ttnn's names and whose values are the compiler's (first name wins)."""
    table: dict[str, str] = {}
    for value, member in members.items():
        table.setdefault(member, value)
    return enum.Enum(name, table)


DataType = _enum("DataType", ttnn_api.DATA_TYPES)
Layout = _enum("Layout", ttnn_api.LAYOUTS)
BufferType = _enum("BufferType", ttnn_api.BUFFER_TYPES)
TensorMemoryLayout = _enum("TensorMemoryLayout", ttnn_api.MEMORY_LAYOUTS)
ReduceType = _enum("ReduceType", {v: v.upper() for v in ("sum", "mean", "max", "min", "std", "var", "prod", "invalid")})
MeshShardType = _enum("MeshShardType", {v: v.upper() for v in ("identity", "replicate", "maximal", "devices")})
MathFidelity = _enum("MathFidelity", ttnn_api.FIELD_ENUMS["math_fidelity"][1])
MeshShardDirection = _enum("MeshShardDirection", {"full_to_shard": "FULL_TO_SHARD", "shard_to_full": "SHARD_TO_FULL"})
# how create_sharded_memory_config splits a tensor over its cores, and the memory layout each strategy gives
ShardStrategy = enum.Enum("ShardStrategy", {"HEIGHT": "height_sharded", "WIDTH": "width_sharded",
                                            "BLOCK": "block_sharded"})
ShardOrientation = enum.Enum("ShardOrientation", ["ROW_MAJOR", "COL_MAJOR"])
DispatchCoreType = enum.Enum("DispatchCoreType", ["WORKER", "ETH"])
DispatchCoreAxis = enum.Enum("DispatchCoreAxis", ["ROW", "COL"])
# where a tensor's values are: the host's memory or a device's banks (`tensor.storage_type()`)
StorageType = enum.Enum("StorageType", ["HOST", "DEVICE"])
DEVICE_STORAGE_TYPE = StorageType.DEVICE
# the chips the simulator models, as tt-metal's `ttnn.device.Arch` names them (values: the runtime's arch names)
Arch = enum.Enum("Arch", {"WORMHOLE_B0": "wormhole_b0", "BLACKHOLE": "blackhole"})

TILE_LAYOUT, ROW_MAJOR_LAYOUT = Layout.TILE, Layout.ROW_MAJOR
bfloat16, float32, uint32, uint16, uint8, int32 = (DataType.BFLOAT16, DataType.FLOAT32, DataType.UINT32,
                                                   DataType.UINT16, DataType.UINT8, DataType.INT32)
bfloat8_b, bfloat4_b = DataType.BFLOAT8_B, DataType.BFLOAT4_B
TILE_SIZE = 32


class Shape(tuple):
    """A tensor's logical shape: `ttnn.Shape([32, 64])`."""

    def __new__(cls, dims=()):
        return super().__new__(cls, (int(d) for d in dims))

    @property
    def rank(self) -> int:
        return len(self)

    def __eq__(self, other) -> bool:  # a shape equals any sequence of the same sizes, as tt-metal's does
        return isinstance(other, (tuple, list, torch_size_types())) and tuple(self) == tuple(other)

    def __ne__(self, other) -> bool:
        return not self == other

    __hash__ = tuple.__hash__

    def with_tile_padding(self) -> Shape:
        return Shape(padded(self))


def torch_size_types() -> tuple:
    """torch.Size, when torch is loaded (this module does not import it)."""
    import sys
    torch = sys.modules.get("torch")
    return (torch.Size,) if torch is not None else ()


def padded(shape) -> list[int]:
    """The shape a tiled tensor stores: its last two dimensions rounded up to whole tiles."""
    shape = list(shape)
    for i in range(max(0, len(shape) - 2), len(shape)):
        shape[i] = math.ceil(shape[i] / TILE_SIZE) * TILE_SIZE
    return shape


class MeshShape(tuple):
    def __new__(cls, *dims):
        return super().__new__(cls, dims[0] if len(dims) == 1 else dims)


class CoreCoord(tuple):
    """A Tensix core's (x, y) on the device grid: `ttnn.CoreCoord(0, 0)`."""

    def __new__(cls, x: int, y: int):
        return super().__new__(cls, (int(x), int(y)))

    x = property(lambda self: self[0])
    y = property(lambda self: self[1])


class CoreRange(tuple):
    """The cores of a rectangle, corners included: `ttnn.CoreRange(ttnn.CoreCoord(0, 0), ttnn.CoreCoord(7, 7))`."""

    def __new__(cls, start: CoreCoord, end: CoreCoord):
        return super().__new__(cls, (CoreCoord(*start), CoreCoord(*end)))

    start = property(lambda self: self[0])
    end = property(lambda self: self[1])

    def grid_size(self) -> CoreCoord:
        return CoreCoord(self[1][0] - self[0][0] + 1, self[1][1] - self[0][1] + 1)

    def cores(self) -> list[CoreCoord]:
        (x0, y0), (x1, y1) = self
        return [CoreCoord(x, y) for y in range(y0, y1 + 1) for x in range(x0, x1 + 1)]


class CoreRangeSet(frozenset):
    """A set of core ranges: `ttnn.CoreRangeSet([ttnn.CoreRange(...)])` (a set literal works too)."""

    def __new__(cls, ranges=()):
        if isinstance(ranges, CoreRange):
            ranges = [ranges]
        return super().__new__(cls, (CoreRange(*r) for r in ranges))

    def cores(self) -> list[CoreCoord]:
        return sorted({c for r in self for c in r.cores()}, key=lambda c: (c[1], c[0]))

    def num_cores(self) -> int:
        return len(self.cores())

    def bounding_box(self) -> CoreRange:
        cores = self.cores()
        return CoreRange(CoreCoord(min(c[0] for c in cores), min(c[1] for c in cores)),
                         CoreCoord(max(c[0] for c in cores), max(c[1] for c in cores)))

    def ranges(self) -> list[CoreRange]:
        return sorted(self)


class SubDevice:
    """A partition of the device's worker cores that ops can be confined to: `ttnn.SubDevice([core_range_set])`."""

    def __init__(self, cores):
        sets = [cores] if isinstance(cores, CoreRangeSet) else list(cores)
        self.cores = CoreRangeSet(r for crs in sets for r in CoreRangeSet(crs))


class SubDeviceId(int):
    """The index of a sub-device in the loaded sub-device manager: `ttnn.SubDeviceId(0)`."""


class CoreGrid(SimpleNamespace):
    """A rectangle of cores from (0, 0): `ttnn.CoreGrid(y=8, x=8)`."""

    def __init__(self, y: int, x: int):
        super().__init__(y=int(y), x=int(x))

    @property
    def num_cores(self) -> int:
        return self.x * self.y

    def core_range_set(self) -> CoreRangeSet:
        return CoreRangeSet([CoreRange(CoreCoord(0, 0), CoreCoord(self.x - 1, self.y - 1))])


def num_cores_to_corerangeset(num_cores: int, grid_size, row_wise: bool = False) -> CoreRangeSet:
    """The first `num_cores` cores of a grid, filled row by row (`row_wise`) or column by column."""
    gx, gy = (grid_size.x, grid_size.y) if hasattr(grid_size, "x") else grid_size
    if num_cores > gx * gy:
        raise ValueError(f"ttnn.num_cores_to_corerangeset: {num_cores} cores do not fit a {gx}x{gy} grid")
    order = [(x, y) for y in range(gy) for x in range(gx)] if row_wise else \
        [(x, y) for x in range(gx) for y in range(gy)]
    return CoreRangeSet([CoreRange(CoreCoord(*c), CoreCoord(*c)) for c in order[:num_cores]])


class ShardSpec:
    """Each core's piece of a sharded tensor: the cores (in `orientation` order), the shard's [height, width]
    (of the tensor flattened to 2D)."""

    def __init__(self, grid: CoreRangeSet, shard_shape, shard_orientation=ShardOrientation.ROW_MAJOR):
        self.grid, self.shape, self.orientation = CoreRangeSet(grid), tuple(int(d) for d in shard_shape), \
            shard_orientation
        if len(self.shape) != 2:
            raise ValueError(f"ttnn.ShardSpec: a shard shape is [height, width], got {list(self.shape)}")

    def num_cores(self) -> int:
        return self.grid.num_cores()

    def __eq__(self, other) -> bool:
        return isinstance(other, ShardSpec) and (self.grid, self.shape, self.orientation) == \
            (other.grid, other.shape, other.orientation)

    def __hash__(self) -> int:
        return hash((self.grid, self.shape, self.orientation))

    def __repr__(self) -> str:
        return f"ShardSpec(grid={sorted(self.grid)}, shape={list(self.shape)}, orientation={self.orientation.name})"


class NdShardSpec:
    """An N-dimensional shard and the cores its shards go to, round-robin: `ttnn.NdShardSpec(shard_shape, grid)`."""

    def __init__(self, shard_shape, grid, orientation=ShardOrientation.ROW_MAJOR):
        self.shard_shape, self.grid, self.orientation = tuple(int(d) for d in shard_shape), CoreRangeSet(grid), \
            orientation

    def __eq__(self, other) -> bool:
        return isinstance(other, NdShardSpec) and (self.shard_shape, self.grid, self.orientation) == \
            (other.shard_shape, other.grid, other.orientation)

    def __hash__(self) -> int:
        return hash((self.shard_shape, self.grid, self.orientation))


SHARDED = {TensorMemoryLayout.HEIGHT_SHARDED, TensorMemoryLayout.WIDTH_SHARDED, TensorMemoryLayout.BLOCK_SHARDED}
DRAM_SHARDED = {TensorMemoryLayout.HEIGHT_SHARDED, TensorMemoryLayout.WIDTH_SHARDED}


class MemoryConfig:
    """Where a device tensor lives: `MemoryConfig(TensorMemoryLayout.INTERLEAVED, BufferType.DRAM)`, or sharded
    over L1 cores (or DRAM banks) with a `ShardSpec` (a sharded config without one lets the op choose the shards)."""

    def __init__(self, memory_layout=TensorMemoryLayout.INTERLEAVED, buffer_type=BufferType.DRAM, shard_spec=None,
                 **kwargs):
        nd = kwargs.pop("nd_shard_spec", None)
        if kwargs:
            raise TypeError(f"ttnn.MemoryConfig got an unexpected keyword argument '{next(iter(kwargs))}'")
        if isinstance(memory_layout, BufferType):  # MemoryConfig(buffer_type, nd_shard_spec): tt-metal's ND form
            memory_layout, buffer_type, nd = None, memory_layout, nd if nd is not None else buffer_type
            if not isinstance(nd, NdShardSpec):
                raise TypeError("ttnn.MemoryConfig(buffer_type, nd_shard_spec): the second argument is a "
                                "ttnn.NdShardSpec")
        self.nd = nd
        if nd is not None:
            self.memory_layout, self.buffer_type, self.shard_spec = memory_layout, buffer_type, None
            return
        if shard_spec is not None and not isinstance(shard_spec, ShardSpec):
            raise TypeError(f"ttnn.MemoryConfig: shard_spec must be a ttnn.ShardSpec, got {type(shard_spec).__name__}")
        if shard_spec is not None and memory_layout not in SHARDED:
            raise ValueError(f"ttnn.MemoryConfig: a shard spec needs a sharded memory layout, got {memory_layout}")
        # DRAM shards are one per DRAM bank, in a row of banks: height or width shards, never blocks
        homes = (BufferType.L1, BufferType.DRAM) if memory_layout in DRAM_SHARDED else (BufferType.L1,)
        if memory_layout in SHARDED and buffer_type not in homes:
            raise ValueError(f"ttnn.MemoryConfig: {memory_layout.name} tensors live in "
                             f"{' or '.join(h.name for h in homes)}, not {buffer_type.name}")
        self.memory_layout, self.buffer_type, self.shard_spec = memory_layout, buffer_type, shard_spec

    def is_sharded(self) -> bool:
        return self.nd is not None or self.memory_layout in SHARDED

    @property
    def nd_shard_spec(self):
        return self.nd

    def for_shape(self, shape) -> MemoryConfig:
        """The 2D sharded config an ND shard spec is for a tensor of `shape` (the simulator's layouts are 2D):
        shards splitting only the last dimension are width shards, shards of whole rows height shards; one shard
        per core. Other ND specs have no 2D counterpart and are refused. A 2D config is itself."""
        if self.nd is None:
            return self
        dims, shard = [int(d) for d in shape], [int(d) for d in self.nd.shard_shape]
        shard = [1] * (len(dims) - len(shard)) + shard
        if len(shard) != len(dims):
            raise ValueError(f"an ND shard {list(self.nd.shard_shape)} has more dimensions than the tensor {dims}")
        height = math.prod(dims[:-1]) if len(dims) > 1 else 1
        # the shard's rows are one run of the 2D rows: leading 1s, one partial dimension, then whole ones
        first = next((i for i, s in enumerate(shard[:-1]) if s != 1), len(dims) - 1)
        row_run = all(shard[i] == dims[i] for i in range(first + 1, len(dims) - 1))
        box = self.nd.grid.bounding_box().grid_size()
        across, down = (box.x, box.y) if self.nd.orientation == ShardOrientation.ROW_MAJOR else (box.y, box.x)
        if shard[:-1] == dims[:-1]:
            layout, shard_2d = TensorMemoryLayout.WIDTH_SHARDED, (height, shard[-1])
        elif row_run and shard[-1] == dims[-1]:
            layout, shard_2d = TensorMemoryLayout.HEIGHT_SHARDED, (math.prod(shard[:-1]), dims[-1])
        elif row_run and math.ceil(dims[-1] / shard[-1]) == across and \
                math.ceil(height / math.prod(shard[:-1])) <= down:
            # one shard per core, round-robin: each row of shards lands on a row of the grid, as 2D block shards
            layout, shard_2d = TensorMemoryLayout.BLOCK_SHARDED, (math.prod(shard[:-1]), shard[-1])
        else:
            raise ValueError(f"an ND shard {list(self.nd.shard_shape)} of a {dims} tensor has no 2D sharded "
                             f"counterpart in the simulated device (width, height or grid-aligned block shards)")
        if self.buffer_type != BufferType.L1:
            raise ValueError(f"ND shards in {self.buffer_type.name} are not modelled by the simulated device (L1 only)")
        return MemoryConfig(layout, BufferType.L1, ShardSpec(self.nd.grid, shard_2d, self.nd.orientation))

    def __eq__(self, other) -> bool:
        return isinstance(other, MemoryConfig) and \
            (self.memory_layout, self.buffer_type, self.shard_spec, self.nd) == \
            (other.memory_layout, other.buffer_type, other.shard_spec, other.nd)

    def __hash__(self) -> int:
        return hash((self.memory_layout, self.buffer_type, self.shard_spec))

    def __repr__(self) -> str:
        return f"MemoryConfig({self.memory_layout}, {self.buffer_type}, {self.shard_spec})"


DRAM_MEMORY_CONFIG = MemoryConfig(TensorMemoryLayout.INTERLEAVED, BufferType.DRAM)
L1_MEMORY_CONFIG = MemoryConfig(TensorMemoryLayout.INTERLEAVED, BufferType.L1)
L1_HEIGHT_SHARDED_MEMORY_CONFIG = MemoryConfig(TensorMemoryLayout.HEIGHT_SHARDED, BufferType.L1)
L1_WIDTH_SHARDED_MEMORY_CONFIG = MemoryConfig(TensorMemoryLayout.WIDTH_SHARDED, BufferType.L1)
L1_BLOCK_SHARDED_MEMORY_CONFIG = MemoryConfig(TensorMemoryLayout.BLOCK_SHARDED, BufferType.L1)


def cores_of(core_grid) -> CoreRangeSet:
    if isinstance(core_grid, CoreGrid):
        return core_grid.core_range_set()
    if isinstance(core_grid, CoreRange):
        return CoreRangeSet([core_grid])
    return CoreRangeSet(core_grid)


def create_sharded_memory_config(shape, core_grid, strategy, orientation=None,
                                 use_height_and_width_as_shard_shape: bool = False) -> MemoryConfig:
    """An L1 sharded memory config: `shape` is the tensor's (split over the cores by `strategy`) or, with
    `use_height_and_width_as_shard_shape`, one shard's [height, width]."""
    if not isinstance(strategy, ShardStrategy):
        raise TypeError(f"ttnn.create_sharded_memory_config: strategy must be a ttnn.ShardStrategy, got {strategy!r}")
    orientation = orientation or ShardOrientation.ROW_MAJOR
    cores = cores_of(core_grid)
    if use_height_and_width_as_shard_shape:  # a column-major shape is given (width, height), as tt-metal reads it
        shard = tuple(shape) if orientation == ShardOrientation.ROW_MAJOR else tuple(shape)[::-1]
    else:
        dims = list(shape)
        height, width = math.prod(dims[:-1]) if len(dims) > 1 else 1, dims[-1]
        n = cores.num_cores()
        if strategy == ShardStrategy.HEIGHT:
            shard = (math.ceil(height / n), width)
        elif strategy == ShardStrategy.WIDTH:
            shard = (height, math.ceil(width / n))
        else:
            box = cores.bounding_box().grid_size()
            rows, cols = (box.y, box.x) if orientation == ShardOrientation.ROW_MAJOR else (box.x, box.y)
            shard = (math.ceil(height / rows), math.ceil(width / cols))
    return MemoryConfig(TensorMemoryLayout(strategy.value), BufferType.L1, ShardSpec(cores, shard, orientation))


def create_sharded_memory_config_(shape, core_grid, strategy, orientation=None, tile_layout: bool = True,
                                  halo: bool = False) -> MemoryConfig:
    """tt-metal's variant taking the tensor's shape and a `TensorMemoryLayout` or `ShardStrategy`; shards are
    rounded up to whole tiles when `tile_layout`."""
    if halo:
        raise ValueError("ttnn.create_sharded_memory_config_: halo shards are not modelled by the simulated device")
    if isinstance(strategy, TensorMemoryLayout):
        strategy = ShardStrategy(strategy.value)
    config = create_sharded_memory_config(shape, core_grid, strategy, orientation)
    if tile_layout:
        h, w = config.shard_spec.shape
        config.shard_spec.shape = (math.ceil(h / TILE_SIZE) * TILE_SIZE, math.ceil(w / TILE_SIZE) * TILE_SIZE)
    return config


# Unary ops an op can fuse after its result (binary `activations=`, matmul `activation=`): their ttnn names
UnaryOpType = enum.Enum("UnaryOpType", {name.upper(): name for name in (
    "relu", "relu6", "gelu", "silu", "sigmoid", "tanh", "exp", "log", "sqrt", "rsqrt", "recip", "abs", "neg",
    "square", "sin", "cos", "leaky_relu", "elu", "mish", "hardsigmoid", "softplus", "erf", "sign", "floor", "ceil")})


class UnaryWithParam:
    """A fused activation and its parameter: `ttnn.UnaryWithParam(ttnn.UnaryOpType.RELU)`."""

    def __init__(self, op_type, param=None):
        if isinstance(op_type, str):
            op_type = UnaryOpType(op_type)
        self.op_type, self.param = op_type, param
        self.params = [] if param is None else [param]

    def __eq__(self, other) -> bool:
        if isinstance(other, str):  # tt-metal tests compare an activation to its name
            return self.op_type.value == other
        return isinstance(other, UnaryWithParam) and (self.op_type, self.param) == (other.op_type, other.param)

    def __hash__(self) -> int:
        return hash((self.op_type, self.param))

    def __repr__(self) -> str:
        return f"UnaryWithParam({self.op_type.name}{'' if self.param is None else f', {self.param}'})"


class DispatchCoreConfig(SimpleNamespace):
    """Which cores run the command queues: the simulated device reserves none (its whole worker grid computes)."""

    def __init__(self, type=None, axis=None):  # noqa: A002 (tt-metal's keyword)
        super().__init__(type=type or DispatchCoreType.WORKER, axis=axis or DispatchCoreAxis.ROW)


class _Config(SimpleNamespace):
    """A configuration record (compute kernel, conv, matmul program config): its fields by name."""


def config(name: str) -> type:
    return type(name, (_Config,), {"__doc__": f"ttnn.{name}: its fields as keyword arguments."})


DeviceComputeKernelConfig = config("DeviceComputeKernelConfig")
WormholeComputeKernelConfig = config("WormholeComputeKernelConfig")
BlackholeComputeKernelConfig = config("BlackholeComputeKernelConfig")
Conv3dConfig = config("Conv3dConfig")


def init_device_compute_kernel_config(arch, math_fidelity=None, math_approx_mode: bool = True,
                                      fp32_dest_acc_en: bool = False, packer_l1_acc: bool = False,
                                      dst_full_sync_en: bool = False):
    """A compute kernel config for `arch` (the device's), with tt-metal's defaults (LoFi)."""
    return WormholeComputeKernelConfig(math_fidelity=math_fidelity or MathFidelity.LoFi,
                                       math_approx_mode=math_approx_mode, fp32_dest_acc_en=fp32_dest_acc_en,
                                       packer_l1_acc=packer_l1_acc, dst_full_sync_en=dst_full_sync_en)
