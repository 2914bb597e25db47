"""`pybuda.op.nn`: the composite ops (softmax, layernorm) and the Linear, Conv2d, ConvTranspose2d and pooling modules
PyBuda scripts build with."""

from __future__ import annotations

import torch

from pybuda.module import PyBudaModule
from pybuda.config import PyBudaError
from pybuda.op.convolution import Conv2d, ConvTranspose2d
from pybuda.op.pooling import AvgPool2d, MaxPool2d
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


class Conv2dModule(PyBudaModule):
    """A Conv2d with its weights (out, in / groups, kh, kw) and bias, initialized as torch's Conv2d is."""

    def __init__(self, name: str, in_channels: int, out_channels: int, kernel_size, stride=1, padding="same",
                 dilation=1, groups: int = 1, bias: bool = True):
        super().__init__(name)
        if in_channels % groups:
            raise ValueError(f"Conv2dModule '{name}': {in_channels} input channels do not split into {groups} groups")
        reference = torch.nn.Conv2d(in_channels, out_channels, kernel_size, groups=groups, bias=bias)
        self.weights = Parameter(reference.weight.detach())
        self.bias = Parameter(reference.bias.detach()) if bias else None
        self.kwargs = {"stride": stride, "padding": padding, "dilation": dilation, "groups": groups}

    def forward(self, activations):
        return Conv2d(self.name, activations, self.weights, bias=self.bias, **self.kwargs)


class ConvTranspose2dModule(PyBudaModule):
    """A ConvTranspose2d with its weights (in, out / groups, kh, kw) and bias, initialized as torch's is."""

    def __init__(self, name: str, in_channels: int, out_channels: int, kernel_size, stride=1, padding=0,
                 output_padding=0, groups: int = 1, bias: bool = True, dilation=1, padding_mode: str = "zeros"):
        super().__init__(name)
        if padding_mode != "zeros":
            raise PyBudaError(f"ConvTranspose2dModule '{name}': padding_mode '{padding_mode}' is not supported "
                              "(a transposed convolution pads with zeros)")
        reference = torch.nn.ConvTranspose2d(in_channels, out_channels, kernel_size, groups=groups, bias=bias)
        self.weights = Parameter(reference.weight.detach())
        self.bias = Parameter(reference.bias.detach()) if bias else None
        self.kwargs = {"stride": stride, "padding": padding, "dilation": dilation, "groups": groups,
                       "output_padding": output_padding}

    def forward(self, activations):
        return ConvTranspose2d(self.name, activations, self.weights, bias=self.bias, **self.kwargs)


class MaxPool2dModule(PyBudaModule):
    def __init__(self, name: str, kernel_size, stride=1, padding=0, dilation=1, ceil_mode: bool = False,
                 return_indices: bool = False):
        super().__init__(name)
        self.kwargs = {"kernel_size": kernel_size, "stride": stride, "padding": padding, "dilation": dilation,
                       "ceil_mode": ceil_mode, "return_indices": return_indices}

    def forward(self, activations):
        return MaxPool2d(self.name, activations, **self.kwargs)


class AvgPool2dModule(PyBudaModule):
    def __init__(self, name: str, kernel_size, stride=1, padding=0, ceil_mode: bool = False,
                 count_include_pad: bool = True, divisor_override=None):
        super().__init__(name)
        self.kwargs = {"kernel_size": kernel_size, "stride": stride, "padding": padding, "ceil_mode": ceil_mode,
                       "count_include_pad": count_include_pad, "divisor_override": divisor_override}

    def forward(self, activations):
        return AvgPool2d(self.name, activations, **self.kwargs)
