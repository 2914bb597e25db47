"""Tensor creation with tt-metal's signatures (`ttnn.full(shape, fill_value, device=...)`, `zeros`, `ones`, `empty`,
their `*_like`, `arange`, `rand`), each the TTNN creation op the simulator runs. `optional_tensor=` writes the values
into a tensor the caller allocated, as tt-metal does, with no new buffer."""

from __future__ import annotations

import math

import torch

from ttnn.operations.eltwise import store
from ttnn.operations.table import call, call_shaped, placed
from ttnn.tensor import Tensor
from ttnn.types import DataType, Layout




def _into(result: Tensor, optional_tensor: Tensor | None, callee: str) -> Tensor:
    """The values written into `optional_tensor` (its buffer kept: the result's own is freed), else the result."""
    if optional_tensor is not None and not isinstance(optional_tensor, Tensor):
        raise TypeError(f"ttnn.{callee}(): optional_tensor must be a ttnn.Tensor")
    return store(result, optional_tensor, callee)


def full(shape, fill_value, dtype=None, layout=Layout.ROW_MAJOR, device=None, memory_config=None,
         optional_tensor: Tensor | None = None) -> Tensor:
    if optional_tensor is not None:  # the target's type and placement are the result's
        dtype, layout = optional_tensor.dtype, optional_tensor.layout
        device = optional_tensor.device()
        memory_config = optional_tensor.memory_config() if device is not None else None
    result = call("full", device=device, shape=list(shape), fill_value=fill_value, dtype=dtype or DataType.BFLOAT16,
                  layout=layout or Layout.ROW_MAJOR, memory_config=memory_config)
    return _into(result, optional_tensor, "full")


def _filled(name: str):
    def op(shape, dtype=None, layout=Layout.ROW_MAJOR, device=None, memory_config=None) -> Tensor:
        return call(name, device=device, shape=list(shape), dtype=dtype or DataType.BFLOAT16,
                    layout=layout or Layout.ROW_MAJOR, memory_config=memory_config)

    op.__name__ = name
    return op


def _like(name: str):
    make = name.removesuffix("_like")

    def op(input_tensor: Tensor, *args, dtype=None, layout=None, device=None, memory_config=None,
           optional_tensor: Tensor | None = None, **value):
        if set(value) - ({"fill_value"} if make == "full" else set()):
            raise TypeError(f"ttnn.{name}() got an unexpected keyword argument '{next(iter(value))}'")
        device = device if device is not None else input_tensor.device()
        config = memory_config if memory_config is not None or device is None else input_tensor.memory_config()
        kwargs = dict(dtype=dtype or input_tensor.dtype, layout=layout or input_tensor.layout, device=device,
                      memory_config=config)
        if make == "full":
            made = full(list(input_tensor.shape), *args, **value, **kwargs, optional_tensor=optional_tensor)
        elif optional_tensor is not None:
            raise TypeError(f"ttnn.{name}() got an unexpected keyword argument 'optional_tensor'")
        else:
            made = FILLED[make](list(input_tensor.shape), *args, **kwargs)
        made._topology = input_tensor._topology  # a mesh tensor's like lies over the mesh as it does
        return made

    op.__name__ = name
    return op


def arange(start: int = 0, end: int | None = None, step: int = 1, dtype=None, device=None, layout=Layout.ROW_MAJOR,
           memory_config=None) -> Tensor:
    """[start, end) by step as a 1-D tensor (of `start` elements from 0 when only one bound is given)."""
    if end is None:
        start, end = 0, start
    if step == 0:
        raise ValueError("ttnn.arange(): step must be non-zero")
    length = max(0, math.ceil((end - start) / step))
    return call_shaped("arange", [length], start, end, step, dtype=dtype or DataType.BFLOAT16, device=device,
                       memory_config=memory_config, layout=layout or Layout.ROW_MAJOR)


def rand(shape, device=None, dtype=None, layout=Layout.TILE, memory_config=None, low: float = 0.0, high: float = 1.0,
         seed: int = 0) -> Tensor:
    return call("rand", device=device, shape=list(shape), low=float(low), high=float(high), seed=int(seed),
                dtype=dtype or DataType.BFLOAT16, layout=layout or Layout.TILE, memory_config=memory_config)


FILLED = {name: _filled(name) for name in ("zeros", "ones", "empty")}
FUNCTIONS = {"full": full, **FILLED, "arange": arange, "rand": rand}
FUNCTIONS.update({f"{name}_like": _like(f"{name}_like") for name in ("full", "zeros", "ones", "empty")})
FUNCTIONS = {name: placed(function) for name, function in FUNCTIONS.items()}
GOLDEN = {"full": lambda shape, fill_value, **_: torch.full(list(shape), fill_value),
          "zeros": lambda shape, **_: torch.zeros(list(shape)), "ones": lambda shape, **_: torch.ones(list(shape)),
          "zeros_like": lambda x, **_: torch.zeros_like(x), "ones_like": lambda x, **_: torch.ones_like(x),
          "full_like": lambda x, fill_value, **_: torch.full_like(x, fill_value),
          "arange": lambda start=0, end=None, step=1, **_: torch.arange(start, end, step)}
