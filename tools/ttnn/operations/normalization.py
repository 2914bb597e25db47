"""Softmax and norms with tt-metal's signatures, each the TTNN op the simulator runs."""

from __future__ import annotations

import torch

from ttnn.operations.table import call, to_scalar_tensor
from ttnn.tensor import Tensor


def softmax(input_tensor: Tensor, dim: int = -1, *, memory_config=None, compute_kernel_config=None,
            numeric_stable: bool = False, program_config=None, **compiler) -> Tensor:
    kwargs = {"dimension": dim, "numericStable": numeric_stable, "memory_config": memory_config,
              "compute_config": compute_kernel_config}
    kwargs.update(compiler)
    return call("softmax", input_tensor, **kwargs)


def scale_mask_softmax(input_tensor: Tensor, scale: float | None = None, mask: Tensor | None = None, *,
                       memory_config=None, is_causal_mask: bool = False, compute_kernel_config=None,
                       numeric_stable: bool = False, program_config=None) -> Tensor:
    """softmax(x * scale + mask) over the last dimension."""

    x = input_tensor
    if scale is not None:
        x = call("multiply", x, to_scalar_tensor(scale, x))
    if mask is not None:
        x = call("add", x, mask)
    return softmax(x, -1, memory_config=memory_config, compute_kernel_config=compute_kernel_config,
                   numeric_stable=numeric_stable)


def _norm(name: str):
    def op(input_tensor: Tensor, weight=None, bias=None, *, epsilon: float = 1e-12, residual_input_tensor=None,
           memory_config=None, program_config=None, compute_kernel_config=None, **compiler):
        x = input_tensor if residual_input_tensor is None else call("add", input_tensor, residual_input_tensor)
        kwargs = {"weight": weight, "bias": bias, "epsilon": float(epsilon), "compute_config": compute_kernel_config}
        kwargs.update(compiler)
        result = call(name, x, **kwargs)
        if memory_config is not None and memory_config != result.memory_config():
            result = call("to_memory_config", result, memory_config=memory_config)
        return result

    op.__name__ = name
    op.__doc__ = f"ttnn.{name}(input_tensor, *, epsilon=1e-12, weight=None, bias=None, residual_input_tensor=None)"
    return op


def group_norm(input_tensor: Tensor, input_mask=None, weight=None, bias=None, *, num_groups: int,
               epsilon: float = 1e-5, memory_config=None, **extra) -> Tensor:
    return call("group_norm", input_tensor, input_mask=input_mask, weight=weight, bias=bias, num_groups=num_groups,
                epsilon=float(epsilon), memory_config=memory_config)


def batch_norm(input_tensor: Tensor, *, running_mean=None, running_var=None, weight=None, bias=None,
               training: bool = False, eps: float = 1e-5, momentum: float = 0.1, memory_config=None,
               compute_kernel_config=None, **extra) -> Tensor:
    if training:
        return call("batch_norm_training", input_tensor, weight, bias, running_mean, running_var, epsilon=float(eps),
                    dimension=1, momentum=float(momentum), memory_config=memory_config)
    if running_mean is None or running_var is None:
        raise ValueError("ttnn.batch_norm(): inference needs running_mean and running_var")
    return call("batch_norm_inference", input_tensor, weight, bias, running_mean, running_var, epsilon=float(eps),
                dimension=1, memory_config=memory_config)


FUNCTIONS = {"softmax": softmax, "scale_mask_softmax": scale_mask_softmax, "layer_norm": _norm("layer_norm"),
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
