"""The trace ops in generated Python (part of `--convert-ttnn-to-emitpy`).

The ops of the hoisted functions are calls of ttnn's trace API (`TRACE_CALLS`). `ttnn.capture_or_execute_trace`
becomes a call of a wrapper `capture_or_execute_<trace>` over module globals: its first call runs the slot
allocation function (the slots go into `global_input_<i>_<trace>` / `global_output_<i>_<trace>`) and the capture
function (its trace id into `trace_id_<trace>`); every later call writes the host inputs into their slots and runs
the execute function. It returns the output slots.
"""

from __future__ import annotations

from xdsl.dialects.builtin import FlatSymbolRefAttr, IndexType, IntegerAttr, StringAttr
from xdsl.dialects.func import FuncOp, ReturnOp
from xdsl.ir import Block, Operation, Region, SSAValue

from ttmlir.dialects import emitpy, ttnn
from ttmlir.errors import PassFailure
from ttmlir.conversion.ttnn_to_emitpy.calls import TENSOR, TENSORS, call, convert_type
from ttmlir.conversion.ttnn_api import python_value, value_of

# op: (ttnn function, operands, keyword properties), as ttnn's Python API takes them
TRACE_CALLS = {"write_tensor": ("copy_host_to_device_tensor", ("host_tensor", "device_tensor"), ("cq_id",)),
               "copy": ("copy", ("src", "dst"), ()),
               "begin_trace_capture": ("begin_trace_capture", ("device",), ("cq_id",)),
               "end_trace_capture": ("end_trace_capture", ("device", "trace_id"), ("cq_id",)),
               "execute_trace": ("execute_trace", ("device", "trace_id"), ("cq_id", "blocking"))}
CAPTURE_PREFIX = "run_and_capture_"
BOOL, INT = emitpy.opaque("bool"), emitpy.opaque("int")


def convert_trace_op(op: ttnn.TTNNOp) -> tuple[list[Operation], list[SSAValue]]:
    if op.ROW.name == "capture_or_execute_trace":
        return _capture_or_execute(op)
    if op.ROW.name not in TRACE_CALLS:
        raise PassFailure(op, f"'{op.name}' has no EmitPy lowering")
    callee, operand_names, keywords = TRACE_CALLS[op.ROW.name]
    groups = op.operand_groups()
    operands = [groups[name][0] for name in operand_names]
    kinds = {name: kind for name, kind, _default, _required in op.ROW.props}
    args = [IntegerAttr(i, IndexType()) for i in range(len(operands))] + \
           [emitpy.OpaqueAttr(StringAttr(python_value(value_of(op, kinds[k], op.prop(k)), str))) for k in keywords]
    new = call(f"ttnn.{callee}", operands, [convert_type(r.type, op) for r in op.results], args,
               [""] * len(operands) + list(keywords))
    return [new], list(new.results)


def _global(name: str, value: str) -> emitpy.GlobalOp:
    return emitpy.GlobalOp.create(properties={"sym_name": StringAttr(name),
                                              "initial_value": emitpy.OpaqueAttr(StringAttr(value))})


def _read(name: str, t) -> emitpy.GlobalStatementOp:
    return emitpy.GlobalStatementOp.create(properties={"name": FlatSymbolRefAttr(name)}, result_types=[t])


def _store(name: str, value: SSAValue) -> emitpy.AssignGlobalOp:
    return emitpy.AssignGlobalOp.create(operands=[value], properties={"name": FlatSymbolRefAttr(name)})


def _capture_or_execute(op: ttnn.TTNNOp) -> tuple[list[Operation], list[SSAValue]]:
    groups = op.operand_groups()
    inputs = groups["inputs"]
    if groups["semaphore_inputs"]:
        raise PassFailure(op, "a trace with global semaphore inputs has no EmitPy lowering in this build")
    func = op.parent_op()
    module = func.parent_block()
    names = {f.sym_name.data: f for f in module.ops if isinstance(f, FuncOp)}
    allocate, capture, execute = (op.prop(p).root_reference.data
                                  for p in ("allocate_slots_callee", "capture_callee", "execute_callee"))
    if allocate not in names:
        raise PassFailure(op, f"the slot allocation function @{allocate} is not in this module")
    resident = len(names[allocate].function_type.inputs.data)  # the device-resident inputs come first
    suffix = capture.removeprefix(CAPTURE_PREFIX)
    first, trace_id = f"is_first_call_{suffix}", f"trace_id_{suffix}"
    slot_in = [f"global_input_{i}_{suffix}" for i in range(len(inputs))]
    slot_out = [f"global_output_{i}_{suffix}" for i in range(len(op.results))]

    wrapper = FuncOp(f"capture_or_execute_{suffix}", ([TENSOR] * len(inputs), [TENSOR] * len(op.results)),
                     visibility="private")
    block = wrapper.body.block
    args = block.args
    reads = [_read(first, BOOL), _read(trace_id, INT)] + [_read(n, TENSOR) for n in slot_in + slot_out]
    for r in reads:
        block.add_op(r)
    slots_in, slots_out = [r.result for r in reads[2:2 + len(inputs)]], [r.result for r in reads[2 + len(inputs):]]
    guard = emitpy.IfOp.create(operands=[reads[0].result], properties={"condition": StringAttr("{}")},
                               regions=[Region(Block()), Region(Block())])
    block.add_op(guard)
    then, orelse = guard.then_region.block, guard.else_region.block
    false = emitpy.ConstantOp.create(properties={"value": emitpy.OpaqueAttr(StringAttr("False"))}, result_types=[BOOL])
    slots = call(allocate, list(args[:resident]), [TENSORS])
    for new in (false, _store(first, false.result), slots):
        then.add_op(new)
    for i, name in enumerate(slot_in + slot_out):
        index = emitpy.LiteralOp.create(properties={"value": StringAttr(str(i))}, result_types=[IndexType()])
        member = emitpy.SubscriptOp.create(operands=[slots.results[0], index.result], result_types=[TENSOR])
        for new in (index, member, _store(name, member.result)):
            then.add_op(new)
    traced = call(capture, [*args[resident:], *slots_in, *slots_out], [INT])
    then.add_op(traced)
    then.add_op(_store(trace_id, traced.results[0]))
    for arg, slot in zip(args[resident:], slots_in[resident:]):  # this call's host inputs, into their slots
        orelse.add_op(call("ttnn.copy_host_to_device_tensor", [arg, slot], [], [IntegerAttr(0, IndexType()),
                                                                                 IntegerAttr(1, IndexType())]))
    orelse.add_op(call(execute, [reads[1].result], []))
    block.add_op(ReturnOp(*slots_out))

    anchor = module.first_op
    for new in (_global(first, "True"), _global(trace_id, "None"), *(_global(n, "None") for n in slot_in + slot_out),
                wrapper):
        module.insert_op_before(new, anchor)
    new = call(wrapper.sym_name.data, list(inputs), [TENSOR] * len(op.results))
    return [new], list(new.results)
