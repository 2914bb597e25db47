"""TTNN IR -> `.ttnn` flatbuffer (`ttmlir-translate --ttnn-to-flatbuffer`).

Every function becomes a Program; every op a table of its family (`schema/ttnn/operations.fbs`),
filled by name: operands under their operand names (`out` for the result), properties under their
property names, encoded by property kind. Each SSA tensor gets one global id.
"""

from __future__ import annotations

import copy
import io
import math

from xdsl.dialects.builtin import (AnyFloat, DenseIntOrFPElementsAttr, IntegerAttr, IntegerType, ModuleOp, Signedness,
                                   TensorType)
from xdsl.dialects.func import CallOp, FuncOp, ReturnOp
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.ir.affine import AffineMap

from ttmlir import hardware
from ttmlir.asm import FirstByIdentity, TTPrinter, print_module
from ttmlir.dialects import debug, trace, ttcore, ttnn, ttnn_program
from ttmlir.dialects.debug import DebugOp
from ttmlir.ir.props import dense_array, dense_values, int_values, scalar
from ttmlir.ir.sizes import elements_error
from ttmlir.ir.syntax import affine_map_str, enum
from ttmlir.dialects.ttnn import TTNNOp
from ttmlir.target import TranslateError
from ttmlir.target import flatbuffer as fbu
from ttmlir.target import binary_generated as fb

# Families whose ops share one table; other ops have a table named after themselves.
FAMILY_TABLES = {"unary": "EltwiseUnaryOp", "binary": "EltwiseBinaryOp", "reduction": "ReductionOp", "cumsum": "CumsumOp",
                 "rotary_embedding": "RotaryEmbeddingOp", "norm_stats": "NormStatsOp", "attention": "AttentionOp",
                 "matmul": "MatmulOp", "conv": "Conv2dOp", "prepare_conv2d": "PrepareConv2dOp", "pool": "Pool2dOp", "norm": "NormOp", "cache": "CacheOp", "quantization": "QuantizationOp",
                 "ccl": "CollectiveOp", "layout_op": "LayoutOp", "creation": "CreationOp", "full": "CreationOp",
                 "fill": "CreationOp", "arange": "CreationOp", "rand": "CreationOp", "constant": "CreationOp"}


# TTNN ops that a pass replaces before translation, with what to run.
NEVER_SERIALIZED = {"transpose": "run --ttnn-workaround first: it runs a transpose as a permute",
                    "to_tensor_spec": "break it into primitive layout ops first (--ttnn-decompose-layouts)",
                    "tt_lang_op": "its kernel is opaque to the compiler: resolve it (--ttnn-resolve-tt-lang-kernels) "
                                  "and lower it to a ttnn.generic (--ttnn-lower-tt-lang-to-generic) first"}


# Optional operands the binary has no place for: the runtime allocates what they would provide.
RUNTIME_ALLOCATED = {"all_to_all_dispatch_metadata": ("dispatched_buffer", "indices_buffer", "scores_buffer",
                                                      "cross_device_semaphore")}


SCALAR_ELEMENT = IntegerType(32, Signedness.UNSIGNED)


def is_scalar_arg(t: Attribute) -> bool:
    """An integer or float of at most 32 bits: a program input (and a ttnn.generic operand) held as its bits."""
    return isinstance(t, (IntegerType, AnyFloat)) and t.bitwidth <= 32


class _Typed:
    """A value's stand-in of another type (a scalar's tensor), for the descriptor it is written with."""

    def __init__(self, type: Attribute, owner):
        self.type, self.owner = type, owner


def table_of(row) -> str:
    own = fbu.SPELLED_TABLES.get(row.name) or fbu.camel(row.name) + "Op"
    return own if hasattr(fb, own) else FAMILY_TABLES[row.family]


def _memory_config(config: ttnn.MemoryConfig) -> fb.MemoryConfigT:
    out = fb.MemoryConfigT()
    out.bufferType = fbu.enum_value(fb.BufferType, config.buffer_type.data.value)
    if config.memory_layout is not None:
        out.tensorMemoryLayout = fbu.enum_value(fb.TensorMemoryLayout, config.memory_layout.data.value)
    out.shardSpec = config.shard_spec or None
    return out


def _presharded_local_shape(arg_attrs: dict) -> list[int] | None:
    """The per-chip shape of an input sharded in advance: from `ttcore.runtime_tensor_sharding`, or from
    `ttcore.local_shape` with `ttcore.shard_status = presharded` (how tt-forge exports write it)."""
    sharding = arg_attrs.get(ttcore.RuntimeTensorShardingAttr.name)
    if isinstance(sharding, ttcore.RuntimeTensorShardingAttr):
        return list(sharding.data[1].get_shape()) if sharding.data[0] == "presharded" else None
    status, local = arg_attrs.get(ttcore.ShardStatusAttr.name), arg_attrs.get(ttcore.LocalShapeAttr.name)
    if isinstance(local, ttcore.LocalShapeAttr) and status is not None and status.data.value == "presharded":
        return list(local.data.get_shape())
    return None


def _struct(attr) -> fb.StructAttrT:
    """A configuration attribute: its name and each field as the attribute spells it."""
    out = fb.StructAttrT()
    out.name, out.fields = attr.name, []
    printer = TTPrinter(stream=io.StringIO(), use_aliases=False)
    for key, value in attr.data:
        field = fb.StructFieldT()
        if isinstance(value, Attribute):
            printer.stream = io.StringIO()
            printer.print_attribute(value)
            field.value = printer.stream.getvalue()
        else:
            field.value = ("true" if value else "false") if isinstance(value, bool) else str(value)
        field.key = key
        out.fields.append(field)
    return out


def _dim2d(y: int, x: int) -> fb.Dim2dT:
    d = fb.Dim2dT()
    d.y, d.x = y, x
    return d


def _core_range_set(attr: ttnn.CoreRangeSetAttr) -> fb.CoreRangeSetT:
    out = fb.CoreRangeSetT()
    out.coreRanges = []
    for core_range in attr.data:
        entry = fb.CoreRangeT()
        entry.startCoord, entry.endCoord = (fb.CoreCoordT(x, y) for x, y in core_range.data)
        out.coreRanges.append(entry)
    return out


def _elements_bytes(attr: Attribute, element):
    import numpy as np

    values = dense_array(attr) if isinstance(attr, DenseIntOrFPElementsAttr) else \
        np.asarray(attr.get_values() if hasattr(attr, "get_values") else [])
    count = math.prod(attr.type.get_shape())
    if values.size == 1 and count > 1:
        values = np.broadcast_to(values, (count,))
    return np.ascontiguousarray(values, dtype=np.float32 if "f" in str(element) else np.int64).view(np.uint8)


def _encode(kind: str, attr: Attribute, result_type):
    """A property as its schema field value."""
    if kind == "dtype":
        return fbu.enum_value(fb.DataType, attr.data.value)
    if kind == "layout":
        return fbu.enum_value(fb.TensorLayout, attr.data.value)
    if kind in ("shard_type", "shard_direction", "reduce_type", "topology"):
        return fbu.enum_value(getattr(fb, fbu.camel(kind)), attr.data.value)
    if kind == "mask_type":  # ttml's enum, by position
        return list(ttcore.AttentionMaskTypeAttr.enum_type).index(attr.data)
    if kind == "moe_activation":
        return list(ttcore.MoEActivationFunctionAttr.enum_type).index(attr.data)
    if kind == "memory_config":
        return _memory_config(attr.data)
    if kind == "shape":
        return list(attr.data)
    if kind in ("mesh_shape", "mesh_offset"):
        return _dim2d(*attr.data)
    if kind in ("mesh_mapper_config", "mesh_composer_config"):
        return _mesh_config(attr)
    if kind == "pairs":
        return [int(v) for v in dense_values(attr)]
    if kind == "elements":
        return _elements_bytes(attr, result_type.element_type if result_type is not None else "f32")
    if kind in ("number", "f32_or_i32"):
        return _number(attr, result_type)
    if kind in ("str", "bool", "i32", "si8", "si32", "ui32", "i64", "si64", "f32"):
        return scalar(attr)
    if kind in ("compute_config", "conv2d_config", "conv2d_slice_config", "conv3d_config", "matmul_program_config",
                "sdpa_program_config"):
        return _struct(attr)
    if kind == "core_range_set":
        return _core_range_set(attr)
    return int_values(attr)


def _mesh_config(attr: Attribute):
    """A mesh mapper's placements (a replicated axis carries dim -1) or a composer's dims, and the override."""
    if isinstance(attr, ttnn.MeshMapperConfigAttr):
        out = fb.MeshMapperConfigT()
        out.placements = [fb.PlacementT(fbu.enum_value(fb.PlacementType, kind), -1 if dim is None else dim)
                          for kind, dim in attr.placements]
    else:
        out = fb.MeshComposerConfigT()
        out.dims = list(attr.dims)
    out.meshShapeOverride = list(attr.mesh_shape_override) if attr.mesh_shape_override is not None else None
    return out


def _number(attr: Attribute, result_type):
    """A scalar operand as the schema's NumberType: an integer stays an integer (an f32 holds 24 bits, so an
    i32 fill such as INT_MIN + 3 would land on INT_MIN), a float stays a float. The i32 attribute of unsigned data
    holds its bit pattern (ui32 4294967293 is -3): written as the unsigned value the data reads."""
    value = scalar(attr)
    if isinstance(attr, IntegerAttr):
        number = fb.IntegralTypeT()
        element = getattr(result_type, "element_type", None)
        unsigned = isinstance(element, IntegerType) and element.signedness.data == Signedness.UNSIGNED
        number.value = int(value) & ((1 << element.width.data) - 1) if unsigned else int(value)
    else:
        number = fb.FloatingPointTypeT()
        number.value = float(value)
    return number


# A union field's tag, set beside the field (`fill_value` and `fill_valueType` in the object API).
UNION_TAGS = {fb.IntegralTypeT: fb.NumberType.I32, fb.FloatingPointTypeT: fb.NumberType.FP}


_ARG_TABLES = {"kernel_arg_cb_buffer_index": ("KernelArgCBBufferIndex", "bufferIndex"),
               "kernel_arg_address_of_tensor": ("KernelArgBufferAddressOfTensor", "operandIndex"),
               "kernel_arg_semaphore_at": ("KernelArgSemaphoreAt", "semaphoreIndex"),
               "kernel_arg_tensor_accessor_args": ("KernelArgTensorAccessorArgs", "operandIndex"),
               "kernel_arg_global_semaphore": ("KernelArgGlobalSemaphore", "operandIndex"),
               "kernel_arg_scalar": ("KernelArgScalar", "operandIndex")}


def _kernel_args(op: Operation, args) -> fb.KernelCoreArgsT:
    out = fb.KernelCoreArgsT()
    out.args = []
    for arg in args:
        entry = fb.KernelArgT()
        if isinstance(arg, ttnn_program.KernelNamedArgAttr):
            entry.argType, entry.arg = fb.KernelArgType.KernelArgNamedArgument, fb.KernelArgNamedArgumentT()
            entry.arg.name, entry.arg.value = arg.get("name").data, arg.get("value")
        elif arg.name.removeprefix("ttnn.") in _ARG_TABLES:
            table, field = _ARG_TABLES[arg.name.removeprefix("ttnn.")]
            entry.argType, entry.arg = getattr(fb.KernelArgType, table), getattr(fb, table + "T")()
            setattr(entry.arg, field, arg.data)
        else:
            raise TranslateError(op, f"a kernel argument {arg} cannot be serialized yet")
        out.args.append(entry)
    return out


def _kernel_config(kernel):
    """A kernel attribute's configuration union: (type, table)."""
    if isinstance(kernel, (ttnn_program.ComputeKernelAttr, ttnn_program.SourceComputeKernelAttr)):
        config = fb.ComputeKernelConfigT()
        config.mathFidelity = getattr(fb.MathFidelity, fbu.MATH_FIDELITY[kernel.get("math_fidelity")])
        config.fp32DestAccEn, config.dstFullSyncEn = kernel.get("fp32_dest_acc_en"), kernel.get("dst_full_sync_en")
        config.unpackToDestModes = [fbu.enum_value(fb.UnpackToDestMode, m) for m in kernel.get("unpack_to_dest_modes")]
        config.bfp8PackPrecise, config.mathApproxMode = kernel.get("bfp8_pack_precise"), kernel.get("math_approx_mode")
        return fb.KernelConfig.ComputeKernelConfig, config
    if isinstance(kernel, ttnn_program.DataMovementKernelAttr):
        config = fb.DataMovementKernelConfigT()
        config.processor = fbu.enum_value(fb.DataMovementType, kernel.get("processor"))
        config.noc = fbu.enum_value(fb.NocIndex, kernel.get("noc_index"))
        config.nocMode = fbu.enum_value(fb.NocMode, kernel.get("noc_mode"))
        return fb.KernelConfig.DataMovementKernelConfig, config
    if isinstance(kernel, (ttnn_program.ReadKernelAttr, ttnn_program.SourceReadKernelAttr)):
        return fb.KernelConfig.ReaderKernelConfig, fb.ReaderKernelConfigT()
    return fb.KernelConfig.WriterKernelConfig, fb.WriterKernelConfigT()


def _program_descriptor(op: Operation, program, kernels: dict[str, FuncOp]) -> fb.ProgramDescriptorT:
    """A ttnn.generic's program: each kernel with the C++ of the function its symbol names (or its own, inline)."""
    out = fb.ProgramDescriptorT()
    out.kernels, out.cbs, out.semaphores = [], [], []
    for kernel in program.get("kernels").data:
        desc = fb.KernelDescriptorT()
        if isinstance(kernel, ttnn_program.SOURCE_KERNEL_ATTRS):
            desc.symbol, desc.source = "", kernel.get("source").data
        else:
            from ttmlir.target.cpp import kernel_source  # the kernel dialects load only for a graph with kernels

            symbol = kernel.get("symbol_ref").root_reference.data
            if symbol not in kernels:
                raise TranslateError(op, f"kernel '@{symbol}' is not a kernel function of this module")
            desc.symbol, desc.source = symbol, kernel_source(kernels[symbol])
        desc.configType, desc.config = _kernel_config(kernel)
        desc.coreRanges = _core_range_set(kernel.get("core_ranges"))
        args = ttnn_program.kernel_args(kernel)
        desc.ctArgs, desc.commonRtArgs = _kernel_args(op, args["ct_args"]), _kernel_args(op, args["common_rt_args"])
        desc.rtArgs = []
        for per_core in args["rt_args"]:
            entry = fb.CoreRuntimeArgsT()
            entry.coreCoord, entry.args = fb.CoreCoordT(*per_core.get("core_coord").data), _kernel_args(op, per_core.get("args"))
            desc.rtArgs.append(entry)
        out.kernels.append(desc)
    for cb in program.get("cbs"):
        desc = fb.KernelCBDescriptorT()
        desc.totalSize, desc.coreRange = cb.get("total_size"), _core_range_set(cb.get("core_ranges"))
        desc.formats = []
        for fmt in cb.get("formats"):
            entry = fb.KernelCBFormatT()
            entry.bufferIndex, entry.pageSize = fmt.get("buffer_index"), fmt.get("page_size")
            entry.dtype = fbu.enum_value(fb.DataType, fmt.get("dtype"))
            desc.formats.append(entry)
        if cb.get("buffer") is not None:
            desc.buffer = fb.KernelGlobalCBIndexOfTensorT()
            desc.buffer.tensorOperandIndex = cb.get("buffer").data
        out.cbs.append(desc)
    for semaphore in program.get("semaphores"):
        desc = fb.SemaphoreDescriptorT()
        desc.id, desc.initialValue = semaphore.get("id"), semaphore.get("initial_value")
        desc.coreType = fbu.enum_value(fb.KernelCoreType, semaphore.get("core_type"))
        desc.coreRanges = _core_range_set(semaphore.get("core_ranges"))
        out.semaphores.append(desc)
    return out


class SharedTensorDesc(fb.TensorDescT):
    """A descriptor written once per buffer: every tensor ref of its type points at the same table."""

    _packed: tuple[object, int] | None = None

    def Pack(self, builder):
        if self._packed is None or self._packed[0] is not builder:
            self._packed = (builder, super().Pack(builder))
        return self._packed[1]


class ProgramWriter:
    """One function as a Program: tensor refs by global id, ops in order."""

    def __init__(self, func: FuncOp, programs: dict[str, int], kernels: dict[str, FuncOp] | None = None,
                 printer: TTPrinter | None = None, host_llvm: dict[str, str] | None = None):
        self.func, self.programs, self.kernels = func, programs, kernels or {}
        # the CPU module's functions lowered to LLVM (called by a CpuOp): the text of each one's module
        self.host_llvm = host_llvm or {}
        self.ids: dict[SSAValue, int] = {}
        # one printer for every function of a module: it names the module's values once, not once per function
        self.printer = printer or TTPrinter(stream=io.StringIO(), use_aliases=False, print_debuginfo=False)
        self.tails: dict[tuple, tuple] = {}  # debug_text's rendered tails
        self.descs: dict[TensorType, tuple[fb.TensorDescT, int]] = FirstByIdentity()

    def ref(self, value: SSAValue):
        gid = self.ids.setdefault(value, len(self.ids))
        if isinstance(value.type, (ttnn.DeviceType, trace.GlobalSemaphoreType)):
            out = fb.DeviceRefT() if isinstance(value.type, ttnn.DeviceType) else fb.GlobalSemaphoreRefT()
            out.globalId = gid
            return out
        out = fb.TensorRefT()
        out.globalId, out.desc, out.size = gid, *self._desc(value)
        return out

    def _desc(self, value: SSAValue):
        """The descriptor of a value's type, one table per distinct type, which every ref of that type shares."""
        if (desc := self.descs.get(value.type)) is None:
            desc = self.descs[value.type] = self._new_desc(value)
        return desc

    def _new_desc(self, value: SSAValue):
        t = value.type
        if is_scalar_arg(t):  # the runtime holds a scalar as a one-element u32 host tensor of its bits
            return self._new_desc(_Typed(TensorType(SCALAR_ELEMENT, (1,), ttnn.layout_for(
                (1,), SCALAR_ELEMENT, "system_memory", tiled=False)), value.owner))
        if isinstance(t, TensorType) and isinstance(t.encoding, trace.TraceIdAttr):
            return _trace_id_desc(), 4
        if not isinstance(t, TensorType) or not isinstance(t.encoding, (ttnn.TTNNLayoutAttr, ttnn.TTNNNDLayoutAttr)):
            raise TranslateError(value.owner if isinstance(value.owner, Operation) else None,
                                 f"tensor of type {t} has no #ttnn.ttnn_layout encoding (run --ttnn-layout first)")
        layout = t.encoding
        nd = isinstance(layout, ttnn.TTNNNDLayoutAttr)
        desc, ld = SharedTensorDesc(), fb.LayoutDescT()
        desc.shape, desc.layout = list(t.get_shape()), ld
        grid = layout.grid.data.shape
        linear = AffineMap.identity(len(t.get_shape())) if nd else layout.linear.data  # an ND shard keeps its dims
        ld.linear, ld.grid = affine_map_str(linear), _dim2d(*grid)
        ld.memrefShape = list(layout.memref.get_shape())
        ld.dataType = fbu.enum_value(fb.DataType, layout.data_type)
        element = layout.memref.element_type
        ld.layout = fbu.enum_value(fb.TensorLayout, "tile" if layout.is_tiled else "row_major")
        if layout.is_tiled:
            ld.tileShape = _dim2d(*element.dims)
            unit = hardware.tile_bytes(layout.data_type, element.dims)
        else:
            ld.tileShape = _dim2d(0, 0)
            unit = hardware.DTYPE_BYTES[layout.data_type]
        mem_layout = layout.memory_layout
        ld.memoryConfig = _memory_config(ttnn.MemoryConfig(
            layout.memref.memory_space, None if not isinstance(mem_layout, ttnn.TensorMemoryLayoutAttr) else mem_layout))
        if nd:
            ld.memoryConfig.ndShardSpec = str(layout.nd_shard_spec())
        if (cores := layout.core_ranges) is not None:
            ld.coreRangeSet = _core_range_set(cores)
        size = int(math.prod(grid) * math.prod(ld.memrefShape) * unit)
        if size >= 2**64:  # the schema's uint64 size
            owner = value.owner if isinstance(value.owner, Operation) else value.owner.parent_op()
            raise TranslateError(owner, f"a tensor of {size} bytes is too large for a flatbuffer (sizes are below "
                                        f"2^64 bytes): {t}")
        return desc, size

    def operation(self, op: TTNNOp) -> fb.OperationT:
        row = op.ROW
        if row.name == "generic":
            return self.generic(op)
        table_name = table_of(row)
        table = getattr(fb, table_name + "T")()
        if hasattr(fb, table_name + "Type"):
            table.type = fbu.enum_value(getattr(fb, table_name + "Type"), row.name)
        for spec, values in zip(row.operands, op.operand_groups().values()):
            name, refs = spec.rstrip("?*"), [self.ref(v) for v in values]
            if spec.endswith("*"):
                self._set(table, name, refs, op)
            elif name in RUNTIME_ALLOCATED.get(row.name, ()) and refs:
                raise TranslateError(op, f"'{op.name}' with a bound {name} cannot be serialized: the runtime "
                                         "allocates it, leave it unbound")
            elif refs:  # an absent optional operand needs no field
                self._set(table, name, refs[0], op)
        for name, value in zip(row.results, op.results):
            if name.endswith("*"):  # a variadic result is the op's only one
                self._set(table, name[:-1], [self.ref(v) for v in op.results], op)
                break
            # a result is `out` in a table of TTNN's, `result` in one of the debug dialect's
            name = name.rstrip("?")
            self._set(table, "out" if name == "result" and hasattr(table, "out") else name, self.ref(value), op)
        result_type = op.results[0].type if op.results else None
        for name, kind, _, _ in row.props:
            attr = op.prop(name)  # a defaulted property is written with its default, not the schema's
            if attr is not None:
                if kind in ("elements", "pairs") and (error := elements_error(getattr(attr, "type", None))) is not None:
                    raise TranslateError(op, error)
                value = self.program_index(op, attr) if kind == "symbol" else _encode(kind, attr, result_type)
                self._set(table, name, value, op)
        return self.wrap(op, table_name, table)

    def generic(self, op: TTNNOp) -> fb.OperationT:
        """A ttnn.generic: its tensors and its program, each kernel with the C++ of its function."""
        groups = op.operand_groups()
        table = fb.GenericOpT()
        table.inputsAndOutputs = [self.ref(v) for v in groups["inputs_and_outputs"]]
        table.additionalArgs = []
        for value in groups["additional_args"]:
            arg = fb.GenericArgT()
            if isinstance(value.type, trace.GlobalSemaphoreType):
                arg.semaphore = self.ref(value)
            else:
                arg.tensor = self.ref(value)
            table.additionalArgs.append(arg)
        table.program = _program_descriptor(op, op.properties["program"], self.kernels)
        return self.wrap(op, "GenericOp", table)

    def program_index(self, op: Operation, callee: Attribute) -> int:
        name = callee.root_reference.data
        if name not in self.programs:
            raise TranslateError(op, f"'{op.name}' calls '@{name}', which is not a function of this module")
        return self.programs[name]

    def call(self, op: CallOp) -> fb.OperationT:
        if op.callee.root_reference.data in self.host_llvm:
            return self.cpu_call(op)
        table = fb.CallOpT()
        table.callee, table.programIndex = op.callee.root_reference.data, self.program_index(op, op.callee)
        table.inputs = [self.ref(v) for v in op.operands]
        table.outputs = [self.ref(v) for v in op.results]
        return self.wrap(op, "CallOp", table)

    def load_cached(self, op: ttcore.LoadCachedOp) -> fb.OperationT:
        table = fb.LoadCachedOpT()
        table.calleeName, table.programIdx = op.callee.root_reference.data, self.program_index(op, op.callee)
        table.inputs = [self.ref(v) for v in op.operands]
        table.outputs = [self.ref(v) for v in op.results]
        return self.wrap(op, "LoadCachedOp", table)

    def cpu(self, func: FuncOp) -> fb.OperationT:
        """A CPU-module function of StableHLO ops: the host runs its text (`ttmlir.runtime.host_stablehlo`)."""
        table = fb.CpuOpT()
        table.ins = [self.ref(arg) for arg in func.body.block.args]
        table.outs = [self.ref(v) for v in func.body.block.last_op.operands]
        table.funcName = func.sym_name.data
        table.mlir = print_module(func)
        return self.wrap(func, "CpuOp", table)

    def cpu_call(self, op: CallOp) -> fb.OperationT:
        """A call of a CPU function lowered to LLVM: the host calls its `_helper` in the CPU module's code."""
        table = fb.CpuOpT()
        table.ins = [self.ref(v) for v in op.operands]
        table.outs = [self.ref(v) for v in op.results]
        table.funcName = op.callee.root_reference.data + "_helper"
        table.mlir = self.host_llvm[op.callee.root_reference.data]
        return self.wrap(op, "CpuOp", table)

    def wrap(self, op: Operation, table_name: str, table) -> fb.OperationT:
        """The Operation holding `table`, with the op's location and its printed form for debugging."""
        out = fb.OperationT()
        out.typeType, out.type, out.locInfo = getattr(fb.OpType, table_name), table, self.loc(op)
        out.debugInfo = self.debug_text(op)
        return out

    def debug_text(self, op: Operation) -> str:
        """The op as the printer writes it. Its text after the operand list depends only on its name, properties,
        attributes and types, which repeat over a model's ops (each parsed once, so one object per spelling): that
        tail is rendered once per combination and the head written with the printer's own SSA names."""
        stream = self.printer.stream = io.StringIO()
        if op.regions or op.successors:
            self.printer.print_op(op)
            return stream.getvalue()
        key = (op.name, *((k, id(v)) for k, v in op.properties.items()), None,
               *((k, id(v)) for k, v in op.attributes.items()), None, *map(id, op.operand_types), None,
               *map(id, op.result_types))
        cached = self.tails.get(key)
        if cached is None:
            self.printer.print_op(op)
            text = stream.getvalue()
            # an op in generic form splits after its operand list; one in custom form is always printed whole
            opening = text.find(f'"{op.name}"(')
            tail = text[text.index(")", opening) + 1:] if opening >= 0 else None
            # the attributes are held so their ids stay theirs
            self.tails[key] = (tail, op.properties.copy(), op.attributes.copy(), op.operand_types, op.result_types)
            return text
        tail = cached[0]
        if tail is None:
            self.printer.print_op(op)
            return stream.getvalue()
        self.printer._print_results(op)
        stream.write(f'"{op.name}"(')
        for i, value in enumerate(op.operands):
            if i:
                stream.write(", ")
            self.printer.print_ssa_value(value)
        stream.write(")" + tail)
        return stream.getvalue()

    @staticmethod
    def _set(table, name: str, value, op: Operation) -> None:
        attr = fbu.field(name)
        if attr not in vars(table):
            raise TranslateError(op, f"the flatbuffer table {type(table).__name__[:-1]} has no field '{name}'")
        setattr(table, attr, value)
        if type(value) in UNION_TAGS:
            setattr(table, attr + "Type", UNION_TAGS[type(value)])

    @staticmethod
    def loc(op: Operation) -> str:
        stream = io.StringIO()
        TTPrinter(stream=stream, use_aliases=False).print_attribute(op.location)
        return stream.getvalue()

    def program(self) -> fb.ProgramT:
        func = self.func
        prog = fb.ProgramT()
        prog.name = func.sym_name.data
        prog.private = func.sym_visibility is not None and func.sym_visibility.data == "private" or \
            isinstance(func.parent_op().parent_op(), ttcore.CPUModuleOp)
        for arg in func.body.block.args:
            if isinstance(arg.type, trace.GlobalSemaphoreType):
                raise TranslateError(func, f"@{prog.name} takes a !ttnn.global_semaphore argument; a program's "
                                           "inputs are tensors in this flatbuffer (create the semaphore inside it)")
        prog.inputs = [self.ref(arg) for arg in func.body.block.args]
        for ref, attrs in zip(prog.inputs, func.arg_attrs.data if func.arg_attrs is not None else ()):
            local = _presharded_local_shape(attrs.data)
            if local is not None:
                ref.desc = copy.copy(ref.desc)  # this input's own descriptor, not its type's shared one
                ref.desc.localShape = local
        prog.operations = []
        if isinstance(func.parent_op().parent_op(), ttcore.CPUModuleOp) and \
                any(op.name.startswith(("stablehlo.", "chlo.")) for op in func.body.block.ops):
            prog.operations.append(self.cpu(func))
            prog.outputs = [self.ref(v) for v in func.body.block.last_op.operands]
            return prog
        for op in func.body.block.ops:
            if isinstance(op, ReturnOp):
                prog.outputs = [self.ref(v) for v in op.operands]
            elif isinstance(op, TTNNOp) and op.ROW.name in NEVER_SERIALIZED:
                raise TranslateError(op, f"'{op.name}' cannot be serialized to a TTNN flatbuffer; "
                                         f"{NEVER_SERIALIZED[op.ROW.name]}")
            elif isinstance(op, TTNNOp) or isinstance(op, DebugOp) and op.ROW.name in debug.SERIALIZED:
                prog.operations.append(self.operation(op))
            elif isinstance(op, DebugOp):
                raise TranslateError(op, f"'{op.name}' cannot be serialized to a TTNN flatbuffer: the runtime has no "
                                         f"such op (it runs debug.{', debug.'.join(sorted(debug.SERIALIZED))})")
            elif isinstance(op, CallOp):
                prog.operations.append(self.call(op))
            elif isinstance(op, ttcore.LoadCachedOp):
                prog.operations.append(self.load_cached(op))
            else:
                raise TranslateError(op, f"'{op.name}' cannot be serialized to a TTNN flatbuffer; "
                                         "lower it to TTNN first (--ttir-to-ttnn-backend-pipeline)")
        prog.outputs = prog.outputs or []
        return prog


def _trace_id_desc() -> fb.TensorDescT:
    """A trace id: a scalar ui32 in host memory, row-major."""
    desc, ld = fb.TensorDescT(), fb.LayoutDescT()
    desc.shape, desc.layout = [], ld
    ld.linear, ld.grid, ld.memrefShape, ld.tileShape = "() -> ()", _dim2d(1, 1), [1], _dim2d(0, 0)
    ld.dataType = fbu.enum_value(fb.DataType, "u32")
    ld.layout = fbu.enum_value(fb.TensorLayout, "row_major")
    ld.memoryConfig = _memory_config(ttnn.MemoryConfig(enum(ttnn.BufferTypeAttr, "system_memory")))
    return desc


def _mesh_shape(module: ModuleOp) -> tuple[int, int]:
    for op in module.walk():
        if isinstance(op, ttcore.DeviceOp):
            return tuple(op.device_attr.data.mesh_shape)
    return (1, 1)


def translate(module: ModuleOp, stages: dict[str, str] | None = None, goldens: dict | None = None,
              source: str | None = None, local_scope: bool = False) -> bytes:
    """Serialize a TTNN module.

    `stages` maps pipeline stage names to their MLIR text; `goldens` maps a program name to its golden
    tensors (numpy arrays) keyed by op location (`loc("...")`) or `input_N` for program inputs; `source` is
    the module's text when the caller read it from one (else the module is printed, inline with `local_scope`).
    """
    from ttmlir.transforms.ttcore.ttcore_mark_functions_as_forward import FORWARD_DEVICE, FUNCTION_TYPE
    from ttmlir.transforms.ttcore.register_device import cpu_module_of, device_module_of

    system = device_module_of(module).attributes.get("ttcore.system_desc")
    if not isinstance(system, ttcore.SystemDescAttr):
        raise TranslateError(None, "module has no ttcore.system_desc attribute "
                                   "(run --ttcore-register-device or the backend pipeline first)")
    binary = fb.TTNNBinaryT()
    binary.version, binary.ttmlirGitHash = fbu.version_t(), fbu.git_hash()
    binary.systemDesc = fbu.system_desc_t(system.data.as_dict())
    binary.meshShape = _dim2d(*_mesh_shape(module))
    source = source if source is not None else print_module(module, local_scope=local_scope)
    binary.programs = []
    cpu = cpu_module_of(module)  # functions hoisted to the CPU run as programs on host tensors
    functions = [f for m in (device_module_of(module), cpu) if m is not None for f in m.ops
                 if isinstance(f, FuncOp) and f.body.blocks]
    # kernel functions (a ttkernel.thread) are what ttnn.generic programs run
    # the compiler's functions (const-eval, trace) after the user's, as upstream: program N stays the module's
    # N-th function whatever const-eval adds
    funcs = sorted((f for f in functions if "ttkernel.thread" not in f.attributes),
                   key=lambda f: f.attributes.get(FUNCTION_TYPE, FORWARD_DEVICE) != FORWARD_DEVICE)
    kernels = {f.sym_name.data: f for f in functions if "ttkernel.thread" in f.attributes}
    indices = {f.sym_name.data: i for i, f in enumerate(funcs)}
    printer = TTPrinter(stream=io.StringIO(), use_aliases=False, print_debuginfo=False)
    host_llvm = _host_llvm(cpu)
    for func in funcs:
        prog = ProgramWriter(func, indices, kernels, printer, host_llvm).program()
        prog.meshShape = binary.meshShape
        prog.debugInfo = fb.DebugInfoT()
        prog.debugInfo.mlir = _mlir("ttnn", source)
        prog.debugInfo.goldenInfo = fbu.golden_info((goldens or {}).get(prog.name, {}))
        binary.programs.append(prog)
    binary.mlirStages = [_mlir(name, text) for name, text in {**(stages or {}), "ttnn": source}.items()]
    return fbu.serialize(binary, "ttnn")


def _host_llvm(cpu: ModuleOp | None) -> dict[str, str]:
    """Per CPU function lowered to LLVM (one with a `_helper` wrapper): the text of a module holding it, its
    helper and the external functions they call, which the runtime compiles for the CpuOps calling it."""
    from xdsl.dialects.llvm import FuncOp as LLVMFuncOp
    functions = {f.sym_name.data: f for f in (cpu.ops if cpu is not None else ()) if isinstance(f, LLVMFuncOp)}
    external = [f for f in functions.values() if not f.body.blocks]
    texts = {}
    for name, func in functions.items():
        if "arg_ranks" in func.attributes and (helper := functions.get(name + "_helper")) is not None:
            texts[name] = print_module(ModuleOp([f.clone() for f in (func, helper, *external)]))
    return texts


def _mlir(name: str, source: str) -> fb.MLIRT:
    out = fb.MLIRT()
    out.name, out.source = name, source
    return out
