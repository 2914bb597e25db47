"""PyBuda's API (seed 003) over the ttmlir compiler: wrap a model, place it on a (simulated) Tenstorrent device,
run inference. Modules compile through `ttmlir.frontends` to TTIR, the TTNN backend pipeline and `.ttnn`
binaries, which run on the simulated Wormhole B0 / Blackhole chip of `ttmlir.runtime`."""

from pybuda import op
from pybuda._C.backend_api import BackendDevice, BackendType, DeviceMode
from pybuda.compiled import CompiledModel
from pybuda.config import (CompilerConfig, DataFormat, MathFidelity, PyBudaError, configure_mixed_precision,
                           set_configuration_options)
from pybuda.device import (CPUDevice, TTDevice, detect_available_devices, initialize_pipeline, pybuda_reset,
                           run_backward, run_forward, run_inference, run_optimizer, run_training, shutdown)
from pybuda.module import (JaxModule, Module, OnnxModule, Parameter, PyBudaModule, PyTorchModule, TFGraphDefModule,
                           TFLiteModule, TFModule)
from pybuda.tensor import Tensor
from pybuda.torch_compile import compile
from pybuda.tti import TTDeviceImage
from pybuda import config

__all__ = ["BackendDevice", "BackendType", "DeviceMode", "CompiledModel", "CompilerConfig", "DataFormat",
           "MathFidelity", "PyBudaError", "configure_mixed_precision", "set_configuration_options", "CPUDevice",
           "TTDevice", "detect_available_devices", "initialize_pipeline", "pybuda_reset", "run_backward",
           "run_forward", "run_inference", "run_optimizer", "run_training", "shutdown", "JaxModule", "Module",
           "OnnxModule", "Parameter", "PyBudaModule", "PyTorchModule", "TFGraphDefModule", "TFLiteModule",
           "TFModule", "Tensor", "compile", "TTDeviceImage", "config", "op"]


# torch finds the "tt" dynamo backend through the `torch_dynamo_backends` entry point; where dynamo is already
# loaded (or the package is used from a source tree) it is registered now, without importing dynamo (4 s) otherwise
if __import__("sys").modules.get("torch._dynamo") is not None:
    from pybuda.torch_compile import register as _register

    _register()
