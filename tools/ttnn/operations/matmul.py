"""`ttnn.matmul` and `ttnn.linear` with tt-metal's signatures, each the TTNN op the simulator runs."""

from __future__ import annotations

import torch

from ttnn.operations.eltwise import store
from ttnn.operations.table import call, grid_cores, on_cores
from ttnn.tensor import Tensor
from ttnn.types import CoreGrid, UnaryWithParam


def _cores(core_grid, program_config, a: Tensor, callee: str) -> int | None:
    """The cores the matmul runs on: its `core_grid`, else its program config's grid (tt-metal's
    `compute_with_storage_grid_size`), each checked against the device's worker grid; None: the whole grid."""
    if core_grid is not None and not isinstance(core_grid, CoreGrid):
        raise TypeError(f"ttnn.{callee}(): core_grid must be a ttnn.CoreGrid")
    grid = core_grid if core_grid is not None else getattr(program_config, "compute_with_storage_grid_size", None)
    if program_config is not None and core_grid is None and grid is None:
        raise TypeError(f"ttnn.{callee}(): program_config {type(program_config).__name__} names no "
                        f"compute_with_storage_grid_size")
    what = "core_grid" if core_grid is not None else "program_config.compute_with_storage_grid_size"
    return None if grid is None else grid_cores(grid, a.device(), callee, what)


def _name(activation):
    """The fused activation as the kernel names it (its unary op); the kernel refuses a name it does not know."""
    if isinstance(activation, UnaryWithParam):
        if activation.param is not None:
            raise ValueError(f"a matmul fuses a unary op without a parameter, got {activation}")
        return activation.op_type.value
    return activation


def _activation(activation, program_config, callee: str):
    """The one activation fused into the matmul: `activation=` or the program config's `fused_activation` (tt-metal
    applies the same activation once when a call names it in both; two different ones are refused)."""
    fused = _name(getattr(program_config, "fused_activation", None))
    given = _name(activation)
    if fused is not None and given is not None and fused != given:
        raise ValueError(f"ttnn.{callee}(): activation='{given}' and the program config's fused_activation "
                         f"'{fused}' differ; give one")
    return given if given is not None else fused


def _finish(result: Tensor, dtype, output, callee: str) -> Tensor:
    if dtype is not None and dtype != result.dtype:
        result = call("typecast", result, dtype=dtype)
    return store(result, output, callee)


def _check_tile(output_tile, callee: str) -> None:
    if output_tile is not None and tuple(getattr(output_tile, "tile_shape", output_tile)) != (32, 32):
        raise ValueError(f"ttnn.{callee}(): the simulated device writes 32x32 output tiles only, got {output_tile}")


def matmul(input_tensor_a: Tensor, input_tensor_b: Tensor, *, transpose_a: bool = False, transpose_b: bool = False,
           memory_config=None, dtype=None, program_config=None, activation=None, compute_kernel_config=None,
           core_grid=None, output_tile=None, optional_output_tensor=None, **compiler) -> Tensor:
    _check_tile(output_tile, "matmul")
    with on_cores(_cores(core_grid, program_config, input_tensor_a, "matmul")):
        result = call("matmul", input_tensor_a, input_tensor_b, transpose_a=transpose_a, transpose_b=transpose_b,
                      memory_config=memory_config, program_config=program_config,
                      compute_kernel_config=compute_kernel_config,
                      activation=_activation(activation, program_config, "matmul"), **compiler)
    return _finish(result, dtype, optional_output_tensor, "matmul")


def linear(input_tensor_a: Tensor, input_tensor_b: Tensor, bias=None, *, transpose_a: bool = False,
           transpose_b: bool = False, memory_config=None, dtype=None, program_config=None, activation=None,
           compute_kernel_config=None, core_grid=None, output_tile=None, optional_output_tensor=None,
           **compiler) -> Tensor:
    _check_tile(output_tile, "linear")
    with on_cores(_cores(core_grid, program_config, input_tensor_a, "linear")):
        result = call("linear", input_tensor_a, input_tensor_b, bias, transpose_a=transpose_a,
                      transpose_b=transpose_b, memory_config=memory_config, program_config=program_config,
                      compute_kernel_config=compute_kernel_config,
                      activation=_activation(activation, program_config, "linear"), **compiler)
    return _finish(result, dtype, optional_output_tensor, "linear")


FUNCTIONS = {"matmul": matmul, "linear": linear}


def _linear(a, b, bias=None, transpose_a=False, transpose_b=False, activation=None, **_):
    a = a.transpose(-1, -2) if transpose_a else a
    b = b.transpose(-1, -2) if transpose_b else b
    y = a @ b + (bias if bias is not None else 0)
    return {"relu": torch.relu, "gelu": torch.nn.functional.gelu, "silu": torch.nn.functional.silu,
            "sigmoid": torch.sigmoid}.get(activation, lambda t: t)(y)


GOLDEN = {"matmul": _linear, "linear": _linear}
