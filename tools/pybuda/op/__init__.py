"""`pybuda.op`: the ops a PyBudaModule's forward is written in. Each computes with torch, so the module is a
torch graph the PyTorch importer lowers like any other; the first argument names the op, as PyBuda's do."""

from __future__ import annotations

import torch

_OPS = {
    "Matmul": torch.matmul, "Add": torch.add, "Subtract": torch.sub, "Multiply": torch.mul, "Divide": torch.div,
    "Max": torch.maximum, "Min": torch.minimum, "Gelu": torch.nn.functional.gelu, "Relu": torch.relu,
    "Sigmoid": torch.sigmoid, "Tanh": torch.tanh, "Exp": torch.exp, "Log": torch.log, "Sqrt": torch.sqrt,
    "Reciprocal": torch.reciprocal, "Abs": torch.abs, "Sine": torch.sin, "Cosine": torch.cos,
    "Identity": lambda x: x, "Buffer": lambda x: x,
    "Constant": lambda *, constant: torch.full((1, 1), float(constant)),  # a 1x1 tensor, as tt-buda's constant op
    "Softmax": lambda x, dim=-1, stable=True: torch.softmax(x, dim),
    "Transpose": lambda x, dim0, dim1: torch.transpose(x, dim0, dim1),
    "Reshape": lambda x, shape: torch.reshape(x, shape),
    "ReduceSum": lambda x, dim: torch.sum(x, dim, keepdim=True),
    "ReduceAvg": lambda x, dim: torch.mean(x, dim, keepdim=True),
    "LayerNorm": lambda x, gamma, beta, dim=-1, epsilon=1e-5: torch.nn.functional.layer_norm(
        x, x.shape[dim:] if dim != -1 else x.shape[-1:], gamma, beta, epsilon),
    "Concatenate": lambda *xs, axis: torch.cat(xs, axis),
    "ReduceMax": lambda x, dim: torch.amax(x, dim, keepdim=True),
    "Unsqueeze": lambda x, dim: torch.unsqueeze(x, dim),
    "Squeeze": lambda x, dim: torch.squeeze(x, dim),
    "LeakyRelu": lambda x, alpha: torch.nn.functional.leaky_relu(x, alpha),
    "Power": torch.pow, "Greater": torch.gt, "Less": torch.lt, "Equal": torch.eq,
    "Where": torch.where,
    "HSlice": lambda x, slices: _hslice(x, slices),
    "HStack": lambda x, slices: _hstack(x, slices),
}


def _hslice(x: torch.Tensor, slices: int) -> torch.Tensor:
    """[.., z, r, c] -> [.., z * slices, r, c / slices]: the columns cut into `slices` stacked blocks (heads)."""
    x = x if x.dim() >= 3 else x.reshape(1, *x.shape)
    *outer, z, r, c = x.shape
    if c % slices:
        raise ValueError(f"HSlice: {c} columns do not split into {slices} slices")
    return x.reshape(*outer, z, r, slices, c // slices).transpose(-3, -2).reshape(*outer, z * slices, r, c // slices)


def _hstack(x: torch.Tensor, slices: int) -> torch.Tensor:
    """HSlice's inverse: [.., z * slices, r, c] -> [.., z, r, c * slices]."""
    *outer, zs, r, c = x.shape
    if zs % slices:
        raise ValueError(f"HStack: {zs} blocks do not group by {slices}")
    return x.reshape(*outer, zs // slices, slices, r, c).transpose(-3, -2).reshape(*outer, zs // slices, r, c * slices)


def _named(op_name: str, fn):
    def call(name: str, *args, **kwargs):
        return fn(*args, **kwargs)
    call.__name__ = call.__qualname__ = op_name
    call.__doc__ = f"pybuda.op.{op_name}(name, ...): torch's {getattr(fn, '__name__', op_name)}."
    return call


globals().update({op_name: _named(op_name, fn) for op_name, fn in _OPS.items()})
from pybuda.op import loss, nn  # noqa: E402  (the submodules scripts reach as pybuda.op.loss/nn)
from pybuda.op.convolution import Conv2d, ConvTranspose2d  # noqa: E402
from pybuda.op.pooling import AvgPool2d, MaxPool2d  # noqa: E402

__all__ = sorted(_OPS) + ["AvgPool2d", "Conv2d", "ConvTranspose2d", "MaxPool2d", "loss", "nn"]
