"""TTMetal IR to a `.ttm` flatbuffer (`ttmlir-translate --ttmetal-to-flatbuffer`): each host function becomes a
program whose command queue replays its ttmetal ops; each launched kernel carries its C++ (`target/cpp.py`)."""

from __future__ import annotations

import math

import io

from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, IntegerType, MemRefType, ModuleOp, NoneAttr, Signedness
from xdsl.dialects.func import FuncOp, ReturnOp
from xdsl.dialects.memref import AllocOp, CopyOp, GetGlobalOp, GlobalOp, ReinterpretCastOp
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.traits import SymbolTable

from ttmlir import hardware
from ttmlir.asm import TTPrinter
from ttmlir.dialects import ttcore, ttmetal
from ttmlir.dialects.ttmetal_ccl import (AllGatherOp, AllReduceOp, AllToAllOp, CollectiveBroadcastOp,
                                         CollectivePermuteOp, MeshPartitionOp, ReduceScatterOp)
from ttmlir.dialects.ttcore_cb_layout import CBLayoutAttr
from ttmlir.ir.props import dense_array, dense_values
from ttmlir.ir.sizes import elements_error, row_major_strides
from ttmlir.target import TranslateError
from ttmlir.target import flatbuffer as fbu
from ttmlir.target import metal_generated as fbm
from ttmlir.target.cpp import is_kernel, kernel_source

_SCALARS = {"f32": "f32", "bf16": "bf16", "f16": "f16", "i32": "si32", "si32": "si32", "ui32": "u32", "ui16": "u16",
            "ui8": "u8", "i8": "u8", "i16": "u16"}


def _bf16_bytes(values):
    import numpy as np

    bits = values.astype(np.float32).view(np.uint32)
    rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16  # round to nearest even
    return rounded.astype(np.uint16).view(np.uint8)


# a host buffer's elements as the bytes of its data type (little endian)
_NUMPY_BYTES = {"f32": lambda v: v.astype("<f4").view("u1"), "f16": lambda v: v.astype("<f2").view("u1"),
                "bf16": _bf16_bytes, "si32": lambda v: v.astype("<i4").view("u1"),
                "u32": lambda v: v.astype("<u4").view("u1"), "u16": lambda v: v.astype("<u2").view("u1"),
                "u8": lambda v: v.astype("u1")}


def _grid_placement(mapping: Attribute, op: ttmetal.CreateBufferOp) -> tuple[tuple[int, int], tuple[int, int]]:
    """Where a buffer's virtual grid is, from its forward mapping: the core holding shard (0, 0) and the rectangle of
    cores its shards fill row by row."""
    shape = op.result.type.get_shape()
    placement = ttcore.grid_placement(mapping, tuple(shape[:len(shape) // 2]))
    if placement is None:
        raise TranslateError(op, f"only virtual grids laid onto a rectangle of cores row by row are supported, not "
                                 f"{mapping}")
    return placement


def _dim2d(y: int, x: int):
    out = fbm.Dim2dT()
    out.y, out.x = y, x
    return out


def _element(t: MemRefType, op: Operation | None) -> tuple[str, tuple[int, int], int]:
    """A memref element's data type, tile shape (0x0 if not a tile) and bytes."""
    element = t.element_type
    if isinstance(element, ttcore.TileType):
        dtype = element.dtype
        return dtype, tuple(element.dims), hardware.tile_bytes(dtype, tuple(element.dims))
    name = str(element) if not isinstance(element, IntegerType) else \
        f"{'ui' if element.signedness.data == Signedness.UNSIGNED else 'i'}{element.width.data}"
    if name not in _SCALARS:
        raise TranslateError(op, f"a buffer of {element} cannot be serialized (element types: tiles, "
                                 f"{', '.join(sorted(_SCALARS))})")
    dtype = _SCALARS[name]
    return dtype, (0, 0), int(hardware.DTYPE_BYTES[dtype])


def _matrix_shape(t: MemRefType, op: Operation) -> list[int]:
    """A buffer's shape as the runtime holds it: a sharded buffer of a grid kept at its rank as the 2-d grid of 2-d
    shards it is on the cores (leading dims folded into rows) when each shard is one matrix, else as it is (row-major
    shards of several matrices). A circular buffer's (`#ttcore.cb_layout`: one core's block, cycled through its buffers) is that block on every worker core, its
    buffers one after another: each core holds the CB's pages at the same address."""
    shape = list(t.get_shape())
    if isinstance(t.layout, CBLayoutAttr):
        device = ttcore.registered_device(op)
        if device is None:
            raise TranslateError(op, "a circular buffer is laid on the worker grid of a registered ttcore.device")
        block = [1] * max(0, 2 - len(shape)) + shape
        return [*device.worker_grid.shape, t.layout.data[1] * math.prod(block[:-1]), block[-1]]
    if not isinstance(t.layout, ttcore.ShardLayoutAttr) or len(shape) <= 4:
        return shape
    n = len(shape) // 2
    grid, shard = shape[:n], shape[n:]
    if any(d != 1 for d in shard[:-2]):  # shards of several matrices (row-major): the grid and shard as they are
        return shape
    return [math.prod(grid[:-1]), grid[-1], shard[-2], shard[-1]]


_COLLECTIVES = {AllGatherOp: fbm.CollectiveKind.AllGather, AllReduceOp: fbm.CollectiveKind.AllReduce,
                ReduceScatterOp: fbm.CollectiveKind.ReduceScatter, MeshPartitionOp: fbm.CollectiveKind.MeshPartition,
                CollectivePermuteOp: fbm.CollectiveKind.CollectivePermute, AllToAllOp: fbm.CollectiveKind.AllToAll,
                CollectiveBroadcastOp: fbm.CollectiveKind.CollectiveBroadcast}
_ALL_CHIPS = 0xFFFFFFFF


class _ProgramWriter:
    def __init__(self, func: FuncOp, symbols: Operation, printer: TTPrinter):
        self.func, self.symbols = func, symbols
        # the functions of the symbol table by name (a module has thousands of kernels: one lookup each is linear)
        self.functions = {op.sym_name.data: op for region in symbols.regions for block in region.blocks
                          for op in block.ops if isinstance(op, FuncOp)}
        self.ids: dict[SSAValue, int] = {}
        self.addresses: dict[SSAValue, int] = {}
        # a sharded buffer on a virtual grid: the core holding shard (0, 0), the rectangle of cores holding them all
        self.placements: dict[SSAValue, tuple[tuple[int, int], tuple[int, int]]] = {}
        self.sources: dict[str, str] = {}
        self.printer = printer  # shared by a module's functions: its values are named once

    def ref(self, value: SSAValue, op: Operation | None = None) -> fbm.BufferRefT:
        if not isinstance(value.type, MemRefType):
            raise TranslateError(op, f"only memrefs can be serialized as buffers, not {value.type}")
        out = fbm.BufferRefT()
        out.globalId = self.ids.setdefault(value, len(self.ids))
        out.address = self.addresses.get(value, 0)
        desc = out.desc = fbm.BufferDescT()
        t = value.type
        desc.shape = _matrix_shape(t, op)
        dtype, tile, size = _element(t, op)
        desc.dataType = fbu.enum_value(fbm.DataType, dtype)
        if isinstance(t.layout, ttcore.InterleavedLayoutAttr) and tile == (0, 0):
            size = t.layout.data[-2] if len(t.layout.data) > 1 else size  # row-major pages: a row of the shard
        desc.tileShape, desc.pageSize = _dim2d(*tile), size
        if value in self.placements:
            (origin, cores) = self.placements[value]
            desc.coreOffset, desc.coreGrid = _dim2d(*origin), _dim2d(*cores)
        else:
            desc.coreOffset = _dim2d(0, 0)
        space = t.memory_space.data.value if isinstance(t.memory_space, ttcore.MemorySpaceAttr) else "system"
        desc.memory = fbu.enum_value(fbm.BufferType, "system_memory" if space == "system" else space)
        if space == "system":
            desc.layout = fbm.BufferLayout.Host
            if isinstance(t.layout, ttcore.HostLayoutAttr):
                desc.hostStrides, desc.hostVolume = list(t.layout.data.host_strides), t.layout.data.host_volume
        elif isinstance(t.layout, ttcore.InterleavedLayoutAttr):
            desc.layout = fbm.BufferLayout.Interleaved
        else:
            desc.layout = fbm.BufferLayout.Sharded
        return out

    def program(self) -> fbm.ProgramT:
        prog = fbm.ProgramT()
        prog.name = self.func.sym_name.data
        prog.private = self.func.sym_visibility is not None and self.func.sym_visibility.data == "private"
        prog.inputs = [self.ref(a, self.func) for a in self.func.body.block.args]
        queue = fbm.CommandQueueT()
        queue.name, queue.queueId, queue.commands = "cq0", 0, []
        for op in self.func.body.block.ops:
            queue.commands.append(self.command(op))
        prog.outputs = queue.commands[-1].type.results if queue.commands and \
            isinstance(queue.commands[-1].type, fbm.ReturnCommandT) else []
        device = fbm.DeviceProgramT()
        device.inputs, device.outputs, device.commandQueues = prog.inputs, prog.outputs, [queue]
        prog.devicePrograms = [device]
        prog.meshShape = _dim2d(*(ttcore.registered_mesh(self.func) or (1, 1)))
        return prog

    def command(self, op: Operation) -> fbm.CommandT:
        if isinstance(op, ttmetal.CreateBufferOp):
            self.addresses[op.result] = op.address.value.data
            if op.virtualGridForwardMapping is not None:
                self.placements[op.result] = _grid_placement(op.virtualGridForwardMapping, op)
            table = fbm.CreateBufferCommandT()
            table.ref = self.ref(op.result, op)
        elif isinstance(op, AllocOp):
            table = fbm.HostAllocCommandT()
            table.dst = self.ref(op.memref, op)
        elif isinstance(op, GetGlobalOp):  # a constant: a host buffer with the global's data
            table = fbm.HostAllocCommandT()
            table.dst, table.data = self.ref(op.memref, op), self.global_data(op)
        elif isinstance(op, (ttmetal.EnqueueWriteBufferOp, ttmetal.EnqueueReadBufferOp)):
            table = (fbm.EnqueueWriteBufferCommandT if isinstance(op, ttmetal.EnqueueWriteBufferOp)
                     else fbm.EnqueueReadBufferCommandT)()
            table.src, table.dst = self.ref(op.input, op), self.ref(op.output, op)
        elif isinstance(op, CopyOp):
            table = fbm.MemrefCopyCommandT()
            table.src, table.dst = self.ref(op.source, op), self.ref(op.destination, op)
        elif isinstance(op, ReinterpretCastOp):  # a host view: the copy into its shape the runtime holds as one
            self.reinterpretable(op)
            table = fbm.MemrefCopyCommandT()
            table.src, table.dst = self.ref(op.source, op), self.ref(op.result, op)
        elif isinstance(op, ttmetal.DeallocateBufferOp):
            table = fbm.DeallocateBufferCommandT()
            table.ref = self.ref(op.input, op)
        elif isinstance(op, ttmetal.FinishOp):
            table = fbm.FinishCommandT()
        elif isinstance(op, ttmetal.EnqueueProgramOp):
            table = self.enqueue_program(op)
        elif isinstance(op, ttmetal.MeshShardOp):
            table = fbm.MeshShardCommandT()
            table.src, table.dst = self.ref(op.input, op), self.ref(op.result, op)
            table.shardType = fbu.enum_value(fbm.ShardType, op.shard_type.data.value)
            table.shardDirection = fbu.enum_value(fbm.ShardDirection, op.shard_direction.data.value)
            table.shardShape, table.shardDims = list(op.shard_shape.get_values()), list(op.shard_dims.get_values())
        elif isinstance(op, tuple(_COLLECTIVES)):
            table = self.collective(op)
        elif isinstance(op, ReturnOp):
            table = fbm.ReturnCommandT()
            table.results = [self.ref(v, op) for v in op.operands]
        else:
            raise TranslateError(op, f"'{op.name}' cannot be serialized in a .ttm program (host functions hold "
                                     "ttmetal ops, memref.alloc, memref.copy, memref.reinterpret_cast, "
                                     "memref.get_global and return)")
        out = fbm.CommandT()
        out.typeType = getattr(fbm.CommandType, type(table).__name__[:-1])
        out.type, out.loc = table, self._text(op.location)
        return out

    @staticmethod
    def reinterpretable(op: ReinterpretCastOp) -> None:
        """A reinterpret_cast the host runs: a row-major buffer seen, from its first element, as a row-major buffer of
        as many elements."""
        source, result = op.source.type, op.result.type
        sizes, strides = list(op.static_sizes.get_values()), list(op.static_strides.get_values())
        if not isinstance(source.layout, NoneAttr) or op.offsets or op.sizes or op.strides or \
                list(op.static_offsets.get_values()) != [0] or sizes != list(result.get_shape()) or \
                strides != row_major_strides(sizes) or math.prod(source.get_shape()) != math.prod(sizes):
            raise TranslateError(op, "only reinterpret_casts of a row-major host buffer to a row-major shape of as many "
                                     "elements are serialized")

    def collective(self, op: Operation) -> fbm.CollectiveCommandT:
        table = fbm.CollectiveCommandT()
        table.src, table.dst = self.ref(op.input, op), self.ref(op.result, op)
        table.kind = _COLLECTIVES[type(op)]
        dim = getattr(op, {AllGatherOp: "all_gather_dim", ReduceScatterOp: "scatter_dim", MeshPartitionOp: "dim",
                           AllToAllOp: "split_dim"}.get(type(op), ""), None)
        table.dim = dim.value.data if dim is not None else 0
        # mesh_partition without an axis partitions over all chips: the schema's uint stores that as its max
        axis = getattr(op, "cluster_axis", None)
        table.clusterAxis = axis.value.data if axis is not None else _ALL_CHIPS
        if isinstance(op, (AllReduceOp, ReduceScatterOp)):
            table.reduceType = fbu.enum_value(fbm.ReduceType, op.reduce_type.data.value)
        if isinstance(op, AllToAllOp):
            table.concatDim = op.concat_dim.value.data
        chips = getattr(op, "source_target_pairs", None) or getattr(op, "replica_groups", None)
        if chips is not None:
            table.chipIds = [int(v) for v in dense_values(chips)]
            table.chipIdsWidth = chips.type.get_shape()[-1]
        return table

    def global_data(self, op: GetGlobalOp):
        """The bytes of the `memref.global` a get_global names: its elements in the buffer's data type."""
        import numpy as np

        found = SymbolTable.lookup_symbol(self.symbols, op.name_)
        if not isinstance(found, GlobalOp) or not isinstance(found.initial_value, DenseIntOrFPElementsAttr):
            raise TranslateError(op, f"{op.name_} is not a memref.global with dense data")
        if (error := elements_error(found.initial_value.type)) is not None:
            raise TranslateError(op, error)
        dtype, _, _ = _element(op.memref.type, op)
        attr = found.initial_value
        values = dense_array(attr).astype(np.float32)
        if values.size == 1:  # a splat, widened once, in numpy: a large one is no Python list of its elements
            values = np.broadcast_to(values, (math.prod(attr.type.get_shape()),))
        return _NUMPY_BYTES[dtype](values)

    def _text(self, attr: Attribute) -> str:
        self.printer.stream = io.StringIO()
        self.printer.print_attribute(attr)
        return self.printer.stream.getvalue()

    def enqueue_program(self, op: ttmetal.EnqueueProgramOp) -> fbm.EnqueueProgramCommandT:
        table = fbm.EnqueueProgramCommandT()
        table.operands = [self.ref(v, op) for v in op.args]
        table.cbs = []
        for port, cb in zip(op.cb_ports.get_values(), op.cbs):
            ref = fbm.CBRefT()
            ref.port, ref.buffer = port, self.ref(cb, op)
            table.cbs.append(ref)
        table.kernels = [self.kernel(config, op) for config in op.kernelConfigs.data]
        return table

    def kernel(self, config: Attribute, op: Operation) -> fbm.KernelConfigT:
        data = config.data
        name = data.symbol.root_reference.data
        func = SymbolTable.lookup_symbol(self.symbols, data.symbol) if data.symbol.nested_references.data else \
            self.functions.get(name)
        if not isinstance(func, FuncOp) or not is_kernel(func):
            raise TranslateError(op, f"kernel @{name} is not a kernel function of this module (a func.func with a "
                                     "ttkernel.thread attribute)")
        out = fbm.KernelConfigT()
        out.symbol = name
        if name not in self.sources:
            self.sources[name] = kernel_source(func)
        out.source = self.sources[name]
        offset, size = data.core_range.data
        if len(offset) != 2:
            raise TranslateError(op, f"kernel @{name}: a core range is two-dimensional here")
        out.coreOffset, out.coreSize = _dim2d(*offset), _dim2d(*size)
        out.args = fbm.KernelArgsT()
        for group, args in data.args.groups.items():
            setattr(out.args, fbu.field(group), [_kernel_arg(kind, index) for kind, index in args])
        if isinstance(config, ttmetal.NocConfigAttr):
            dm_core, noc, fabric = data.fields
            if fabric is not None:
                raise TranslateError(op, f"kernel @{name}: fabric connections are not serialized yet")
            out.typeType, out.type = fbm.KernelConfigType.NocConfig, fbm.NocConfigT()
            out.type.dmCore, out.type.nocIndex = dm_core, fbu.enum_value(fbm.NocIndex, noc)
        elif isinstance(config, ttmetal.ComputeConfigAttr):
            fidelity, fp32, full_sync, approx, modes = data.fields
            out.typeType, out.type = fbm.KernelConfigType.ComputeConfig, fbm.ComputeConfigT()
            out.type.mathFidelity = getattr(fbm.MathFidelity, fbu.MATH_FIDELITY[fidelity])
            out.type.fp32DestAccEn, out.type.dstFullSyncEn, out.type.mathApproxMode = fp32, full_sync, approx
            out.type.unpackToDestMode = [fbu.enum_value(fbm.UnpackToDestMode, m) for m in modes]
        else:
            raise TranslateError(op, f"kernel @{name}: ethernet kernels are not serialized yet")
        return out


def _kernel_arg(kind: str, index: int) -> fbm.KernelArgT:
    out = fbm.KernelArgT()
    out.type, out.operandIndex = fbu.enum_value(fbm.ArgType, kind), index
    return out


def translate(module: ModuleOp, goldens: dict | None = None) -> bytes:
    """Serialize a TTMetal module: one program per host function (kernels are looked up by symbol); `goldens`
    maps a program name to its golden tensors (numpy arrays by `input_N` / `output_N`)."""
    funcs = [op for op in module.walk() if isinstance(op, FuncOp) and op.body.blocks and not is_kernel(op)]
    if not funcs:
        raise TranslateError(None, "no host function to serialize (a func.func without ttkernel.thread)")
    system = next((op.attributes["ttcore.system_desc"] for op in module.walk()
                   if isinstance(op.attributes.get("ttcore.system_desc"), ttcore.SystemDescAttr)), None)
    binary = fbm.TTMetalBinaryT()
    binary.version, binary.ttmlirGitHash = fbu.version_t(), fbu.git_hash()
    binary.systemDesc = fbu.system_desc_t(system.data.as_dict() if system is not None else hardware.system_desc())
    printer = TTPrinter(stream=io.StringIO(), use_aliases=False)
    binary.programs = [_ProgramWriter(f, f.parent_op(), printer).program() for f in funcs]
    for program in binary.programs:
        program.debugInfo = fbm.DebugInfoT()
        program.debugInfo.goldenInfo = fbu.golden_info((goldens or {}).get(program.name, {}))
    return fbu.serialize(binary, "ttm")
