"""`--stablehlo-pipeline`: StableHLO with shardy annotations to per-chip StableHLO in manual computations.

Calls are inlined, arguments typed (`argument-types`) and torch-xla's shardy strings read, optionally the graph
simplified, op chains fused (`stablehlo-fusing`) and shardy's constants made StableHLO's; arguments and results
get their shard status, the mesh is settled (`analyze-mesh`), with `enable-auto-sharding` the argument shardings
are chosen by collective cost; the shardings spread over the graph, values whose pieces are not the op on a
smaller shape stay replicated, reshards and all-reduces go where operands must move, each function body is
wrapped in a manual computation, reshards become collectives, shapes become per-chip and the shardings are
closed; canonicalization inlines manual computations spanning one chip. What `--stablehlo-to-ttir-pipeline`
then lowers to TTIR's mesh_shard and collectives.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from ttmlir.passes import registered_passes


@dataclass(frozen=True)
class StableHLOPipeline(ModulePass):
    """StableHLO pipeline to run stablehlo and shardy specific passes."""

    name = "stablehlo-pipeline"
    mesh_shape: tuple[int, ...] = field(default=())
    automatic_arg_analysis: bool = False
    result_presharded: tuple[int, ...] = field(default=())
    enable_auto_sharding: bool = False
    dump_variants: bool = False  # auto-sharding's candidates written to dump-dir
    dump_dir: str = "/tmp/"
    enable_aggressive_simplification: bool = False
    argument_types: str = ""  # `func=input,parameter,...;other=...`: ttcore.argument_type per argument

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        passes = registered_passes()
        steps = [passes["inline"](), passes["tt-populate-argument-types"](argument_types=self.argument_types),
                 passes["convert-xla-sdy-to-sdy"]()]
        if self.enable_aggressive_simplification:
            steps.append(passes["stablehlo-aggressive-simplification"]())
        steps += [passes["stablehlo-fusing"](), passes["partially-convert-sdy-to-stablehlo"]()]
        steps += [passes["apply-argument-shard-status"](result_presharded=self.result_presharded),
                 passes["analyze-mesh"](mesh_shape=self.mesh_shape,
                                        automatic_arg_analysis=self.automatic_arg_analysis)]
        if self.enable_auto_sharding:
            steps.append(passes["auto-sharding"](dump_variants=self.dump_variants, dump_dir=self.dump_dir))
        steps += [passes[name]() for name in (
            "decouple-const-fanout", "decompose-custom-call-tuples", "flatten-or-convert-composites",
            "register-custom-sharding-rule", "register-user-sharding-rule", "sdy-user-priority-propagate",
            "sdy-sharding-constraint-to-reshard", "replicate-non-splittable-values", "insert-explicit-reshards",
            "wrap-under-manual-computation",
            "sdy-reshard-to-collectives", "shardy-ccl-canonicalization", "annotate-local-shapes", "update-global-to-local-shapes",
            "reoutline-composite", "sdy-close-shardings", "canonicalize")]
        from ttmlir.timing import run_pass

        for step in steps:
            run_pass(step, ctx, op)
