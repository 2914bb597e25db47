"""Upstream's D2M back-end stages as pipelines of their own, for IR staged as upstream stages it:

- `--d2m-to-ttkernel-pipeline`: the kernels to TTKernel (convert-d2m-to-ttkernel with `ttnn-mode` and
  `force-compile-time-args`), canonicalized, their DST sections bracketed (ttkernel-control-dst-section), then
  loop-invariant code hoisted and common subexpressions merged, repeated inits dropped (ttkernel-dedup-inits),
  and the calls lowered to EmitC (d2m-emitc-pipeline). Upstream also propagates constants (SCCP) and narrows
  integer ranges there; this build's canonicalization folds the constants, and there is no range narrowing.
- `--d2m-to-ttmetal-pipeline`: the host program to TTMetal (convert-d2m-to-ttmetal at `set-math-fidelity`).
- `--d2m-to-ttnn-pipeline`: the programs as `ttnn.generic` ops of a TTNN graph (convert-d2m-to-ttnn at
  `set-math-fidelity`), for kernels lowered in TTNN mode.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.transforms.common_subexpression_elimination import CommonSubexpressionElimination
from xdsl.transforms.loop_invariant_code_motion import LoopInvariantCodeMotionPass

from ttmlir.conversion.d2m_to_ttkernel.convert_d2m_to_ttkernel import ConvertD2MToTTKernelPass
from ttmlir.conversion.d2m_to_ttmetal.convert_d2m_to_ttmetal import ConvertD2MToTTMetalPass
from ttmlir.conversion.d2m_to_ttnn.convert_d2m_to_ttnn import ConvertD2MToTTNNPass
from ttmlir.dialects.canonicalize import CanonicalizePass
from ttmlir.pipelines.d2m_emitc import D2MEmitCPipeline
from ttmlir.timing import run_pass
from ttmlir.transforms.ttkernel.ttkernel_control_dst_section import TTKernelControlDstSectionPass
from ttmlir.transforms.ttkernel.ttkernel_dedup_inits import TTKernelDedupInitsPass


@dataclass(frozen=True)
class D2MToTTKernelPipeline(ModulePass):
    """D2M kernels to TTKernel, optimized, then to EmitC (see the module doc)."""

    name: ClassVar[str] = "d2m-to-ttkernel-pipeline"
    ttnn_mode: bool = False
    force_compile_time_args: bool = False

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        stages = (ConvertD2MToTTKernelPass(ttnn_mode=self.ttnn_mode,
                                           force_compile_time_args=self.force_compile_time_args),
                  CanonicalizePass(), TTKernelControlDstSectionPass(), CanonicalizePass(),
                  LoopInvariantCodeMotionPass(), CommonSubexpressionElimination(), LoopInvariantCodeMotionPass(),
                  TTKernelDedupInitsPass(), D2MEmitCPipeline())
        for stage in stages:
            run_pass(stage, ctx, module)


@dataclass(frozen=True)
class D2MToTTMetalPipeline(ModulePass):
    """The D2M host program to TTMetal (see the module doc)."""

    name: ClassVar[str] = "d2m-to-ttmetal-pipeline"
    set_math_fidelity: str = "HiFi4"

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        run_pass(ConvertD2MToTTMetalPass(math_fidelity=self.set_math_fidelity), ctx, module)


@dataclass(frozen=True)
class D2MToTTNNPipeline(ModulePass):
    """The D2M programs to `ttnn.generic` ops (see the module doc)."""

    name: ClassVar[str] = "d2m-to-ttnn-pipeline"
    set_math_fidelity: str = "HiFi4"

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        run_pass(ConvertD2MToTTNNPass(math_fidelity=self.set_math_fidelity), ctx, module)
