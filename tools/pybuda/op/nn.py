"""`pybuda.op.nn`: the composite ops (softmax, layernorm) and the Linear module PyBuda scripts build with."""

from __future__ import annotations

import torch

from pybuda.module import PyBudaModule
from pybuda.parameter import Parameter


def Softmax(name: str, operandA, *, dim: int, stable: bool = True):
    return torch.softmax(operandA, dim)


def LogSoftmax(name: str, operandA, *, dim: int, stable: bool = True):
    return torch.log_softmax(operandA, dim)


def Layernorm(name: str, operandA, weights, bias, dim: int = -1, epsilon: float = 1e-5):
    if dim != -1 and dim != operandA.dim() - 1:
        raise ValueError(f"Layernorm '{name}' normalizes the last dimension; dim={dim} given")
    return torch.nn.functional.layer_norm(operandA, operandA.shape[-1:], weights, bias, epsilon)


class Linear(PyBudaModule):
    """y = x W (+ b), W of shape (in_features, out_features) as PyBuda stores it."""

    def __init__(self, name: str, in_features: int, out_features: int, bias: bool = True):
        super().__init__(name)
        self.weights = Parameter(torch.empty(in_features, out_features).uniform_(-in_features ** -0.5,
                                                                                 in_features ** -0.5))
        self.bias = Parameter(torch.zeros(out_features)) if bias else None

    def forward(self, activations):
        y = torch.matmul(activations, self.weights)
        return y + self.bias if self.bias is not None else y
