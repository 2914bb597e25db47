"""Module wrappers: a framework's model named and made ready for a device."""

from __future__ import annotations

import torch

from pybuda.config import PyBudaError


class Module:
    """A named unit of work placed on a device."""

    framework = "pybuda"

    def __init__(self, name: str):
        self.name = name

    def get_name(self) -> str:
        return self.name

    def run(self, *inputs) -> list:
        """Run this module once on a simulated device of its own (not the pipeline), compiling it for these
        inputs' shapes on first use; returns its outputs as pybuda.Tensors."""
        from pybuda.compiler import compile_module
        from pybuda.config import _get_global_compiler_config
        from pybuda.tensor import Tensor

        values = tuple(x.value() if isinstance(x, Tensor) else x for x in inputs)
        key = tuple((tuple(x.shape), x.dtype) for x in values)
        compiled = vars(self).setdefault("_direct", {})
        if key not in compiled:
            compiled[key] = compile_module(self, values, _get_global_compiler_config(), "wormhole_b0")
        return [Tensor(v) for v in compiled[key].run(list(values))]


class PyTorchModule(Module):
    """A `torch.nn.Module` wrapped for PyBuda: compiled from its `torch.export` graph."""

    framework = "pytorch"

    def __init__(self, name: str, module: torch.nn.Module, redirect_forward: bool = True):
        super().__init__(name)
        if not isinstance(module, torch.nn.Module):
            raise PyBudaError(f"PyTorchModule '{name}' needs a torch.nn.Module, got {type(module).__name__}")
        self.module = module.eval()

    def torch_module(self) -> torch.nn.Module:
        return self.module

    def forward(self, *inputs):
        with torch.no_grad():
            return self.module(*inputs)


class PyBudaModule(Module, torch.nn.Module):
    """A native PyBuda module: `pybuda.Parameter` attributes and a `forward` made of `pybuda.op` calls.

    It is a torch module too (each pybuda.op computes with torch), so it compiles through the same importer.
    """

    def __init__(self, name: str):
        torch.nn.Module.__init__(self)
        self.name = name

    def torch_module(self) -> torch.nn.Module:
        return self.eval()

    def get_parameter(self, name: str) -> "Parameter":
        params = dict(self.named_parameters())
        if name not in params:
            raise PyBudaError(f"{self.name}: no parameter '{name}' (has {', '.join(params) or 'none'})")
        return params[name]

    def set_parameter(self, name: str, data: torch.Tensor) -> None:
        """Give parameter `name` this value (same shape); the module compiles with it from then on."""
        param = self.get_parameter(name)
        data = data.value() if hasattr(data, "value") and not isinstance(data, torch.Tensor) else data
        if tuple(data.shape) != tuple(param.shape):
            raise PyBudaError(f"{self.name}: parameter '{name}' is {list(param.shape)}, got {list(data.shape)}")
        with torch.no_grad():
            param.copy_(data)
        param.from_shape = False

    def get_parameters(self) -> list["Parameter"]:
        return list(self.parameters())


class Parameter(torch.nn.Parameter):
    """`pybuda.Parameter(tensor_or_shape, requires_grad=..., name=...)`: a module's weight."""

    def __new__(cls, *shape_or_tensor, requires_grad: bool = True, name: str | None = None, dev_data_format=None):
        first = shape_or_tensor[0] if shape_or_tensor else None
        from_shape = not isinstance(first, torch.Tensor)
        data = torch.empty(*shape_or_tensor).normal_() if from_shape else first
        param = super().__new__(cls, data.detach().clone(), requires_grad)
        param.pybuda_name = name
        param.data_format = dev_data_format
        param.from_shape = from_shape  # no value given: pybuda.verify draws one as tt-buda's verify does
        return param

    def set_data_format(self, data_format) -> None:
        """The format the device stores this weight in (as configure_mixed_precision would for its name)."""
        self.data_format = data_format

    def get_name(self) -> str | None:
        return self.pybuda_name

    def value(self) -> torch.Tensor:
        """The weight's current value as a plain tensor (what tt-buda's Parameter.value() gives)."""
        return self.detach()


class JaxModule(Module):
    """A JAX function `fn(*inputs)`, or a Flax module applied to its `variables` (`module.apply(variables, *inputs)`),
    lowered through its StableHLO text (`ttmlir.frontends.jax`); the variables stay function arguments."""

    framework = "jax"

    def __init__(self, name: str, module, variables=None):
        super().__init__(name)
        self.module, self.variables = module, variables

    def function(self):
        """The function of (variables, *inputs) JAX lowers, and the variables to pass it."""
        if self.variables is None:
            return (lambda _variables, *inputs: self.module(*inputs)), {}
        return (lambda variables, *inputs: self.module.apply(variables, *inputs)), self.variables

    def forward(self, *inputs):
        """The function run by JAX on the host (what the device's results are compared with)."""
        import jax
        import numpy as np

        fn, variables = self.function()
        outputs = fn(variables, *[np.asarray(x.detach().numpy()) for x in inputs])
        return tuple(torch.from_numpy(np.array(o, dtype=np.float32 if o.dtype.name == "bfloat16" else o.dtype))
                     for o in jax.tree_util.tree_leaves(outputs))


class OnnxModule(Module):
    """An ONNX model (an `onnx.ModelProto` or a path) imported op by op into torch, then compiled as PyTorch."""

    framework = "onnx"

    def __init__(self, name: str, module, onnx_path: str | None = None):
        super().__init__(name)
        self.model = module if module is not None else onnx_path

    def torch_module(self) -> torch.nn.Module:
        from ttmlir.frontends.onnx import to_torch

        return to_torch(self.model)


def _refused(cls_name: str, framework: str):
    def __init__(self, name: str, *args, **kwargs):
        raise PyBudaError(f"{framework} models are not supported by this build; supported: PyTorchModule, "
                          "PyBudaModule, OnnxModule, JaxModule")
    return type(cls_name, (Module,), {"__init__": __init__, "framework": framework})


TFModule = _refused("TFModule", "TensorFlow")
TFLiteModule = _refused("TFLiteModule", "TensorFlow Lite")
TFGraphDefModule = _refused("TFGraphDefModule", "TensorFlow GraphDef")
MXNetModule = _refused("MXNetModule", "MXNet")
