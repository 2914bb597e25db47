"""`--cpu-hoist-non-lowerable-shlo-ops`: StableHLO ops left in the device module that the host can run move to
`ttcore.cpu_module` functions, called where they stood (the CPU fallback of `--stablehlo-to-ttir-pipeline`).

The host runs a hoisted function's StableHLO ops itself (`ttmlir.runtime.host_stablehlo`, one implementation per
name in `HOST_OPS`); an op outside that list stays, for the strict conversion after this pass to report.
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
HOST_OPS = frozenset({"stablehlo.dynamic_update_slice", "stablehlo.einsum"})


@dataclass(frozen=True)
class CPUHoistNonLowerableSHLOOpsPass(ModulePass):
    """StableHLO ops of the device module that the host runs become calls of CPU functions."""

    name: ClassVar[str] = "cpu-hoist-non-lowerable-shlo-ops"

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        device = device_module_of(module)
        if device is module:  # nothing wrapped: no CPU module to hoist into, as upstream
            return
        hoist(module, [op for op in device.walk() if op.name in HOST_OPS and isinstance(op.parent_op(), FuncOp)],
              widen=False)
