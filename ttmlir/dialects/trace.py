"""Trace capture and replay (TTNN only), verified in upstream's words.

A trace records the device work of a region once (`begin_trace_capture` .. `end_trace_capture`) and replays
it (`execute_trace`) against the same buffers. `capture_or_execute_trace` is the whole protocol in one op: the
first time, `allocate_slots_callee` makes persistent input and output slots and `capture_callee` fills the
input slots, runs the trace function, captures it and replays it once; every later time the inputs are
written into their slots and `execute_callee` replays the trace. The trace function stores its results into
the output slots (`copy`) and returns nothing. A trace id is `tensor<ui32, #ttnn.trace_id>`.
"""

from __future__ import annotations

from xdsl.dialects.builtin import IntegerType, Signedness, TensorType
from xdsl.dialects.func import CallOp, FuncOp
from xdsl.ir import ParametrizedAttribute, TypeAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.traits import SymbolTable

from ttmlir.dialects import ttcore
from ttmlir.ir.op_table import op
from ttmlir.ir.props import scalar
from ttmlir.ir.tt_op import TTOp, WholeMessageError


@irdl_attr_definition
class TraceIdAttr(ParametrizedAttribute):
    """The encoding marking a tensor as a trace id: `tensor<ui32, #ttnn.trace_id>`."""

    name = "ttnn.trace_id"


@irdl_attr_definition
class GlobalSemaphoreType(ParametrizedAttribute, TypeAttribute):
    """A semaphore living beyond one op, created and reset like a tensor: `!ttnn.global_semaphore`."""

    name = "ttnn.global_semaphore"


CQ = " cq_id:ui32=0"
ROWS = (
    op("write_tensor", "trace", "host_tensor device_tensor", props="blocking:bool=false" + CQ, results="",
       summary="Copy a host tensor into a device tensor in place."),
    op("copy", "trace", "src dst", results="", summary="Copy a device tensor into another of the same type in place."),
    op("begin_trace_capture", "trace", "device", props=CQ, results="trace_id",
       summary="Start recording the device work that follows, under a new trace id."),
    op("end_trace_capture", "trace", "device trace_id", props=CQ, results="", summary="Stop recording the trace."),
    op("execute_trace", "trace", "device trace_id", props=CQ + " blocking:bool=false", results="",
       summary="Replay a recorded trace on the buffers it was recorded with."),
    op("capture_or_execute_trace", "trace", "device inputs* semaphore_inputs*",
       props="allocate_slots_callee:symbol capture_callee:symbol execute_callee:symbol", results="outputs*",
       summary="Capture the trace function the first time, replay its trace every later time."),
    op("create_global_semaphore", "semaphore", "device", props="initial_value:ui32? core_range_set:core_range_set",
       summary="Create a global semaphore on a set of cores."),
    op("reset_global_semaphore", "semaphore", "semaphore", props="value:ui32", results="",
       summary="Set a global semaphore's value."),
)
VALID_CQ_IDS = (0, 1)
TRACE_ID_TEXT = "a trace_id tensor (scalar ui32 with TraceIdAttr encoding)"


def on_device(value_type) -> bool:
    """Upstream's isTensorOnDevice: a TTNN layout in a device buffer."""
    return isinstance(value_type, TensorType) and getattr(value_type.encoding, "buffer_type", "system_memory") \
        != "system_memory"


def is_trace_id(value_type) -> bool:
    return isinstance(value_type, TensorType) and not value_type.get_shape() \
        and isinstance(value_type.encoding, TraceIdAttr)


def _cq(op: TTOp) -> None:
    if (cq := scalar(op.prop("cq_id"))) not in VALID_CQ_IDS:
        raise op.error(f"Invalid CQ ID {cq}")


def _trace_id(op: TTOp) -> None:
    """The trace id operand or result; upstream words these without the op's name."""
    value = op.results[0] if op.results else op.operand_groups()["trace_id"][0]
    t = value.type
    if not isinstance(t, TensorType):
        raise WholeMessageError("Trace ID must be a ranked tensor type")
    if t.get_shape():
        raise WholeMessageError("Trace ID must be a scalar")
    element = t.element_type
    if not isinstance(element, IntegerType):
        raise WholeMessageError("Trace ID must be an integer")
    if element.signedness.data != Signedness.UNSIGNED:
        raise WholeMessageError("Trace ID must be unsigned")
    if element.width.data != 32:
        raise WholeMessageError("Trace ID must be 32-bit")
    if not isinstance(t.encoding, TraceIdAttr):
        raise WholeMessageError("Trace ID must have the TraceIdAttr encoding")


def trace_id_op(op: TTOp):
    _cq(op)
    _trace_id(op)


def write_tensor(op: TTOp):
    host, device = (v.type for v in op.operands)
    if on_device(host):
        raise op.error("Host tensor must be on system memory")
    if not on_device(device):
        raise op.error("Device tensor must be on device memory")
    _cq(op)


def copy(op: TTOp):
    src, dst = (v.type for v in op.operands)
    if not on_device(src):
        raise op.error("Source tensor must be on device memory")
    if not on_device(dst):
        raise op.error("Destination tensor must be on device memory")
    if src != dst:
        raise op.error(f"Source and destination tensor types must match, but got {src} and {dst}")


def _callee(op: TTOp, prop: str) -> FuncOp:
    name = op.prop(prop).root_reference.data
    found = SymbolTable.lookup_symbol(op, name)
    if not isinstance(found, FuncOp):
        raise op.error(f"'{name}' does not reference a function")
    return found


def _types_match(op: TTOp, what: str, want: list, got: list) -> None:
    for i, (w, g) in enumerate(zip(want, got)):
        if w != g:
            raise op.error(f"{what} {i} type mismatch: expected {w}, but got {g}")


def capture_or_execute_trace(op: TTOp):
    groups = op.operand_groups()
    inputs, semaphores, outputs = groups["inputs"], groups["semaphore_inputs"], list(op.results)
    resident = [v.type for v in inputs if on_device(v.type)]
    staged = [v.type for v in inputs if not on_device(v.type)]

    allocate = _callee(op, "allocate_slots_callee")
    name = allocate.sym_name.data
    takes, slots = list(allocate.function_type.inputs), list(allocate.function_type.outputs)
    if len(takes) != len(resident):
        raise op.error(f"Slot allocation function '{name}' must take {len(resident)} arguments (the "
                       f"device-resident inputs), but has {len(takes)}")
    _types_match(op, "Slot allocation function argument", resident, takes)
    if len(slots) != len(inputs) + len(outputs):
        raise op.error(f"Slot allocation function '{name}' must return {len(inputs) + len(outputs)} slots "
                       f"({len(inputs)} input slots + {len(outputs)} output slots), but returns {len(slots)}")
    for i, result in enumerate(outputs):
        if slots[len(inputs) + i] != result.type:
            raise op.error(f"Slot allocation function output slot {i} type mismatch: expected {result.type}, "
                           f"but got {slots[len(inputs) + i]}")

    capture = _callee(op, "capture_callee")
    name = capture.sym_name.data
    takes, gives = list(capture.function_type.inputs), list(capture.function_type.outputs)
    expected = len(staged) + len(slots) + len(semaphores)
    if len(takes) != expected:
        raise op.error(f"Capture function '{name}' must take {expected} arguments ({len(staged)} host-staged inputs "
                       f"+ {len(slots)} slots + {len(semaphores)} semaphores), but has {len(takes)}")
    _types_match(op, "Capture function host-staged input argument", staged, takes)
    for i, (slot, got) in enumerate(zip(slots, takes[len(staged):])):
        if slot != got:
            raise op.error(f"Capture function slot argument {i} type mismatch: expected {slot} from slot "
                           f"allocation function, but got {got}")
    for i, (want, sem) in enumerate(zip(takes[len(staged) + len(slots):], semaphores)):
        if want != sem.type:
            raise op.error(f"Semaphore input argument {i} type mismatch: expected {want} from capture function, "
                           f"but got {sem.type}")
    if len(gives) != 1:
        raise op.error(f"Capture function '{name}' must return exactly one trace_id value, but returns {len(gives)}")
    if not is_trace_id(gives[0]):
        raise op.error(f"Capture function '{name}' must return {TRACE_ID_TEXT}")
    _verify_trace_function(op, capture)

    execute = _callee(op, "execute_callee")
    name, takes = execute.sym_name.data, list(execute.function_type.inputs)
    if len(takes) != 1:
        raise op.error(f"Execute function '{name}' must take exactly one trace_id argument, but has {len(takes)} "
                       "arguments")
    if not is_trace_id(takes[0]):
        raise op.error(f"Execute function '{name}' argument must be {TRACE_ID_TEXT}")


def _verify_trace_function(op: TTOp, capture: FuncOp) -> None:
    """The function the capture function calls: stores into its slots, runs on the trace op's device."""
    call = next((o for o in capture.walk() if isinstance(o, CallOp)), None)
    if call is None:
        raise op.error("No trace function found in capture function")
    name = call.callee.root_reference.data
    trace = SymbolTable.lookup_symbol(op, name)
    if not isinstance(trace, FuncOp):
        raise op.error(f"'{name}' does not reference a function")
    if trace.function_type.outputs.data:
        raise op.error(f"Trace function '{name}' must return no results; it stores its outputs into the output "
                       "slot arguments")
    for arg in trace.body.block.args if trace.body.blocks else ():
        if isinstance(arg.type, GlobalSemaphoreType):
            continue
        if not isinstance(arg.type, TensorType):
            raise op.error("All input arguments of trace function must be ranked tensors or global semaphores")
        if not on_device(arg.type):
            raise op.error(f"All input arguments of trace function must be on device.{arg.type} is not on device.")
    device = op.operand_groups()["device"][0].owner
    for inner in trace.walk():
        if isinstance(inner, TTOp) and inner.name == "ttnn.capture_or_execute_trace":
            raise op.error("CaptureOrExecuteTraceOp op must not be nested within trace function")
        if isinstance(inner, ttcore.LoadCachedOp):
            raise op.error("LoadCached op must not be nested within trace function")
        if isinstance(inner, TTOp) and inner.name == "ttnn.get_device":
            if not isinstance(device, TTOp) or any(device.prop(p) != inner.prop(p)
                                                   for p in ("mesh_shape", "mesh_offset")):
                raise op.error("Device configuration of get_device op in callee must match device configuration "
                               "of trace op")
            continue
        for kind, values in (("input", inner.operands), ("output", inner.results)):
            for value in values:
                if isinstance(value.type, TensorType) and not on_device(value.type):
                    raise op.error(f"All {kind} tensors of trace function must be on device.{value.type} is not on "
                                   "device.")


TTNN_RULES = {"write_tensor": write_tensor, "copy": copy, "begin_trace_capture": trace_id_op,
              "end_trace_capture": trace_id_op, "execute_trace": trace_id_op,
              "capture_or_execute_trace": capture_or_execute_trace}
