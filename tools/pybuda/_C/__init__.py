"""PyBuda's native-module paths, kept for scripts that import from them (`pybuda._C.backend_api`,
`from pybuda._C import DataFormat, MathFidelity`): the data formats and math fidelities, and the ttcore data type
and fidelity each one is on our device."""

from enum import Enum

from pybuda.errors import PyBudaError


class DataFormat(Enum):
    """PyBuda's data formats and the ttcore data type each is on our device."""
    Float32 = "f32"
    Float16 = "f16"
    Float16_b = "bf16"
    Bfp8 = "bfp_f8"
    Bfp8_b = "bfp_bf8"
    Bfp4 = "bfp_f4"
    Bfp4_b = "bfp_bf4"
    Bfp2 = "bfp_f2"
    Bfp2_b = "bfp_bf2"
    UInt16 = "u16"
    RawUInt8 = "u8"
    RawUInt32 = "u32"
    Int32 = "si32"


class MathFidelity(Enum):
    LoFi = "lofi"
    HiFi2 = "hifi2"
    HiFi3 = "hifi3"
    HiFi4 = "hifi4"


class NodeEpochType(Enum):
    """Which of a training step's graphs a node is in (configure_mixed_precision(epoch_type=...) in tt-buda)."""
    Forward = 0
    Backward = 1
    Optimizer = 2


def run_pre_placer_buda_passes(*args, **kwargs):
    """Refused: tt-buda's passes over its Buda graph before placing ops on the grid; our compiler runs its own
    TTIR/TTNN pass pipeline (`pybuda_compile` stops at a chosen CompileDepth to look at it)."""
    raise PyBudaError("run_pre_placer_buda_passes is not supported: there is no Buda graph or placer; the TTIR/TTNN "
                      "pipeline runs whole inside pybuda_compile")
