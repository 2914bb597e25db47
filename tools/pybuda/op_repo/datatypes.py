"""`pybuda.op_repo.datatypes`: how an operator repository describes an op: its name, the callable that builds it,
how many operands it takes, and the numeric parameters its constructor and call accept (with their ranges), so a
test generator can instantiate any op of a repository."""

from __future__ import annotations

import abc
from dataclasses import dataclass, field
from random import Random
from typing import Callable, Union

TensorShape = tuple[int, ...]
OperandNumInt = int
OperandNumTuple = tuple[int, int]


@dataclass
class OperatorParamNumber:
    """A numeric parameter: its name, type (int or float) and the inclusive range a generator may pick from."""
    name: str
    type: type
    min_value: int | float | None
    max_value: int | float | None

    def pick(self, rng: Random) -> int | float:
        low = self.min_value if self.min_value is not None else 0
        high = self.max_value if self.max_value is not None else low + 100
        return rng.randint(low, high) if self.type is int else rng.uniform(low, high)


OperatorParam = Union[OperatorParamNumber]


@dataclass
class OperandNumRange:
    operands_min: int
    operands_max: int


@dataclass
class OperatorDefinition:
    """One op of a repository. `full_name` is the dotted path of what builds it ("pybuda.op.Add", "torch.nn.Linear");
    `instantiate` marks a layer (built with constructor_params, then called) rather than a function."""
    name: str
    full_name: str
    input_num_range: OperandNumInt | OperandNumTuple | OperandNumRange
    instantiate: bool = False
    constructor_params: list[OperatorParam] = field(default_factory=list)
    forward_code: Callable[[], str] | None = None
    forward_params: list[OperatorParam] = field(default_factory=list)
    operands: list[str] = field(default_factory=list)
    calc_input_shapes: Callable[["ShapeCalculationContext", Random], list[TensorShape]] | None = None

    def __post_init__(self):
        count = self.input_num_range
        if isinstance(count, int):
            self.input_num_range = OperandNumRange(count, count)
        elif isinstance(count, tuple) and len(count) == 2:
            self.input_num_range = OperandNumRange(*count)
        elif not isinstance(count, OperandNumRange):
            raise ValueError(f"operator '{self.name}': input_num_range {count!r} is not an int, a (min, max) pair "
                             "or an OperandNumRange")

    @property
    def is_operator(self) -> bool:
        return not self.instantiate

    @property
    def is_layer(self) -> bool:
        return self.instantiate

    def resolve(self):
        """The callable `full_name` names (imported on demand: the torch repository need not import torch.nn)."""
        import importlib

        module, _, attr = self.full_name.rpartition(".")
        return getattr(importlib.import_module(module), attr)


class ShapeCalculationContext(abc.ABC):
    """What a shape calculation (`OperatorDefinition.calc_input_shapes`) is told: the op, how many inputs it gets,
    its arguments, the output shape wanted and the random source. A generator subclasses it."""

    @property
    @abc.abstractmethod
    def operator(self) -> OperatorDefinition: ...

    @property
    @abc.abstractmethod
    def input_num(self) -> int: ...

    @property
    @abc.abstractmethod
    def constructor_kwargs(self) -> dict[str, object]: ...

    @property
    @abc.abstractmethod
    def forward_kwargs(self) -> dict[str, object]: ...

    @property
    @abc.abstractmethod
    def output_shape(self) -> TensorShape: ...

    @property
    @abc.abstractmethod
    def rng_shape(self) -> Random: ...


class OperatorRepository:
    def __init__(self, operators: list[OperatorDefinition]):
        self.operators = operators

    def get_by_name(self, name: str) -> OperatorDefinition:
        for op in self.operators:
            if op.name == name:
                return op
        raise KeyError(f"no operator '{name}' in this repository (it has {', '.join(o.name for o in self.operators)})")

    def names(self) -> list[str]:
        return [op.name for op in self.operators]
