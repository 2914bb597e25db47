"""MLIR types and constants as numpy: element types to dtypes, dense attributes to arrays.

bf16 is computed as float32 and rounded to bf16's precision where a value is stored (results of ops), so a
bf16 program gives the values a bf16 CPU kernel would, within its rounding."""

from __future__ import annotations

import math

import numpy as np
from xdsl.dialects.builtin import (BFloat16Type, DenseIntOrFPElementsAttr, Float16Type, Float32Type, Float64Type,
                                   FloatAttr, IndexType, IntegerAttr, IntegerType, Signedness)


def dtype(t) -> np.dtype:
    if isinstance(t, (Float32Type, BFloat16Type)):
        return np.dtype(np.float32)
    if isinstance(t, Float64Type):
        return np.dtype(np.float64)
    if isinstance(t, Float16Type):
        return np.dtype(np.float16)
    if isinstance(t, IndexType):
        return np.dtype(np.int64)
    if isinstance(t, IntegerType):
        width = t.width.data
        if width == 1:
            return np.dtype(np.bool_)
        unsigned = t.signedness.data == Signedness.UNSIGNED
        return np.dtype(f"{'u' if unsigned else ''}int{max(8, 1 << (width - 1).bit_length())}")
    raise ValueError(f"no host type for {t}")


def round_bf16(x: np.ndarray) -> np.ndarray:
    """float32 values rounded (to nearest even) to bf16's 8-bit mantissa."""
    bits = np.asarray(x, np.float32).view(np.uint32)
    rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000
    return np.where(np.isnan(x), x, rounded.view(np.float32))


def store(value, t):
    """A computed value as the element type `t` holds it."""
    array = np.asarray(value)
    if isinstance(t, BFloat16Type):
        return round_bf16(array.astype(np.float32))
    return array.astype(dtype(t), copy=False)


def dense(attr: DenseIntOrFPElementsAttr) -> np.ndarray:
    t = attr.get_element_type()
    shape = tuple(attr.get_shape())
    size = t.compile_time_size if not isinstance(t, IndexType) else 8
    count = len(attr.data.data) // size
    values = np.asarray(t.unpack(attr.data.data, count) if not isinstance(t, IndexType) else
                        np.frombuffer(attr.data.data, np.int64))
    values = values.astype(dtype(t))
    if count == 1 and math.prod(shape) != 1:
        return np.full(shape, values[0], dtype(t))
    return values.reshape(shape)


def scalar(attr, t=None):
    if isinstance(attr, DenseIntOrFPElementsAttr):
        return dense(attr)
    if isinstance(attr, FloatAttr):
        return np.asarray(attr.value.data, dtype(attr.type))[()]
    if isinstance(attr, IntegerAttr):
        return np.asarray(attr.value.data, dtype(attr.type)).astype(dtype(attr.type))[()]
    raise ValueError(f"no host value for {attr}")
