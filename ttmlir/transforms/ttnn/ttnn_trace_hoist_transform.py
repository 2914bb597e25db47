"""`--ttnn-trace-hoist-transform`: move a forward function's device work into a trace the device records once and
replays on every later call (one command instead of one dispatch per op).

The ops from the function's first hoistable op to its last (all but `get_device`, `load_cached`, creation ops and
trace ops; creation ops in between move above the trace) go into `trace_<N>_<fn>`, which stores its results into
output slots with `ttnn.copy` and returns nothing. Three helpers drive it:
- `allocate_slots_trace_<N>_<fn>` makes the persistent device buffers, once;
- `run_and_capture_trace_<N>_<fn>` writes the host inputs into their slots, runs the trace function once (compiling
  its programs), runs it again under capture and replays the capture (the slots then hold this call's results);
- `execute_trace_<N>_<fn>` replays it.
The function keeps one `ttnn.capture_or_execute_trace`. An input the device holds across calls (a parameter, constant
or KV cache argument, a `load_cached` result, an `empty` buffer) is its own slot; every other input comes from the
host and is written into a slot of its own on each call, so its function argument takes the host layout directly.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import count
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import (ArrayAttr, DenseArrayBase, DictionaryAttr, FunctionType, IntegerType, ModuleOp,
                                   NoneAttr, Signedness, StringAttr, SymbolRefAttr, TensorType, i32)
from xdsl.dialects.func import CallOp, FuncOp, ReturnOp
from xdsl.ir import Attribute, Block, BlockArgument, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from ttmlir.dialects import trace, ttcore, ttnn
from ttmlir.ir.props import KINDS
from ttmlir.ir.syntax import enum
from ttmlir.errors import PassFailure
from ttmlir.transforms.ttir.const_eval_hoist_transform import CONST_KINDS, arg_attrs
from ttmlir.transforms.ttir.cpu_hoist_manually_tagged import HOISTED_CALL
from ttmlir.transforms.ttcore.ttcore_mark_functions_as_forward import FORWARD_DEVICE, FUNCTION_TYPE
from ttmlir.transforms.ttir.ttir_infer_kv_cache_argument_types import KV_CACHE
from ttmlir.transforms.ttnn.ttnn_utils import HOST, get_device_op, ttnn_empty, ttnn_op

# upstream's TTCoreCreationOpTrait ops: they depend on the device only, so they stay outside the trace
CREATION = frozenset({"ttnn.empty", "ttnn.zeros", "ttnn.ones", "ttnn.full", "ttnn.arange", "ttnn.rand",
                      "ttnn.constant", "ttnn.alloc", "ttnn.create_global_semaphore",
                      "ttnn.allocate_moe_compute_semaphore"})
NOT_HOISTED = frozenset({"ttnn.get_device", "ttnn.capture_or_execute_trace", "ttcore.load_cached"}) | CREATION
RESIDENT_RESULTS = frozenset({"ttcore.load_cached", "ttnn.empty", "ttnn.alloc"})  # device buffers kept across calls
QUEUE = {"cq_id": KINDS["ui32"].build(0)}  # upstream's trace ops all run on command queue 0, without blocking
NON_BLOCKING = {**QUEUE, "blocking": KINDS["bool"].build(False)}
TRACE_MAIN, ALLOCATE_SLOTS, RUN_AND_CAPTURE, EXECUTE = (
    StringAttr(s) for s in ("trace_main", "trace_allocate_slots", "trace_run_and_capture", "trace_execute"))


def trace_id_type() -> TensorType:
    return TensorType(IntegerType(32, Signedness.UNSIGNED), [], trace.TraceIdAttr())


def in_buffer(t: TensorType, buffer: str) -> TensorType:
    """`t` moved to interleaved DRAM or to host memory, keeping its page layout and data type."""
    layout: ttnn.TTNNLayoutAttr = t.encoding
    interleaved = isinstance(layout.memory_layout, NoneAttr) or layout.memory_layout.data.value == "interleaved"
    if layout.buffer_type == buffer and (buffer == HOST or interleaved):
        return t
    shape = tuple(t.get_shape())
    return TensorType(t.element_type, shape, ttnn.layout_for(shape, t.element_type, buffer, layout.is_tiled,
                                                              layout.data_type))


def _hoistable(op: Operation) -> bool:
    return op.name not in NOT_HOISTED and not isinstance(op, ReturnOp) and HOISTED_CALL not in op.attributes


def _boundary_value(v: SSAValue) -> bool:
    return isinstance(v.type, (TensorType, trace.GlobalSemaphoreType))


@dataclass
class _Trace:
    """The hoisted ops' boundary: tensor inputs (device-resident first), semaphores, outputs; and the slot types."""

    func: FuncOp
    ops: list[Operation]
    inputs: list[SSAValue] = field(default_factory=list)
    semaphores: list[SSAValue] = field(default_factory=list)
    outputs: list[SSAValue] = field(default_factory=list)
    resident: int = 0

    def __post_init__(self) -> None:
        inside = set(self.ops)
        position = {op: i for i, op in enumerate(self.func.body.block.ops)}
        seen: set[SSAValue] = set()
        for op in self.ops:
            for v in op.operands:
                if _boundary_value(v) and (isinstance(v, BlockArgument) or v.owner not in inside) and v not in seen:
                    seen.add(v)
                    (self.semaphores if isinstance(v.type, trace.GlobalSemaphoreType) else self.inputs).append(v)
        order = lambda v: (0, v.index, 0) if isinstance(v, BlockArgument) else (1, position[v.owner], v.index)
        self.semaphores.sort(key=order)
        tensors = sorted(self.inputs, key=order)
        self.inputs = [v for v in tensors if self._resident(v)] + [v for v in tensors if not self._resident(v)]
        self.resident = sum(map(self._resident, tensors))
        self.outputs = [r for op in self.ops for r in op.results if any(u.operation not in inside for u in r.uses)]

    def _resident(self, v: SSAValue) -> bool:
        if isinstance(v, BlockArgument):
            attrs = arg_attrs(self.func, v.index)
            kind = attrs.get(ttcore.ArgumentTypeAttr.name)
            return KV_CACHE in attrs or isinstance(kind, ttcore.ArgumentTypeAttr) and kind.data.value in CONST_KINDS
        return v.owner.name in RESIDENT_RESULTS

    def input_attrs(self, v: SSAValue) -> DictionaryAttr:
        if isinstance(v, BlockArgument):
            return DictionaryAttr(arg_attrs(self.func, v.index))
        if v.owner.name in RESIDENT_RESULTS:  # a cached or prelude buffer: passed through as a constant
            return DictionaryAttr({ttcore.ArgumentTypeAttr.name: enum(ttcore.ArgumentTypeAttr, "constant")})
        return DictionaryAttr({})

    @property
    def staged(self) -> list[SSAValue]:
        return self.inputs[self.resident:]

    def slot_types(self) -> list[TensorType]:
        """One slot per tensor input: a resident input is its own, a host-staged one gets a DRAM buffer."""
        return [v.type for v in self.inputs[:self.resident]] + [in_buffer(v.type, "dram") for v in self.staged]


def _private(name: str, kind: StringAttr, ins: list[Attribute], outs: list[Attribute],
             attrs: list[DictionaryAttr] | None = None) -> FuncOp:
    func = FuncOp(name, FunctionType.from_lists(ins, outs), visibility="private",
                  arg_attrs=ArrayAttr(attrs) if attrs and any(a.data for a in attrs) else None)
    func.attributes[FUNCTION_TYPE] = kind
    return func


def _op(name: str, operands: list, props: dict, result_types: list, func: FuncOp) -> Operation:
    """A TTNN op the transform adds, located at the function it came from."""
    return ttnn_op(name, operands, props, result_types, func)


class _Hoister:
    def __init__(self):
        self.index = count()

    def process(self, func: FuncOp) -> None:
        if len(func.body.blocks) != 1:
            raise PassFailure(func, "FuncOp should have exactly one block")
        ops = self._region(func)
        if not ops:
            return
        t = _Trace(func, ops)
        name = f"trace_{next(self.index)}_{func.sym_name.data}"
        body = self._trace_function(t, name)
        slots = self._allocate_slots(t, name)
        capture = self._capture(t, name, body)
        execute = self._execute(t, name)
        for new in (body, slots, capture, execute):
            func.parent_block().insert_op_before(new, func)
        self._replace(t, slots, capture, execute)
        _merge_host_moves_into_arguments(func)

    @staticmethod
    def _region(func: FuncOp) -> list[Operation]:
        """The ops from the first hoistable one to the last; creation ops in between move above them."""
        block = func.body.block
        ops = [op for op in block.ops if not isinstance(op, ReturnOp)]
        marks = [i for i, op in enumerate(ops) if _hoistable(op)]
        if not marks:
            return []
        first = ops[marks[0]]
        hoisted = []
        for op in ops[marks[0]:marks[-1] + 1]:
            if _hoistable(op):
                hoisted.append(op)
            elif op.name in CREATION:
                op.detach()
                block.insert_op_before(op, first)
            else:
                raise PassFailure(op, "Non-hoistable op found in the middle of hoistable ops")
        return hoisted

    @staticmethod
    def _device(block: Block, at: Operation) -> SSAValue:
        first = block.first_op
        if first is not None and first.name == "ttnn.get_device":
            return first.results[0]
        device = get_device_op(at)
        device.location = at.location
        block.insert_op_before(device, first) if first is not None else block.add_op(device)
        return device.results[0]

    def _trace_function(self, t: _Trace, name: str) -> FuncOp:
        """The hoisted ops over (tensor inputs, output slots, semaphores), storing each result into its slot."""
        staged_types = [in_buffer(v.type, "dram") for v in t.staged]
        ins = [v.type for v in t.inputs[:t.resident]] + staged_types
        outs = [v.type for v in t.outputs]
        attrs = [t.input_attrs(v) for v in t.inputs] + [DictionaryAttr({})] * len(outs) + \
                [t.input_attrs(v) for v in t.semaphores]
        func = _private(name, TRACE_MAIN, ins + outs + [v.type for v in t.semaphores], [], attrs)
        block = func.body.block
        args = block.args
        mapping: dict[SSAValue, SSAValue] = dict(zip(t.semaphores, args[len(ins) + len(outs):]))
        for i, v in enumerate(t.inputs):
            mapping[v] = args[i]
            if args[i].type != v.type:  # a slot in DRAM for an input that lived elsewhere: put it back there
                move = _op("to_tensor_spec", [args[i]], {}, [v.type], t.func)
                block.add_op(move)
                mapping[v] = move.results[0]
        for op in t.ops:
            for v in op.operands:
                if v not in mapping:
                    if not isinstance(v.type, ttnn.DeviceType):
                        raise PassFailure(op, "Could not map operand in hoisted function")
                    mapping[v] = self._device(block, t.func)
            new = op.clone(value_mapper={v: mapping[v] for v in op.operands})
            block.add_op(new)
            mapping.update(zip(op.results, new.results))
        for v, slot in zip(t.outputs, args[len(ins):]):
            block.add_op(_op("copy", [mapping[v], slot], {}, [], t.func))
        block.add_op(ReturnOp())
        return func

    def _allocate_slots(self, t: _Trace, name: str) -> FuncOp:
        """(resident inputs) -> (input slots, output slots): the only place the persistent buffers are made."""
        resident = [v.type for v in t.inputs[:t.resident]]
        slot_types = t.slot_types() + [v.type for v in t.outputs]
        func = _private(f"allocate_slots_{name}", ALLOCATE_SLOTS, resident, slot_types,
                        [t.input_attrs(v) for v in t.inputs[:t.resident]])
        block = func.body.block
        device = self._device(block, t.func)
        made = []
        for slot in slot_types[t.resident:]:
            made.append(ttnn_empty(slot, device, t.func))
            block.add_op(made[-1])
        block.add_op(ReturnOp(*block.args, *made))
        return func

    def _capture(self, t: _Trace, name: str, body: FuncOp) -> FuncOp:
        """(host inputs, input slots, output slots, semaphores) -> trace id."""
        host = [in_buffer(v.type, HOST) for v in t.staged]
        slots = t.slot_types()
        outs = [v.type for v in t.outputs]
        attrs = [t.input_attrs(v) for v in t.staged] + [t.input_attrs(v) for v in t.inputs[:t.resident]] + \
                [DictionaryAttr({})] * (len(slots) - t.resident + len(outs) + len(t.semaphores))
        func = _private(f"run_and_capture_{name}", RUN_AND_CAPTURE, host + slots + outs + [v.type for v in t.semaphores],
                        [trace_id_type()], attrs)
        block = func.body.block
        device = self._device(block, t.func)
        args = list(block.args)
        host_args, call_args = args[:len(host)], args[len(host):]
        # host writes first: the device takes none while it captures
        for source, slot in zip(host_args, call_args[t.resident:len(slots)]):
            block.add_op(_op("write_tensor", [source, slot], NON_BLOCKING, [], t.func))
        block.add_op(CallOp(body.sym_name.data, call_args, []))
        begin = _op("begin_trace_capture", [device], QUEUE, [trace_id_type()], t.func)
        block.add_op(begin)
        block.add_op(CallOp(body.sym_name.data, call_args, []))
        block.add_op(_op("end_trace_capture", [device, begin.results[0]], QUEUE, [], t.func))
        block.add_op(_op("execute_trace", [device, begin.results[0]], NON_BLOCKING, [], t.func))
        block.add_op(ReturnOp(begin.results[0]))
        return func

    def _execute(self, t: _Trace, name: str) -> FuncOp:
        func = _private(f"execute_{name}", EXECUTE, [trace_id_type()], [])
        block = func.body.block
        device = self._device(block, t.func)
        block.add_op(_op("execute_trace", [device, block.args[0]], NON_BLOCKING, [], t.func))
        block.add_op(ReturnOp())
        return func

    def _replace(self, t: _Trace, slots: FuncOp, capture: FuncOp, execute: FuncOp) -> None:
        """The hoisted ops become one capture_or_execute_trace; host-staged inputs move to the host before it."""
        block, first = t.func.body.block, t.ops[0]
        device = self._device(block, t.func)
        inputs = list(t.inputs[:t.resident])
        for v in t.inputs[:t.resident]:
            if v.type.encoding.buffer_type == HOST:
                raise PassFailure(t.func, "Device-resident input must be on device, but found on system memory")
        for v in t.staged:
            if v.type.encoding.buffer_type != HOST:
                move = _op("to_tensor_spec", [v], {}, [in_buffer(v.type, HOST)], t.func)
                block.insert_op_before(move, first)
                v = move.results[0]
            inputs.append(v)
        op = _op("capture_or_execute_trace", [device, *inputs, *t.semaphores],
                 {"allocate_slots_callee": SymbolRefAttr(slots.sym_name.data),
                  "capture_callee": SymbolRefAttr(capture.sym_name.data),
                  "execute_callee": SymbolRefAttr(execute.sym_name.data),
                  "operandSegmentSizes": DenseArrayBase.from_list(i32, [1, len(inputs), len(t.semaphores)])},
                 [v.type for v in t.outputs], t.func)
        block.insert_op_before(op, first)
        for old, new in zip(t.outputs, op.results):
            old.replace_all_uses_with(new)
        for hoisted in reversed(t.ops):
            hoisted.detach()
            hoisted.erase()


def _merge_host_moves_into_arguments(func: FuncOp) -> None:
    """An argument whose one use moves it to the host takes the host layout itself (the caller passes it so)."""
    block = func.body.block
    for arg in list(block.args):
        if arg.uses.get_length() != 1:
            continue
        user = next(iter(arg.uses)).operation
        if user.name != "ttnn.to_tensor_spec":
            continue
        target = user.results[0].type
        if target.encoding.data_type != arg.type.encoding.data_type:
            raise PassFailure(func, f"ToTensorSpecOp changed data type for argument {arg.index}, expected only "
                                    "buffer type change")
        arg = Rewriter.replace_value_with_new_type(arg, target)
        user.results[0].replace_all_uses_with(arg)
        user.detach()
        user.erase()
    func.function_type = FunctionType.from_lists(block.arg_types, func.function_type.outputs.data)


@dataclass(frozen=True)
class TTNNTraceHoistTransformPass(ModulePass):
    """Hoist each forward function's device ops into a trace captured once and replayed on later calls."""

    name: ClassVar[str] = "ttnn-trace-hoist-transform"

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        hoister = _Hoister()
        for func in [f for f in module.walk() if isinstance(f, FuncOp)]:
            if func.attributes.get(FUNCTION_TYPE) == FORWARD_DEVICE and func.body.blocks:
                hoister.process(func)
