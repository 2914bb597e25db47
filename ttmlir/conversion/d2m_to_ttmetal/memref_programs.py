"""`--convert-d2m-to-ttmetal` of a function already in memref form, as upstream's pipeline stages it: its device
buffers allocated (`memref.alloc {address = ...}` with a `#ttcore.shard`, `#ttcore.interleaved` or, for a circular
buffer hoisted out of a generic, `#ttcore.cb_layout` layout) and each generic's threads naming kernel functions
(`--convert-d2m-to-ttkernel` gives them their `ttkernel.arg_spec`).

Each alloc becomes a `ttmetal.create_buffer` at its address (a dealloc a `deallocate_buffer`), each semaphore a
ttmetal one, views go (a program reads the buffer under them), and each generic a `ttmetal.enqueue_program`: its
ins and outs, then its additional args that are semaphores or scalars, are the program's operands, in that order;
its additional args that are circular buffers some kernel reads (a `cb_port` of an arg spec) are its CBs, port by
port (a CB aliasing an operand, `d2m.operand_alias`, is that operand's buffer). Each kernel's arg spec becomes its
kernel args, naming those operands and ports; kernels run on the generic's grid, a data-movement kernel on its
core's NoC, a compute kernel with a 32-bit dst when an operand is 32-bit (unpacking to dst in fp32 for a typecast).
"""

from __future__ import annotations

from xdsl.dialects.builtin import AnyFloat, IndexType, IntegerType, MemRefType, TensorType
from xdsl.dialects.func import FuncOp
from xdsl.dialects.memref import AllocOp, DeallocOp
from xdsl.ir import Attribute, SSAValue
from xdsl.rewriter import Rewriter

from ttmlir.conversion.d2m_to_ttmetal.program import enqueue
from ttmlir.dialects import d2m, ttcore, ttkernel, ttmetal
from ttmlir.dialects.d2m_cb import GlobalSemaphoreType, LocalSemaphoreType
from ttmlir.dialects.d2m_alias import OperandAliasOp
from ttmlir.dialects.d2m_semaphore import CreateGlobalSemaphoreOp, CreateLocalSemaphoreOp, ResetGlobalSemaphoreOp
from ttmlir.dialects.ttcore_cb_layout import CBLayoutAttr
from ttmlir.errors import PassFailure

WIDE = ("f32", "si32", "u32")  # 32-bit data: dst accumulates in 32 bits
GRID_MAPS = ("d2m.virtualGridInverseMapping", "d2m.virtualGridForwardMapping")  # an alloc's virtual grid maps


def is_memref_form(func: FuncOp) -> bool:
    """A host function already in memref form: no tensors, and memrefs it allocates or takes."""
    values = [*func.body.block.args, *(r for op in func.walk() for r in op.results)]
    return not any(isinstance(v.type, TensorType) for v in values) and \
        any(isinstance(v.type, MemRefType) for v in values)


def _is_typecast(op) -> bool:
    """A typecast call of a kernel, before or after its lowering to EmitC."""
    callee = op.properties.get("callee") if op.name == "emitc.call_opaque" else None
    return op.name == "ttkernel.typecast_tile" or (callee is not None and callee.data == "typecast_tile")


def _underlying(value: SSAValue) -> SSAValue:
    """The buffer under a view of it."""
    while isinstance(value.owner, d2m.ViewLayoutOp):
        value = value.owner.input
    return value


def _dtype(t: Attribute) -> str:
    element = getattr(t, "element_type", t)
    return element.dtype if isinstance(element, ttcore.TileType) else str(element)


class MemrefProgramLowering:
    """One memref-form function's allocs, semaphores, views and generics lowered to TTMetal."""

    def __init__(self, func: FuncOp, kernels: dict[str, FuncOp], fidelity: str):
        self.func, self.kernels, self.fidelity = func, kernels, fidelity
        self.rewriter = Rewriter()

    def lower(self) -> None:
        block = self.func.body.block
        for op in list(block.ops):
            if isinstance(op, d2m.GenericOp):
                self.generic(op)
        for op in list(block.ops):
            lowering = LOWERINGS.get(type(op))
            if lowering is not None:
                lowering(self, op)
            elif op.dialect_name() == "d2m":
                raise PassFailure(op, f"'{op.name}' in a memref-form function is not lowered to TTMetal yet")

    def alloc(self, op: AllocOp) -> None:
        t = op.memref.type
        address = op.attributes.get("address")
        if address is None and not isinstance(t.memory_space, ttcore.MemorySpaceAttr):
            return  # host memory (a result read back into it): the host allocates it
        if address is None:
            raise PassFailure(op, "a device buffer needs its address (run d2m-allocate first)")
        if not isinstance(t.layout, (ttcore.ShardLayoutAttr, ttcore.InterleavedLayoutAttr, CBLayoutAttr)):
            raise PassFailure(op, f"{t} has no physical device layout (shard, interleaved or cb_layout)")
        maps = {name.removeprefix("d2m."): op.attributes[name] for name in GRID_MAPS if name in op.attributes}
        self.rewriter.replace_op(op, ttmetal.CreateBufferOp.create(result_types=[t],
                                                                  properties={"address": address, **maps}))

    def generic(self, op: d2m.GenericOp) -> None:
        """The program of a generic whose threads name their kernels."""
        threads = op.attributes["threads"].data
        if op.regions and any(r.blocks for r in op.regions) or any(t.kernel is None for t in threads):
            raise PassFailure(op, "a d2m.generic is lowered to TTMetal once its threads name their kernels "
                                  "(d2m-generic-regions-to-funcs, convert-d2m-to-ttkernel)")
        specs = {}
        for thread in threads:
            kernel = self.kernels.get(thread.kernel.root_reference.data)
            spec = kernel.attributes.get("ttkernel.arg_spec") if kernel is not None else None
            if not isinstance(spec, ttkernel.ArgSpecAttr):
                raise PassFailure(op, f"the kernel {thread.kernel} of a program has no ttkernel.arg_spec (run "
                                      "convert-d2m-to-ttkernel first)")
            specs[thread.kernel.root_reference.data] = spec
        ports_read = {index for spec in specs.values() for group in spec.data for kind, _, index in group
                      if kind == "cb_port"}
        io = [*op.inputs, *op.outputs]
        args = [_underlying(v) for v in io]
        mapping = {i: i for i in range(len(io))}
        cbs, port_of = [], {}
        for i, value in enumerate(op.additional_args, start=len(io)):
            t = value.type
            if isinstance(t, (ttmetal.LocalSemaphoreType, ttmetal.GlobalSemaphoreType, LocalSemaphoreType,
                              GlobalSemaphoreType, IntegerType, IndexType, AnyFloat)):
                mapping[i] = len(args)
                args.append(value)
            elif isinstance(t, MemRefType):
                if i not in ports_read:
                    continue
                port_of[i] = len(cbs)
                cbs.append(_underlying(value.owner.memref) if isinstance(value.owner, OperandAliasOp) else value)
            else:
                raise PassFailure(op, f"unexpected operand type in d2m.generic's additionalArgs: {t}")
        fp32 = any(_dtype(v.type) in WIDE for v in io)
        configs = [self.config(thread, specs[thread.kernel.root_reference.data], op, mapping, port_of, fp32)
                   for thread in threads]
        self.rewriter.replace_op(op, enqueue(args, cbs, list(range(len(cbs))), configs, op), [])

    def config(self, thread, spec: ttkernel.ArgSpecAttr, op: d2m.GenericOp, mapping: dict, port_of: dict,
               fp32: bool) -> Attribute:
        def bound(kind: str, index: int) -> tuple[str, int]:
            if kind == "cb_port":
                return kind, port_of[index]
            if kind == "named_argument":
                return kind, index
            if index not in mapping:
                raise PassFailure(op, f"a kernel's {kind} argument names operand {index}, which the generic does "
                                      "not pass")
            return kind, mapping[index]

        runtime, compile_time = ([bound(kind, index) for kind, _, index in group] for group in spec.data)
        args = ttmetal.KernelArgsAttr((tuple(runtime), (), tuple(compile_time)))
        grid = op.attributes["grid"].data
        if grid.maps:
            raise PassFailure(op, "a generic on a virtual grid is not lowered to TTMetal in memref form yet")
        cores = ttmetal.CoreRangeAttr(((0,) * len(grid.shape), tuple(grid.shape)))
        if thread.thread == "compute":
            kernel = self.kernels[thread.kernel.root_reference.data]
            typecast = any(_is_typecast(o) for o in kernel.walk())
            mode = "fp32" if fp32 and typecast else "default"
            return ttmetal.ComputeConfigAttr(ttmetal.KernelConfig(thread.kernel, cores, args,
                                                                  (self.fidelity, fp32, False, False, (mode,))))
        core = max(thread.dm_core.data, 0)
        return ttmetal.NocConfigAttr(ttmetal.KernelConfig(thread.kernel, cores, args,
                                                          (core, "noc0" if core == 1 else "noc1", None)))


def _local_semaphore(lowering: MemrefProgramLowering, op: CreateLocalSemaphoreOp) -> None:
    lowering.rewriter.replace_op(op, ttmetal.CreateLocalSemaphoreOp.create(
        result_types=[ttmetal.LocalSemaphoreType()], properties={"initial_value": op.initialValue}))


def _global_semaphore(lowering: MemrefProgramLowering, op: CreateGlobalSemaphoreOp) -> None:
    buffer = op.input.owner
    address = getattr(buffer, "properties", {}).get("address") or getattr(buffer, "attributes", {}).get("address")
    if address is None:
        raise PassFailure(op, "a global semaphore lives in an allocated buffer (a memref.alloc with an address)")
    shape = op.input.type.get_shape()
    cores = ttmetal.CoreRangeAttr(((0, 0), tuple(shape[:len(shape) // 2])))
    properties = {"address": address, "core_range": cores}
    if op.value is not None:
        properties["initial_value"] = op.value
    lowering.rewriter.replace_op(op, ttmetal.CreateGlobalSemaphoreOp.create(
        result_types=[ttmetal.GlobalSemaphoreType()], properties=properties))


def _to_device(lowering: MemrefProgramLowering, op: d2m.ToDeviceOp) -> None:
    """Host data written into its device buffer (the buffer under a view of it)."""
    lowering.rewriter.replace_op(op, ttmetal.EnqueueWriteBufferOp.create(
        operands=[_underlying(op.input), _underlying(op.output)]), [])


def _to_host(lowering: MemrefProgramLowering, op: d2m.ToHostOp) -> None:
    """A device buffer read back into host memory; the finish makes the host wait for it before using the data."""
    lowering.rewriter.replace_op(op, [ttmetal.EnqueueReadBufferOp.create(
        operands=[_underlying(op.input), _underlying(op.output)]), ttmetal.FinishOp.create()], [])


LOWERINGS = {
    d2m.ToDeviceOp: _to_device,
    d2m.ToHostOp: _to_host,
    AllocOp: MemrefProgramLowering.alloc,
    DeallocOp: lambda k, op: k.rewriter.replace_op(op, ttmetal.DeallocateBufferOp.create(operands=[op.memref])),
    CreateLocalSemaphoreOp: _local_semaphore,
    CreateGlobalSemaphoreOp: _global_semaphore,
    ResetGlobalSemaphoreOp: lambda k, op: k.rewriter.replace_op(op, ttmetal.ResetGlobalSemaphoreOp.create(
        operands=[op.semaphore], properties={"value": op.value})),
    d2m.ViewLayoutOp: lambda k, op: k.rewriter.replace_op(op, [], [op.input]),
    OperandAliasOp: lambda k, op: k.rewriter.replace_op(op, [], [op.memref]),
}
