"""PyBuda's run API: compile the pipeline of devices (`initialize_pipeline`), run inference through it, or train it
with `run_forward` / `run_backward` / `run_optimizer` / `run_schedulers` loops or the all-in-one `run_training`.

Devices run one after another in the calling thread (the simulator is one process), so every call returns when
its work is done; a `run_inference(input_count=N)` owed more inputs than were pushed finishes each one as it is
pushed. Results go to queues: inference outputs to the output queue, losses to the loss queue, parameter
checkpoints to the checkpoint queue, and what crosses each device boundary to the d2d queues if given."""

from __future__ import annotations

import queue

import torch

import pybuda.pybudaglobal as pybudaglobal
from pybuda.config import PyBudaError
from pybuda.device import CPUDevice, Device, TTDevice, detect_available_devices
from pybuda.module import Module
from pybuda.pybudaglobal import _State, error_raised
from pybuda.tensor import Tensor

__all__ = ["initialize_pipeline", "run_inference", "run_forward", "run_backward", "run_optimizer",
           "run_schedulers", "run_training", "get_parameter_gradients", "get_parameter_checkpoint",
           "update_device_parameters", "get_loss_queue", "get_checkpoint_queue", "sync", "shutdown",
           "error_raised", "detect_available_devices", "CPUDevice", "TTDevice"]


def _devices() -> list[Device]:
    devices = pybudaglobal.get_devices()
    if not devices:
        raise PyBudaError("no device: create a pybuda.TTDevice (or CPUDevice) and place a module on it")
    return devices


def _new_queue():
    context = next((d.mp_context for d in _State.devices if d.mp_context is not None), None)
    return context.Queue() if context is not None else queue.Queue()


def _guarded(fn):
    """A run call: a failure is remembered for error_raised() and raised to the caller."""
    def call(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except Exception as exc:
            pybudaglobal.set_error(exc)
            raise
    call.__name__, call.__qualname__, call.__doc__ = fn.__name__, fn.__qualname__, fn.__doc__
    return call


def _values(tensors) -> tuple:
    return tuple(t.value() if isinstance(t, Tensor) else t for t in tensors)


@_guarded
def initialize_pipeline(training: bool = False, output_queue=None, checkpoint_queue=None, sample_inputs=(),
                        sample_targets=(), microbatch_count: int = 1, d2d_fwd_queues=(), d2d_bwd_queues=(),
                        _sequential: bool = False, _verify_cfg=None, _device_mode=None):
    """Compile every device for the shapes of `sample_inputs` (else the first pushed inputs) and
    `sample_targets`; returns the output queue (inference) or the checkpoint queue (training)."""
    if _verify_cfg is not None:
        raise PyBudaError("_verify_cfg is not supported: compare results against torch yourself (see pcc)")
    if microbatch_count < 1:  # each pushed input set runs as its own microbatch: any positive count compiles alike
        raise PyBudaError(f"microbatch_count must be at least 1, got {microbatch_count}")
    if _device_mode is not None and _device_mode.name != "CompileAndRun":
        raise PyBudaError(f"initialize_pipeline _device_mode {_device_mode.name}: set device_mode on the TTDevice")
    devices = _devices()
    first = devices[0]
    samples = _values(sample_inputs) if sample_inputs else (first._inputs[0] if first._inputs else ())
    if not samples:
        raise PyBudaError("initialize_pipeline needs sample inputs: pass sample_inputs or push inputs first")
    if len(d2d_fwd_queues) not in (0, len(devices) - 1) or len(d2d_bwd_queues) not in (0, len(devices) - 1):
        raise PyBudaError(f"d2d queues: one per device boundary ({len(devices) - 1} here)")
    loss_device = next((d for d in devices if d.loss_module is not None), None)
    if training:
        if loss_device is None:
            raise PyBudaError("training needs a loss module: place_loss_module on the pipeline's last device")
        if loss_device is not devices[-1]:
            raise PyBudaError(f"the loss module is on '{loss_device.name}'; it belongs on the last device "
                              f"('{devices[-1].name}')")
    targets = _values(sample_targets) if sample_targets else \
        (loss_device._targets[0] if loss_device is not None and loss_device._targets else ())
    if training and not targets and loss_device is not None:
        raise PyBudaError("training needs sample targets: pass sample_targets or push_to_target_inputs first")
    values = samples
    for i, device in enumerate(devices):
        if not device.modules and not (training and device.loss_module is not None):
            raise PyBudaError(f"device '{device.name}' has no module placed on it")
        device._compile(values, training, targets if device.loss_module is not None else ())
        if i + 1 < len(devices):  # the next device's sample inputs
            values = _sample_outputs(device, values)
    _State.training = training
    _State.d2d_fwd_queues, _State.d2d_bwd_queues = list(d2d_fwd_queues), list(d2d_bwd_queues)
    if training:
        _State.checkpoint_queue = checkpoint_queue if checkpoint_queue is not None else \
            (_State.checkpoint_queue or _new_queue())
        _State.loss_queue = output_queue if output_queue is not None else (_State.loss_queue or _new_queue())
        return _State.checkpoint_queue
    _State.output_queue = output_queue if output_queue is not None else _new_queue()
    return _State.output_queue


def _sample_outputs(device: Device, values: tuple) -> tuple:
    """What `device` hands the next one for inputs like `values` (computed in torch: compiling needs shapes)."""
    with torch.no_grad():
        for m in device.modules:
            values = tuple(torch.utils._pytree.tree_leaves(
                m.torch_module()(*values) if hasattr(m, "torch_module") else m.forward(*values)))
    return values


def _forward_one(values: tuple) -> tuple:
    devices = _devices()
    training = bool(_State.training)
    for i, device in enumerate(devices):
        values = device._forward_train(values, i > 0) if training else device._run(values)
        if i + 1 < len(devices) and _State.d2d_fwd_queues:
            _State.d2d_fwd_queues[i].put([Tensor(v) for v in values])
    return values


@_guarded
def run_forward(input_count: int = 1, _sequential: bool = False) -> None:
    """Run `input_count` pushed input sets through the pipeline: inference results go to the output queue; in
    training, the loss goes to the loss queue (and the activations stay on the devices for run_backward)."""
    first = _devices()[0]
    if _State.training is None:
        initialize_pipeline(training=False)
    for _ in range(input_count):
        if not first._inputs:
            raise PyBudaError(f"no inputs pushed to '{first.name}' (call push_to_inputs first)")
        outputs = _forward_one(first._inputs.popleft())
        if _State.training:
            _State.loss_queue.put([Tensor(v) for v in outputs])
        else:
            _State.output_queue.put([Tensor(v) for v in outputs])


@_guarded
def run_backward(input_count: int = 1, zero_grad: bool = False, _sequential: bool = False) -> None:
    """Run `input_count` backward passes (oldest forward first), accumulating parameter gradients on each device;
    `zero_grad` starts the accumulation afresh (set it on a batch's first microbatch)."""
    if not _State.training:
        raise PyBudaError("run_backward needs a pipeline initialized for training "
                          "(initialize_pipeline(training=True, ...) or run_training)")
    devices = _devices()
    for n in range(input_count):
        grads = None
        for i in range(len(devices) - 1, -1, -1):
            grads = devices[i]._backward_train(grads, zero_grad and n == 0)
            if i > 0 and _State.d2d_bwd_queues:
                _State.d2d_bwd_queues[i - 1].put([Tensor(g) for g in grads if g is not None])


@_guarded
def run_optimizer(checkpoint: bool = False, _sequential: bool = False) -> None:
    """One optimizer step on every device (parameters updated where they live); with `checkpoint`, the new
    parameters go to the checkpoint queue."""
    if not _State.training:
        raise PyBudaError("run_optimizer needs a pipeline initialized for training")
    for device in _devices():
        device._step_optimizer()
    if checkpoint:
        _State.checkpoint_queue.put(get_parameter_checkpoint())


@_guarded
def run_schedulers(_sequential: bool = False) -> None:
    """Step every device's learning-rate scheduler (TTDevice scheduler=, CPUDevice scheduler_f=)."""
    for device in _devices():
        device._step_scheduler()


@_guarded
def run_training(epochs: int = 1, steps: int = 1, accumulation_steps: int = 1, microbatch_count: int = 1,
                 checkpoint_queue=None, loss_queue=None, checkpoint_interval: int = 0, _sequential: bool = False,
                 _perf_trace: bool = False, _verify_cfg=None):
    """Train: per epoch, `steps` optimizer steps of `accumulation_steps` x `microbatch_count` pushed input sets
    each; schedulers step once per epoch. Losses go to `loss_queue`; every `checkpoint_interval` steps (and at
    the end, if the last step was not one) the parameters go to the returned checkpoint queue."""
    if _perf_trace:
        raise PyBudaError("_perf_trace is not supported: read TTDevice.training_report() for modelled times")
    if _State.training is not True or checkpoint_queue is not None or loss_queue is not None:
        initialize_pipeline(training=True, output_queue=loss_queue, checkpoint_queue=checkpoint_queue,
                            microbatch_count=microbatch_count, _verify_cfg=_verify_cfg)
    step_count, checkpointed = 0, False
    for _ in range(epochs):
        for _ in range(steps):
            for program in _training_programs():
                program.start_step_report()
            for accumulation in range(accumulation_steps):
                run_forward(input_count=microbatch_count)
                run_backward(input_count=microbatch_count, zero_grad=accumulation == 0)
            run_optimizer()
            step_count += 1
            checkpointed = checkpoint_interval > 0 and step_count % checkpoint_interval == 0
            if checkpointed:
                _State.checkpoint_queue.put(get_parameter_checkpoint())
        run_schedulers()
    if not checkpointed:
        _State.checkpoint_queue.put(get_parameter_checkpoint())
    return _State.checkpoint_queue


def _training_programs() -> list:
    return [p for d in pybudaglobal.get_devices() for p in getattr(d, "training_programs", [])]


def _per_device(device, read) -> list[dict[str, Tensor]]:
    devices = [device] if device is not None else _devices()
    return [{n: Tensor(v) for n, v in read(d).items()} for d in devices]


def get_parameter_gradients(device=None, _sequential: bool = False) -> list[dict[str, Tensor]]:
    """The accumulated gradients, by parameter name: one dict for `device`, else one per device."""
    return _per_device(device, lambda d: d._gradients())


def get_parameter_checkpoint(device=None, _sequential: bool = False) -> list[dict[str, Tensor]]:
    """The parameters' current values, by name: one dict for `device`, else one per device."""
    return _per_device(device, lambda d: d._checkpoint())


def update_device_parameters(device=None, parameters=(), _sequential: bool = False) -> None:
    """Write parameters (dicts by name, as get_parameter_checkpoint returns them) onto `device`, else onto every
    device in order."""
    devices = [device] if device is not None else _devices()
    if len(parameters) != len(devices):
        raise PyBudaError(f"update_device_parameters: {len(parameters)} dict(s) for {len(devices)} device(s)")
    for d, values in zip(devices, parameters):
        d._update_parameters(values)


def _run_awaited() -> None:
    """Inputs arrived for a run_inference still owed results: run them now."""
    first = _State.devices[0]
    while _State.awaited_inputs and first._inputs:
        _State.awaited_inputs -= 1
        run_forward(input_count=1)


@_guarded
def run_inference(module: Module | None = None, inputs=(), input_count: int | None = None, output_queue=None,
                  _sequential: bool = False, _perf_trace: bool = False, _verify_cfg=None) -> queue.Queue:
    """Compile (once) and run the pipeline on `inputs` (input sets: tuples, or dicts by argument name) and what
    was pushed before; with `input_count` above what is there, the rest runs as it is pushed. Returns the queue
    holding a list of pybuda.Tensor per input set."""
    if _perf_trace:
        raise PyBudaError("_perf_trace is not supported: read TTDevice.report() for modelled times")
    if module is not None:
        target = next((d for d in _State.devices if isinstance(d, TTDevice)), None) or TTDevice("tt0")
        target.place_module(module)
    first = _devices()[0]
    for one in inputs:
        first.push_to_inputs(one)
    if _State.training is not False or output_queue is not None or \
            any(isinstance(d, TTDevice) and not d.compiled and d.modules for d in _State.devices):
        initialize_pipeline(training=False, output_queue=output_queue, _verify_cfg=_verify_cfg)
    count = input_count if input_count is not None else len(first._inputs)
    ready = min(count, len(first._inputs))
    run_forward(input_count=ready)
    _State.awaited_inputs = count - ready
    _State.on_inputs = _run_awaited
    return _State.output_queue


def get_loss_queue():
    """The queue losses go to (made by run_training/initialize_pipeline(training=True) when none was given)."""
    return _State.loss_queue


def get_checkpoint_queue():
    return _State.checkpoint_queue


def sync() -> None:
    """Block until all devices are idle: every run call here returns when its work is done, so they are."""


def shutdown() -> None:
    """Stop and forget everything (devices, queues, configuration)."""
    pybudaglobal.pybuda_reset()
