"""`ttnn.matmul` and `ttnn.linear` with tt-metal's signatures, each the TTNN op the simulator runs."""

from __future__ import annotations

import torch

from ttnn.operations.table import call
from ttnn.tensor import Tensor
from ttnn.types import CoreGrid, UnaryWithParam


def _check_grid(core_grid, a: Tensor, callee: str) -> None:
    """A core grid must fit the device: tt-metal runs the matmul on that many cores."""
    if core_grid is None:
        return
    if not isinstance(core_grid, CoreGrid):
        raise TypeError(f"ttnn.{callee}(): core_grid must be a ttnn.CoreGrid")
    grid = a.device().core_grid if a.device() is not None else None
    if grid is not None and (core_grid.x > grid.x or core_grid.y > grid.y):
        raise RuntimeError(f"ttnn.{callee}(): core_grid {core_grid.y}x{core_grid.x} exceeds the device's "
                           f"{grid.y}x{grid.x} grid")


def _name(activation):
    """The fused activation as the kernel names it (its unary op); the kernel refuses a name it does not know."""
    if isinstance(activation, UnaryWithParam):
        if activation.param is not None:
            raise ValueError(f"a matmul fuses a unary op without a parameter, got {activation}")
        return activation.op_type.value
    return activation


def _finish(result: Tensor, dtype) -> Tensor:
    if dtype is not None and dtype != result.dtype:
        result = call("typecast", result, dtype=dtype)
    return result


def matmul(input_tensor_a: Tensor, input_tensor_b: Tensor, *, transpose_a: bool = False, transpose_b: bool = False,
           memory_config=None, dtype=None, program_config=None, activation=None, compute_kernel_config=None,
           core_grid=None, output_tile=None, optional_output_tensor=None, **compiler) -> Tensor:
    _check_grid(core_grid, input_tensor_a, "matmul")
    if output_tile is not None or optional_output_tensor is not None:
        raise ValueError("ttnn.matmul(): output_tile/optional_output_tensor are not supported by the simulated device")
    result = call("matmul", input_tensor_a, input_tensor_b, transpose_a=transpose_a, transpose_b=transpose_b,
                  memory_config=memory_config, program_config=program_config,
                  compute_kernel_config=compute_kernel_config, activation=_name(activation), **compiler)
    return _finish(result, dtype)


def linear(input_tensor_a: Tensor, input_tensor_b: Tensor, bias=None, *, transpose_a: bool = False,
           transpose_b: bool = False, memory_config=None, dtype=None, program_config=None, activation=None,
           compute_kernel_config=None, core_grid=None, output_tile=None, optional_output_tensor=None,
           **compiler) -> Tensor:
    _check_grid(core_grid, input_tensor_a, "linear")
    if output_tile is not None or optional_output_tensor is not None:
        raise ValueError("ttnn.linear(): output_tile/optional_output_tensor are not supported by the simulated device")
    result = call("linear", input_tensor_a, input_tensor_b, bias, transpose_a=transpose_a, transpose_b=transpose_b,
                  memory_config=memory_config, program_config=program_config,
                  compute_kernel_config=compute_kernel_config, activation=_name(activation), **compiler)
    return _finish(result, dtype)


FUNCTIONS = {"matmul": matmul, "linear": linear}


def _linear(a, b, bias=None, transpose_a=False, transpose_b=False, activation=None, **_):
    a = a.transpose(-1, -2) if transpose_a else a
    b = b.transpose(-1, -2) if transpose_b else b
    y = a @ b + (bias if bias is not None else 0)
    return {"relu": torch.relu, "gelu": torch.nn.functional.gelu, "silu": torch.nn.functional.silu,
            "sigmoid": torch.sigmoid}.get(activation, lambda t: t)(y)


GOLDEN = {"matmul": _linear, "linear": _linear}
