"""PyBuda's API (seed 003) over the ttmlir compiler: wrap a model, place it on a (simulated) Tenstorrent device,
run inference or train it. Modules compile through `ttmlir.frontends` to TTIR, the TTNN backend pipeline and
`.ttnn` binaries, which run on the simulated Wormhole B0 / Blackhole chip of `ttmlir.runtime`; training adds
the backward programs torch's autograd derives and the optimizers' update programs (`pybuda.training`)."""

from pybuda import op, optimizers, schedulers, torch_schedulers
from pybuda._C import DataFormat, MathFidelity
from pybuda._C.backend_api import BackendDevice, BackendType, DeviceMode
from pybuda.compile import CompileResults, pybuda_compile
from pybuda.compiled import CompiledModel
from pybuda.config import (CompileDepth, CompilerConfig, PyBudaError, configure_mixed_precision, insert_nop,
                           override_dram_queue_placement, set_configuration_options)
from pybuda.device import CPUDevice, Device, TTDevice
from pybuda.module import (JaxModule, Module, MXNetModule, OnnxModule, Parameter, PyBudaModule, PyTorchModule,
                           TFGraphDefModule, TFLiteModule, TFModule)
from pybuda.optimizers import LAMB, LARS, SGD, Adam, AdamW
from pybuda.pybudaglobal import error_raised, get_tenstorrent_device, is_silicon, pybuda_reset, set_device_pipeline
from pybuda.run import (detect_available_devices, get_checkpoint_queue, get_loss_queue, get_parameter_checkpoint,
                        get_parameter_gradients, initialize_pipeline, run_backward, run_forward, run_inference,
                        run_optimizer, run_schedulers, run_training, shutdown, sync, update_device_parameters)
from pybuda.tensor import Tensor
from pybuda.torch_compile import compile_torch
from pybuda.tti import TTDeviceImage
from pybuda.verify import VerifyConfig
from pybuda import compile, config, run, verify  # noqa: E402  (`compile`: the module, callable as the one-call compile)

__all__ = ["BackendDevice", "BackendType", "DeviceMode", "DataFormat", "MathFidelity", "CompiledModel", "CompileResults", "pybuda_compile",
           "CompileDepth", "CompilerConfig", "PyBudaError", "configure_mixed_precision", "insert_nop", "override_dram_queue_placement",
           "set_configuration_options", "CPUDevice", "Device", "TTDevice", "JaxModule", "Module", "OnnxModule",
           "MXNetModule", "Parameter", "PyBudaModule", "PyTorchModule", "TFGraphDefModule", "TFLiteModule", "TFModule",
           "SGD", "Adam", "AdamW", "LAMB", "LARS", "error_raised", "get_tenstorrent_device", "is_silicon",
           "pybuda_reset",
           "set_device_pipeline", "detect_available_devices", "get_checkpoint_queue", "get_loss_queue",
           "get_parameter_checkpoint", "get_parameter_gradients", "initialize_pipeline", "run_backward",
           "run_forward", "run_inference", "run_optimizer", "run_schedulers", "run_training", "shutdown", "sync",
           "update_device_parameters", "Tensor", "compile", "compile_torch", "TTDeviceImage", "VerifyConfig", "config", "run", "op", "optimizers",
           "schedulers", "torch_schedulers", "verify"]

# tt-buda's source tree holds the package at pybuda/pybuda, so its scripts also write `from pybuda import pybuda`
# and use that name as the package: here it is the package itself
pybuda = __import__("sys").modules[__name__]


# torch finds the "tt" dynamo backend through the `torch_dynamo_backends` entry point; where dynamo is already
# loaded (or the package is used from a source tree) it is registered now, without importing dynamo (4 s) otherwise
if __import__("sys").modules.get("torch._dynamo") is not None:
    from pybuda.torch_compile import register as _register

    _register()
