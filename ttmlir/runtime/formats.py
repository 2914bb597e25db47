"""Data formats as the hardware stores them: torch storage dtypes, bf16 rounding, block floats.

Block-float formats (bfp_*) are stored as the f32 values their shared-exponent grid holds (the packing rule
is `numerics.quantize_bfp`). A bf16 result the device's packer writes rounds ties away from zero; values
converted on the host (and everything in exact numerics) round to nearest even, as torch does.
"""

from __future__ import annotations

import torch

from ttmlir.runtime.numerics import EXACT, Numerics, store

TORCH_DTYPES = {"f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16, "u32": torch.int64,
                "u16": torch.int32, "u8": torch.uint8, "si32": torch.int32}


def storage_dtype(dtype: str) -> torch.dtype:
    return TORCH_DTYPES.get(dtype, torch.float32)


def to_format(x: torch.Tensor, dtype: str, num: Numerics = EXACT) -> torch.Tensor:
    """Values as stored in `dtype`: rounded (by the packer under `num`), quantized or cast, in that format's
    storage dtype."""
    packed = store(x, dtype, num)
    if packed is not None:
        return packed
    target = storage_dtype(dtype)
    if not target.is_floating_point and x.is_floating_point():
        x = torch.trunc(x)
    if x.dtype == torch.bool:
        x = x.to(torch.int32)
    return x.to(target)


def compute_dtype(x: torch.Tensor) -> torch.Tensor:
    """Kernels compute in f32 (the FPU/SFPU accumulate wide) or int64."""
    if x.is_floating_point():
        return x.to(torch.float32)
    return x.to(torch.int64)
