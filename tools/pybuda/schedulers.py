"""`pybuda.schedulers.LearningRateScheduler`: subclasses say the next learning rate (`get_lr`); `step()` gives it
to the device's optimizer, whose next update program reads it as an input."""

from __future__ import annotations

from pybuda.optimizers import Optimizer
from pybuda.torch_schedulers import TorchLearningRateScheduler


class LearningRateScheduler:
    def __init__(self, optimizer: Optimizer):
        if not isinstance(optimizer, Optimizer):
            raise TypeError("LearningRateScheduler needs a pybuda.optimizers optimizer")
        self.optimizer = optimizer
        self.torch_scheduler = None

    def step(self) -> None:
        self.optimizer.set_optimizer_parameters(learning_rate=self.get_lr())

    def get_lr(self) -> float:
        raise TypeError(f"{type(self).__name__} must define get_lr(), the next learning rate")

    def get_pytorch_scheduler(self, optimizer):
        """A torch scheduler for a CPU device's torch optimizer (the base one calls get_lr of a subclass)."""
        if self.torch_scheduler is None:
            self.torch_scheduler = TorchLearningRateScheduler(optimizer=optimizer)
        return self.torch_scheduler
