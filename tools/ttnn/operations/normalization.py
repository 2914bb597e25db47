"""Softmax and norms with tt-metal's signatures, each the TTNN op the simulator runs."""

from __future__ import annotations

import torch

from ttnn.operations.eltwise import store
from ttnn.operations.table import call, fused_program, grid_cores, on_cores, to_scalar_tensor
from ttnn.tensor import Tensor


def _program_cores(program_config, tensor: Tensor, callee: str) -> int | None:
    """The cores a softmax/norm program config runs on (its `compute_with_storage_grid_size`; tt-metal's default
    configs name none: the whole grid), checked against the device's grid."""
    if program_config is None:
        return None
    grid = getattr(program_config, "compute_with_storage_grid_size", None)
    if grid is None:
        if not type(program_config).__name__.endswith("DefaultProgramConfig"):
            raise TypeError(f"ttnn.{callee}(): program_config {type(program_config).__name__} names no "
                            f"compute_with_storage_grid_size")
        return None
    return grid_cores(grid, tensor.device(), callee, "program_config.compute_with_storage_grid_size")


def softmax(input_tensor: Tensor, dim: int = -1, *, memory_config=None, compute_kernel_config=None,
            numeric_stable: bool = False, program_config=None, **compiler) -> Tensor:
    kwargs = {"dimension": dim, "numericStable": numeric_stable, "memory_config": memory_config,
              "compute_config": compute_kernel_config}
    kwargs.update(compiler)
    with on_cores(_program_cores(program_config, input_tensor, "softmax")):
        return call("softmax", input_tensor, **kwargs)


def _scaled_masked(x: Tensor, scale, mask, is_causal_mask: bool, callee: str) -> Tensor:
    """x * scale + mask. A causal mask is a full [.., S, S] one; any other mask is a row the kernel broadcasts
    over the rows of each head (tt-metal's two mask forms)."""
    if mask is not None:
        rows, cols = list(x.shape[-2:]), list(mask.shape[-2:])
        if cols[-1] != rows[-1] or (is_causal_mask and cols != rows) or (not is_causal_mask and cols[0] != 1):
            form = "a causal mask is [..., S, S] like its input" if is_causal_mask else \
                "a mask without is_causal_mask is one row [..., 1, S]"
            raise RuntimeError(f"ttnn.{callee}(): mask {list(mask.shape)} for input {list(x.shape)}: {form}")
    scaled = x
    if scale is not None:
        factor = to_scalar_tensor(scale, x)
        scaled = call("multiply", x, factor)
        factor.deallocate()
    masked = call("add", scaled, mask) if mask is not None else scaled
    _release(scaled, x, masked)
    return masked


def _release(intermediate: Tensor, *kept: Tensor) -> None:
    """Free a fused op's intermediate once consumed: on the card the fused op has no such buffer, so it must not
    outlive the step that reads it (left allocated, repeated calls ran the device out of L1)."""
    if all(intermediate is not k for k in kept):
        intermediate.deallocate()


def scale_mask_softmax(input_tensor: Tensor, scale: float | None = None, mask: Tensor | None = None, *,
                       memory_config=None, is_causal_mask: bool = False, compute_kernel_config=None,
                       numeric_stable: bool = False, program_config=None) -> Tensor:
    """softmax(x * scale + mask) over the last dimension."""
    with on_cores(_program_cores(program_config, input_tensor, "scale_mask_softmax")), \
            fused_program("scale_mask_softmax", [input_tensor, mask], memory_config):
        x = _scaled_masked(input_tensor, scale, mask, is_causal_mask, "scale_mask_softmax")
        result = softmax(x, -1, memory_config=memory_config, compute_kernel_config=compute_kernel_config,
                         numeric_stable=numeric_stable)
    _release(x, input_tensor)
    return result


def scale_mask_softmax_in_place(input_tensor: Tensor, scale: float | None = None, mask: Tensor | None = None, *,
                                program_config=None, is_causal_mask: bool = False, compute_kernel_config=None,
                                numeric_stable: bool = False) -> Tensor:
    """softmax(x * scale + mask) written over `input_tensor` (tt-metal's in-place variant; its buffer and
    placement, sharded ones included, are kept)."""
    with on_cores(_program_cores(program_config, input_tensor, "scale_mask_softmax_in_place")), \
            fused_program("scale_mask_softmax_in_place", [input_tensor, mask]):
        x = _scaled_masked(input_tensor, scale, mask, is_causal_mask, "scale_mask_softmax_in_place")
        result = call("softmax", x, dimension=-1, numericStable=numeric_stable, compute_config=compute_kernel_config)
    _release(x, input_tensor)
    return store(result, input_tensor, "scale_mask_softmax_in_place")


def softmax_in_place(input_tensor: Tensor, dim: int = -1, *, program_config=None, compute_kernel_config=None,
                     numeric_stable: bool = False) -> Tensor:
    with on_cores(_program_cores(program_config, input_tensor, "softmax_in_place")):
        result = call("softmax", input_tensor, dimension=dim, numericStable=numeric_stable,
                      compute_config=compute_kernel_config)
    return store(result, input_tensor, "softmax_in_place")


def _norm(name: str):
    def op(input_tensor: Tensor, *, epsilon: float = 1e-12, weight=None, bias=None, residual_input_tensor=None,
           memory_config=None, program_config=None, compute_kernel_config=None, **compiler):
        with on_cores(_program_cores(program_config, input_tensor, name)):
            x = input_tensor if residual_input_tensor is None else call("add", input_tensor, residual_input_tensor)
            kwargs = {"weight": _row(weight, x), "bias": _row(bias, x), "epsilon": float(epsilon),
                      "compute_config": compute_kernel_config}
            kwargs.update(compiler)
            result = call(name, x, **kwargs)
            _release(x, input_tensor)
            if memory_config is not None and memory_config != result.memory_config():
                placed = call("to_memory_config", result, memory_config=memory_config)
                _release(result, placed)
                result = placed
        return result

    op.__name__ = name
    op.__doc__ = f"ttnn.{name}(input_tensor, *, epsilon=1e-12, weight=None, bias=None, residual_input_tensor=None)"
    return op


def _row(gamma, x: Tensor):
    """A norm's weight or bias as one row of the normalized width: tt-metal also takes it row-major as
    [width / 32, 32] (a tile row's worth per row), which holds the same values in order."""
    if gamma is None or list(gamma.shape)[-1] == x.shape[-1]:
        return gamma
    if gamma.value.volume != x.shape[-1]:
        raise RuntimeError(f"a norm's weight/bias of shape {list(gamma.shape)} does not hold the input's "
                           f"{x.shape[-1]} columns")
    return call("reshape", gamma, shape=[x.shape[-1]])


def group_norm(input_tensor: Tensor, *, num_groups: int, epsilon: float = 1e-12, input_mask=None, weight=None,
               bias=None, memory_config=None, dtype=None, core_grid=None, inplace: bool = True, output_layout=None,
               compute_kernel_config=None) -> Tensor:
    """Over channels-last [N, 1, H*W, C] input; `core_grid` is the grid tt-metal runs it on, `inplace` whether the
    result reuses the input's buffer (it does: the input is deallocated)."""
    cores = None if core_grid is None else grid_cores(core_grid, input_tensor.device(), "group_norm", "core_grid")
    with on_cores(cores):
        result = call("group_norm", input_tensor, input_mask=input_mask, weight=weight, bias=bias,
                      num_groups=num_groups, epsilon=float(epsilon), memory_config=memory_config)
        if dtype is not None and dtype != result.dtype:
            result = call("typecast", result, dtype=dtype)
        if output_layout is not None and output_layout != result.layout:
            result = call("to_layout", result, layout=output_layout)
    if inplace and input_tensor.value.on_device and input_tensor.memory_config() == result.memory_config():
        return store(result, input_tensor, "group_norm")
    return result


def batch_norm(input_tensor: Tensor, *, running_mean=None, running_var=None, training: bool = False,
               eps: float = 1e-5, momentum: float = 0.1, weight=None, bias=None, output=None, memory_config=None,
               compute_kernel_config=None) -> Tensor:
    """Over dimension 1 (channels) of [N, C, H, W]; statistics, weight and bias are [1, C, 1, 1]. Without a weight
    or bias the normalized values are not scaled or shifted."""
    if training:
        result = call("batch_norm_training", input_tensor, running_mean, running_var, weight, bias,
                      epsilon=float(eps), momentum=float(momentum), memory_config=memory_config,
                      compute_config=compute_kernel_config)
    else:
        if running_mean is None or running_var is None:
            raise ValueError("ttnn.batch_norm(): inference needs running_mean and running_var")
        result = call("batch_norm_inference", input_tensor, running_mean, running_var, weight, bias,
                      epsilon=float(eps), memory_config=memory_config, compute_config=compute_kernel_config)
    return store(result if not isinstance(result, tuple) else result[0], output, "batch_norm")


FUNCTIONS = {"softmax": softmax, "scale_mask_softmax": scale_mask_softmax,
             "scale_mask_softmax_in_place": scale_mask_softmax_in_place, "softmax_in_place": softmax_in_place,
             "layer_norm": _norm("layer_norm"),
             "rms_norm": _norm("rms_norm"), "group_norm": group_norm, "batch_norm": batch_norm}


def _rms(x, weight=None, bias=None, epsilon=1e-12, **_):
    y = x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + epsilon)
    return y * (weight if weight is not None else 1) + (bias if bias is not None else 0)


GOLDEN = {"softmax": lambda x, dim=-1, **_: torch.softmax(x, dim),
          "layer_norm": lambda x, weight=None, bias=None, epsilon=1e-12, **_:
          torch.nn.functional.layer_norm(x, [x.shape[-1]], weight, bias, epsilon),
          "rms_norm": _rms,
          "batch_norm": lambda x, running_mean=None, running_var=None, weight=None, bias=None, eps=1e-5, **_:
          torch.nn.functional.batch_norm(x, running_mean, running_var, weight, bias, False, 0.0, eps)}
