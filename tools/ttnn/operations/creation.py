"""Tensor creation with tt-metal's signatures (`ttnn.full(shape, fill_value, device=...)`, `zeros`, `ones`, `empty`,
their `*_like`, `arange`, `rand`), each the TTNN creation op the simulator runs."""

from __future__ import annotations

import torch

from ttnn.operations.table import call
from ttnn.tensor import Tensor
from ttnn.types import DataType, Layout


def _dtype(dtype, fill_value=0.0):
    if dtype is not None:
        return dtype
    return DataType.INT32 if isinstance(fill_value, int) and not isinstance(fill_value, bool) else DataType.BFLOAT16


def full(shape, fill_value, dtype=None, layout=Layout.ROW_MAJOR, device=None, memory_config=None, **extra) -> Tensor:
    return call("full", device, shape=list(shape), fill_value=fill_value, dtype=_dtype(dtype, fill_value),
                layout=layout or Layout.ROW_MAJOR, memory_config=memory_config)


def _filled(name: str, value):
    def op(shape, dtype=None, layout=Layout.ROW_MAJOR, device=None, memory_config=None, **extra) -> Tensor:
        return call(name, device, shape=list(shape), dtype=dtype or DataType.BFLOAT16,
                    layout=layout or Layout.ROW_MAJOR, memory_config=memory_config)

    op.__name__ = name
    return op


def _like(name: str):
    def op(input_tensor: Tensor, *args, dtype=None, layout=None, device=None, memory_config=None, **extra):
        device = device if device is not None else input_tensor.device()
        config = memory_config if memory_config is not None else input_tensor.memory_config()
        make = FUNCTIONS[name.removesuffix("_like")]
        return make(list(input_tensor.shape), *args, dtype=dtype or input_tensor.dtype,
                    layout=layout or input_tensor.layout, device=device, memory_config=config)

    op.__name__ = name
    return op


def arange(start: int = 0, end: int | None = None, step: int = 1, dtype=None, device=None, layout=Layout.ROW_MAJOR,
           memory_config=None, **extra) -> Tensor:
    if end is None:
        start, end = 0, start
    return call("arange", start, end, step, dtype=dtype or DataType.BFLOAT16, device=device,
                memory_config=memory_config, layout=layout or Layout.ROW_MAJOR)


def rand(shape, dtype=None, layout=Layout.TILE, device=None, memory_config=None, low: float = 0.0, high: float = 1.0,
         seed: int = 0, **extra) -> Tensor:
    return call("rand", device, size=list(shape), low=float(low), high=float(high), seed=int(seed),
                dtype=dtype or DataType.BFLOAT16, layout=layout or Layout.TILE, memory_config=memory_config)


FUNCTIONS = {"full": full, "zeros": _filled("zeros", 0.0), "ones": _filled("ones", 1.0),
             "empty": _filled("empty", None), "arange": arange, "rand": rand}
FUNCTIONS.update({f"{name}_like": _like(f"{name}_like") for name in ("full", "zeros", "ones", "empty")})
GOLDEN = {"full": lambda shape, fill_value, **_: torch.full(list(shape), fill_value),
          "zeros": lambda shape, **_: torch.zeros(list(shape)), "ones": lambda shape, **_: torch.ones(list(shape)),
          "zeros_like": lambda x, **_: torch.zeros_like(x), "ones_like": lambda x, **_: torch.ones_like(x),
          "full_like": lambda x, fill_value, **_: torch.full_like(x, fill_value),
          "arange": lambda start=0, end=None, step=1, **_: torch.arange(start, end, step)}
