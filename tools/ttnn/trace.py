"""Trace capture and replay in the simulated ttnn, as tt-metal's API spells it.

`begin_trace_capture(device)` .. `end_trace_capture(device, trace_id)` record the op calls made on the device in
between; `execute_trace(device, trace_id)` replays them on the tensors they were recorded with: a tensor made inside
the trace is made anew on each replay, every other one (the trace's input and output slots, the weights) is read
and written in place. Ops recorded under capture cost no device time (the device only records them); replayed ops
pay the traced op-to-op gap, the replay its launch, as `ttrt run` models a captured trace.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from ttmlir.runtime import RuntimeFailure, executor
from ttmlir.runtime.perf import estimate
from ttnn.device import Device
from ttnn.tensor import Tensor


@dataclass
class _Trace:
    calls: list = field(default_factory=list)  # (op function, args, kwargs, result)
    done: bool = False


def _traces(device) -> dict[int, _Trace]:
    return vars(device).setdefault("_traces", {})


def _capturing(args: tuple, kwargs: dict):
    """The device among the call's arguments (or its tensors') that is capturing a trace, if any."""
    for value in (*args, *kwargs.values()):
        for v in value if isinstance(value, (list, tuple)) else (value,):
            device = v if isinstance(v, Device) else v._device if isinstance(v, Tensor) else None
            if device is not None and vars(device).get("_capturing") is not None:
                return device
    return None


def call(function, args: tuple, kwargs: dict):
    """Run one op call; under capture it is recorded too and its device time dropped (the device only records)."""
    device = _capturing(args, kwargs)
    if device is None:
        return function(*args, **kwargs)
    perf = device.context.perf
    mark = len(perf)
    result = function(*args, **kwargs)
    del perf[mark:]
    _traces(device)[device._capturing].calls.append((function, args, kwargs, result))
    return result


def begin_trace_capture(device, cq_id: int = 0) -> int:
    if vars(device).get("_capturing") is not None:
        raise RuntimeFailure(f"ttnn.begin_trace_capture: trace {device._capturing} is still being captured")
    trace_id = len(_traces(device))
    _traces(device)[trace_id] = _Trace()
    device._capturing = trace_id
    return trace_id


def end_trace_capture(device, trace_id: int, cq_id: int = 0) -> None:
    if vars(device).get("_capturing") != trace_id:
        raise RuntimeFailure(f"ttnn.end_trace_capture: trace {trace_id} is not being captured")
    device._capturing = None
    _traces(device)[trace_id].done = True


def execute_trace(device, trace_id: int, cq_id: int = 0, blocking: bool = True) -> None:
    trace = _traces(device).get(trace_id)
    if trace is None or not trace.done:
        raise RuntimeFailure(f"ttnn.execute_trace: no trace {trace_id} was captured on this device")
    perf = device.context.perf
    start = time.perf_counter_ns()
    made: dict[int, object] = {}  # id of a tensor the capture made -> the one this replay made

    def current(value):
        if isinstance(value, (list, tuple)):
            return type(value)(current(v) for v in value)
        return made.get(id(value), value)

    for function, args, kwargs, result in trace.calls:
        mark = len(perf)
        fresh = function(*current(args), **{k: current(v) for k, v in kwargs.items()})
        for op, *_ in perf[mark:]:
            op.traced = True
        for old, new in zip(result if isinstance(result, tuple) else (result,),
                            fresh if isinstance(fresh, tuple) else (fresh,)):
            if old is not None:
                made[id(old)] = new
    _charge(device, "execute_trace", [], start)


def release_trace(device, trace_id: int) -> None:
    _traces(device).pop(trace_id, None)


def copy_host_to_device_tensor(host_tensor, device_tensor, cq_id: int = 0) -> None:
    """Write a host tensor into a device tensor of the same shape, in place."""
    call(lambda a, b: _write("copy_host_to_device_tensor", "write_tensor", a, b), (host_tensor, device_tensor), {})


def copy(input_a, input_b) -> None:
    """Copy a device tensor into another of the same shape, in place."""
    call(lambda a, b: _write("copy", "copy", a, b), (input_a, input_b), {})


def _write(callee: str, op: str, source, target) -> None:
    if tuple(source.shape) != tuple(target.shape):
        raise RuntimeFailure(f"ttnn.{callee}: a {tuple(source.shape)} tensor cannot be written into a "
                             f"{tuple(target.shape)} one")
    device = target._device
    start = time.perf_counter_ns()
    executor._write_in_place(target.value, source.value.chip_values(device.mesh.num_chips))
    _charge(device, op, [source.value, target.value], start)


def _charge(device, name: str, inputs: list, start: int) -> None:
    """The op's modelled device time in the device's log, as the executor logs an op it runs."""
    from ttmlir.target import binary_generated as fb

    operation = fb.OperationT()
    operation.locInfo = operation.debugInfo = f"ttnn.{name}"
    context = device.context
    context.perf.append((executor.OpContext(name, operation, len(context.perf)),
                         estimate(name, "data_movement", inputs, [], device.mesh.arch, device.mesh.num_chips),
                         start, time.perf_counter_ns()))


FUNCTIONS = {f.__name__: f for f in (begin_trace_capture, end_trace_capture, execute_trace, release_trace,
                                     copy_host_to_device_tensor, copy)}
