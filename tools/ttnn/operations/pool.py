"""Pooling and upsampling with tt-metal's signatures: `ttnn.max_pool2d(input_tensor, batch_size, input_h, input_w,
channels, kernel_size, stride, padding, dilation, ceil_mode=False, *, ...)`, `avg_pool2d`, `global_avg_pool2d`,
`upsample`; each the TTNN op of the compiler's table on flattened NHWC ([1, 1, N*H*W, C]) tensors."""

from __future__ import annotations

import math

import torch

from ttnn.operations.conv2d import _on_device, sharded_output
from ttnn.operations.core import to_memory_config
from ttnn.operations.table import call
from ttnn.tensor import Tensor
from ttnn.types import DataType, Layout


def _pair(value) -> list[int]:
    return [int(v) for v in value] if isinstance(value, (list, tuple)) else [int(value)] * 2


def _place(result: Tensor, memory_config, applied_shard_scheme, dtype, output_layout, device) -> Tensor:
    """The pool's result in the data type, layout and placement the call asks for; `applied_shard_scheme` shards an
    interleaved result as tt-metal shards the op's work (its output keeps that sharding)."""
    if output_layout is not None and output_layout != result.layout:
        result = call("to_layout", result, layout=output_layout)
    if dtype is not None and dtype != result.dtype:
        result = call("typecast", result, dtype=dtype)
    target = memory_config
    if target is None and applied_shard_scheme is not None:
        rows, channels = math.prod(result.shape[:-1]), result.shape[-1]
        target = sharded_output(applied_shard_scheme, rows, channels, device, result.layout == Layout.TILE)
    return result if target is None or target == result.memory_config() else to_memory_config(result, target)


def _pool(name: str):
    def op(input_tensor: Tensor, batch_size: int, input_h: int, input_w: int, channels: int, kernel_size,
           stride, padding, dilation=(1, 1), ceil_mode: bool = False, *, memory_config=None,
           applied_shard_scheme=None, deallocate_input: bool = False, dtype=DataType.BFLOAT16,
           output_layout=Layout.ROW_MAJOR, compute_kernel_config=None, **options):
        count_include_pad = options.pop("count_include_pad", True) if name == "avg_pool2d" else True
        divisor_override = options.pop("divisor_override", None) if name == "avg_pool2d" else None
        if name == "max_pool2d" and options.pop("return_indices", False):
            raise ValueError("ttnn.max_pool2d(): return_indices: use the TTNN max_pool2d_with_indices op")
        if options:
            raise TypeError(f"ttnn.{name}() got an unexpected keyword argument '{next(iter(options))}'")
        if divisor_override is not None:
            raise ValueError(f"ttnn.{name}(): divisor_override is not supported by the simulated device")
        device = input_tensor.device()
        x = _on_device(input_tensor, device, name)
        kwargs = dict(batch_size=batch_size, input_height=input_h, input_width=input_w, channels=channels,
                      kernel_size=_pair(kernel_size), stride=_pair(stride), padding=_pair(padding),
                      dilation=_pair(dilation), ceil_mode=ceil_mode)
        if name == "avg_pool2d":
            kwargs["count_include_pad"] = count_include_pad
        if compute_kernel_config is not None:  # the pool kernels accumulate in the source format: no fidelity
            raise ValueError(f"ttnn.{name}(): compute_kernel_config is not modelled for pools by the simulated "
                             f"device")
        result = call(name, x, **kwargs)
        result = _place(result, memory_config, applied_shard_scheme, dtype, output_layout, device)
        if deallocate_input:
            input_tensor.deallocate()
        return result

    op.__name__ = name
    op.__doc__ = (f"ttnn.{name}(input_tensor, batch_size, input_h, input_w, channels, kernel_size, stride, padding, "
                  f"dilation, ceil_mode=False, *, memory_config=None, applied_shard_scheme=None, dtype=bfloat16, "
                  f"output_layout=ROW_MAJOR): flattened NHWC in and out")
    return op


def global_avg_pool2d(input_tensor: Tensor, memory_config=None, dtype=None) -> Tensor:
    """The mean over H and W of NHWC input: [N, H, W, C] -> [N, 1, 1, C]."""
    result = call("global_avg_pool2d", input_tensor, memory_config=memory_config)
    return result if dtype is None or dtype == result.dtype else call("typecast", result, dtype=dtype)


def upsample(input_tensor: Tensor, scale_factor, mode: str = "nearest", *, memory_config=None,
             compute_kernel_config=None) -> Tensor:
    """NHWC input scaled by an integer factor (or (h, w) factors), nearest or bilinear."""
    if mode not in ("nearest", "bilinear"):
        raise ValueError(f"ttnn.upsample(): mode must be 'nearest' or 'bilinear', got '{mode}'")
    if compute_kernel_config is not None and mode == "nearest":  # nearest copies values: no math to configure
        raise ValueError("ttnn.upsample(): compute_kernel_config applies to bilinear upsampling only")
    return call("upsample", input_tensor, scale_factor=scale_factor, mode=mode, memory_config=memory_config)


FUNCTIONS = {"max_pool2d": _pool("max_pool2d"), "avg_pool2d": _pool("avg_pool2d"),
             "global_avg_pool2d": global_avg_pool2d, "upsample": upsample}
GOLDEN = {"max_pool2d": lambda x, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, **_:
          torch.nn.functional.max_pool2d(x, kernel_size, stride, padding, dilation, ceil_mode),
          "avg_pool2d": lambda x, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True, **_:
          torch.nn.functional.avg_pool2d(x, kernel_size, stride, padding, ceil_mode, count_include_pad),
          "global_avg_pool2d": lambda x, **_: torch.mean(x, dim=(1, 2), keepdim=True),
          "upsample": lambda x, scale_factor, mode="nearest", **_: torch.nn.functional.interpolate(
              x.permute(0, 3, 1, 2), scale_factor=scale_factor, mode=mode).permute(0, 2, 3, 1)}
