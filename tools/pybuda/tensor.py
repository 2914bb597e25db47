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


class TensorFromPytorch(Tensor):
    """A Tensor made from a concrete torch tensor (tt-buda's class for it; the same as create_from_torch)."""

    def __init__(self, torch_tensor: torch.Tensor, dev_data_format: DataFormat | None = None, constant: bool = False):
        if not isinstance(torch_tensor, torch.Tensor):
            raise PyBudaError(f"TensorFromPytorch needs a torch.Tensor, got {type(torch_tensor).__name__}")
        super().__init__(torch_tensor, dev_data_format, constant)


def to_pt_tensors(tensors) -> tuple:
    """torch tensors of a tuple (or dict, by value) of torch tensors and pybuda Tensors."""
    values = tensors.values() if isinstance(tensors, dict) else tensors
    return tuple(t.value() if isinstance(t, Tensor) else t for t in values)


def to_buda_tensors(tensors) -> tuple:
    """pybuda Tensors of a tuple of torch tensors and pybuda Tensors."""
    return tuple(t if isinstance(t, Tensor) else Tensor.create_from_torch(t) for t in tensors)


def consteval_input(consteval_trace, tensor_to_tile_dims, name: str, inputs: dict, is_buda: bool):
    """Refused: replays tt-buda's recorded const-eval graph of one input from its compiled graph state; our
    pipeline's const-eval (enable_consteval) runs inside the compiled binary, recording no trace to replay."""
    raise PyBudaError("consteval_input is not supported: const-eval runs inside the compiled binary here; there is no "
                      "consteval trace to replay")
