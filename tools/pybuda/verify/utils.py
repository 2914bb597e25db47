"""`pybuda.verify.utils.CPUCombiner`: a CPU module adding any number of outputs into one tensor (each raised to
4-d and zero-padded at the end of every dimension to the largest size), e.g. to end a pipeline with one result."""

from __future__ import annotations

import torch


class CPUCombiner(torch.nn.Module):
    def forward(self, *inputs):
        if len(inputs) == 1:
            return inputs[0] + 0  # a new tensor, not the input itself
        four_d = [x.reshape(*[1] * (4 - x.dim()), *x.shape) for x in inputs]
        target = [max(x.shape[d] for x in four_d) for d in range(4)]
        total = torch.zeros(target, dtype=four_d[0].dtype)
        for x in four_d:
            pad = [p for d in reversed(range(4)) for p in (0, target[d] - x.shape[d])]
            total = total + torch.nn.functional.pad(x, pad)
        return total
