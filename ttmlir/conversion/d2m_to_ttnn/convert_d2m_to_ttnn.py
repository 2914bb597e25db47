"""D2M programs inside a TTNN graph (`--ttir-to-ttmetal-pipeline="ttnn-mode=true"`): each program the Metal
lowering builds for a D2M generic becomes a `ttnn.generic` on the TTNN tensors, as upstream's
convert-d2m-to-ttnn makes it.

The TTNN runtime allocates the tensors, so a kernel finds each by the argument binding its address
(`#ttnn.kernel_arg_address_of_tensor<i>`, a common runtime arg); a CB lives in an L1 tensor's own shards
(`buffer = #ttnn.kernel_cb_global_buffer_address_of_tensor<i>`) or is allocated by the runtime for the program;
the semaphores the kernels take start at 0 on the program's cores."""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import (AffineMapAttr, AnyFloat, ArrayAttr, DenseArrayBase, IndexType, IntegerType,
                                   MemRefType, ModuleOp, NoneAttr, StringAttr, SymbolRefAttr, TensorType, i32)
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.parser import Parser
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter
from xdsl.traits import IsTerminator

from ttmlir import hardware
from ttmlir.dialects import d2m, ttcore, ttkernel, ttmetal, ttnn
from ttmlir.dialects import ttnn_program as tp
from ttmlir.dialects.d2m_alias import OperandAliasOp
from ttmlir.dialects.d2m_semaphore import CreateGlobalSemaphoreOp, CreateLocalSemaphoreOp, ResetGlobalSemaphoreOp
from ttmlir.dialects.d2m_cb import GlobalSemaphoreType, LocalSemaphoreType
from ttmlir.dialects.trace import GlobalSemaphoreType as GlobalSemaphoreTTNN
from ttmlir.dialects.ttir import TTNNMetalLayoutCastOp
from ttmlir.errors import PassFailure
from ttmlir.ir.syntax import enum
from ttmlir.transforms.ttnn.ttnn_utils import device_of as entry_device, get_device_op, ttnn_empty

FIDELITIES = ("LoFi", "HiFi2", "HiFi3", "HiFi4")  # math-fidelity, as upstream spells ttmetal's MathFidelity


def device_of(ops: list[Operation], func: FuncOp) -> SSAValue:
    """The function's `ttnn.get_device` among `ops`, or one made at their start."""
    for op in ops:
        if op.name == "ttnn.get_device":
            return op.results[0]
    device = get_device_op(func)
    ops.insert(0, device)
    return device.results[0]


def _cores(origin: tuple[int, int], size: tuple[int, int]) -> ttnn.CoreRangeSetAttr:
    """The cores (y, x) from `origin`, `size` of them, as TTNN names a range: inclusive (x, y) corners."""
    (oy, ox), (sy, sx) = origin, size
    return ttnn.CoreRangeSetAttr((ttnn.CoreRangeAttr(((ox, oy), (ox + sx - 1, oy + sy - 1))),))


def _semaphores(symbols: list[str], kernels: list[FuncOp]) -> list[int]:
    """The semaphore ids the kernels named `symbols` take (constants of their get_semaphore calls)."""
    ids = set()
    for func in kernels:
        if func.sym_name.data not in symbols:
            continue
        for op in func.walk():
            if isinstance(op, ttkernel.OP_CLASSES["get_semaphore"]):
                ids.add(op.operands[0].owner.value.value.data)
    return sorted(ids)


def generic_of(launch: ttmetal.EnqueueProgramOp, layouts: dict, kernels: list[FuncOp]) -> Operation:
    """The `ttnn.generic` running `launch`'s kernels on its operands (the TTNN tensors, in order)."""
    tensors = list(launch.args)
    ports = list(launch.cb_ports.get_values())
    bind = {"cb_port": lambda i: tp.KernelArgCbBufferIndexAttr(ports[i]),
            "buffer_address": tp.KernelArgAddressOfTensorAttr,
            "tensor_accessor_args": tp.INDEX_ATTRS["kernel_arg_tensor_accessor_args"]}
    cbs = []
    for value, port in zip(launch.cbs, ports):
        layout = layouts[value]
        fmt = tp.KernelCBFormatAttr((("buffer_index", port), ("dtype", layout.dtype), ("page_size", layout.page)))
        fields = [("total_size", layout.tiles * layout.page), ("core_ranges", _cores(layout.origin, layout.cores)),
                  ("formats", (fmt,))]
        if value in tensors:
            fields.append(("buffer", tp.KernelCbGlobalBufferAddressOfTensorAttr(tensors.index(value))))
        cbs.append(tp.KernelCBAttr(tuple(fields)))
    program_kernels, cores = [], []
    for config in launch.kernelConfigs.data:
        kernel = config.data
        common, per_core, compile_time = ([bind[kind](index) for kind, index in group] for group in kernel.args.data)
        if per_core:
            raise PassFailure(launch, "per-core runtime arguments are not carried into a ttnn.generic yet")
        (oy, ox), (sy, sx) = kernel.core_range.data
        cores.append(_cores((oy, ox), (sy, sx)))
        where = (("symbol_ref", kernel.symbol), ("core_ranges", cores[-1]))
        args = (("ct_args", ArrayAttr(compile_time)), ("common_rt_args", ArrayAttr(common)),
                ("rt_args", ()))
        if isinstance(config, ttmetal.ComputeConfigAttr):
            fidelity, fp32, full_sync, approx, modes = kernel.fields
            program_kernels.append(tp.ComputeKernelAttr((
                *where, ("math_fidelity", fidelity), ("fp32_dest_acc_en", fp32), ("dst_full_sync_en", full_sync),
                ("unpack_to_dest_modes", tuple(modes)), ("bfp8_pack_precise", False), ("math_approx_mode", approx),
                *args)))
        elif isinstance(config, ttmetal.NocConfigAttr):
            dm_core, noc, _ = kernel.fields
            program_kernels.append(tp.DataMovementKernelAttr((
                *where, ("processor", f"riscv{dm_core}"), ("noc_index", noc), ("noc_mode", "dedicated_noc"), *args)))
        else:
            raise PassFailure(launch, f"a {config.name} kernel is not carried into a ttnn.generic")
    symbols = [config.data.symbol.root_reference.data for config in launch.kernelConfigs.data]
    everywhere = ttnn.CoreRangeSetAttr(tuple(dict.fromkeys(r for c in cores for r in c.data)))
    semaphores = [tp.KernelSemaphoreAttr((("id", i), ("core_type", "worker"), ("core_ranges", everywhere),
                                          ("initial_value", 0))) for i in _semaphores(symbols, kernels)]
    program = tp.ProgramAttr((("kernels", ArrayAttr(program_kernels)), ("cbs", tuple(cbs)),
                              ("semaphores", tuple(semaphores))))
    generic = ttnn.TTNN_OP_CLASSES["generic"].create(
        operands=tensors, properties={"program": program,
                                      "operandSegmentSizes": DenseArrayBase.from_list(i32, [len(tensors), 0])})
    generic.location = launch.location
    return generic



# --- `--convert-d2m-to-ttnn`: bufferized D2M programs (kernels already outlined) as ttnn.generic ops ----------------

def _affine(text: str) -> AffineMap:
    return Parser(Context(), text).parse_affine_map()


def _grid_halves(t: MemRefType) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """A device memref's grid and shard shapes (its shape's two halves)."""
    shape = tuple(t.get_shape())
    return shape[:len(shape) // 2], shape[len(shape) // 2:]


def _forward_map(value: SSAValue) -> AffineMap | None:
    """The virtual grid forward mapping a buffer was allocated with (`d2m.virtualGridForwardMapping`)."""
    owner = value.owner
    mapping = owner.attributes.get("d2m.virtualGridForwardMapping") if isinstance(owner, Operation) else None
    return mapping.data if isinstance(mapping, AffineMapAttr) else None


def _bounding_box(amap: AffineMap, shape: tuple[int, ...], results: slice) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The smallest box holding `amap`'s `results` over every index of `shape` (each extra map dim at 0)."""
    points = [tuple(amap.eval([*index, *(0,) * (amap.num_dims - len(shape))], []))[results]
              for index in itertools.product(*map(range, shape))]
    return tuple(map(min, zip(*points))), tuple(map(max, zip(*points)))


def _ttnn_tensor_type(value: SSAValue) -> TensorType:
    """The TTNN tensor a device buffer holds: its elements over grid x shard (x tile) per dim, laid out interleaved
    in DRAM, or sharded over the cores of its (physical) grid: block-sharded on its own grid, height- or
    width-sharded on the cores a virtual grid maps to."""
    t: MemRefType = value.type
    grid, shard = _grid_halves(t)
    element = t.get_element_type()
    tile = element.dims if isinstance(element, ttcore.TileType) else (1, 1)
    shape = [g * s * (tile[i] if i < 2 else 1) for i, (g, s) in enumerate(zip(grid, shard))]
    space = t.memory_space
    buffer = "l1" if isinstance(space, ttcore.MemorySpaceAttr) and space.data.value == "l1" else "dram"
    memref = MemRefType(element, shard, NoneAttr(), enum(ttnn.BufferTypeAttr, buffer))
    extras: Attribute = NoneAttr()
    if isinstance(t.layout, ttcore.InterleavedLayoutAttr):
        cores, layout = (1, 1), "interleaved"
    else:
        forward = _forward_map(value)
        if forward is None:
            cores, layout = tuple(grid), "block_sharded"
        else:
            _, last = _bounding_box(forward, tuple(grid), slice(0, 2))
            cores = (last[0] + 1, last[1] + 1)
            layout = "height_sharded" if grid[-2] > 1 else "width_sharded"
        extras = StringAttr(f"core_ranges = <[#ttnn.core_range<(0,0), ({cores[1] - 1},{cores[0] - 1})>]>")
    encoding = ttnn.TTNNLayoutAttr(AffineMapAttr(AffineMap.identity(2)), ttcore.GridAttr(ttcore.Grid(cores)), memref,
                                   enum(ttnn.TensorMemoryLayoutAttr, layout), extras)
    scalar_type = ttnn.DATA_TYPE_TO_MLIR[element.dtype] if isinstance(element, ttcore.TileType) else element
    return TensorType(scalar_type, shape, encoding)


def _core_range(start: tuple[int, int], end: tuple[int, int]) -> ttnn.CoreRangeSetAttr:
    """Cores (y, x) from `start` to `end` inclusive, as TTNN writes a range: (x, y) corners."""
    return ttnn.CoreRangeSetAttr((ttnn.CoreRangeAttr(((start[1], start[0]), (end[1], end[0]))),))


def _generic_cores(generic: d2m.GenericOp) -> ttnn.CoreRangeSetAttr:
    """The physical cores a generic runs on: its grid, or the box its virtual grid maps onto."""
    grid = generic.attributes["grid"].data
    if not grid.maps:
        return _core_range((0, 0), (grid.shape[-2] - 1, grid.shape[-1] - 1))
    forward = _affine(grid.maps[0])
    results = slice(1, 3) if len(forward.results) == 3 else slice(0, 2)
    start, end = _bounding_box(forward, grid.shape, results)
    return _core_range(start, end)


def _cb_bytes(t: MemRefType) -> tuple[int, int]:
    """A CB buffer's page size (a tile) and its bytes per core (whole pages, times the buffers it cycles)."""
    page = hardware.tile_bytes(t.get_element_type().dtype, t.get_element_type().dims)
    layout = t.layout
    buffers = layout.data[1] if isinstance(layout, (ttcore.CBLayoutAttr, ttcore.ShardLayoutAttr)) else 1
    shape = tuple(t.get_shape()) if isinstance(layout, ttcore.CBLayoutAttr) else _grid_halves(t)[1]
    return page, math.prod(shape) * page * buffers


def _io_tensor(value: SSAValue, mapping: dict) -> SSAValue:
    """The TTNN tensor a generic's operand is: itself, the tensor made for its buffer, or what a view or a cast
    looks at."""
    t = value.type
    if isinstance(t, TensorType) and isinstance(t.encoding, ttnn.TTNNLayoutAttr):
        return value
    if value in mapping:
        return mapping[value]
    owner = value.owner
    if isinstance(owner, d2m.ViewLayoutOp):
        return _io_tensor(owner.operands[0], mapping)
    if isinstance(owner, TTNNMetalLayoutCastOp):
        return owner.operands[0]
    raise PassFailure(owner if isinstance(owner, Operation) else None,
                      f"a d2m.generic operand of type {t} is not a TTNN tensor, its buffer, a view or a cast of one")


def _kernel_arg(kind: str, name: str | None, index: int, ports: dict, semaphores: dict, extra: dict) -> Attribute:
    """A ttkernel argument (what it is and the generic operand it comes from) as the ttnn.generic binds it."""
    if kind == "buffer_address":
        return tp.KernelArgAddressOfTensorAttr(index)
    if kind == "cb_port":
        return tp.KernelArgCbBufferIndexAttr(ports[index])
    if kind == "local_semaphore":
        return tp.KernelArgSemaphoreAtAttr(semaphores[index])
    if kind == "named_argument":
        return tp.KernelNamedArgAttr((("name", StringAttr(name)), ("value", index)))
    if kind in ("global_semaphore", "scalar"):
        return tp.INDEX_ATTRS[f"kernel_arg_{kind}"](extra[index])
    return tp.INDEX_ATTRS["kernel_arg_tensor_accessor_args"](index)


def _kernel_func(module: ModuleOp, symbol: Attribute, generic: Operation) -> FuncOp:
    name = symbol.root_reference.data
    for op in module.ops:
        if isinstance(op, FuncOp) and op.sym_name.data == name:
            return op
    raise PassFailure(generic, f"kernel function @{name} of a d2m.generic thread is not in the module")


def _arg_spec(func: FuncOp, generic: Operation) -> dict:
    spec = func.attributes.get("ttkernel.arg_spec")
    if not isinstance(spec, ttkernel.ArgSpecAttr):
        raise PassFailure(generic, f"kernel function @{func.sym_name.data} has no ttkernel.arg_spec")
    return spec.groups


def _converted_generic(generic: d2m.GenericOp, module: ModuleOp, mapping: dict, fidelity: str) -> Operation:
    """The ttnn.generic running `generic`'s kernels: its operands the TTNN tensors (then its scalar and global
    semaphore arguments), its CBs its buffers of CB layout (one living in an operand's shard where it aliases it),
    its semaphores the local semaphores its kernels take, on the cores its grid covers."""
    cores = _generic_cores(generic)
    ios = [*generic.inputs, *generic.outputs]
    extra_values, extra = [], {}
    for position, arg in enumerate(generic.additional_args, start=len(ios)):
        if isinstance(arg.type, (GlobalSemaphoreType, IntegerType, IndexType, AnyFloat)):
            extra[position] = len(ios) + len(extra_values)
            extra_values.append(mapping.get(arg, arg))
        elif not isinstance(arg.type, (LocalSemaphoreType, MemRefType)):
            raise PassFailure(generic, f"unexpected operand type in d2m.generic's additionalArgs: {arg.type}")
    cbs, ports = [], {}
    operands = list(generic.operands)
    for position, arg in enumerate(generic.additional_args, start=len(ios)):
        t = arg.type
        if not isinstance(t, MemRefType):
            continue
        if not isinstance(t.get_element_type(), ttcore.TileType):
            raise PassFailure(generic, f"a CB of {t.get_element_type()} is not converted (CBs of tiles are)")
        page, total = _cb_bytes(t)
        fmt = tp.KernelCBFormatAttr((("buffer_index", len(cbs)), ("dtype", t.get_element_type().dtype),
                                     ("page_size", page)))
        fields = [("total_size", total), ("core_ranges", cores), ("formats", (fmt,))]
        if isinstance(arg.owner, OperandAliasOp):
            fields.append(("buffer", tp.KernelCbGlobalBufferAddressOfTensorAttr(operands.index(arg.owner.memref))))
        elif not (isinstance(arg.owner, Operation) and arg.owner.name == "memref.alloc"):
            raise PassFailure(generic, "a CB operand of a d2m.generic is a memref.alloc or a d2m.operand_alias")
        ports[position] = len(cbs)
        cbs.append(tp.KernelCBAttr(tuple(fields)))
    threads = [t for t in generic.attributes["threads"].data]
    specs = []
    for thread in threads:
        if thread.thread == "unified" or not isinstance(thread.kernel, SymbolRefAttr):
            raise PassFailure(generic, "a d2m.generic's threads are split and outlined into kernels before "
                                       "convert-d2m-to-ttnn (run d2m-split-unified-thread and the kernel lowering)")
        specs.append(_arg_spec(_kernel_func(module, thread.kernel, generic), generic))
    locals_ = sorted({index for spec in specs for group in spec.values() for kind, _, index in group
                      if kind == "local_semaphore"})
    semaphore_ids = {index: i for i, index in enumerate(locals_)}
    kernels = []
    for thread, spec in zip(threads, specs):
        rt, ct = ([_kernel_arg(*arg, ports, semaphore_ids, extra) for arg in spec[group]]
                  for group in ("rt_args", "ct_args"))
        args = (("ct_args", ArrayAttr(ct)), ("common_rt_args", ArrayAttr(rt)), ("rt_args", ()))
        where = (("symbol_ref", thread.kernel), ("core_ranges", cores))
        if thread.thread == "compute":
            kernels.append(tp.ComputeKernelAttr((
                *where, ("math_fidelity", fidelity.lower()), ("fp32_dest_acc_en", False), ("dst_full_sync_en", False),
                ("unpack_to_dest_modes", ("default",)), ("bfp8_pack_precise", False), ("math_approx_mode", False),
                *args)))
        else:
            dm_core = thread.dm_core.data
            kernels.append(tp.DataMovementKernelAttr((
                *where, ("processor", "riscv0" if dm_core == 0 else "riscv1"),
                ("noc_index", _default_noc(module, dm_core)), ("noc_mode", "dedicated_noc"), *args)))
    semaphores = [tp.KernelSemaphoreAttr((("id", i), ("core_type", "worker"), ("core_ranges", cores),
                                          ("initial_value", 0))) for i in range(len(locals_))]
    program = tp.ProgramAttr((("kernels", ArrayAttr(kernels)), ("cbs", tuple(cbs)), ("semaphores", tuple(semaphores))))
    tensors = [_io_tensor(v, mapping) for v in ios]
    if not generic.inputs and len(tensors) == 1:  # the runtime's generic takes an input and an output tensor
        tensors.append(tensors[0])
    return _ttnn_generic(tensors, extra_values, program, generic)


def _ttnn_generic(tensors: list[SSAValue], extra: list[SSAValue], program, at: Operation) -> Operation:
    made = ttnn.TTNN_OP_CLASSES["generic"].create(
        operands=[*tensors, *extra], properties={
            "program": program, "operandSegmentSizes": DenseArrayBase.from_list(i32, [len(tensors), len(extra)])})
    made.location = at.location
    return made


def _default_noc(module: ModuleOp, dm_core: int) -> str:
    """The NoC a data-movement core drives by default: as Metalium's reader (core 1, NoC 0) and writer (core 0,
    NoC 1) on Wormhole and Blackhole; Quasar has one NoC."""
    system = module.attributes.get("ttcore.system_desc")
    if isinstance(system, ttcore.SystemDescAttr) and system.data.chip(0)["arch"] == "quasar":
        return "noc0"
    return "noc0" if dm_core == 1 else "noc1"


def _with_args(kernel, ct: list, common: list):
    """`kernel` with its compile-time and common runtime arguments replaced."""
    return type(kernel)(tuple((key, ArrayAttr(ct) if key == "ct_args" else ArrayAttr(common)
                               if key == "common_rt_args" else value) for key, value in kernel.data))


def _merged_spatial(spatial: d2m.SpatialOp) -> Operation:
    """One ttnn.generic for a spatial op's regions (each one ttnn.generic by now): their tensors listed once each
    in region order, their extra arguments one after another, each kernel's and CB's indices moved to match."""
    if spatial.results:
        raise PassFailure(spatial, "expected no results on d2m.spatial before merge to ttnn.generic")
    io: list[SSAValue] = []
    extra: list[SSAValue] = []
    generics = []
    for region in spatial.regions:
        found = [op for op in region.block.ops if op.name == "ttnn.generic"]
        if len(found) != 1:
            raise PassFailure(spatial, f"each region must contain exactly one ttnn.generic, got {len(found)}")
        generics.append(found[0])
    plans = []
    for generic in generics:
        tensors = list(generic.operands[:generic.properties["operandSegmentSizes"].get_values()[0]])
        extras = list(generic.operands[len(tensors):])
        for t in tensors:
            if t not in io:
                io.append(t)
        plans.append(([io.index(t) for t in tensors], len(tensors), len(extra), len(extras)))
        extra += extras
    kernels, cbs, semaphores = [], [], []
    for generic, (io_at, count, extra_base, extra_count) in zip(generics, plans):
        program = generic.properties["program"]

        def moved(arg, io_at=io_at, count=count, extra_base=extra_base):
            index_kind = next((k for k, c in tp.INDEX_ATTRS.items() if isinstance(arg, c)), None)
            if index_kind in ("kernel_arg_address_of_tensor", "kernel_arg_tensor_accessor_args") and \
                    arg.data < len(io_at):
                return type(arg)(io_at[arg.data])
            if index_kind in ("kernel_arg_global_semaphore", "kernel_arg_scalar") and count <= arg.data:
                return type(arg)(len(io) + extra_base + arg.data - count)
            return arg

        for kernel in program.get("kernels").data:
            kernels.append(_with_args(kernel, [moved(a) for a in kernel.get("ct_args").data],
                                      [moved(a) for a in kernel.get("common_rt_args").data]))
        for cb in program.get("cbs"):
            buffer = cb.get("buffer")
            if buffer is not None:
                cb = type(cb)(tuple((k, tp.KernelCbGlobalBufferAddressOfTensorAttr(io_at[buffer.data])
                                     if k == "buffer" else v) for k, v in cb.data))
            cbs.append(cb)
        semaphores += program.get("semaphores")
    block = spatial.parent_block()
    for region in spatial.regions:
        for op in list(region.block.ops):
            if op.name != "ttnn.generic" and not op.has_trait(IsTerminator):
                op.detach()
                block.insert_op_before(op, spatial)
    program = tp.ProgramAttr((("kernels", ArrayAttr(kernels)), ("cbs", tuple(cbs)), ("semaphores", tuple(semaphores))))
    return _ttnn_generic(io, extra, program, spatial)


@dataclass(frozen=True)
class ConvertD2MToTTNNPass(ModulePass):
    """Bufferized D2M programs whose kernels are ttkernel functions as ttnn.generic ops (upstream's
    convert-d2m-to-ttnn): each buffer a TTNN tensor (`ttnn.empty`), each generic a ttnn.generic whose program
    binds its kernels' arguments, CBs and semaphores, each spatial op one ttnn.generic of its regions' programs,
    global semaphores TTNN's; views, casts, buffers and their deallocations go."""

    name: ClassVar[str] = "convert-d2m-to-ttnn"
    math_fidelity: str = "HiFi4"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.math_fidelity not in FIDELITIES:
            raise PassFailure(op, f"math-fidelity is one of {', '.join(FIDELITIES)}, not '{self.math_fidelity}'")
        for generic in [o for o in op.walk() if isinstance(o, d2m.GenericOp)]:
            for thread in generic.attributes["threads"].data:
                if thread.thread == "datamovement" and thread.dm_core.data >= 2:
                    raise PassFailure(generic, "DM core indices greater than 1 are not supported by D2MToTTNN "
                                               "lowering yet")
        mapping: dict[SSAValue, SSAValue] = {}
        for alloc in [o for o in op.walk() if o.name == "memref.alloc"]:
            self.materialize(alloc, mapping)
        for empty in [o for o in op.walk() if isinstance(o, d2m.EmptyOp)]:
            t = empty.result.type
            if not isinstance(t, TensorType) or not isinstance(t.encoding, ttnn.TTNNLayoutAttr):
                raise PassFailure(empty, "unsupported encoding type")
            mapping[empty.result] = self.empty_after(empty, t)
        for create in [o for o in op.walk() if isinstance(o, CreateGlobalSemaphoreOp)]:
            grid = _grid_halves(create.input.type)[0]
            device = entry_device(_func_block(create))
            made = ttnn.TTNN_OP_CLASSES["create_global_semaphore"].create(
                operands=[device], result_types=[GlobalSemaphoreTTNN()], properties={
                    "core_range_set": ttnn.CoreRangeSetAttr((ttnn.CoreRangeAttr(((0, 0), (grid[0] - 1, grid[1] - 1))),)),
                    **({"initial_value": create.value} if create.value is not None else {})})
            made.location = create.location
            create.parent_block().insert_op_after(made, create)
            mapping[create.result] = made.results[0]
        for reset in [o for o in op.walk() if isinstance(o, ResetGlobalSemaphoreOp)]:
            made = ttnn.TTNN_OP_CLASSES["reset_global_semaphore"].create(
                operands=[mapping.get(reset.semaphore, reset.semaphore)], properties={"value": reset.value})
            made.location = reset.location
            reset.parent_block().insert_op_after(made, reset)
        for generic in [o for o in op.walk() if isinstance(o, d2m.GenericOp)]:
            Rewriter.replace_op(generic, _converted_generic(generic, op, mapping, self.math_fidelity), [])
        for spatial in [o for o in op.walk() if isinstance(o, d2m.SpatialOp)]:
            Rewriter.replace_op(spatial, _merged_spatial(spatial), [])
        self.clean_up(op, mapping)

    def empty_after(self, op: Operation, t: TensorType) -> SSAValue:
        empty = ttnn_empty(t, entry_device(_func_block(op)), op)
        op.parent_block().insert_op_after(empty, op)
        return empty.results[0]

    def materialize(self, alloc: Operation, mapping: dict) -> None:
        """A device buffer as a `ttnn.empty` TTNN tensor (of the type a cast of it names, which keeps its rank);
        CBs and the buffers of global semaphores are described elsewhere."""
        value = alloc.results[0]
        t = value.type
        if any(isinstance(use.operation, CreateGlobalSemaphoreOp) for use in value.uses) or \
                isinstance(t.layout, ttcore.CBLayoutAttr):
            return
        if not isinstance(t.layout, (ttcore.ShardLayoutAttr, ttcore.InterleavedLayoutAttr)):
            raise PassFailure(alloc, "Unsupported memref.alloc")
        converted = _ttnn_tensor_type(value)
        casts = [use.operation for use in value.uses if isinstance(use.operation, TTNNMetalLayoutCastOp)]
        made = self.empty_after(alloc, casts[0].results[0].type if casts else converted)
        mapping[value] = made
        for cast in casts:
            mapping[cast.results[0]] = made

    def clean_up(self, module: ModuleOp, mapping: dict) -> None:
        for old, new in mapping.items():
            old.replace_all_uses_with(new)
        for cast in [o for o in module.walk() if isinstance(o, TTNNMetalLayoutCastOp)]:
            if isinstance(cast.results[0].type, TensorType) and cast.results[0].uses:
                cast.results[0].replace_all_uses_with(_io_tensor(cast.operands[0], mapping))
        gone = [o for o in module.walk() if isinstance(o, (TTNNMetalLayoutCastOp, d2m.ViewLayoutOp, d2m.EmptyOp,
                                                           ResetGlobalSemaphoreOp, CreateGlobalSemaphoreOp,
                                                           CreateLocalSemaphoreOp, OperandAliasOp))
                or o.name in ("memref.alloc", "memref.dealloc")]
        for dead in reversed(gone):
            dead.detach()
            dead.erase(safe_erase=False)
        for left in module.walk():
            if left.name.startswith("d2m."):
                raise PassFailure(left, "unexpected D2M op after conversion")
            if left.name in ("memref.alloc", "memref.dealloc"):
                raise PassFailure(left, "unexpected memref op after conversion")


def _func_block(op: Operation) -> Block:
    """The entry block of the function holding `op`."""
    while not isinstance(op.parent_op(), FuncOp):
        op = op.parent_op()
    return op.parent_op().body.block
