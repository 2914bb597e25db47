"""`verify_module` / `verify_module_pipeline`: run modules on devices (TT and CPU) with random inputs and compare
what comes out with torch running copies of the same modules on the host.

Inference compares every output of every input set. Training (a loss module on the last device, or an L1 loss on
a CPU device added for the purpose) runs the configured optimizer for `epochs x steps` steps of
`accumulation_steps x microbatch_count` input sets, and after each step compares every device's accumulated
parameter gradients and updated parameters with torch autograd and torch's optimizer on the copies; the copies
then take the device's parameters, so each step is judged on its own."""

from __future__ import annotations

import copy
import functools

import torch
import torch.utils._pytree as pytree

import pybuda.optimizers as optimizers
from pybuda._C import DataFormat
from pybuda._C.backend_api import BackendType, DeviceMode
from pybuda.config import PyBudaError
from pybuda.device import CPUDevice, TTDevice
from pybuda.module import Module, PyBudaModule, PyTorchModule
from pybuda.op.eval.common import compare_tensor_to_golden
from pybuda.run import (error_raised, get_parameter_checkpoint, get_parameter_gradients, initialize_pipeline,
                        run_backward, run_forward, run_inference, run_optimizer, shutdown)
from pybuda.tensor import Tensor
from pybuda.verify.config import VerifyConfig, should_waive_gradient

DEVICE_TYPES = ("TTDevice", "CPUDevice", "-")


class _ScaledLoss(torch.nn.Module):
    """A loss multiplied by VerifyConfig.scale_loss (its gradients with it)."""

    def __init__(self, loss: torch.nn.Module, scale: float):
        super().__init__()
        self.loss, self.scale = loss, scale

    def forward(self, *args):
        return self.loss(*args) * self.scale


class _SumOutputs(torch.nn.Module):
    """The added loss device's module: the pipeline's outputs summed (broadcast to one shape)."""

    def forward(self, *outputs):
        return functools.reduce(torch.add, outputs)


def _torch_of(module: Module) -> torch.nn.Module:
    if not hasattr(module, "torch_module"):
        raise PyBudaError(f"verify: {type(module).__name__} '{module.name}' has no torch form to compare with")
    return module.torch_module()


def _random_inputs(input_shapes, input_params, verify_cfg, uniform_inputs, inputs_centered_on_zero) -> list[tuple]:
    sets = []
    for _ in range(verify_cfg.total_number_of_inputs()):
        one = []
        for i, shape in enumerate(input_shapes):
            params = input_params[i] if i < len(input_params) else {}
            unknown = set(params) - {"data_format", "requires_grad"}
            if unknown or params.get("requires_grad", False):
                raise PyBudaError(f"verify input {i}: {sorted(unknown) or 'requires_grad=True'} not supported "
                                  "(input gradients are not computed; supported: data_format, requires_grad=False)")
            dtype = params.get("data_format", torch.float32)
            if not dtype.is_floating_point:
                one.append(torch.randint(0, 25000 if dtype == torch.int64 else 127, tuple(shape), dtype=dtype))
            elif uniform_inputs:
                one.append(torch.rand(*shape, dtype=dtype) - (0.5 if inputs_centered_on_zero else 0.0))
            else:
                centre = 0.0 if inputs_centered_on_zero else 0.5
                one.append(torch.normal(centre, 0.1, size=tuple(shape)).abs().to(dtype) + 1e-5)
        sets.append(tuple(one))
    return sets


def _redraw_shape_parameters(modules, params_centered_on_zero, scale_params, uniform_inputs) -> None:
    """PyBuda parameters made from a shape alone get their values here, as tt-buda's verify gives them."""
    if scale_params <= 0:
        raise PyBudaError(f"verify: scale_params must be positive, got {scale_params}")
    for m in modules:
        if not isinstance(m, PyBudaModule):
            continue
        for p in m.parameters():
            if not getattr(p, "from_shape", False):
                continue
            with torch.no_grad():
                if uniform_inputs:
                    p.uniform_(-0.5 if params_centered_on_zero else 0.0, 0.5 if params_centered_on_zero else 1.0)
                elif params_centered_on_zero:
                    p.normal_(0.0, 0.1)
                else:
                    p.copy_(torch.normal(0.5, 0.1, size=p.shape).abs() + 1e-5)
                p.div_(scale_params)


def _device_groups(modules, device_types) -> list[tuple[str, list]]:
    """(device type, its modules): modules match device types one to one, '-' keeps the previous device, and
    modules past the end of the list go on the last device."""
    if not device_types or device_types[0] == "-":
        raise PyBudaError("verify: device_types must start with 'TTDevice' or 'CPUDevice'")
    bad = [t for t in device_types if t not in DEVICE_TYPES]
    if bad:
        raise PyBudaError(f"verify: device type(s) {bad} not supported; supported: TTDevice, CPUDevice, '-'")
    groups: list[tuple[str, list]] = []
    for i, m in enumerate(modules):
        kind = device_types[i] if i < len(device_types) else "-"
        if kind == "-":
            groups[-1][1].append(m)
        else:
            groups.append((kind, [m]))
    return groups


def _optimizer(verify_cfg: VerifyConfig):
    """Makers of the devices' pybuda optimizer (one per TT device: each counts its own steps) and of torch's same
    optimizer for the golden."""
    if not verify_cfg.optimizer:
        return None, None
    kind, params = verify_cfg.optimizer["type"].lower(), dict(verify_cfg.optimizer.get("params", {}))
    lr = params.pop("learning_rate")
    if kind == "sgd" and not params:
        return lambda: optimizers.SGD(learning_rate=lr, device_params=True), lambda ps: torch.optim.SGD(ps, lr=lr)
    if kind in ("adam", "adamw") and set(params) <= {"beta1", "beta2", "epsilon", "weight_decay"}:
        beta1, beta2 = params.get("beta1", 0.9), params.get("beta2", 0.999)
        eps, wd = params.get("epsilon", 1e-8), params.get("weight_decay", 0.0)
        if kind == "adam":
            return (lambda: optimizers.Adam(learning_rate=lr, beta1=beta1, beta2=beta2, epsilon=eps, weight_decay=wd,
                                           device_params=True),
                    lambda ps: torch.optim.Adam(ps, lr=lr, betas=(beta1, beta2), eps=eps, weight_decay=wd))
        return (lambda: optimizers.AdamW(learning_rate=lr, beta1=beta1, beta2=beta2, eps=eps, weight_decay=wd,
                                        device_params=True),
                lambda ps: torch.optim.AdamW(ps, lr=lr, betas=(beta1, beta2), eps=eps, weight_decay=wd))
    raise PyBudaError(f"verify: optimizer {verify_cfg.optimizer} not supported; supported: sgd (learning_rate), "
                      "adam/adamw (learning_rate, beta1, beta2, epsilon, weight_decay)")


def _fp32_fallback(verify_cfg: VerifyConfig):
    """tt-buda's Golden backend ignores the data formats (golden_ignore_df_precision): float32 stays float32; on
    Silicon, float32 data falls back to fp32_fallback."""
    if verify_cfg.devtype == BackendType.Golden and verify_cfg.golden_ignore_df_precision:
        return DataFormat.Float32
    return verify_cfg.fp32_fallback


def _make_devices(groups, verify_cfg: VerifyConfig, optimizer, torch_optimizer) -> list:
    devices = []
    for i, (kind, mods) in enumerate(groups):
        if kind == "TTDevice":
            device = TTDevice(f"tt{i}", arch=verify_cfg.arch, devtype=verify_cfg.devtype,
                              device_mode=verify_cfg.devmode, num_chips=verify_cfg.num_chips,
                              chip_ids=verify_cfg.chip_ids, optimizer=optimizer() if optimizer else None,
                              fp32_fallback=_fp32_fallback(verify_cfg))
        else:
            device = CPUDevice(f"cpu{i}", optimizer_f=(lambda m: torch_optimizer(list(m.parameters())))
                               if torch_optimizer is not None else None)
        for m in mods:
            device.place_module(m)
        devices.append(device)
    return devices


class _Golden:
    """Copies of each device's modules (and the loss), run by torch on the host."""

    def __init__(self, groups, loss: torch.nn.Module | None, torch_optimizer):
        self.devices = [[copy.deepcopy(_torch_of(m)).eval() for m in mods] for _, mods in groups]
        self.loss = copy.deepcopy(loss) if loss is not None else None
        self.optimizers = [torch_optimizer(self.parameters(d).values()) if torch_optimizer and self.parameters(d)
                           else None for d in range(len(self.devices))]

    def parameters(self, device: int) -> dict[str, torch.nn.Parameter]:
        return {n: p for m in self.devices[device] for n, p in m.named_parameters() if p.requires_grad}

    def forward(self, inputs: tuple) -> tuple:
        values = inputs
        for modules in self.devices:
            for m in modules:
                values = tuple(pytree.tree_leaves(m(*values)))
        return values


def _check(name: str, golden, calculated, verify_cfg: VerifyConfig, warning_only: bool = False) -> None:
    calculated = calculated.value() if isinstance(calculated, Tensor) else calculated
    ok = compare_tensor_to_golden(name, golden, calculated, is_buda=True, verify_cfg=verify_cfg,
                                  warning_only=warning_only)
    if ok and verify_cfg.golden_compare_callback is not None:
        ok = bool(verify_cfg.golden_compare_callback(golden, calculated)) or warning_only
    if not ok:
        raise AssertionError(f"{verify_cfg.graph_name}: {name} does not match the golden")


def _verify_inference(devices, golden: _Golden, inputs, verify_cfg: VerifyConfig) -> None:
    for one in inputs:
        devices[0].push_to_inputs(one)
    output_q = run_inference(input_count=len(inputs))
    if error_raised():
        raise AssertionError(f"{verify_cfg.graph_name}: error during inference")
    for n, one in enumerate(inputs):
        results = output_q.get()
        if not verify_cfg.checks():
            continue
        with torch.no_grad():
            expected = golden.forward(one)
        if len(expected) != len(results):
            raise AssertionError(f"{verify_cfg.graph_name}: {len(results)} outputs, the golden has {len(expected)}")
        for i, (e, r) in enumerate(zip(expected, results)):
            _check(f"input set {n}, output {i}", e, r, verify_cfg)


def _verify_training(devices, golden: _Golden, inputs, targets, verify_cfg: VerifyConfig) -> None:
    per_step = verify_cfg.accumulation_steps * verify_cfg.microbatch_count
    loss_device = devices[-1]
    initialize_pipeline(training=True, sample_inputs=inputs[0], sample_targets=targets[0])
    for step in range(verify_cfg.epochs * verify_cfg.steps):
        batch = range(step * per_step, (step + 1) * per_step)
        for k, n in enumerate(batch):
            devices[0].push_to_inputs(inputs[n])
            loss_device.push_to_target_inputs(targets[n])
            run_forward(input_count=1)
            run_backward(input_count=1, zero_grad=k == 0)
        for opt in golden.optimizers:
            if opt is not None:
                opt.zero_grad(set_to_none=True)
        for n in batch:
            golden.loss(*golden.forward(inputs[n]), *targets[n]).backward()
        if verify_cfg.checks() and verify_cfg.enable_parameter_gradient_checking:
            for d, grads in enumerate(get_parameter_gradients()):
                for name, g in grads.items():
                    expected = golden.parameters(d)[name].grad
                    _check(f"step {step}, device {d}, gradient of {name}",
                           expected if expected is not None else torch.zeros_like(g.value()), g, verify_cfg,
                           should_waive_gradient(name, verify_cfg))
        run_optimizer()
        for opt in golden.optimizers:
            if opt is not None:
                opt.step()
        for d, params in enumerate(get_parameter_checkpoint()):
            for name, p in params.items():
                mine = golden.parameters(d)[name]
                if verify_cfg.checks():
                    _check(f"step {step}, device {d}, parameter {name}", mine.detach(), p, verify_cfg,
                           should_waive_gradient(name, verify_cfg))
                with torch.no_grad():  # the next step starts from the device's parameters
                    mine.copy_(p.value().reshape(mine.shape).to(mine.dtype))


def verify_module_pipeline(modules: list, input_shapes: list, verify_cfg: VerifyConfig, input_params: list = (),
                           device_types=("TTDevice",), params_centered_on_zero: bool = False,
                           scale_params: float = 1.0, inputs: list | None = None, loss_module: Module | None = None,
                           uniform_inputs: bool = False, inputs_centered_on_zero: bool = False) -> list:
    """Run `modules` in a pipeline of devices (`device_types`, one per module; '-': on the previous device) on
    random inputs of `input_shapes` (or `inputs`: one tuple per input set), and compare with torch. Returns the
    devices. An AssertionError says what did not match."""
    if verify_cfg is None:
        raise PyBudaError("verify_module needs a VerifyConfig")
    groups = _device_groups(list(modules), list(device_types))
    training = verify_cfg.test_kind.is_training()
    if inputs is None:
        inputs = _random_inputs(input_shapes, list(input_params), verify_cfg, uniform_inputs, inputs_centered_on_zero)
    else:
        inputs = [tuple(t.value() if isinstance(t, Tensor) else t for t in (one if isinstance(one, (tuple, list))
                                                                            else (one,))) for one in inputs]
        if len(inputs) < verify_cfg.total_number_of_inputs():
            raise PyBudaError(f"verify: {len(inputs)} input set(s) given, the configuration runs "
                              f"{verify_cfg.total_number_of_inputs()}")
    _redraw_shape_parameters(modules, params_centered_on_zero, scale_params, uniform_inputs)
    optimizer, torch_optimizer = _optimizer(verify_cfg) if training else (None, None)
    devices = _make_devices(groups, verify_cfg, optimizer, torch_optimizer)

    if verify_cfg.devmode == DeviceMode.CompileOnly:
        initialize_pipeline(training=training, sample_inputs=inputs[0])
        if verify_cfg.tti_path is not None:
            tt = next(d for d in devices if isinstance(d, TTDevice))
            tt.compile_to_image(img_path=verify_cfg.tti_path, training=training, sample_inputs=inputs[0])
        return devices

    loss = None
    if training:
        if loss_module is not None:
            loss = _ScaledLoss(_torch_of(loss_module), verify_cfg.scale_loss)
            devices[-1].place_loss_module(PyTorchModule(loss_module.name, loss))
        else:  # tt-buda's default: the outputs summed on a CPU device, L1 loss against random targets
            loss = _ScaledLoss(torch.nn.L1Loss(), verify_cfg.scale_loss)
            cpu = CPUDevice("cpu_loss", module=PyTorchModule("combiner0", _SumOutputs()))
            cpu.place_loss_module(PyTorchModule("l1loss", loss))
            devices.append(cpu)
            groups = groups + [("CPUDevice", [cpu.modules[0]])]
    golden = _Golden(groups, loss, torch_optimizer)
    try:
        if training:
            with torch.no_grad():
                shapes = [o.shape for o in golden.forward(inputs[0])]
            if loss_module is None:
                shapes = [functools.reduce(torch.broadcast_shapes, shapes)]
            targets = [tuple(torch.normal(0.0, 0.5, size=tuple(s)) for s in shapes)
                       for _ in range(len(inputs))]
            _verify_training(devices, golden, inputs, targets, verify_cfg)
        else:
            _verify_inference(devices, golden, inputs, verify_cfg)
    finally:
        if not verify_cfg.skip_shutdown:
            shutdown()
    return devices


def verify_module(module: Module, input_shapes: list, verify_cfg: VerifyConfig, input_params: list = (),
                  device_type: str = "TTDevice", params_centered_on_zero: bool = False, scale_params: float = 1.0,
                  inputs: list | None = None, loss_module: Module | None = None, uniform_inputs: bool = False,
                  inputs_centered_on_zero: bool = False) -> list:
    """verify_module_pipeline for one module on one device."""
    return verify_module_pipeline([module], input_shapes, verify_cfg, input_params, [device_type],
                                  params_centered_on_zero, scale_params, inputs, loss_module, uniform_inputs,
                                  inputs_centered_on_zero)
