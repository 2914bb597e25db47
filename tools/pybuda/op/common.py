"""`pybuda.op.common.PyBudaOp`: an op named by its tt-buda op type ("matmul", "exp", "transpose", ...) with
positional `attrs`, computed by the `pybuda.op` function of that type. In a PyBudaModule's forward its operands are
torch tensors and so is its result (the importer lowers it like any op); given pybuda.Tensors it computes at once
and gives a pybuda.Tensor."""

from __future__ import annotations

import pybuda.op as ops
from pybuda.config import PyBudaError
from pybuda.tensor import Tensor

# tt-buda's op type -> the pybuda.op function computing it; the op's attrs follow its operands as arguments
OP_TYPES = {
    "matmul": ops.Matmul, "add": ops.Add, "subtract": ops.Subtract, "multiply": ops.Multiply,
    "divide": ops.Divide, "maximum": ops.Max, "minimum": ops.Min, "gelu": ops.Gelu, "relu": ops.Relu,
    "sigmoid": ops.Sigmoid, "tanh": ops.Tanh, "exp": ops.Exp, "log": ops.Log, "sqrt": ops.Sqrt,
    "reciprocal": ops.Reciprocal, "abs": ops.Abs, "sine": ops.Sine, "cosine": ops.Cosine, "nop": ops.Identity,
    "buffer": ops.Buffer, "transpose": ops.Transpose, "reshape": ops.Reshape, "reduce_sum": ops.ReduceSum,
    "reduce_avg": ops.ReduceAvg, "reduce_max": ops.ReduceMax, "hslice": ops.HSlice, "hstack": ops.HStack,
    "power": ops.Power, "greater": ops.Greater, "less": ops.Less, "equal": ops.Equal, "where": ops.Where,
    "leaky_relu": ops.LeakyRelu, "unsqueeze": ops.Unsqueeze, "squeeze": ops.Squeeze,
}


class PyBudaOp:
    def __init__(self, op_type: str, name: str, *operands, attrs: tuple = (), **named_attrs):
        if op_type not in OP_TYPES:
            raise PyBudaError(f"PyBudaOp '{name}': op type '{op_type}' is not supported; supported: "
                              f"{', '.join(sorted(OP_TYPES))}")
        self.op_type, self.name, self.operands = op_type, name, operands
        self.attrs, self.named_attrs = tuple(attrs), named_attrs

    def get_tensor(self, out_df=None):
        """The op's result; `out_df` (a pybuda.DataFormat) is the data format of a pybuda.Tensor result."""
        wrapped = any(isinstance(x, Tensor) for x in self.operands)
        values = [x.value() if isinstance(x, Tensor) else x for x in self.operands]
        result = OP_TYPES[self.op_type](self.name, *values, *self.attrs, **self.named_attrs)
        return Tensor(result, out_df) if wrapped else result
