"""`pybuda.utils`: the tile arithmetic helpers scripts import, and a torch state dict as PyBuda parameters."""

import torch

from pybuda.module import Parameter
from pybuda.pybudaglobal import TILE_DIM, align_up_tile, round_up_div

__all__ = ["TILE_DIM", "align_up_tile", "get_pybuda_parameters_from_state_dict", "round_up_div"]


def get_pybuda_parameters_from_state_dict(state_dict: dict[str, torch.Tensor]) -> dict[str, Parameter]:
    """Each tensor of a torch state dict as a pybuda.Parameter named after its key (trainable as the tensor is)."""
    return {name: Parameter(tensor, requires_grad=tensor.requires_grad, name=name)
            for name, tensor in state_dict.items()}
