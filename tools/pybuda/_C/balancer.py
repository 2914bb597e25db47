"""`pybuda._C.balancer`: the balancer's types PyBuda scripts name. tt-buda's balancer picks each op's core grid
and blocking; here the TTNN backend's optimizer chooses each op's memory layout and core grid, and a policy is
its optimization level (`pybuda.config.BALANCER_POLICIES`). Per-op overrides of grid, blocking or t-streaming
have no counterpart: setting one is refused where it is set."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from pybuda.config import BALANCER_POLICIES, PyBudaError


class PolicyType(Enum):
    """tt-buda's balancer policies; `.value` is the balancer_policy string set_configuration_options takes."""
    MaximizeTMinimizeGrid = "MaximizeTMinimizeGrid"
    MinimizeGrid = "MinimizeGrid"
    Random = "Random"
    NLP = "NLP"
    CNN = "CNN"
    Ribbon = "Ribbon"

    @property
    def optimization_level(self) -> int:
        """The TTNN optimizer level this policy runs (a policy with no counterpart is refused)."""
        if self.value not in BALANCER_POLICIES:
            raise PyBudaError(f"balancer policy {self.name} is not supported; supported: "
                              f"{', '.join(p for p in BALANCER_POLICIES if p != 'default')}")
        return BALANCER_POLICIES[self.value]


def policy_from_string(name: str) -> PolicyType:
    for policy in PolicyType:
        if policy.value == name:
            return policy
    raise PyBudaError(f"unknown balancer policy '{name}'; tt-buda's: {', '.join(p.value for p in PolicyType)}")


class OpOverride:
    """A per-op balancer override. Every field names a decision (core grid, t-streaming, u_kt, buffering, DRAM
    parameters) the TTNN optimizer makes for itself here, so an override is refused as its field is set."""

    _FIELDS = ("grid_shape", "t_stream_dir", "t_stream_shape", "u_kt", "force_dram_parameters",
               "input_buffer_multiplier", "output_buffer_multiplier")

    def __setattr__(self, name: str, value) -> None:
        if name not in self._FIELDS:
            raise PyBudaError(f"OpOverride has no field '{name}'; tt-buda's: {', '.join(self._FIELDS)}")
        raise PyBudaError(f"OpOverride.{name} is not supported: the TTNN backend's optimizer chooses each op's "
                          "layout and core grid itself")

    def to_json(self) -> dict:
        return {name: None for name in self._FIELDS}  # nothing can be overridden, so nothing is


@dataclass(frozen=True)
class TensorShape:
    """A 4-d shape as the balancer reads it: w, z, r (rows), c (columns)."""
    w: int
    z: int
    r: int
    c: int

    @property
    def rt(self) -> int:
        return -(-self.r // 32)

    @property
    def ct(self) -> int:
        return -(-self.c // 32)


class OpShape:
    """An op's operand and result shapes (each padded to 4 dims on the left)."""

    def __init__(self, input_shapes, output_shape, scalar_dims: bool = False):
        self.inputs = [_shape4(s) for s in input_shapes]
        self.outputs = [_shape4(output_shape)]
        self.scalar_dims = scalar_dims


def _shape4(shape) -> TensorShape:
    dims = tuple(shape)
    if len(dims) > 4:
        raise PyBudaError(f"OpShape: shape {list(dims)} has more than 4 dimensions")
    return TensorShape(*((1,) * (4 - len(dims)) + dims))


class BalancerConfig:
    """The balancer's configuration: here its policy (and the one chip); the rest of tt-buda's options steer
    grids, epochs and queues the TTNN backend does not have, and are refused when given."""

    def __init__(self, device_config=None, scheduler_config=None, policy_type: PolicyType = PolicyType.Ribbon,
                 chip_ids=(0,), **options):
        if options:
            raise PyBudaError(f"BalancerConfig: {', '.join(sorted(options))} not supported (the TTNN optimizer "
                              "chooses layouts and grids; supported: policy_type, chip_ids [0])")
        if list(chip_ids) != [0]:
            raise PyBudaError(f"BalancerConfig(chip_ids={list(chip_ids)}): the simulated system has one chip (id 0)")
        policy_type.optimization_level  # refuse a policy with no counterpart now, not at compile
        self.device_config, self.scheduler_config = device_config, scheduler_config
        self.policy_type, self.chip_ids = policy_type, list(chip_ids)
