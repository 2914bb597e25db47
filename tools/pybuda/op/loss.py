"""`pybuda.op.loss`: PyBuda's loss modules, placed on a device with `place_loss_module` (or as `loss_module=`).
Each takes (prediction, target) and returns a scalar; on a TT device it is traced into the module's training
graph, so the loss and its gradient are computed on the device."""

from __future__ import annotations

import torch

from pybuda.module import PyBudaModule

REDUCTIONS = {"avg": torch.mean, "mean": torch.mean, "sum": torch.sum}


class _Loss(PyBudaModule):
    def __init__(self, name: str, reduction: str = "avg"):
        super().__init__(name)
        if reduction not in REDUCTIONS:
            raise ValueError(f"{type(self).__name__} reduction '{reduction}': supported {', '.join(REDUCTIONS)}")
        self.reduce = REDUCTIONS[reduction]


class L1Loss(_Loss):
    def forward(self, prediction, labels):
        return self.reduce(torch.abs(prediction - labels))


class MSELoss(_Loss):
    def forward(self, prediction, labels):
        diff = prediction - labels
        return self.reduce(diff * diff)


class CrossEntropyLoss(_Loss):
    """Softmax cross entropy over the last dimension; labels are class probabilities (or one-hot rows)."""

    def forward(self, predictions, labels):
        return self.reduce(torch.sum(-labels * torch.log_softmax(predictions, dim=-1), dim=-1))


class NLLLoss(_Loss):
    """Negative log likelihood of log-probabilities against class-probability (or one-hot) labels."""

    def forward(self, log_probabilities, labels):
        return self.reduce(torch.sum(-labels * log_probabilities, dim=-1))
