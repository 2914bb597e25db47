"""`--cpu-hoist-non-lowerable-shlo-ops`: StableHLO ops left in the device module that the host can run move to
`ttcore.cpu_module` functions, called where they stood (the CPU fallback of `--stablehlo-to-ttir-pipeline`).

The host runs a hoisted function's StableHLO ops itself (`ttmlir.runtime.host_stablehlo`, one implementation per
name in `HOST_OPS`, control flow and bodies of any ops included); an op outside that list stays, for the strict conversion after this pass to report.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.func import FuncOp
from xdsl.passes import ModulePass

from ttmlir.transforms.ttir.cpu_hoist_manually_tagged import hoist
from ttmlir.transforms.ttcore.register_device import device_module_of

# the StableHLO ops the runtime computes on the host (kept equal to the runtime's table by a test)
HOST_OPS = frozenset(f"stablehlo.{n}" for n in """
    abs add and atan2 bitcast_convert broadcast broadcast_in_dim case cbrt ceil cholesky clamp compare complex
    concatenate constant convert cosine count_leading_zeros divide dot dot_general dynamic_broadcast_in_dim
    dynamic_iota dynamic_reshape dynamic_slice dynamic_update_slice einsum exponential exponential_minus_one fft
    floor gather get_dimension_size if imag iota is_finite log log_plus_one logistic map maximum minimum multiply
    negate not optimization_barrier or pad popcnt power real reduce reduce_precision reduce_window remainder
    reshape reverse rng_bit_generator round_nearest_afz round_nearest_even rsqrt scatter select select_and_scatter
    shift_left shift_right_arithmetic shift_right_logical sign sine slice sort sqrt subtract tan tanh transpose
    triangular_solve while xor""".split()) | {"chlo.top_k"}


def host_can_run(op) -> bool:
    """Whether the host runs `op`, the ops of its regions included."""
    return op.name in HOST_OPS and all(inner.name in HOST_OPS or inner.name == "stablehlo.return"
                                       for inner in op.walk() if inner is not op)


@dataclass(frozen=True)
class CPUHoistNonLowerableSHLOOpsPass(ModulePass):
    """StableHLO ops of the device module that the host runs become calls of CPU functions."""

    name: ClassVar[str] = "cpu-hoist-non-lowerable-shlo-ops"

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        device = device_module_of(module)
        if device is module:  # nothing wrapped: no CPU module to hoist into, as upstream
            return
        hoist(module, [op for op in device.walk() if host_can_run(op) and isinstance(op.parent_op(), FuncOp)],
              widen=False)
