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
    "Softmax": lambda x, dim=-1, stable=True: torch.softmax(x, dim),
    "Transpose": lambda x, dim0, dim1: torch.transpose(x, dim0, dim1),
    "Reshape": lambda x, shape: torch.reshape(x, shape),
    "ReduceSum": lambda x, dim: torch.sum(x, dim, keepdim=True),
    "ReduceAvg": lambda x, dim: torch.mean(x, dim, keepdim=True),
    "LayerNorm": lambda x, gamma, beta, dim=-1, epsilon=1e-5: torch.nn.functional.layer_norm(
        x, x.shape[dim:] if dim != -1 else x.shape[-1:], gamma, beta, epsilon),
    "Concatenate": lambda *xs, axis: torch.cat(xs, axis),
}


def _named(op_name: str, fn):
    def call(name: str, *args, **kwargs):
        return fn(*args, **kwargs)
    call.__name__ = call.__qualname__ = op_name
    call.__doc__ = f"pybuda.op.{op_name}(name, ...): torch's {getattr(fn, '__name__', op_name)}."
    return call


globals().update({op_name: _named(op_name, fn) for op_name, fn in _OPS.items()})
__all__ = sorted(_OPS)
