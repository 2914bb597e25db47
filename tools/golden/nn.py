"""Goldens of the convolution, pooling, upsampling and normalization ops, in TTIR's layouts (NHWC images)."""

from __future__ import annotations

import math

import torch
import torch.nn.functional as F

from ttmlir.spatial import padding4, pair
from golden.values import Golden


def nchw(t: torch.Tensor) -> torch.Tensor:
    return t.permute(0, 3, 1, 2)


def nhwc(t: torch.Tensor) -> torch.Tensor:
    return t.permute(0, 2, 3, 1)


def bias(x):
    return x["bias"].reshape(-1) if x.get("bias") is not None else None


def conv2d(x, a):
    dims = [a["batch_dim"], a["height_dim"], a["width_dim"], a["channel_dim"]]  # where N, H, W, C are
    top, left, bottom, right = padding4(a["padding"])
    padded = F.pad(x["input"].permute(dims[0], dims[3], dims[1], dims[2]), (left, right, top, bottom))
    y = F.conv2d(padded, x["weight"], bias(x), pair(a["stride"]), 0, pair(a["dilation"]), a["groups"])
    nchw_position = {d: i for i, d in enumerate((dims[0], dims[3], dims[1], dims[2]))}
    return y.permute(*(nchw_position[d] for d in range(4)))


def conv1d(x, a):
    """torch's conv1d on the signal moved to NCL (from wherever its dimension attributes put N, L and C)."""
    dims = [a["batch_dim"], a["channel_dim"], a["length_dim"]]
    ints = lambda v: [int(i) for i in v] if hasattr(v, "__len__") else [int(v)]  # noqa: E731
    left, right = (ints(a["padding"]) * 2)[:2]
    signal = F.pad(x["input"].permute(*dims), (left, right))
    y = F.conv1d(signal, x["weight"], bias(x), ints(a["stride"])[0], 0, ints(a["dilation"])[0], a["groups"])
    return y.permute(*(dims.index(d) for d in range(3)))


def conv3d(x, a):
    """torch's conv3d on the volume moved to NCDHW (from wherever its dimension attributes put N, D, H, W, C)."""
    dims = [a[k] for k in ("batch_dim", "channel_dim", "depth_dim", "height_dim", "width_dim")]
    pads = [int(p) for p in a["padding"]] * (3 if len(a["padding"]) == 1 else 1)
    strides = [int(s) for s in a["stride"]] * (3 if len(a["stride"]) == 1 else 1)
    volume = F.pad(x["input"].permute(*dims), [p for p in reversed(pads) for _ in (0, 1)],
                   mode="replicate" if a["padding_mode"] == "replicate" else "constant")
    y = F.conv3d(volume, x["weight"], bias(x), strides, 0, 1, a["groups"])
    return y.permute(*(dims.index(d) for d in range(5)))


def conv_transpose2d(x, a):
    top, left, _, _ = padding4(a["padding"])
    y = F.conv_transpose2d(nchw(x["input"]), x["weight"], bias(x), pair(a["stride"]), (top, left),
                           pair(a["output_padding"]), a["groups"], pair(a["dilation"]))
    return nhwc(y)


def pool2d(kind: str) -> Golden:
    def golden(x, a):
        top, left, bottom, right = padding4(a["padding"])
        kernel, stride, dilation = pair(a["kernel"]), pair(a["stride"]), pair(a["dilation"])
        t = nchw(x["input"])
        if kind == "max":
            t = F.pad(t, (left, right, top, bottom), value=-math.inf)
            return nhwc(F.max_pool2d(t, kernel, stride, 0, dilation, ceil_mode=a["ceil_mode"]))
        summed = F.avg_pool2d(F.pad(t, (left, right, top, bottom)), kernel, stride, 0, ceil_mode=a["ceil_mode"],
                              divisor_override=1)
        if a["count_include_pad"]:
            count = kernel[0] * kernel[1]
        else:
            ones = F.pad(torch.ones_like(t[:, :1]), (left, right, top, bottom))
            count = F.avg_pool2d(ones, kernel, stride, 0, ceil_mode=a["ceil_mode"], divisor_override=1)
        return nhwc(summed / count)
    return golden


def max_pool2d_with_indices(x, a):
    """Maxima and their flat indices in each (H, W) input plane, read off explicit windows (F.unfold)."""
    top, left, bottom, right = padding4(a["padding"])
    kernel, stride, dilation = pair(a["kernel"]), pair(a["stride"]), pair(a["dilation"])
    t = nchw(x["input"]).double()
    n, c, h, w = t.shape
    extra = []  # ceil mode: pad the bottom/right so the last partial window exists; one starting in padding doesn't
    for size, k, s, d, before, after in ((h, kernel[0], stride[0], dilation[0], top, bottom),
                                         (w, kernel[1], stride[1], dilation[1], left, right)):
        span, reach = size + before + after, d * (k - 1) + 1
        out = (span - reach) // s + 1
        if a["ceil_mode"]:
            out = -(-(span - reach) // s) + 1
            out -= (out - 1) * s >= size + before
        extra.append(max(0, (out - 1) * s + reach - span))
    pads = (left, right + extra[1], top, bottom + extra[0])
    index = torch.arange(h * w, dtype=torch.double).reshape(1, 1, h, w).expand(n, c, h, w)
    padded = [F.pad(v, pads, value=fill).reshape(n * c, 1, h + pads[2] + pads[3], w + pads[0] + pads[1])
              for v, fill in ((t, -math.inf), (index, -1.0))]
    windows = [F.unfold(v, kernel, dilation, 0, stride) for v in padded]
    best = windows[0].argmax(1, keepdim=True)  # the first maximum of each window
    oh = (padded[0].shape[2] - dilation[0] * (kernel[0] - 1) - 1) // stride[0] + 1
    values, indices = (v.gather(1, best).reshape(n, c, oh, -1) for v in windows)
    return nhwc(values), nhwc(indices.long())


def upsample2d(x, a):
    mode = a["mode"]
    y = F.interpolate(nchw(x["input"]), scale_factor=tuple(float(s) for s in pair(a["scale_factor"])), mode=mode,
                      **({"align_corners": False} if mode == "bilinear" else {}))
    return nhwc(y)


def channel(t: torch.Tensor, rank: int, dim: int) -> torch.Tensor:
    shape = [1] * rank
    shape[dim] = -1
    return t.reshape(shape)


def batch_norm(x, a):
    t = x["operand"]
    dim = a["dimension"] % t.dim()
    scale, offset = (channel(x[k], t.dim(), dim) for k in ("scale", "offset"))
    if "mean" in x:
        mean, var = (channel(x[k], t.dim(), dim) for k in ("mean", "variance"))
        return (t - mean) / torch.sqrt(var + a["epsilon"]) * scale + offset
    others = [d for d in range(t.dim()) if d != dim]
    mean, var = t.mean(others, keepdim=True), t.var(others, unbiased=False, keepdim=True)
    return (t - mean) / torch.sqrt(var + a["epsilon"]) * scale + offset, mean.reshape(x["running_mean"].shape), \
        var.reshape(x["running_mean"].shape)


def affine(y, x):
    y = y * x["weight"] if x.get("weight") is not None else y
    return y + x["bias"] if x.get("bias") is not None else y


def layer_norm(x, a):
    return F.layer_norm(x["input"], a["normalized_shape"], x.get("weight"), x.get("bias"), a["epsilon"])


def rms_norm(x, a):
    t = x["input"]
    dims = list(range(t.dim() - len(a["normalized_shape"]), t.dim()))
    return affine(t * torch.rsqrt(t.pow(2).mean(dims, keepdim=True) + a["epsilon"]), x)


def group_norm(x, a):
    t = x["input"]
    channel = a.get("channel_dim")
    if channel is not None and channel % t.dim() != t.dim() - 1:  # channels moved last, and back after
        y = group_norm({**x, "input": t.movedim(channel, -1)}, {**a, "channel_dim": None})
        return y.movedim(-1, channel)
    y = F.group_norm(t.reshape(t.shape[0], -1, t.shape[-1]).transpose(1, 2), a["num_groups"], eps=a["epsilon"])
    y = y.transpose(1, 2).reshape(t.shape)
    return affine(y, {k: v.reshape(-1) if v is not None else None for k, v in x.items() if k != "input"})
