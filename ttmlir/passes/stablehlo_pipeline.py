"""`--stablehlo-pipeline`: StableHLO with shardy annotations to per-chip StableHLO in manual computations.

The mesh is settled (`analyze-mesh`), arguments and results get their shard status, the user's shardings
spread over the graph, reshards and all-reduces go where operands must move, each function body is wrapped in
a manual computation, reshards become collectives, shapes become per-chip and the shardings are closed. What
`--stablehlo-to-ttir-pipeline` then lowers to TTIR's mesh_shard and collectives.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from ttmlir.passes import PassFailure, registered_passes


@dataclass(frozen=True)
class StableHLOPipeline(ModulePass):
    """StableHLO pipeline to run stablehlo and shardy specific passes."""

    name = "stablehlo-pipeline"
    mesh_shape: tuple[int, ...] = field(default=())
    automatic_arg_analysis: bool = False
    result_presharded: tuple[int, ...] = field(default=())
    enable_auto_sharding: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.enable_auto_sharding:
            raise PassFailure(op, "enable-auto-sharding=true is not supported by this build: annotate the "
                                  "arguments with sdy.sharding or use automatic-arg-analysis")
        passes = registered_passes()
        steps = [passes["apply-argument-shard-status"](result_presharded=self.result_presharded),
                 passes["analyze-mesh"](mesh_shape=self.mesh_shape,
                                        automatic_arg_analysis=self.automatic_arg_analysis)]
        steps += [passes[name]() for name in (
            "sdy-user-priority-propagate", "sdy-sharding-constraint-to-reshard", "replicate-non-splittable-values",
            "sdy-insert-explicit-reshards", "wrap-under-manual-computation",
            "sdy-reshard-to-collectives", "annotate-local-shapes", "update-global-to-local-shapes",
            "sdy-close-shardings")]
        for step in steps:
            step.apply(ctx, op)
