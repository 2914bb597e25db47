"""`pybuda.Tensor`: what output queues hold and what scripts may push."""

from __future__ import annotations

import torch

from pybuda.config import DataFormat, PyBudaError


class Tensor:
    def __init__(self, value: torch.Tensor, data_format: DataFormat | None = None, constant: bool = False):
        self._value = value
        self.data_format = data_format
        self.constant = constant

    @classmethod
    def create_from_torch(cls, torch_tensor: torch.Tensor, dev_data_format: DataFormat | None = None,
                          constant: bool = False) -> "Tensor":
        if not isinstance(torch_tensor, torch.Tensor):
            raise PyBudaError(f"create_from_torch needs a torch.Tensor, got {type(torch_tensor).__name__}")
        return cls(torch_tensor, dev_data_format, constant)

    def value(self) -> torch.Tensor:
        return self._value

    def to_pytorch(self) -> torch.Tensor:
        return self._value

    def to_framework(self, framework: str):
        if framework in ("pytorch", "torch"):
            return self._value
        if framework == "numpy":
            return self._value.numpy()
        raise PyBudaError(f"to_framework('{framework}') is not supported; supported: pytorch, numpy")

    @property
    def shape(self):
        return self._value.shape

    @property
    def pt_data_format(self) -> torch.dtype:
        return self._value.dtype

    def __repr__(self) -> str:
        return f"pybuda.Tensor({self._value})"
