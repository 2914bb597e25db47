"""Runs a program of a `.ttnn` binary on a simulated mesh device.

Walks the op list once: each op's table names its input tensors (by global id in the tensor pool)
and its output descriptors; a kernel from `kernels.KERNELS` computes the values and `materialize`
gives them their format and buffer. Pre/post-op hooks see the op and program contexts.
"""

from __future__ import annotations

import bdb
import math
import sys
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable

import numpy as np
import torch

from ttmlir.ir.op_table import IN_PLACE_OPERAND, RESULT_INTO
from ttmlir.runtime import RuntimeFailure
from ttmlir.runtime.device import MeshDevice, OutOfMemory
from ttmlir.runtime.formats import compute_dtype, to_format
from ttmlir.runtime import numerics
from ttmlir.runtime.kernels import KERNELS, MESH_KERNELS, NUMERIC_KERNELS, READS_STORED
from ttmlir.runtime.numerics import Numerics
from ttmlir.runtime.perf import OpPerf, estimate
from ttmlir.runtime.tensor import Tensor, check_fits, desc_of, materialize, meta_value
from ttmlir.target import binary_generated as fb
from ttmlir.target import flatbuffer as fbu

# A table's result fields in result order: `out` and the further results some ops have, or, in a table without
# `out`, the results named after what they are (an input may share such a name: dispatch's expert indices).
OUT_FIELDS = ("out", "batchMean", "batchVariance", "resultIndices", "intermediates")
_VALUES_INDICES, _QKV = ("values", "indices"), ("query", "key", "value")
NAMED_OUTPUTS = {"SortOpT": _VALUES_INDICES, "TopkOpT": _VALUES_INDICES, "SplitQueryKeyValueAndSplitHeadsOpT": _QKV,
                 "NlpCreateQkvHeadsDecodeOpT": _QKV, "TopkRouterGptOpT": ("expertIndices", "expertWeights"),
                 "AllToAllDispatchOpT": ("dispatched", "metadata"),
                 "AllToAllDispatchMetadataOpT": ("dispatched", "indices", "scores"), "MoeExpertTokenRemapOpT": ("mapping", "reduced"),
                 "SdpaBwOpT": ("gradQuery", "gradKey", "gradValue"), "MoeComputeOpT": ("combineOutput",)}


def output_fields(table) -> tuple[str, ...]:
    return OUT_FIELDS if "out" in vars(table) else NAMED_OUTPUTS.get(type(table).__name__, ())


IN_PLACE_FIELDS = tuple(dict.fromkeys(fbu.field(name) for names in IN_PLACE_OPERAND.values() for name in names))


def in_place_targets(table) -> list:
    """The operands an op without results writes, in the order of its kernel's results."""
    return [ref for f in IN_PLACE_FIELDS if (ref := getattr(table, f, None)) is not None]
TABLE_FAMILIES = {"EltwiseUnaryOpT": "unary", "EltwiseBinaryOpT": "binary", "WhereOpT": "binary",
                  "ClampTensorOpT": "binary", "ReductionOpT": "reduction", "SoftmaxOpT": "softmax",
                  "NormOpT": "norm", "GroupNormOpT": "norm", "MatmulOpT": "matmul", "Conv2dOpT": "matmul",
                  "CollectiveOpT": "ccl", "DistributeTensorOpT": "ccl", "AggregateTensorOpT": "ccl", "AttentionOpT": "attention"}


class Binary:
    """A loaded `.ttnn` file (what `ttrt.binary.Binary` wraps)."""

    def __init__(self, path: str | Path | None = None, data: bytes | None = None):
        self.file_path = str(path) if path is not None else "<buffer>"
        if data is None:
            _, self.fbb = fbu.load(path, expect="ttnn")
        else:
            _, self.fbb = fbu.load_bytes(data, self.file_path, expect="ttnn")
        self.programs = self.fbb.programs or []

    def __fspath__(self) -> str:  # a Binary stands for its file wherever a path is expected
        return self.file_path

    @property
    def version(self) -> str:
        return fbu.version_str(self.fbb.version)

    def mesh_shape(self) -> tuple[int, int]:
        m = self.fbb.meshShape
        return (m.y, m.x) if m is not None else (1, 1)

    def arch(self) -> str:
        chips = self.fbb.systemDesc.chipDescs if self.fbb.systemDesc is not None else None
        return fbu.enum_names(fb.Arch)[chips[0].arch] if chips else "wormhole_b0"

    def golden_keys(self, program_index: int) -> list[str]:
        """The keys (op locations, `input_N`, `output_N`) of the goldens a program carries."""
        info = self.programs[program_index].debugInfo
        golden_info = info.goldenInfo if info is not None else None
        return [kv.key for kv in (golden_info.goldenMap or [])] if golden_info is not None else []

    def golden(self, loc: str, program_index: int | None = None):
        """The golden tensor stored under `loc`, or None."""
        programs = self.programs if program_index is None else [self.programs[program_index]]
        for program in programs:
            info = program.debugInfo.goldenInfo if program.debugInfo is not None else None
            for kv in (info.goldenMap or []) if info is not None else []:
                if kv.key == loc:
                    return kv.value
        return None


def golden_to_torch(golden: fb.GoldenTensorT) -> torch.Tensor:
    dtype = fbu.enum_names(fb.DataType)[golden.dtype]
    np_dtype = {"f32": np.float32, "si32": np.int32, "u32": np.uint32, "u16": np.uint16, "u8": np.uint8}.get(
        dtype, np.float32)
    raw = np.asarray(golden.data, dtype=np.uint8).tobytes()
    values = np.frombuffer(raw, dtype=np_dtype).astype(np.float32 if np_dtype == np.float32 else np.int64)
    return torch.from_numpy(values.copy()).reshape([int(d) for d in golden.shape])


@dataclass
class OpContext:
    name: str
    operation: fb.OperationT
    index: int
    outputs: list[Tensor] = field(default_factory=list)
    traced: bool = False  # replayed from a captured trace
    inputs: list = field(default_factory=list)  # the tensors it read, once it has run
    const_eval: bool = False  # an op of a const-eval program (run once, its results cached)

    @property
    def loc(self) -> str:
        return self.operation.locInfo or ""

    @property
    def debug_str(self) -> str:
        return self.operation.debugInfo or ""


@dataclass
class ProgramContext:
    binary: Binary
    program_index: int
    device: MeshDevice
    pool: dict[int, Tensor] = field(default_factory=dict)
    perf: list[tuple[OpContext, OpPerf, int, int]] = field(default_factory=list)  # op, estimate, host start/end
    peak: dict[str, int] = field(default_factory=dict)
    compute: bool = True  # False: tensors are shapes without values (torch "meta"), for memory and time only
    exact: bool = False   # f32 arithmetic and round-to-nearest-even storage instead of the hardware's numerics
    host_peak: int = 0    # without values: the most host memory a run with values would hold at once
    host_live: dict[int, int] = field(default_factory=dict)  # without values: bytes of each live tensor, by id
    sources: dict[int, object] = field(default_factory=dict)  # program input tensor id -> the caller's value
    const_eval: bool = False  # running a const-eval program (its ops are marked so in the perf report)
    const_eval_hits: int = 0  # load_cached ops served from the device's cache
    traced: bool = False      # replaying a captured trace (the ops of the functions it calls too)


class DebugHooks:
    """`ttrt.runtime.DebugHooks.get(pre, post)`: callbacks run before and after every op."""

    pre_op: Callable | None = None
    post_op: Callable | None = None

    @classmethod
    def get(cls, pre_op: Callable | None = None, post_op: Callable | None = None) -> type[DebugHooks]:
        cls.pre_op, cls.post_op = pre_op, post_op
        return cls

    @classmethod
    def clear(cls) -> None:
        cls.pre_op = cls.post_op = None


def _inputs(table, pool: dict[int, Tensor], name: str) -> tuple[dict, list[Tensor]]:
    """The op's input tensors by snake_case field name (a list for a variadic field), and all of them."""
    fields, used = {}, []
    outputs = output_fields(table)
    for key, value in vars(table).items():
        if key in outputs:
            continue
        if isinstance(value, fb.TensorRefT):
            fields[fbu.snake(key)] = tensor = _lookup(pool, value, name)
            used.append(tensor)
        elif isinstance(value, list) and value and isinstance(value[0], fb.TensorRefT):
            fields[fbu.snake(key)] = tensors = [_lookup(pool, v, name) for v in value]
            used.extend(tensors)
    return fields, used


def _on_chip(fields: dict, chip: int, chips: int, stored: bool) -> dict:
    """The kernel's view of its inputs on one chip, in compute precision (`stored` floats as stored)."""
    def value(t: Tensor):
        data = t.chip_values(chips)[chip]
        return data if stored and data.is_floating_point() else compute_dtype(data)
    return {k: [value(t) for t in v] if isinstance(v, list) else value(v) for k, v in fields.items()}


def _lookup(pool: dict[int, Tensor], ref: fb.TensorRefT, name: str) -> Tensor:
    try:
        return pool[ref.globalId]
    except KeyError:
        raise RuntimeFailure(f"'ttnn.{name}' reads tensor {ref.globalId}, which is not live "
                             "(never produced, or already deallocated)") from None


def check_inputs(program: fb.ProgramT, inputs: list, chips: int = 1) -> None:
    """Inputs are one tensor each, or (for an input sharded in advance) a list with one per chip."""
    refs = program.inputs or []
    if len(inputs) != len(refs):
        raise RuntimeFailure(f"program '{program.name}' takes {len(refs)} inputs, got {len(inputs)}")
    for i, (ref, value) in enumerate(zip(refs, inputs)):
        d = desc_of(ref)
        expected = d["local_shape"] if isinstance(value, list) and d["local_shape"] else d["shape"]
        if isinstance(value, list) and len(value) != chips:
            raise RuntimeFailure(f"program '{program.name}' input {i} has {len(value)} per-chip values for a mesh "
                                 f"of {chips} chips")
        for v in value if isinstance(value, list) else [value]:
            if list(v.shape) != expected:
                raise RuntimeFailure(f"program '{program.name}' input {i} has shape {list(v.shape)}, "
                                     f"the binary expects {expected}")


def run_program(binary: Binary, program_index: int, inputs: list, device: MeshDevice,
                debugger: bool = False, compute: bool = True, exact: bool = False) -> tuple[list[Tensor], ProgramContext]:
    """Run a program on `device`; with `compute=False` the inputs are meta tensors and no value is computed:
    the allocator and the perf model still see every tensor, so memory and modelled time come out as with
    values. With `exact`, ops compute in f32 instead of with the hardware's numerics."""
    program = binary.programs[program_index]
    # a one-chip program runs replicated on every chip of a larger mesh, as tt-mlir's runtime runs it there
    if device.mesh_shape != binary.mesh_shape() and binary.mesh_shape() != (1, 1):
        compiled, opened = ("x".join(map(str, shape)) for shape in (binary.mesh_shape(), device.mesh_shape))
        raise RuntimeFailure(f"the binary is compiled for a {compiled} mesh, the device is a {opened} mesh")
    check_inputs(program, inputs, device.num_chips)
    ctx = ProgramContext(binary, program_index, device, compute=compute, exact=exact)
    for i, (ref, value) in enumerate(zip(program.inputs, inputs)):
        try:
            for v in value if isinstance(value, list) else [value]:
                check_fits(v, desc_of(ref)["dtype"], f"program '{program.name}' input {i}")
            ctx.pool[ref.globalId] = materialize(ref, value, device, f"program '{program.name}' input {i}",
                                                 local=isinstance(value, list))
            ctx.sources[id(ctx.pool[ref.globalId])] = value
        except OutOfMemory as exc:
            raise RuntimeFailure(str(exc)) from None
    _note_peak(ctx)
    if not compute:
        _hold(ctx, ctx.pool.values())
    _run_ops(program, ctx, debugger)
    outputs = [_lookup(ctx.pool, ref, "return") for ref in program.outputs or []]
    return outputs, ctx


def release(program: fb.ProgramT, ctx: ProgramContext, outputs: list[Tensor]) -> None:
    """Free a finished program's outputs and inputs (intermediates were deallocated by the program)."""
    for tensor in outputs:
        tensor.deallocate()
    for ref in program.inputs or []:
        if ref.globalId in ctx.pool:
            ctx.pool[ref.globalId].deallocate()


def _run_ops(program: fb.ProgramT, ctx: ProgramContext, debugger: bool) -> None:
    for index, operation in enumerate(program.operations or []):
        name = fbu.op_name(operation)
        if ctx.device.capturing is not None and name != "end_trace_capture":
            # recorded with the tensors it would read, run only when the trace is executed (as on hardware)
            ctx.device.traces[ctx.device.capturing].append((operation, index, dict(ctx.pool)))
            continue
        _run_op(OpContext(name, operation, index, traced=ctx.traced, const_eval=ctx.const_eval), ctx, debugger)


def _run_op(op: OpContext, ctx: ProgramContext, debugger: bool) -> None:
    binary, device = ctx.binary, ctx.device
    if DebugHooks.pre_op is not None:
        DebugHooks.pre_op(binary, ctx, op)
    start = time.perf_counter_ns()
    used = op.inputs = _execute(op, ctx)
    end = time.perf_counter_ns()
    family = TABLE_FAMILIES.get(type(op.operation.type).__name__, "data_movement")
    ctx.perf.append((op, estimate(op.name, family, used, op.outputs, device.arch, math.prod(device.mesh_shape),
                                  _math_fidelity(op.operation.type)), start, end))
    _note_peak(ctx)
    if not ctx.compute:
        _note_host_peak(ctx, op.name, used, op.outputs)
    if DebugHooks.post_op is not None:
        DebugHooks.post_op(binary, ctx, op)
    if debugger:
        import pdb

        print(f"ttrt debugger: after op {op.index} '{op.name}' {op.loc}; inspect `op` and `ctx`")
        pdb.set_trace()
    forget_values(op)


def forget_values(op: OpContext) -> None:
    """Once an op has run and its hooks have seen it, what the run's log (`ctx.perf`) keeps of its tensors is their
    descriptions (shape, format, placement: what the perf report reads), not their values: the log lives as long as
    the run, and through it every intermediate a program deallocates stayed in host memory to the program's end."""
    op.inputs = [_description(t) for t in op.inputs]
    op.outputs = [_description(t) for t in op.outputs]


def _description(tensor):
    if not isinstance(tensor, Tensor) or tensor.data.device.type == "meta":
        return tensor
    # without a device or an address: a description cannot free the buffer of the tensor it describes
    return replace(tensor, data=tensor.data.to("meta"), shards=None, device=None, address=None)


def _math_fidelity(table) -> str | None:
    """The math fidelity an op's compute_config asks for, if it names one."""
    return fbu.struct_fields(getattr(table, "computeConfig", None)).get("math_fidelity")


def _run_callee(ctx: ProgramContext, index: int, args: list) -> list:
    """Run program `index` on the caller's tensors, in a pool of its own; its results."""
    callee = ctx.binary.programs[index]
    caller_pool = ctx.pool
    ctx.pool = {ref.globalId: value for ref, value in zip(callee.inputs or [], args)}
    try:
        _run_ops(callee, ctx, False)
        return [_lookup(ctx.pool, ref, f"return of @{callee.name}") for ref in callee.outputs or []]
    finally:
        ctx.pool = caller_pool


def _call(op: OpContext, ctx: ProgramContext) -> list[Tensor]:
    table = op.operation.type
    args = [_lookup(ctx.pool, ref, "call") for ref in table.inputs or []]
    for ref, tensor in zip(table.outputs or [], _run_callee(ctx, table.programIndex, args)):
        ctx.pool[ref.globalId] = tensor
        op.outputs.append(tensor)
    return args


def _load_cached(op: OpContext, ctx: ProgramContext) -> list[Tensor]:
    """A const-eval program's results: computed on the first call, then taken from the device's cache for as long
    as the caller passes the same, unmodified host tensors (a parameter the user updates in place is a miss, and
    the results computed from its old value are freed)."""
    table = op.operation.type
    args = [_lookup(ctx.pool, ref, op.name) for ref in table.inputs or []]
    sources = [ctx.sources.get(id(t)) for t in args]
    # the sources are held in the entry, so their ids stay theirs while it lives
    versions = tuple((id(v), getattr(v, "_version", 0)) for v in sources)
    key = (id(ctx.binary.fbb), table.programIdx)
    cacheable = ctx.compute and None not in sources
    entry = ctx.device.const_eval_cache.get(key) if cacheable else None
    if entry is not None and entry[0] == versions:
        ctx.const_eval_hits += 1
        results = entry[1]
    else:
        if entry is not None:
            for stale in entry[1]:
                stale.retained = False
                stale.deallocate()
        outer, ctx.const_eval = ctx.const_eval, True
        try:
            results = _run_callee(ctx, table.programIdx, args)
        finally:
            ctx.const_eval = outer
        if cacheable:
            for tensor in results:
                tensor.retained = True  # the cache owns it: the caller's deallocations leave it in place
            ctx.device.const_eval_cache[key] = (versions, results, sources)
    for ref, tensor in zip(table.outputs or [], results):
        ctx.pool[ref.globalId] = tensor
        op.outputs.append(tensor)
    return args


def _cpu(op: OpContext, ctx: ProgramContext) -> list[Tensor]:
    """A CPU-hoisted function, computed on the host's values (a function lowered to LLVM, compiled; a StableHLO
    one, interpreted); its results are host tensors."""
    from ttmlir.runtime.host_stablehlo import run_function
    table = op.operation.type
    args = [_lookup(ctx.pool, ref, "cpu") for ref in table.ins or []]
    outs = table.outs or []
    if not ctx.compute:
        values = _described(outs, 1)
    elif "llvm.func" in table.mlir:
        from ttmlir.runtime.host_llvm import run_on_tensors
        values = run_on_tensors(table.mlir, table.funcName, [a.data for a in args],
                                [desc_of(r)["dtype"] for r in table.ins or []], [desc_of(r)["dtype"] for r in outs])
    else:
        values = run_function(table.mlir, [a.data for a in args])
    for ref, value in zip(outs, values):
        ctx.pool[ref.globalId] = tensor = materialize(ref, value, None, f"@{table.funcName}")
        op.outputs.append(tensor)
    return args


def _write_tensor(op: OpContext, ctx: ProgramContext) -> list[Tensor]:
    """write_tensor (host into device) and copy (device into device): the destination is written in place."""
    table = op.operation.type
    source_ref, target_ref = (table.hostTensor, table.deviceTensor) if op.name == "write_tensor" else (table.src,
                                                                                                        table.dst)
    source, target = _lookup(ctx.pool, source_ref, op.name), _lookup(ctx.pool, target_ref, op.name)
    if source.shape != target.shape:
        raise RuntimeFailure(f"'ttnn.{op.name}' at {op.loc}: a {source.shape} tensor cannot be written into a "
                             f"{target.shape} one")
    _write_in_place(target, source.chip_values(ctx.device.num_chips))
    return [source, target]


def _begin_trace_capture(op: OpContext, ctx: ProgramContext) -> list[Tensor]:
    device, table = ctx.device, op.operation.type
    if device.capturing is not None:
        raise RuntimeFailure(f"'ttnn.begin_trace_capture' at {op.loc}: trace {device.capturing} is still being "
                             "captured")
    trace_id = device.capturing = len(device.traces)
    device.traces[trace_id] = []
    tensor = materialize(table.traceId, torch.tensor(trace_id, dtype=torch.int64), device, "trace id")
    ctx.pool[table.traceId.globalId] = tensor
    op.outputs.append(tensor)
    return []


def _trace_of(op: OpContext, ctx: ProgramContext) -> int:
    trace_id = int(_lookup(ctx.pool, op.operation.type.traceId, op.name).data)
    if trace_id not in ctx.device.traces:
        raise RuntimeFailure(f"'ttnn.{op.name}' at {op.loc}: no trace {trace_id} was captured on this device")
    return trace_id


def _end_trace_capture(op: OpContext, ctx: ProgramContext) -> list[Tensor]:
    if (trace_id := _trace_of(op, ctx)) != ctx.device.capturing:
        raise RuntimeFailure(f"'ttnn.end_trace_capture' at {op.loc}: trace {trace_id} is not being captured")
    ctx.device.capturing = None
    return []


def _execute_trace(op: OpContext, ctx: ProgramContext) -> list[Tensor]:
    """Replay the recorded ops on the tensors they were recorded with (the trace's persistent buffers)."""
    caller_pool, ctx.traced = ctx.pool, True
    try:
        for operation, index, pool in ctx.device.traces[_trace_of(op, ctx)]:
            ctx.pool = dict(pool)
            _run_op(OpContext(fbu.op_name(operation), operation, index, traced=True), ctx, False)
    finally:
        ctx.pool, ctx.traced = caller_pool, False
    return []


def _capture_or_execute_trace(op: OpContext, ctx: ProgramContext) -> list[Tensor]:
    """The first time: allocate the slots, capture (which also runs the trace once); later: write the inputs
    into their slots and replay. The slots belong to the device's trace cache from then on."""
    table, device, chips = op.operation.type, ctx.device, ctx.device.num_chips
    inputs = [_lookup(ctx.pool, ref, op.name) for ref in table.inputs or []]
    semaphores = [_lookup(ctx.pool, ref, op.name) for ref in table.semaphoreInputs or []]
    key = (id(ctx.binary), ctx.program_index, table.captureCallee, table.executeCallee)
    if key not in device.trace_cache:
        slots = _run_callee(ctx, table.allocateSlotsCallee, [t for t in inputs if t.on_device])
        if len(slots) != len(inputs) + len(table.outputs or []):
            raise RuntimeFailure(f"'ttnn.capture_or_execute_trace' at {op.loc}: the slot allocation program made "
                                 f"{len(slots)} slots for {len(inputs)} inputs and {len(table.outputs or [])} outputs")
        for slot in slots:
            slot.retained = True
        staged = [t for t in inputs if not t.on_device]
        (trace_id,) = _run_callee(ctx, table.captureCallee, staged + slots + semaphores)
        outputs = slots[len(inputs):]
        device.trace_cache[key] = (trace_id, slots[:len(inputs)], outputs)
    else:
        trace_id, input_slots, outputs = device.trace_cache[key]
        for value, slot in zip(inputs, input_slots):
            if value is not slot:
                start = time.perf_counter_ns()
                _write_in_place(slot, value.chip_values(chips))
                if not value.on_device:  # a host input crosses PCIe into its slot, as the capture's write_tensor did
                    ctx.perf.append((OpContext("write_tensor", op.operation, op.index),
                                     estimate("write_tensor", "data_movement", [value, slot], [], device.arch, chips),
                                     start, time.perf_counter_ns()))
        _run_callee(ctx, table.executeCallee, [trace_id])
    for ref, slot in zip(table.outputs or [], outputs):
        ctx.pool[ref.globalId] = slot
        op.outputs.append(slot)
    return []


def _create_global_semaphore(op: OpContext, ctx: ProgramContext) -> list[Tensor]:
    table = op.operation.type
    ctx.pool[table.out.globalId] = GlobalSemaphore(table.initialValue or 0)
    return []


def _reset_global_semaphore(op: OpContext, ctx: ProgramContext) -> list[Tensor]:
    _lookup(ctx.pool, op.operation.type.semaphore, op.name).value = op.operation.type.value
    return []


@dataclass
class GlobalSemaphore:
    """A semaphore word on a set of cores; it shares the tensor pool but holds no tensor buffer."""

    value: int
    on_device = False

    def deallocate(self) -> None:
        pass


# Ops the executor runs itself: control flow, traces, in-place copies and semaphores.
def _generic(op: OpContext, ctx: ProgramContext) -> list[Tensor]:
    """ttnn.generic: its kernels run on the simulated grid, its tensors written in place."""
    from ttmlir.runtime.metal.generic import run_generic
    from ttmlir.runtime.metal.core import MetalError

    tensors = [_lookup(ctx.pool, ref, op.name) for ref in op.operation.type.inputsAndOutputs or []]
    # the further operands: global semaphores, and scalars (one-element u32 tensors of their bits)
    additional = [_lookup(ctx.pool, arg.semaphore or arg.tensor, op.name) for arg in op.operation.type.additionalArgs or []]
    semaphores = [a for a in additional if isinstance(a, GlobalSemaphore)]
    if ctx.compute:
        if math.prod(ctx.device.mesh_shape) > 1:
            raise RuntimeFailure(f"'ttnn.generic' at {op.loc}: programs of the compiler's kernels run on one chip here")
        words = [("semaphore", a.value) if isinstance(a, GlobalSemaphore) else
                 ("scalar", int(a.data.reshape(-1)[0].item()) & 0xFFFFFFFF) for a in additional]
        try:
            values, words = run_generic(op.operation.type, [t.data for t in tensors], ctx.device.arch, ctx.exact,
                                        words)
        except MetalError as exc:
            raise RuntimeFailure(f"'ttnn.generic' at {op.loc}: {exc}") from None
        for tensor, value in zip(tensors, values):
            _write_in_place(tensor, [value])
        for semaphore, word in zip(semaphores, words):  # the kernels may have moved it
            semaphore.value = word
    op.outputs.extend(tensors)
    return tensors


def _pass_through(op: OpContext, ctx: ProgramContext) -> list[Tensor]:
    """annotate, region_start, region_end: the result is the operand's tensor under the result's id."""
    table = op.operation.type
    tensor = _lookup(ctx.pool, table.operand, op.name)
    ctx.pool[table.result.globalId] = tensor
    op.outputs.append(tensor)
    return [tensor]


def _breakpoint(op: OpContext, ctx: ProgramContext) -> list[Tensor]:
    """Stop in the debugger (Python's `breakpoint()`: PYTHONBREAKPOINT and sys.breakpointhook choose which, or
    none) with the operand's tensor in `tensor` and its values in `value`."""
    tensor = _lookup(ctx.pool, op.operation.type.operand, op.name)
    value = tensor.data  # noqa: F841 - for the user at the prompt
    print(f"ttrt: debug.breakpoint at op {op.index} {op.loc}: `tensor` is its operand, `value` its values, "
          "`ctx` the program", file=sys.stderr)
    try:
        breakpoint()
        return [tensor]  # where the debugger stops
    except bdb.BdbQuit:  # `quit` at the prompt (or its input closed) ends the run there
        raise RuntimeFailure(f"run stopped at 'debug.breakpoint' {op.loc}: the debugger quit") from None


def _print(op: OpContext, ctx: ProgramContext) -> list[Tensor]:
    print(f"RuntimeTTNN | INFO | {op.operation.type.message}", file=sys.stderr)
    return [_lookup(ctx.pool, op.operation.type.operand, op.name)]


def _write_file(op: OpContext, path: str, write: Callable) -> None:
    try:
        write(path)
    except OSError as exc:
        raise RuntimeFailure(f"'{fbu.qualified_op_name(op.name)}' at {op.loc}: cannot write {path}: "
                             f"{exc.strerror}") from None


def _memory_snapshot(op: OpContext, ctx: ProgramContext) -> list[Tensor]:
    """The device's memory as the allocator sees it now, one line per buffer type (upstream's text)."""
    table = op.operation.type
    allocators = ctx.device.chips[0].allocators
    text = "".join(f"Device {kind.upper()} memory state: {allocators[kind].view_text()}\n"
                   for kind in ("dram", "l1", "l1_small", "trace"))
    _write_file(op, table.filePath, lambda path: Path(path).write_text(text))
    return [_lookup(ctx.pool, table.operand, op.name)]


def _dump_tensor(op: OpContext, ctx: ProgramContext) -> list[Tensor]:
    """The tensor as stored (each chip's value on a mesh), with its shape, data type and layout (`torch.load`
    reads it back)."""
    table = op.operation.type
    tensor = _lookup(ctx.pool, table.input, op.name)
    saved = {"shape": tensor.shape, "dtype": tensor.dtype, "layout": tensor.layout,
             "values": [v.clone() for v in tensor.chip_values(1 if tensor.shards is None else len(tensor.shards))]}
    _write_file(op, table.filePath, lambda path: torch.save(saved, path))
    return [tensor]


HOST_OPS = {"call": _call, "load_cached": _load_cached, "cpu": _cpu, "generic": _generic,
            "write_tensor": _write_tensor, "copy": _write_tensor,
            "begin_trace_capture": _begin_trace_capture, "end_trace_capture": _end_trace_capture,
            "execute_trace": _execute_trace, "capture_or_execute_trace": _capture_or_execute_trace,
            "create_global_semaphore": _create_global_semaphore, "reset_global_semaphore": _reset_global_semaphore,
            "annotate": _pass_through, "region_start": _pass_through, "region_end": _pass_through,
            "breakpoint": _breakpoint, "print": _print, "memory_snapshot": _memory_snapshot,
            "dump_tensor": _dump_tensor,
            "allocate_moe_compute_semaphore": _create_global_semaphore}
DEBUG_EFFECTS = {"breakpoint", "print", "memory_snapshot", "dump_tensor"}


def _execute(op: OpContext, ctx: ProgramContext) -> list[Tensor]:
    table, name = op.operation.type, op.name
    where = f"'{fbu.qualified_op_name(name)}'" + (f" at {op.loc}" if op.loc else "")
    if name == "get_device":
        return []
    if name in DEBUG_EFFECTS and not ctx.compute:  # a run without values (ttrt's preflight) has nothing to show
        return [_lookup(ctx.pool, getattr(table, "operand", None) or table.input, name)]
    if name in HOST_OPS:
        return HOST_OPS[name](op, ctx)
    if name == "deallocate":
        tensor = ctx.pool.pop(table.input.globalId, None)
        if tensor is not None:
            tensor.deallocate()
        return [tensor] if tensor is not None else []
    mesh_kernel, kernel = MESH_KERNELS.get(name), KERNELS.get(name)
    if mesh_kernel is None and kernel is None:
        raise RuntimeFailure(f"{where}: no kernel for this op in the simulator")
    fields, used = _inputs(table, ctx.pool, name)
    refs = [getattr(table, f) for f in output_fields(table) if isinstance(getattr(table, f, None), fb.TensorRefT)]
    try:
        num = _numerics(name, table, used, refs, ctx)
    except (KeyError, IndexError) as exc:  # a descriptor naming no data type
        raise RuntimeFailure(f"{where}: malformed result descriptor ({exc})") from None
    if not ctx.compute:  # results as the binary describes them (per chip for tensors sharded in advance)
        per_chip = [_described(refs, math.prod(ctx.device.mesh_shape) if any(t.local for t in used) else 1)]
    else:
        per_chip = _compute(name, where, mesh_kernel or kernel, fields, used, table, ctx, num)
    written = in_place_targets(table)
    if not refs and written:  # an op with no result writes its operands' tensors in place
        for i, ref in enumerate(written):
            if ctx.compute:
                _write_in_place(ctx.pool[ref.globalId], [results[i] for results in per_chip], num)
            op.outputs.append(ctx.pool[ref.globalId])
        return used
    into = getattr(table, fbu.field(RESULT_INTO[name]), None) if name in RESULT_INTO else None
    if into is not None:  # the result is the bound buffer, written in place
        tensor = ctx.pool[into.globalId]
        if ctx.compute:
            _write_in_place(tensor, [results[0] for results in per_chip], num)
        ctx.pool[refs[0].globalId] = tensor
        op.outputs.append(tensor)
        return used
    try:
        for i, ref in enumerate(refs):
            values = [results[i] for results in per_chip]
            tensor = materialize(ref, values if len(values) > 1 else values[0], ctx.device, where,
                                 local=any(t.local for t in used), num=num)
            ctx.pool[ref.globalId] = tensor
            op.outputs.append(tensor)
    except OutOfMemory as exc:
        raise RuntimeFailure(f"{where}: {exc}") from None
    except ValueError as exc:
        raise RuntimeFailure(str(exc)) from None
    return used


def _numerics(name: str, table, used: list[Tensor], refs: list, ctx: ProgramContext) -> Numerics:
    """How the op computes and packs: the hardware's numerics for an op on the device (its compute_config over
    TTNN's defaults), exact for host ops and in exact mode."""
    on_device = any(isinstance(t, Tensor) and t.on_device for t in used)
    return numerics.resolve(name, fbu.struct_fields(getattr(table, "computeConfig", None)),
                            [t.dtype for t in used if isinstance(t, Tensor)],
                            desc_of(refs[0])["dtype"] if refs else None, exact=ctx.exact or not on_device)


def _compute(name: str, where: str, kernel, fields: dict, used: list[Tensor], table, ctx: ProgramContext,
             num: Numerics) -> list:
    """Each chip's results of the op's kernel (a mesh kernel sees every chip's values at once)."""
    chips = ctx.device.num_chips
    try:
        if name in MESH_KERNELS:
            inputs = {k: [compute_dtype(v) for v in t.chip_values(chips)] for k, t in fields.items()}
            out = ctx.device.run_mesh_kernel(name, kernel, inputs, table)  # per chip, or a tuple per result
            return list(zip(*out)) if isinstance(out, tuple) else [(value,) for value in out]
        # every chip runs the op on its own values; replicated inputs make one run stand for all
        distributed = any(t.shards is not None for t in used)
        extra = (num,) if name in NUMERIC_KERNELS else ()
        return [_results(kernel(_on_chip(fields, chip, chips, name in READS_STORED), table, *extra))
                for chip in range(chips if distributed else 1)]
    except (RuntimeError, ValueError, IndexError, TypeError, KeyError) as exc:
        raise RuntimeFailure(f"{where}: kernel failed: {exc}") from None


def _described(refs: list[fb.TensorRefT], pieces: int) -> tuple[torch.Tensor, ...]:
    """Meta values of the shapes the binary gives an op's results; split over `pieces` chips (flattened) for the
    results of tensors sharded in advance, whose descriptors give the whole shape."""
    return tuple(meta_value(ref) if pieces == 1 else meta_value(ref, [math.prod(desc_of(ref)["shape"]) // pieces])
                 for ref in refs)


WORKING_BYTES = 4  # per element of an op's inputs and results: the f32 copies its kernel computes on


def _note_host_peak(ctx: ProgramContext, op_name: str, used: list[Tensor], outputs: list[Tensor]) -> None:
    """Live tensors as stored, plus what the running op's kernel holds while it computes."""
    _hold(ctx, outputs)
    working = sum(v.numel() for t in (*used, *outputs) if isinstance(t, Tensor) for v in _values(t))
    ctx.host_peak = max(ctx.host_peak, sum(ctx.host_live.values()) + working * WORKING_BYTES)
    if op_name == "deallocate":
        for tensor in used:
            ctx.host_live.pop(id(tensor), None)


def _hold(ctx: ProgramContext, tensors) -> None:
    for tensor in tensors:
        if isinstance(tensor, Tensor):
            ctx.host_live[id(tensor)] = sum(v.nbytes for v in _values(tensor))


def _values(tensor: Tensor) -> list[torch.Tensor]:
    return tensor.shards if tensor.shards is not None else [tensor.data]


def _write_in_place(tensor: Tensor, per_chip: list, num: Numerics = numerics.EXACT) -> None:
    converted = [to_format(value, tensor.dtype, num) for value in per_chip]
    tensor.data = converted[0]
    if len(converted) > 1:
        tensor.shards = converted


def _results(result) -> tuple:
    return result if isinstance(result, tuple) else (result,)


def _note_peak(ctx: ProgramContext) -> None:
    for kind, used in ctx.device.allocated_bytes().items():
        ctx.peak[kind] = max(ctx.peak.get(kind, 0), used)
