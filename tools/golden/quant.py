"""Goldens of the quantization ops: quantize, dequantize and requantize with per-tensor or per-axis scales and zero
points, computed from their definitions."""

from __future__ import annotations


import numpy as np
import torch



def _quant_params(x: dict, a: dict, element, prefix: str = ""):
    """(scales, zero points, axis): the unrolled op's operands, else the `!quant.uniform` type's."""
    if prefix + "scale" in x:
        return x[prefix + "scale"].double().reshape(-1), x[prefix + "zero_point"].long().reshape(-1), a["axis"]
    q = element.data
    return torch.tensor(q.scales, dtype=torch.double), torch.tensor(q.zero_points), q.axis


def _broadcast(params, rank: int):
    """Scales and zero points as numpy arrays that broadcast against a tensor of `rank` along the axis."""
    scales, zero_points, axis = params
    shape = [-1 if d == axis else 1 for d in range(rank)]
    return scales.numpy().reshape(shape), zero_points.numpy().reshape(shape)


def _quantized(values: torch.Tensor, element, params) -> torch.Tensor:
    """`values` stored as `element` says: rounded half to even (numpy's rint), clamped to the storage range."""
    scales, zero_points = _broadcast(params, values.dim())
    stored = np.rint(values.double().numpy() / scales) + zero_points
    return torch.from_numpy(np.clip(stored, element.data.storage_min, element.data.storage_max).astype(np.int64))


def _dequantized(stored: torch.Tensor, params) -> torch.Tensor:
    scales, zero_points = _broadcast(params, stored.dim())
    return torch.from_numpy((stored.double().numpy() - zero_points) * scales)


def quantize(x, a):
    return _quantized(x["input"], a["result_type"], _quant_params(x, a, a["result_type"]))


def dequantize(x, a):
    return _dequantized(x["input"], _quant_params(x, a, a["input_type"])).float()


def requantize(x, a):
    real = _dequantized(x["input"], _quant_params(x, a, a["input_type"], "in_"))
    return _quantized(real, a["result_type"], _quant_params(x, a, a["result_type"], "out_"))
