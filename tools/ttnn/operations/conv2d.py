"""`ttnn.conv2d` and `ttnn.conv_transpose2d` with tt-metal's signatures (`ttnn.operations.conv2d`): NHWC input on
the host or the device, OIHW (IOHW for the transpose) weights prepared onto the device as tt-metal prepares them,
`Conv2dConfig`, and tt-metal's return forms (`return_output_dim`, `return_weights_and_bias`). Each call runs the
TTNN conv ops of the compiler's table, so its numerics, allocation and time are those `ttrt run` gives."""

from __future__ import annotations

import math
import re

from ttnn.operations.core import to_device, to_memory_config
from ttnn.operations.eltwise import ACTIVATIONS
from ttnn.operations.table import call, grid_cores, on_cores
from ttnn.tensor import Tensor
from ttnn.types import (BufferType, CoreGrid, DataType, Layout, MemoryConfig, ShardOrientation, ShardSpec,
                        TensorMemoryLayout, UnaryOpType, UnaryWithParam, num_cores_to_corerangeset)

# tt-metal's Conv2dConfig fields (the compiler's #ttnn.conv2d_config ones) and their defaults. The modelled ones
# change the result, its placement or its time; the blocking and buffering ones only change how tt-metal's kernel
# walks the same math: `ttnn.conv2d` refuses them at other than their defaults (generated code, which passes the
# compiler's choices, runs the TTNN op directly and carries them into its flatbuffer, as `ttrt run` does).
MODELLED = {"weights_dtype": None, "activation": None, "deallocate_activation": False, "shard_layout": None,
            "output_layout": Layout.TILE, "core_grid": None}
UNMODELLED_DEFAULTS = {"reallocate_halo_output": True, "act_block_h_override": 0, "act_block_w_div": 1,
                       "reshard_if_not_optimal": False, "override_sharding_config": False, "transpose_shards": False,
                       "enable_act_double_buffer": False, "enable_weights_double_buffer": False,
                       "enable_kernel_stride_folding": False, "config_tensors_in_dram": False,
                       "enable_split_reader": False, "full_inner_dim": False, "in_place": False}


class Conv2dConfig:
    """How tt-metal's conv2d runs: `ttnn.Conv2dConfig(weights_dtype=ttnn.bfloat16, shard_layout=...,
    activation=ttnn.UnaryWithParam(ttnn.UnaryOpType.RELU), deallocate_activation=True, output_layout=...)`. It holds
    the fields given (the op's flatbuffer carries them, as `ttrt run` gets a compiled conv's); an unset field reads
    as tt-metal's default."""

    def __init__(self, **fields):
        for key in fields:
            if key not in MODELLED and key not in UNMODELLED_DEFAULTS:
                raise TypeError(f"ttnn.Conv2dConfig got an unexpected keyword argument '{key}'")
        self.__dict__.update({k: v for k, v in fields.items() if v is not None})

    def __getattr__(self, name: str):
        defaults = {**MODELLED, **UNMODELLED_DEFAULTS}
        if name in defaults:
            return defaults[name]
        raise AttributeError(f"ttnn.Conv2dConfig has no field '{name}'")

    def __repr__(self) -> str:
        return f"Conv2dConfig({', '.join(f'{k}={v!r}' for k, v in vars(self).items())})"


def _check_config(config: Conv2dConfig | None, callee: str) -> None:
    """The blocking and buffering fields only change how tt-metal's kernel walks the same math; the simulated
    device does not model them, so a call asking for other than tt-metal's default is refused."""
    if config is None:
        return
    if not isinstance(config, Conv2dConfig):
        raise TypeError(f"ttnn.{callee}(): conv_config must be a ttnn.Conv2dConfig")
    for key, default in UNMODELLED_DEFAULTS.items():
        if getattr(config, key) != default:
            raise ValueError(f"ttnn.{callee}(): Conv2dConfig.{key}={getattr(config, key)!r} chooses how tt-metal's "
                             f"kernel blocks or buffers its work, which the simulated device does not model")


def _activation(config: Conv2dConfig | None):
    """The fused activation's unary op name (the TTNN op the kernel applies), or None."""
    act = getattr(config, "activation", None)
    if act is None or act == "":
        return None
    if isinstance(act, str):  # a name, or the compiler's `#ttnn.unary_with_param<op_type = relu>`
        named = re.search(r"op_type = (\w+)", act)
        act = UnaryWithParam(UnaryOpType(named.group(1) if named else act))
    if not isinstance(act, UnaryWithParam):
        act = UnaryWithParam(act)
    name = ACTIVATIONS.get(act.op_type)
    if name is None or act.param is not None:
        raise ValueError(f"ttnn.conv2d(): the fused activation {act} has no kernel on the simulated device")
    return name


class _Fields:
    """The config as the op's flatbuffer carries it (what `ttrt run` reads): the activation in the compiler's
    spelling (`#ttnn.unary_with_param<op_type = relu>`), data types and layouts by their names."""

    def __init__(self, config: Conv2dConfig | None, weights_dtype: DataType):
        activation = _activation(config)
        if activation is not None:
            self.activation = f"#ttnn.unary_with_param<op_type = {activation}>"
        self.weights_dtype = weights_dtype.value


def _sides(padding) -> list[int]:
    pad = [int(p) for p in (padding if isinstance(padding, (list, tuple)) else (padding, padding))]
    if len(pad) not in (2, 4):
        raise ValueError(f"ttnn.conv2d(): padding is (h, w) or (top, bottom, left, right), got {pad}")
    return pad


def _pair(value) -> list[int]:
    return [int(v) for v in value] if isinstance(value, (list, tuple)) else [int(value)] * 2


def output_hw(input_height, input_width, kernel_size, stride, padding, dilation) -> tuple[int, int]:
    (kh, kw), (sh, sw), (dh, dw) = _pair(kernel_size), _pair(stride), _pair(dilation)
    pad = _sides(padding)
    top, bottom, left, right = pad if len(pad) == 4 else (pad[0], pad[0], pad[1], pad[1])
    return ((input_height + top + bottom - dh * (kh - 1) - 1) // sh + 1,
            (input_width + left + right - dw * (kw - 1) - 1) // sw + 1)


def sharded_output(layout: TensorMemoryLayout, rows: int, channels: int, device, tiled: bool) -> MemoryConfig:
    """The L1 sharded placement tt-metal gives a conv/pool output of [rows, channels] for a shard layout: as many
    cores as there are tile rows (height), tile columns (width) or both (block), up to the worker grid."""
    gy, gx = device.mesh.chips[0].facts.grid
    round_up = (lambda v: math.ceil(v / 32) * 32) if tiled else (lambda v: v)
    if layout == TensorMemoryLayout.HEIGHT_SHARDED:
        n = max(1, min(gx * gy, math.ceil(rows / 32)))
        cores, shard = num_cores_to_corerangeset(n, (gx, gy), row_wise=True), \
            (round_up(math.ceil(rows / n)), round_up(channels))
    elif layout == TensorMemoryLayout.WIDTH_SHARDED:
        n = max(1, min(gx * gy, math.ceil(channels / 32)))
        cores, shard = num_cores_to_corerangeset(n, (gx, gy), row_wise=True), \
            (round_up(rows), round_up(math.ceil(channels / n)))
    elif layout == TensorMemoryLayout.BLOCK_SHARDED:
        r, c = max(1, min(gy, math.ceil(rows / 32))), max(1, min(gx, math.ceil(channels / 32)))
        cores, shard = CoreGrid(y=r, x=c).core_range_set(), (round_up(math.ceil(rows / r)),
                                                               round_up(math.ceil(channels / c)))
    else:
        raise ValueError(f"ttnn.conv2d(): shard_layout must be a sharded TensorMemoryLayout, got {layout}")
    return MemoryConfig(layout, BufferType.L1, ShardSpec(cores, shard, ShardOrientation.ROW_MAJOR))


def _device_and_groups(tensor: Tensor, device, groups: int, callee: str):
    """The device the conv runs on (the input's unless given) and its groups (tt-metal reads 0 as ungrouped)."""
    device = device if device is not None else getattr(tensor, "device", lambda: None)()
    if device is None:
        raise ValueError(f"ttnn.{callee}(): a host input_tensor needs device=")
    if groups < 0:
        raise ValueError(f"ttnn.{callee}(): groups must be positive, got {groups}")
    return device, max(1, groups)


def _on_device(tensor: Tensor, device, callee: str) -> Tensor:
    if not isinstance(tensor, Tensor):
        raise TypeError(f"ttnn.{callee}(): input_tensor must be a ttnn.Tensor, got {type(tensor).__name__}")
    return tensor if tensor.value.on_device else to_device(tensor, device)


def _place(result: Tensor, config: Conv2dConfig | None, memory_config, device) -> Tensor:
    """The result where the call asks for it: `memory_config`, else the config's shard layout, in its layout."""
    layout = getattr(config, "output_layout", Layout.TILE)
    if layout != result.layout:
        result = call("to_layout", result, layout=layout)
    target = memory_config
    shard = getattr(config, "shard_layout", None)
    if target is None and shard is not None:
        rows, channels = math.prod(result.shape[:-1]), result.shape[-1]
        target = sharded_output(shard, rows, channels, device, layout == Layout.TILE)
    return result if target is None or target == result.memory_config() else to_memory_config(result, target)


def _returns(output, out_hw, weights, return_output_dim: bool, return_weights_and_bias: bool):
    if return_output_dim and return_weights_and_bias:
        return output, list(out_hw), list(weights)
    if return_output_dim:
        return output, list(out_hw)
    if return_weights_and_bias:
        return output, list(weights)
    return output


def _cores(config, device, callee: str) -> int | None:
    grid = getattr(config, "core_grid", None)
    return None if grid is None else grid_cores(grid, device, callee, "conv_config.core_grid")


def conv2d(*, input_tensor: Tensor, weight_tensor: Tensor, device=None, in_channels: int, out_channels: int,
           batch_size: int, input_height: int, input_width: int, kernel_size, stride=(1, 1), padding=(0, 0),
           dilation=(1, 1), groups: int = 1, bias_tensor: Tensor | None = None, conv_config: Conv2dConfig | None = None,
           compute_config=None, slice_config=None, memory_config=None, return_output_dim: bool = False,
           return_weights_and_bias: bool = False, dtype=None):
    """A 2D convolution of NHWC (or flattened [1, 1, N*H*W, C]) input; the output is [1, 1, N*OH*OW, out_channels].
    Host weights are prepared onto the device first (tt-metal's `prepare_conv_weights`), returned with
    `return_weights_and_bias` so the next call reuses them."""
    _check_config(conv_config, "conv2d")
    device, groups = _device_and_groups(input_tensor, device, groups, "conv2d")
    x = _on_device(input_tensor, device, "conv2d")
    dtype = dtype or x.dtype
    weights_dtype = getattr(conv_config, "weights_dtype", None) or weight_tensor.dtype
    geometry = dict(in_channels=in_channels, out_channels=out_channels, batch_size=batch_size,
                    input_height=input_height, input_width=input_width, kernel_size=_pair(kernel_size),
                    stride=_pair(stride), padding=_sides(padding), dilation=_pair(dilation), groups=groups)
    fields = _Fields(conv_config, weights_dtype)
    with on_cores(_cores(conv_config, device, "conv2d")):
        weight, bias = weight_tensor, bias_tensor
        if not weight.value.on_device:
            weight = call("prepare_conv2d_weights", weight, device=device, input_memory_config=x.memory_config(),
                          input_layout=x.layout, weights_format="OIHW", has_bias=bias is not None,
                          input_dtype=x.dtype, output_dtype=weights_dtype, conv_config=fields,
                          compute_config=compute_config, **geometry)
        if bias is not None and not bias.value.on_device:
            bias = call("prepare_conv2d_bias", bias, device=device, input_memory_config=x.memory_config(),
                        input_layout=x.layout, input_dtype=x.dtype, output_dtype=weights_dtype, conv_config=fields,
                        compute_config=compute_config, **geometry)
        result = call("conv2d", x, weight, bias, device, dtype=dtype, conv2d_config=fields,
                      compute_config=compute_config, conv2d_slice_config=slice_config, **geometry)
        result = _place(result, conv_config, memory_config, device)
    if getattr(conv_config, "deallocate_activation", False):
        input_tensor.deallocate()
    out_hw = output_hw(input_height, input_width, kernel_size, stride, padding, dilation)
    return _returns(result, out_hw, (weight, bias), return_output_dim, return_weights_and_bias)


def conv_transpose2d(*, input_tensor: Tensor, weight_tensor: Tensor, device=None, in_channels: int, out_channels: int,
                     batch_size: int, input_height: int, input_width: int, kernel_size, stride=(1, 1),
                     padding=(0, 0), output_padding=(0, 0), dilation=(1, 1), groups: int = 1,
                     bias_tensor: Tensor | None = None, conv_config: Conv2dConfig | None = None, compute_config=None,
                     memory_config=None, mirror_kernel: bool = True, return_output_dim: bool = False,
                     return_weights_and_bias: bool = False, dtype=None):
    """A transposed 2D convolution of NHWC input with IOHW weights (moved to the device as given); the output is
    [1, 1, N*OH*OW, out_channels]."""
    _check_config(conv_config, "conv_transpose2d")
    if not mirror_kernel:  # tt-metal flips the kernel itself unless told the weights are flipped already
        raise ValueError("ttnn.conv_transpose2d(): mirror_kernel=False (pre-flipped weights) is not supported by "
                         "the simulated device")
    device, groups = _device_and_groups(input_tensor, device, groups, "conv_transpose2d")
    x = _on_device(input_tensor, device, "conv_transpose2d")
    dtype = dtype or x.dtype
    weights_dtype = getattr(conv_config, "weights_dtype", None) or weight_tensor.dtype
    with on_cores(_cores(conv_config, device, "conv_transpose2d")):
        weight = weight_tensor if weight_tensor.value.on_device else to_device(weight_tensor, device)
        bias = bias_tensor if bias_tensor is None or bias_tensor.value.on_device else to_device(bias_tensor, device)
        result = call("conv_transpose2d", x, weight, bias, device, in_channels=in_channels,
                      out_channels=out_channels, batch_size=batch_size, input_height=input_height,
                      input_width=input_width, kernel_size=_pair(kernel_size), stride=_pair(stride),
                      padding=_pair(padding), output_padding=_pair(output_padding), dilation=_pair(dilation),
                      groups=groups, dtype=dtype, conv2d_config=_Fields(conv_config, weights_dtype),
                      compute_config=compute_config)
        result = _place(result, conv_config, memory_config, device)
    if getattr(conv_config, "deallocate_activation", False):
        input_tensor.deallocate()
    (kh, kw), (sh, sw), (ph, pw), (oh_pad, ow_pad), (dh, dw) = (_pair(kernel_size), _pair(stride), _pair(padding),
                                                                 _pair(output_padding), _pair(dilation))
    out_hw = ((input_height - 1) * sh - 2 * ph + dh * (kh - 1) + oh_pad + 1,
              (input_width - 1) * sw - 2 * pw + dw * (kw - 1) + ow_pad + 1)
    return _returns(result, out_hw, (weight, bias), return_output_dim, return_weights_and_bias)


FUNCTIONS = {"conv2d": conv2d, "conv_transpose2d": conv_transpose2d}


def _conv2d_golden(input_tensor, weight_tensor, bias_tensor=None, stride=1, padding=0, dilation=1, groups=1, **_):
    import torch

    return torch.nn.functional.conv2d(input_tensor, weight_tensor, bias_tensor, stride, padding, dilation, groups)


def _conv_transpose2d_golden(input_tensor, weight_tensor, bias_tensor=None, stride=1, padding=0, output_padding=0,
                             groups=1, dilation=1, **_):
    import torch

    return torch.nn.functional.conv_transpose2d(input_tensor, weight_tensor, bias_tensor, stride, padding,
                                                output_padding, groups, dilation)


GOLDEN = {"conv2d": _conv2d_golden, "conv_transpose2d": _conv_transpose2d_golden}
