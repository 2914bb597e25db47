"""`pybuda.tools.tti_data_parallel`: running one device image on several cards, each on its share of the batch.
The input and result types and the batch split are here; the runner itself is refused, because the simulated
system is one chip (pybuda.detect_available_devices) with no further cards to spread a batch over."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

import torch

from pybuda.config import PyBudaError

_ONE_CHIP = "the simulated system has one chip; run the image on it with TTDevice.load_image"


class RunMode(Enum):
    FORWARD = "FORWARD"
    GENERATIVE = "GENERATIVE"


@dataclass
class ForwardInputs:
    run_inputs: list = None

    def __len__(self) -> int:
        return len(self.run_inputs)

    def __getitem__(self, index):
        return self.run_inputs[index]

    @staticmethod
    def split_inputs_per_card(all_inputs: "ForwardInputs", num_cards: int) -> list:
        return split_tensor_batch(all_inputs.run_inputs, num_cards)


@dataclass
class GenerativeInputs:
    run_inputs: list = None
    num_tokens_to_generate: int = None
    write_index: int = 0
    first_current_index: int | None = None
    pad_token_id: int | None = None

    def __post_init__(self):
        if not self.run_inputs or not self.num_tokens_to_generate:
            raise PyBudaError("GenerativeInputs needs run_inputs and num_tokens_to_generate")


@dataclass
class RunResult:
    """Outputs (forward: per loop, the output tensors) and each card's start and end times."""
    outputs: list = None
    per_card_start_time: dict = field(default_factory=dict)
    per_card_end_time: dict = field(default_factory=dict)

    def __post_init__(self):
        if self.per_card_start_time.keys() != self.per_card_end_time.keys():
            raise PyBudaError("RunResult: start and end times name different cards")

    def get_per_card_runtime(self) -> dict:
        return {card: self.per_card_end_time[card] - start for card, start in self.per_card_start_time.items()}

    def get_earliest_start(self) -> float:
        return min(self.per_card_start_time.values())

    def get_latest_end(self) -> float:
        return max(self.per_card_end_time.values())

    def get_total_runtime(self) -> float:
        return self.get_latest_end() - self.get_earliest_start()


def split_tensor_batch(input_data, num_cards: int) -> list:
    """`input_data` (a tensor or nested lists/tuples of them) once per card, every tensor cut into `num_cards`
    equal parts along its batch (first) dimension."""
    if isinstance(input_data, torch.Tensor):
        if input_data.shape[0] % num_cards:
            raise PyBudaError(f"split_tensor_batch: a batch of {input_data.shape[0]} does not split over "
                              f"{num_cards} cards")
        return list(torch.tensor_split(input_data, num_cards, dim=0))
    if isinstance(input_data, (list, tuple)):
        per_item = [split_tensor_batch(item, num_cards) for item in input_data]
        return [[parts[card] for parts in per_item] for card in range(num_cards)]
    raise PyBudaError(f"split_tensor_batch: inputs are tensors in lists or tuples, not {type(input_data).__name__}")


class MultiCardRunner:
    def __init__(self, *args, **kwargs):
        raise PyBudaError(f"MultiCardRunner is not supported: {_ONE_CHIP}")


def initialize_multicard_runner(*args, **kwargs) -> MultiCardRunner:
    raise PyBudaError(f"initialize_multicard_runner is not supported: {_ONE_CHIP}")
