"""Data formats as the hardware stores them: torch storage dtypes, bf16 rounding, block floats.

Block-float formats (bfp_*) keep one shared exponent per 16 consecutive values of a row (a tile face
row) and a sign plus `MANTISSA_BITS` bits per value: each value becomes round(x / scale) * scale with
scale = 2 ** (e - (bits - 1)) for the group's largest exponent e, clamped to the representable range.
The `bf`/`f` variants differ only in exponent width, which the simulator does not limit.
"""

from __future__ import annotations

import torch

TORCH_DTYPES = {"f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16, "u32": torch.int64,
                "u16": torch.int32, "u8": torch.uint8, "si32": torch.int32}
MANTISSA_BITS = {"bfp_f8": 7, "bfp_bf8": 7, "bfp_f4": 3, "bfp_bf4": 3, "bfp_f2": 1, "bfp_bf2": 1}
BLOCK = 16


def storage_dtype(dtype: str) -> torch.dtype:
    return TORCH_DTYPES.get(dtype, torch.float32)


def quantize_block_float(x: torch.Tensor, bits: int) -> torch.Tensor:
    """Round to a shared-exponent grid per 16 values along the last dimension."""
    x = x.to(torch.float32)
    shape = x.shape
    flat = x.reshape(-1, shape[-1]) if x.dim() else x.reshape(1, 1)
    cols = flat.shape[1]
    padded = torch.nn.functional.pad(flat, (0, (-cols) % BLOCK))
    groups = padded.reshape(padded.shape[0], -1, BLOCK)
    peak = groups.abs().amax(dim=-1, keepdim=True)
    exponent = torch.floor(torch.log2(torch.where(peak > 0, peak, torch.ones_like(peak))))
    scale = torch.pow(2.0, exponent - (bits - 1))
    limit = 2 ** bits - 1
    q = torch.clamp(torch.round(groups / scale), -limit, limit) * scale
    q = torch.where(peak > 0, q, torch.zeros_like(q))
    return q.reshape(padded.shape)[:, :cols].reshape(shape)


def to_format(x: torch.Tensor, dtype: str) -> torch.Tensor:
    """Values as stored in `dtype`: rounded, quantized or cast, in that format's storage dtype."""
    if dtype in MANTISSA_BITS:
        return quantize_block_float(x, MANTISSA_BITS[dtype])
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
