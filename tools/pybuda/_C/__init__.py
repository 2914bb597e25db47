"""PyBuda's native-module paths, kept for scripts that import from them (`pybuda._C.backend_api`,
`from pybuda._C import DataFormat, MathFidelity`): the data formats and math fidelities, and the ttcore data type
and fidelity each one is on our device."""

from enum import Enum


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
