"""Reductions with tt-metal's signatures: `ttnn.sum(x, dim=None, keepdim=False)` and its family, argmax, topk, sort,
cumsum, each the TTNN op the simulator runs."""

from __future__ import annotations

import torch

from ttnn.operations.eltwise import store
from ttnn.operations.table import call, on_cores, placed, result_types, to_scalar_tensor
from ttnn.tensor import Tensor
from ttnn.types import DataType


def _dims(dim, rank: int):
    if dim is None:
        return None
    dims = [dim] if isinstance(dim, int) else list(dim)
    return sorted(d % rank if rank else 0 for d in dims)


def _reduction(name: str):
    def op(input_tensor: Tensor, dim=None, keepdim: bool = False, *, memory_config=None, compute_kernel_config=None,
           scalar: float = 1.0, correction: bool = True, **compiler):
        if scalar != 1.0:
            if name != "sum":
                raise ValueError(f"ttnn.{name}(): scalar= scales a sum only")
        if name not in ("std", "var") and correction is not True:
            raise TypeError(f"ttnn.{name}() got an unexpected keyword argument 'correction'")
        kwargs = {"dim_arg": _dims(dim, len(input_tensor.shape)), "keep_dim": keepdim, "memory_config": memory_config,
                  "compute_config": compute_kernel_config}
        kwargs.update(compiler)  # generated code spells the row's own keywords
        if name in ("std", "var"):
            return _moment(name, input_tensor, kwargs, correction)
        result = call(name, input_tensor, **kwargs)
        if scalar != 1.0:
            result = call("multiply", result, to_scalar_tensor(scalar, result))
        return result

    op.__name__ = name
    op.__doc__ = f"ttnn.{name}(input_tensor, dim=None, keepdim=False, *, memory_config=None, sub_core_grids=None)"
    return placed(op)


def _moment(name: str, x: Tensor, kwargs: dict, correction: bool) -> Tensor:
    """var = sum((x - mean)^2) / (N - correction), std its square root: tt-metal's composite of reductions."""
    mean = call("mean", x, **{**kwargs, "keep_dim": True})
    diff = call("subtract", x, mean)
    sq = call("multiply", diff, diff)
    dims = kwargs["dim_arg"] if kwargs["dim_arg"] is not None else list(range(len(x.shape)))
    count = 1
    for d in dims:
        count *= x.shape[d]
    total = call("sum", sq, **kwargs)
    var = call("multiply", total, to_scalar_tensor(1.0 / max(count - int(bool(correction)), 1), total))
    return var if name == "var" else call("sqrt", var)


def _out(result, out, callee: str):
    """Write a (values, indices) result into tt-metal's preallocated `out` pair, in place; else return it."""
    if out is None:
        return result
    if not isinstance(out, (tuple, list)) or len(out) != len(result):
        raise TypeError(f"ttnn.{callee}(): out must be a pair of tensors (values, indices)")
    return tuple(store(r, o, callee) for r, o in zip(result, out))


def argmax(input_tensor: Tensor, dim=None, keepdim: bool = False, *, use_multicore: bool = False,
           memory_config=None, output_tensor=None) -> Tensor:
    """Without `use_multicore` tt-metal runs argmax on one core; the perf model does the same."""
    with on_cores(None if use_multicore else 1), result_types(result=DataType.UINT32):  # tt-metal's index type
        result = call("argmax", input_tensor, dim=dim, keep_dim=keepdim, memory_config=memory_config)
    return store(result, output_tensor, "argmax")


def topk(input_tensor: Tensor, k: int, dim: int = -1, largest: bool = True, sorted: bool = True, *,  # noqa: A002
         out=None, memory_config=None, indices_tensor=None):
    if indices_tensor is not None:
        raise ValueError("ttnn.topk(): indices_tensor (indices to return in place of positions) is not supported by "
                         "the simulated device")
    with result_types(indices=DataType.UINT16):  # tt-metal's topk and sort give UINT16 indices
        result = call("topk", input_tensor, k=k, dim=dim, largest=largest, sorted=sorted, memory_config=memory_config)
    return _out(result, out, "topk")


def sort(input_tensor: Tensor, dim: int = -1, descending: bool = False, stable: bool = False, *,
         memory_config=None, out=None):
    with result_types(indices=DataType.UINT16):
        result = call("sort", input_tensor, dim=dim, descending=descending, stable=stable, memory_config=memory_config)
    return _out(result, out, "sort")


def _scan(name: str):
    def op(input_tensor: Tensor, dim: int, *, dtype=None, reverse_order: bool = False, out=None,
           memory_config=None) -> Tensor:
        if reverse_order:
            raise ValueError(f"ttnn.{name}(): reverse_order is not supported by the simulated device")
        result = call(name, input_tensor, dim=dim, dtype=dtype, memory_config=memory_config)
        return store(result, out, name)

    op.__name__ = name
    return op


cumsum, cumprod = _scan("cumsum"), _scan("cumprod")


def experimental_cumsum(input_tensor: Tensor, dim: int, *, dtype=None, output=None, memory_config=None) -> Tensor:
    """`ttnn.experimental.cumsum`, cumsum's earlier home, where the preallocated result is `output=`."""
    return cumsum(input_tensor, dim, dtype=dtype, out=output, memory_config=memory_config)


REDUCTIONS = ("sum", "mean", "max", "min", "std", "var")
FUNCTIONS = {**{name: _reduction(name) for name in REDUCTIONS},
             **{f.__name__: placed(f) for f in (argmax, topk, sort, cumsum, cumprod)},
             # the names these ops had under ttnn.experimental before tt-metal promoted them, still used by its tests
             "experimental.sort": placed(sort), "experimental.cumsum": placed(experimental_cumsum)}


def _golden(fn):
    def golden(x, dim=None, keepdim=False, **_):
        if dim is None:
            return fn(x, dim=tuple(range(x.dim())), keepdim=True) if keepdim else fn(x)
        return fn(x, dim=dim, keepdim=keepdim)
    return golden


GOLDEN = {"sum": _golden(torch.sum), "mean": _golden(torch.mean),
          "max": _golden(lambda x, **k: torch.amax(x, **k) if k else torch.max(x)),
          "min": _golden(lambda x, **k: torch.amin(x, **k) if k else torch.min(x)),
          "std": _golden(torch.std), "var": _golden(torch.var),
          "argmax": lambda x, dim=None, keepdim=False, **_: torch.argmax(x, dim=dim, keepdim=keepdim),
          "topk": lambda x, k, dim=-1, largest=True, sorted=True, **_: torch.topk(x, k, dim, largest, sorted),
          "sort": lambda x, dim=-1, descending=False, **_: torch.sort(x, dim=dim, descending=descending),
          "cumsum": lambda x, dim, **_: torch.cumsum(x, dim), "cumprod": lambda x, dim, **_: torch.cumprod(x, dim)}
