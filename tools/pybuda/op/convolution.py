"""`pybuda.op.convolution`: Conv2d and ConvTranspose2d on NCHW activations (or NHWC with channel_last), computed
with torch so the module lowers through the importer like any other. Padding is PyBuda's: an int (every side),
[left, right, top, bottom], (height, width), or "same" (the dilated kernel's extent minus one, split
before/after: the size kept at stride 1)."""

from __future__ import annotations

import torch.nn.functional as F

from pybuda.config import PyBudaError


def _pair(v) -> tuple[int, int]:
    return (v, v) if isinstance(v, int) else tuple(v)


def canonical_padding(padding, kernel, dilation=1) -> list[int]:
    """[left, right, top, bottom] of PyBuda's padding forms."""
    kh, kw = _pair(kernel)
    dh, dw = _pair(dilation)
    if padding == "same":
        eh, ew = dh * (kh - 1), dw * (kw - 1)
        return [ew // 2, ew - ew // 2, eh // 2, eh - eh // 2]
    if isinstance(padding, int):
        return [padding] * 4
    if isinstance(padding, (list, tuple)) and len(padding) == 4:
        return list(padding)
    if isinstance(padding, (list, tuple)) and len(padding) == 2:  # (height, width), as torch's
        return [padding[1], padding[1], padding[0], padding[0]]
    raise PyBudaError(f"padding {padding!r}: expected an int, 'same', [left, right, top, bottom] or (h, w)")


def to_nchw(x, channel_last):
    return x.permute(0, 3, 1, 2) if channel_last else x


def from_nchw(y, channel_last):
    return y.permute(0, 2, 3, 1) if channel_last else y


def Conv2d(name: str, activations, weights, bias=None, stride=1, padding="same", dilation=1, groups: int = 1,
           channel_last: bool = False):
    x = F.pad(to_nchw(activations, channel_last), canonical_padding(padding, weights.shape[2:], dilation))
    y = F.conv2d(x, weights, bias, _pair(stride), 0, _pair(dilation), groups)
    return from_nchw(y, channel_last)


def ConvTranspose2d(name: str, activations, weights, bias=None, stride=1, padding=0, dilation=1, groups: int = 1,
                    channel_last: bool = False, output_padding=0):
    """The transposed convolution; `weights` (in, out / groups, kh, kw) as torch's. Padding (an int, (h, w) or
    [left, right, top, bottom]) is cut from the full output's sides; uneven sides are cut after the convolution."""
    if padding == "same":
        raise PyBudaError(f"ConvTranspose2d '{name}': padding='same' is not defined for a transposed convolution")
    left, right, top, bottom = canonical_padding(padding, weights.shape[2:], dilation)
    even = left == right and top == bottom
    y = F.conv_transpose2d(to_nchw(activations, channel_last), weights, bias, _pair(stride),
                           (top, left) if even else 0, _pair(output_padding), groups, _pair(dilation))
    if not even:
        y = y[..., top:y.shape[-2] - bottom, left:y.shape[-1] - right]
    return from_nchw(y, channel_last)
