"""`pybuda.op.pooling`: MaxPool2d and AvgPool2d with PyBuda's padding forms (see pybuda.op.convolution)."""

from __future__ import annotations

import torch.nn.functional as F

from pybuda.config import PyBudaError
from pybuda.op.convolution import from_nchw, to_nchw, canonical_padding


def MaxPool2d(name: str, activations, kernel_size, stride=1, padding="same", dilation=1, ceil_mode: bool = False,
              return_indices: bool = False, channel_last: bool = False, **unsupported):
    if return_indices or unsupported:
        raise PyBudaError(f"MaxPool2d '{name}': {', '.join(sorted(unsupported)) or 'return_indices'} not supported")
    x = F.pad(to_nchw(activations, channel_last), canonical_padding(padding, kernel_size, dilation), value=float("-inf"))
    return from_nchw(F.max_pool2d(x, kernel_size, stride, 0, dilation, ceil_mode), channel_last)


def AvgPool2d(name: str, activations, kernel_size, stride=1, padding="same", ceil_mode: bool = False,
              count_include_pad: bool = True, divisor_override=None, channel_last: bool = False):
    if divisor_override is not None:
        raise PyBudaError(f"AvgPool2d '{name}': divisor_override not supported")
    left, right, top, bottom = canonical_padding(padding, kernel_size)
    if left != right or top != bottom:
        raise PyBudaError(f"AvgPool2d '{name}': uneven padding {[left, right, top, bottom]} not supported")
    y = F.avg_pool2d(to_nchw(activations, channel_last), kernel_size, stride, (top, left), ceil_mode,
                     count_include_pad)
    return from_nchw(y, channel_last)
