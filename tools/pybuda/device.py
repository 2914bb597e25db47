"""Devices: TTDevice (the simulated Wormhole/Blackhole chip) and CPUDevice (torch on the host), created in the order
data flows through them (the pipeline), each with its modules, an optional loss module, and its queues of pushed
inputs and targets. Inference runs a device's compiled modules; training runs their forward and backward programs
(pybuda.training) on a TTDevice, and torch's autograd on a CPUDevice."""

from __future__ import annotations

import inspect
from collections import deque

import torch
import torch.utils._pytree as pytree

import pybuda.pybudaglobal as pybudaglobal
from pybuda._C import DataFormat
from pybuda._C.backend_api import BackendDevice, BackendType, DeviceMode
from pybuda.compiled import HALF_TYPES
from pybuda.config import DEVICE_CONFIGS, CompilerConfig, PyBudaError, _get_global_compiler_config
from pybuda.module import Module, PyTorchModule
from pybuda.tensor import Tensor

SIMULATED = {BackendDevice.Wormhole_B0: "wormhole_b0", BackendDevice.Blackhole: "blackhole"}


def _torch(x):
    return x.value() if isinstance(x, Tensor) else x


class Device:
    """What both kinds of device share: modules, a loss module, queues of pushed inputs and targets."""

    is_tenstorrent = False

    def __init__(self, name: str, module=None, mp_context=None):
        self.name = name
        self.modules: list[Module] = []
        self.loss_module: Module | None = None
        self.mp_context = mp_context
        self._inputs: deque = deque()
        self._targets: deque = deque()
        pybudaglobal.register_device(self)
        if module is not None:
            self.place_module(module)

    def __repr__(self) -> str:
        return f"{type(self).__name__}('{self.name}')"

    def place_module(self, module) -> None:
        for m in module if isinstance(module, (list, tuple)) else [module]:
            if isinstance(m, torch.nn.Module) and not isinstance(m, Module):
                raise PyBudaError(f"{self.name}: wrap a torch module in pybuda.PyTorchModule(name, module) to place it")
            if not isinstance(m, Module):
                raise PyBudaError(f"{self.name}: cannot place a {type(m).__name__}; place a pybuda module")
            self.modules.append(m)
            self._modules_changed()

    def remove_modules(self) -> None:
        self.modules = []
        self._modules_changed()

    def place_loss_module(self, module: Module) -> None:
        """The loss computed on this device from its last module's outputs and the pushed targets."""
        if not isinstance(module, Module) or not hasattr(module, "torch_module"):
            raise PyBudaError(f"{self.name}: a loss module is a pybuda.PyTorchModule or a PyBudaModule "
                              "(e.g. pybuda.op.loss.L1Loss)")
        self.loss_module = module
        self._modules_changed()

    def remove_loss_module(self) -> None:
        self.loss_module = None
        self._modules_changed()

    def _modules_changed(self) -> None:
        """Compiled state no longer matches the modules."""

    def push_to_inputs(self, *tensors) -> None:
        """One set of inputs: tensors in order (as arguments or one tuple/list), or a dict by argument name."""
        if len(tensors) == 1 and isinstance(tensors[0], (tuple, list, dict)):
            tensors = tensors[0]
        if isinstance(tensors, dict):
            tensors = self._by_name(tensors)
        self._inputs.append(tuple(_torch(t) for t in tensors))
        pybudaglobal.inputs_pushed(self)

    def push_to_target_inputs(self, *tensors) -> None:
        """The targets the loss module compares the next microbatch's outputs with."""
        if len(tensors) == 1 and isinstance(tensors[0], (tuple, list)):
            tensors = tensors[0]
        self._targets.append(tuple(_torch(t) for t in tensors))

    def _by_name(self, named: dict) -> tuple:
        if not self.modules:
            raise PyBudaError(f"{self.name}: inputs by name need a module placed first")
        module = self.modules[0]
        forward = module.torch_module().forward if hasattr(module, "torch_module") else module.forward
        params = [p for p in inspect.signature(forward).parameters.values()
                  if p.name != "self" and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        names = [p.name for p in params]
        # given by name: the first len(named) arguments (a tokenizer's dict), the rest left to their defaults
        given = names[:len(named)]
        if set(named) != set(given) or any(p.default is p.empty for p in params[len(named):]):
            raise PyBudaError(f"{self.name}: inputs by name must be the first arguments of {names} (the rest "
                              f"having defaults); got {list(named)}")
        return tuple(named[n] for n in given)

    def _loss_torch(self):
        return self.loss_module.torch_module() if self.loss_module is not None else None

    def _next_targets(self) -> tuple:
        if self.loss_module is None:
            return ()
        if not self._targets:
            raise PyBudaError(f"no targets pushed to '{self.name}' (call push_to_target_inputs for its loss module)")
        return self._targets.popleft()


class CPUDevice(Device):
    """Runs its PyTorch modules in torch on the host; trains them with torch's autograd and the optimizer
    `optimizer_f(module)` returns (stepped by run_optimizer; `scheduler_f(optimizer)` by run_schedulers)."""

    def __init__(self, name: str, optimizer_f=None, scheduler_f=None, mp_context=None,
                 retain_backward_graph: bool = False, module=None, input_dtypes=None):
        self.optimizer_f, self.scheduler_f = optimizer_f, scheduler_f
        self.retain_backward_graph = retain_backward_graph
        self.input_dtypes = input_dtypes
        self.optimizer = self.scheduler = None
        self._pending: deque = deque()   # training: (inputs needing gradients, outputs) per forward
        super().__init__(name, module, mp_context)

    def place_module(self, module) -> None:
        for m in module if isinstance(module, (list, tuple)) else [module]:
            if not isinstance(m, PyTorchModule):
                raise PyBudaError(f"{self.name}: a CPUDevice runs PyTorchModules only")
        super().place_module(module)

    def _cast(self, inputs: tuple) -> tuple:
        if self.input_dtypes is None:
            return inputs
        return tuple(x.to(d) if d is not None else x for x, d in zip(inputs, self.input_dtypes))

    def _compile(self, samples: tuple, training: bool = False, targets: tuple = ()) -> None:
        if training and self.optimizer_f is not None and self.optimizer is None and self.modules:
            modules = [m.torch_module() for m in self.modules]
            self.optimizer = self.optimizer_f(modules[0] if len(modules) == 1 else torch.nn.ModuleList(modules))
            if self.scheduler_f is not None:
                self.scheduler = self.scheduler_f(self.optimizer)

    def _run(self, inputs: tuple) -> tuple:
        values = self._cast(inputs)
        for m in self.modules:
            values = tuple(pytree.tree_leaves(m.forward(*values)))
        return values

    # --- training ---------------------------------------------------------------------------------------

    def _forward_train(self, inputs: tuple, needs_input_grads: bool) -> tuple:
        leaves = tuple(x.detach().requires_grad_(needs_input_grads and x.is_floating_point())
                       for x in self._cast(inputs))
        values = leaves
        for m in self.modules:
            values = tuple(pytree.tree_leaves(m.torch_module()(*values)))
        if self.loss_module is not None:
            values = (self._loss_torch()(*values, *self._next_targets()),)
        self._pending.append((leaves, values))
        return tuple(v.detach() for v in values)

    def _backward_train(self, output_grads, zero_grad: bool) -> tuple:
        if not self._pending:
            raise PyBudaError(f"{self.name}: run_backward without a forward pass to go back through")
        leaves, values = self._pending.popleft()
        if zero_grad:
            for p in self._parameters().values():
                p.grad = None
        if output_grads is None:
            output_grads = tuple(torch.ones_like(v) for v in values)
        pairs = [(v, g) for v, g in zip(values, output_grads) if v.requires_grad and g is not None]
        if pairs:
            torch.autograd.backward([v for v, _ in pairs], [g.reshape(v.shape).to(v.dtype) for v, g in pairs],
                                    retain_graph=self.retain_backward_graph)
        return tuple(x.grad if x.requires_grad else None for x in leaves)

    def _parameters(self) -> dict:
        return {name: p for m in self.modules for name, p in m.torch_module().named_parameters() if p.requires_grad}

    def _gradients(self) -> dict:
        return {n: (p.grad if p.grad is not None else torch.zeros_like(p)).detach().clone()
                for n, p in self._parameters().items()}

    def _checkpoint(self) -> dict:
        return {n: p.detach().clone() for n, p in self._parameters().items()}

    def _update_parameters(self, values: dict) -> None:
        params = self._parameters()
        with torch.no_grad():
            for n, v in values.items():
                if n not in params:
                    raise PyBudaError(f"{self.name}: no trainable parameter '{n}'")
                params[n].copy_(_torch(v))

    def _step_optimizer(self) -> None:
        if self.optimizer is not None:
            self.optimizer.step()

    def _step_scheduler(self) -> None:
        if self.scheduler is not None:
            self.scheduler.step()


class TTDevice(Device):
    """A Tenstorrent device: here the simulated Wormhole (n150) or Blackhole (p150) chip. Silicon and Golden
    backends both run on the simulator; placed modules are compiled to .ttnn binaries on first use."""

    is_tenstorrent = True

    def __init__(self, name: str, num_chips: int | None = None, chip_ids=None, arch: BackendDevice | None = None,
                 devtype: BackendType | None = None, device_mode: DeviceMode | None = None, optimizer=None,
                 scheduler=None, fp32_fallback: DataFormat | None = None, mp_context=None, module=None,
                 loss_module=None):
        cfg = _get_global_compiler_config()
        available = _detect(cfg)
        arch = arch or available[0]
        if arch not in SIMULATED:
            raise PyBudaError(f"{arch.name} is not simulated; supported: BackendDevice.Wormhole_B0, "
                              "BackendDevice.Blackhole")
        chips = len(chip_ids) if chip_ids else (num_chips or 1)
        if chips != 1 or any(c != 0 for c in (chip_ids or [0])):
            raise PyBudaError(f"TTDevice '{name}': {chips} chips asked for (ids {list(chip_ids or range(chips))}); "
                              "detect_available_devices() offers one simulated chip (id 0)")
        if devtype not in (None, BackendType.Silicon, BackendType.Golden):
            raise PyBudaError(f"devtype {devtype.name} is not supported; supported: BackendType.Silicon, "
                              "BackendType.Golden (both run on the simulated chip)")
        device_mode = device_mode or DeviceMode.CompileAndRun
        if device_mode == DeviceMode.RunOnly:
            raise PyBudaError("DeviceMode.RunOnly: load a compiled image with TTDevice.load_image instead")
        if fp32_fallback not in (None, DataFormat.Float32, *HALF_TYPES):
            raise PyBudaError(f"fp32_fallback {fp32_fallback} is not supported (Float16_b, Float16, Float32)")
        self.arch, self.devtype, self.device_mode = arch, devtype or BackendType.Silicon, device_mode
        self.fp32_fallback = fp32_fallback
        self.optimizer, self.scheduler = optimizer, scheduler
        self.chip_ids = [0]
        self.compiled: list = []
        self.training_programs: list = []
        self.last_pcc: list[float] | None = None  # with AMP: each output's PCC against the float32 model
        super().__init__(name, module, mp_context)
        if loss_module is not None:
            self.place_loss_module(loss_module)

    @property
    def arch_name(self) -> str:
        return SIMULATED[self.arch]

    def _modules_changed(self) -> None:
        self.compiled = []
        self.training_programs = []

    def _config(self) -> CompilerConfig:
        """The global configuration, with this device's fp32_fallback: float32 data computed in that format."""
        cfg = _get_global_compiler_config()
        if self.fp32_fallback in HALF_TYPES and cfg.default_df_override is None:
            cfg = CompilerConfig(**{**vars(cfg), "default_df_override": self.fp32_fallback})
        return cfg

    def _compile(self, samples: tuple, training: bool = False, targets: tuple = ()) -> None:
        from pybuda.compiler import compile_module

        cfg = self._config()
        if training:
            self._compile_training(samples, targets, cfg)
            return
        if not self.compiled:
            values = samples
            for i, m in enumerate(self.modules):
                self.compiled.append(compile_module(m, values, cfg, self.arch_name))
                if i + 1 < len(self.modules):  # the next module's sample inputs
                    values = tuple(pytree.tree_leaves(_eager(m, values)))

    def _compile_training(self, samples: tuple, targets: tuple, cfg: CompilerConfig) -> None:
        from pybuda.training import TrainingProgram

        if self.training_programs:
            return
        if not all(hasattr(m, "torch_module") for m in self.modules):
            raise PyBudaError(f"{self.name}: training runs PyTorch and PyBuda modules; "
                              f"{', '.join(type(m).__name__ for m in self.modules)} placed")
        first = pybudaglobal.get_devices()[0] is self
        values = samples
        for i, m in enumerate(self.modules):
            last = i + 1 == len(self.modules)
            loss = self._loss_torch() if last else None
            program = TrainingProgram(m.name, m.torch_module(), loss, values, targets if loss is not None else (),
                                      not first or i > 0, cfg, self.arch_name)
            self.training_programs.append(program)
            if not last:
                values = tuple(pytree.tree_leaves(_eager(m, values)))

    def _run(self, inputs: tuple) -> tuple:
        if self.device_mode == DeviceMode.CompileOnly:
            raise PyBudaError(f"{self.name} was created with DeviceMode.CompileOnly: it does not run")
        values = inputs
        for c in self.compiled:
            values = tuple(c.run(list(values)))
        if self._config().changes_precision and all(hasattr(m, "torch_module") for m in self.modules):
            from ttmlir.runtime.golden import pcc

            expected = inputs
            for m in self.modules:
                expected = tuple(pytree.tree_leaves(_eager(m, expected)))
            self.last_pcc = [pcc(e.float(), a.float()) for e, a in zip(expected, values)
                             if isinstance(e, torch.Tensor) and e.is_floating_point()]
        return values

    # --- training ---------------------------------------------------------------------------------------

    def _forward_train(self, inputs: tuple, needs_input_grads: bool) -> tuple:
        if self.device_mode == DeviceMode.CompileOnly:
            raise PyBudaError(f"{self.name} was created with DeviceMode.CompileOnly: it does not run")
        values = inputs
        for i, program in enumerate(self.training_programs):
            last = i + 1 == len(self.training_programs)
            values = program.forward(values, self._next_targets() if last else ())
        return values

    def _backward_train(self, output_grads, zero_grad: bool) -> tuple:
        grads = output_grads
        for program in reversed(self.training_programs):
            grads = program.backward(grads, zero_grad)
        return grads

    def _parameters(self) -> dict:
        return {n: p for program in self.training_programs for n, p in program.params.items()}

    def _gradients(self) -> dict:
        return {n: g.clone() for program in self.training_programs for n, g in program.grads.items()}

    def _checkpoint(self) -> dict:
        if not self.training_programs:  # not compiled for training: the modules' own parameters
            return {n: p.detach().clone() for m in self.modules if hasattr(m, "torch_module")
                    for n, p in m.torch_module().named_parameters()}
        return {n: p.clone() for n, p in self._parameters().items()}

    def _update_parameters(self, values: dict) -> None:
        for n, v in values.items():
            owner = next((p for p in self.training_programs if n in p.params), None)
            if owner is None:
                raise PyBudaError(f"{self.name}: no trainable parameter '{n}' on the device")
            v = _torch(v).detach().float().clone()
            if v.shape != owner.params[n].shape:
                raise PyBudaError(f"{self.name}: parameter '{n}' is {list(owner.params[n].shape)}, got {list(v.shape)}")
            owner.params[n] = v

    def _step_optimizer(self) -> None:
        if self.optimizer is None:
            return
        for program in self.training_programs:
            program.step(self.optimizer)

    def _step_scheduler(self) -> None:
        if self.scheduler is not None:
            self.scheduler.step()

    def training_report(self) -> str:
        """The last training step's modelled time (forward, backward, optimizer) and device memory, per module."""
        return "\n".join(f"{p.name}:\n{p.report.text()}" for p in self.training_programs)

    # --- reports ---------------------------------------------------------------------------------------

    def report(self) -> str:
        """The last run's memory per DRAM channel and modelled time per op, and where each op ran."""
        parts = []
        for c in self.compiled:
            parts.append(c.placement_report())
            formats: dict[str, int] = {}
            for dtype in c.weight_formats().values():
                formats[dtype] = formats.get(dtype, 0) + 1
            parts.append("Parameter data formats: " + ", ".join(f"{n} {d}" for d, n in sorted(formats.items())))
            if c.last_report is not None:
                parts.append(c.last_report.text())
        if self.last_pcc is not None:
            parts.append("PCC against the float32 model: " + ", ".join(f"{p:.6f}" for p in self.last_pcc))
        return "\n".join(parts)

    def placement(self) -> list[tuple[str, str, str]]:
        return [row for c in self.compiled for row in c.placement()]

    def last_run_reports(self) -> list:
        return [c.last_report for c in self.compiled]

    # --- device images -----------------------------------------------------------------------------------

    def compile_to_image(self, img_path: str | None = None, training: bool = False, sample_inputs=(),
                         sample_targets=()):
        from pybuda.tti import TTDeviceImage

        if training:
            raise PyBudaError("compile_to_image(training=True): images hold inference programs; train with "
                              "run_training on the device")
        samples = tuple(sample_inputs) or (self._inputs[0] if self._inputs else ())
        if not samples:
            raise PyBudaError(f"{self.name}: compile_to_image needs sample_inputs (or pushed inputs)")
        self._compile(tuple(t.value() if isinstance(t, Tensor) else t for t in samples))
        image = TTDeviceImage.from_device(self)
        image.save(img_path or f"device_images/{self.name}.tti")
        return image

    @staticmethod
    def load_image(*, img=None, img_path: str | None = None, **unsupported) -> "TTDevice":
        """A device running a saved image (TTDeviceImage.load_from_disk(path), or the path itself)."""
        from pybuda.tti import TTDeviceImage

        if unsupported:
            raise PyBudaError(f"TTDevice.load_image: {', '.join(sorted(unsupported))} not supported")
        if img is None:
            if img_path is None:
                raise PyBudaError("TTDevice.load_image needs img= or img_path=")
            img = TTDeviceImage.load_from_disk(img_path)
        device = TTDevice(img.device_name, arch=img.arch, devtype=img.devtype)
        device.modules = [Module(name) for name in img.module_names]
        device.compiled = list(img.compiled)
        return device


def _eager(module: Module, values: tuple):
    with torch.no_grad():
        return module.forward(*values) if hasattr(module, "forward") and not hasattr(module, "torch_module") \
            else module.torch_module()(*values)


def _detect(cfg: CompilerConfig) -> list[BackendDevice]:
    return [DEVICE_CONFIGS[cfg.device_config] if cfg.device_config else BackendDevice.Wormhole_B0]


def detect_available_devices() -> list[BackendDevice]:
    """The simulated chip this machine offers (the configured device_config, else a Wormhole B0 n150)."""
    return _detect(_get_global_compiler_config())
