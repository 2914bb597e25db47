"""`pybuda.torch_schedulers.TorchLearningRateScheduler`: a torch LR scheduler whose subclasses return the next
learning rates from `get_lr()`; `step()` counts steps in the optimizer's first param group and applies them."""

from __future__ import annotations

import torch


class TorchLearningRateScheduler(torch.optim.lr_scheduler.LRScheduler):
    def __init__(self, optimizer: torch.optim.Optimizer):
        # no base __init__: it would take a first step; this scheduler only moves when step() is called
        self.optimizer = optimizer
        self.base_lrs = [group["lr"] for group in optimizer.param_groups]
        self.last_epoch = 0

    def step(self, epoch=None) -> None:
        group = self.optimizer.param_groups[0]
        group["step"] = group.get("step", 0) + 1
        self.last_epoch = group["step"]
        for group, lr in zip(self.optimizer.param_groups, self.get_lr()):
            group["lr"] = lr

    def get_lr(self) -> list[float]:
        raise TypeError(f"{type(self).__name__} must define get_lr(), the next learning rate per param group")
