"""Devices and the pipeline they form: TTDevice (the simulated Wormhole/Blackhole chip), CPUDevice (torch on the
host), and the run API (`initialize_pipeline`, `run_forward`, `run_inference`) moving inputs through them in
the order the devices were created."""

from __future__ import annotations

import queue
from abc import ABC, abstractmethod
from collections import deque

import torch
import torch.utils._pytree as pytree

from pybuda._C.backend_api import BackendDevice, BackendType, DeviceMode
from pybuda.config import DEVICE_CONFIGS, PyBudaError, _get_global_compiler_config
from pybuda.module import Module, PyTorchModule
from pybuda.tensor import Tensor

SIMULATED = {BackendDevice.Wormhole_B0: "wormhole_b0", BackendDevice.Blackhole: "blackhole"}


class _Pipeline:
    """The process's devices, in creation order, and the queue results go to (PyBuda's API is global)."""
    devices: list = []
    output_queue: queue.Queue | None = None


class Device(ABC):
    def __init__(self, name: str, module=None):
        self.name = name
        self.modules: list[Module] = []
        self._inputs: deque = deque()
        _Pipeline.devices.append(self)
        if module is not None:
            for m in module if isinstance(module, (list, tuple)) else [module]:
                self.place_module(m)

    def place_module(self, module: Module) -> None:
        if isinstance(module, torch.nn.Module) and not isinstance(module, Module):
            raise PyBudaError(f"{self.name}: wrap a torch module in pybuda.PyTorchModule(name, module) to place it")
        if not isinstance(module, Module):
            raise PyBudaError(f"{self.name}: cannot place a {type(module).__name__}; place a pybuda module")
        self.modules.append(module)

    def remove_modules(self) -> None:
        self.modules = []

    def push_to_inputs(self, *tensors) -> None:
        """One set of inputs (a tuple/list of tensors, or the tensors as arguments)."""
        if len(tensors) == 1 and isinstance(tensors[0], (tuple, list)):
            tensors = tuple(tensors[0])
        self._inputs.append(tuple(t.value() if isinstance(t, Tensor) else t for t in tensors))

    def _compile(self, samples: tuple) -> None:
        """Make the device ready to run inputs shaped like `samples`."""

    @abstractmethod
    def _run(self, inputs: tuple) -> tuple:
        """Each device kind runs its modules its own way."""


class CPUDevice(Device):
    """Runs its (PyTorch) modules in torch on the host."""

    def __init__(self, name: str, module=None, **_options):
        super().__init__(name, module)

    def place_module(self, module: Module) -> None:
        if not isinstance(module, PyTorchModule):
            raise PyBudaError(f"{self.name}: a CPUDevice runs PyTorchModules only")
        super().place_module(module)

    def _run(self, inputs: tuple) -> tuple:
        values = inputs
        for m in self.modules:
            values = tuple(pytree.tree_leaves(m.forward(*values)))
        return values


class TTDevice(Device):
    """A Tenstorrent device: here the simulated Wormhole (n150) or Blackhole (p150) chip. Silicon and Golden
    backends both run on the simulator; placed modules are compiled to .ttnn binaries on first use."""

    def __init__(self, name: str, num_chips: int = 1, chip_ids=None, arch: BackendDevice | None = None,
                 devtype: BackendType | None = None, device_mode: DeviceMode = DeviceMode.CompileAndRun,
                 module=None, fp32_fallback=None, **unsupported):
        if unsupported:
            raise PyBudaError(f"TTDevice: {', '.join(sorted(unsupported))} not supported")
        cfg = _get_global_compiler_config()
        arch = arch or (DEVICE_CONFIGS[cfg.device_config] if cfg.device_config else BackendDevice.Wormhole_B0)
        if arch not in SIMULATED:
            raise PyBudaError(f"{arch.name} is not simulated; supported: BackendDevice.Wormhole_B0, "
                              "BackendDevice.Blackhole")
        chips = len(chip_ids) if chip_ids else num_chips
        if chips not in (0, 1):
            raise PyBudaError(f"TTDevice '{name}': {chips} chips asked for; this build runs one simulated chip")
        if devtype not in (None, BackendType.Silicon, BackendType.Golden):
            raise PyBudaError(f"devtype {devtype.name} is not supported; supported: BackendType.Silicon, "
                              "BackendType.Golden (both run on the simulated chip)")
        if device_mode == DeviceMode.RunOnly:
            raise PyBudaError("DeviceMode.RunOnly: load a compiled image with TTDevice.load_image instead")
        self.arch, self.devtype, self.device_mode = arch, devtype or BackendType.Silicon, device_mode
        self.chip_ids = [0]
        self.compiled: list = []
        self.last_pcc: list[float] | None = None  # with AMP: each output's PCC against the float32 model
        super().__init__(name, module)

    @property
    def arch_name(self) -> str:
        return SIMULATED[self.arch]

    def place_module(self, module: Module) -> None:
        super().place_module(module)
        self.compiled = []

    def _compile(self, samples: tuple) -> tuple:
        from pybuda.compiler import compile_module

        cfg = _get_global_compiler_config()
        if cfg.enable_training:
            raise PyBudaError("training is not supported by this build: PyBuda here runs inference only")
        if not self.compiled:
            values = samples
            for i, m in enumerate(self.modules):
                self.compiled.append(compile_module(m, values, cfg, self.arch_name))
                if i + 1 < len(self.modules):  # the next module's sample inputs
                    values = tuple(pytree.tree_leaves(_eager(m, values)))

    def _run(self, inputs: tuple) -> tuple:
        if self.device_mode == DeviceMode.CompileOnly:
            raise PyBudaError(f"{self.name} was created with DeviceMode.CompileOnly: it does not run")
        values = inputs
        for c in self.compiled:
            values = tuple(c.run(list(values)))
        if _get_global_compiler_config().changes_precision and all(hasattr(m, "torch_module") for m in self.modules):
            from ttmlir.runtime.golden import pcc

            expected = inputs
            for m in self.modules:
                expected = tuple(pytree.tree_leaves(_eager(m, expected)))
            self.last_pcc = [pcc(e.float(), a.float()) for e, a in zip(expected, values)
                             if isinstance(e, torch.Tensor) and e.is_floating_point()]
        return values

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
            raise PyBudaError("training is not supported by this build: images hold inference programs")
        samples = tuple(sample_inputs) or (self._inputs[0] if self._inputs else ())
        if not samples:
            raise PyBudaError(f"{self.name}: compile_to_image needs sample_inputs (or pushed inputs)")
        self._compile(tuple(t.value() if isinstance(t, Tensor) else t for t in samples))
        image = TTDeviceImage.from_device(self)
        image.save(img_path or f"device_images/{self.name}.tti")
        return image

    @staticmethod
    def load_image(img, **_unused) -> "TTDevice":
        device = TTDevice(img.device_name, arch=img.arch, devtype=img.devtype)
        device.modules = [Module(name) for name in img.module_names]
        device.compiled = list(img.compiled)
        return device


def _eager(module: Module, values: tuple):
    with torch.no_grad():
        return module.forward(*values) if hasattr(module, "forward") and not hasattr(module, "torch_module") \
            else module.torch_module()(*values)


# --- the run API --------------------------------------------------------------------------------------------


def _first_device() -> Device:
    if not _Pipeline.devices:
        raise PyBudaError("no device: create a pybuda.TTDevice (or CPUDevice) and place a module on it")
    return _Pipeline.devices[0]


def initialize_pipeline(training: bool = False, output_queue=None, sample_inputs=(), sample_targets=(),
                        _sequential: bool = True, **_unused) -> queue.Queue:
    """Compile every device's modules for the shapes of `sample_inputs` (else the first pushed inputs)."""
    if training:
        raise PyBudaError("training is not supported by this build: PyBuda here runs inference only")
    first = _first_device()
    samples = tuple(sample_inputs) or (first._inputs[0] if first._inputs else ())
    if not samples:
        raise PyBudaError("initialize_pipeline needs sample inputs: pass sample_inputs or push inputs first")
    values = tuple(t.value() if isinstance(t, Tensor) else t for t in samples)
    for i, device in enumerate(_Pipeline.devices):
        if not device.modules:
            raise PyBudaError(f"device '{device.name}' has no module placed on it")
        device._compile(values)
        if i + 1 < len(_Pipeline.devices):  # the next device's sample inputs
            values = device._run(values)
    _Pipeline.output_queue = output_queue if output_queue is not None else queue.Queue()
    return _Pipeline.output_queue


def run_forward(input_count: int = 1, _sequential: bool = True) -> None:
    """Run `input_count` pushed input sets through the pipeline; results go to the output queue."""
    first = _first_device()
    if _Pipeline.output_queue is None:
        initialize_pipeline()
    for _ in range(input_count):
        if not first._inputs:
            raise PyBudaError(f"no inputs pushed to '{first.name}' (call push_to_inputs first)")
        values = first._inputs.popleft()
        for device in _Pipeline.devices:
            values = device._run(values)
        _Pipeline.output_queue.put([Tensor(v) for v in values])


def run_inference(module: Module | None = None, inputs=(), input_count: int | None = None, output_queue=None,
                  _sequential: bool = True, _verify_cfg=None, **_unused) -> queue.Queue:
    """Compile (once) and run the pipeline on `inputs` (a list of input sets) and whatever was pushed before;
    returns the queue holding a list of pybuda.Tensor per input set."""
    if module is not None:
        target = next((d for d in _Pipeline.devices if isinstance(d, TTDevice)), None) or TTDevice("tt0")
        target.place_module(module)
    first = _first_device()
    for one in inputs:
        first.push_to_inputs(one)
    if _Pipeline.output_queue is None or output_queue is not None or \
            any(isinstance(d, TTDevice) and not d.compiled and d.modules for d in _Pipeline.devices):
        initialize_pipeline(output_queue=output_queue)
    run_forward(input_count if input_count is not None else len(first._inputs))
    return _Pipeline.output_queue


def _training(*_args, **_kwargs):
    raise PyBudaError("training (run_backward, run_optimizer, run_training) is not supported by this build: "
                      "PyBuda here runs inference only")


run_backward = run_optimizer = run_training = _training


def detect_available_devices() -> list[BackendDevice]:
    """The simulated chip this machine offers (the configured device_config, else a Wormhole B0 n150)."""
    cfg = _get_global_compiler_config()
    return [DEVICE_CONFIGS[cfg.device_config] if cfg.device_config else BackendDevice.Wormhole_B0]


def pybuda_reset() -> None:
    """Forget devices, modules, queues and configuration."""
    from pybuda import config

    _Pipeline.devices = []
    _Pipeline.output_queue = None
    config.reset()


def shutdown() -> None:
    pybuda_reset()
