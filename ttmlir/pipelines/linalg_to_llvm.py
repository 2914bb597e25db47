"""`--linalg-to-llvm-pipeline`: linalg on tensors to the LLVM dialect, in upstream's stages: bufferization (one-shot
with function boundaries and identity layouts, then deallocation), linalg to loops, affine and scf to control flow,
and arith/math/cf/func/memref to LLVM (`ttmlir.conversion.linalg_to_llvm`). The CPU module of a TTNN binary is
lowered by it; `ttmlir.runtime.host_llvm` runs the result."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.transforms.convert_linalg_to_loops import ConvertLinalgToLoopsPass
from xdsl.transforms.convert_scf_to_cf import ConvertScfToCf
from xdsl.transforms.dead_code_elimination import DeadCodeElimination

from ttmlir.conversion.linalg_to_llvm.bufferize import bufferize
from ttmlir.conversion.linalg_to_llvm.to_llvm import convert_to_llvm
from ttmlir.timing import run_pass
from ttmlir.transforms.lower_affine import LowerAffinePass


@dataclass(frozen=True)
class LinalgToLLVMPipeline(ModulePass):
    """Pipeline lowering linalg to llvm dialect."""

    name: ClassVar[str] = "linalg-to-llvm-pipeline"
    enable_optimization_passes: bool = False  # the cleanup (dead code) after the lowering

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        bufferize(op)
        for stage in (ConvertLinalgToLoopsPass(), LowerAffinePass(), ConvertScfToCf()):
            run_pass(stage, ctx, op)
        convert_to_llvm(op)
        if self.enable_optimization_passes:
            run_pass(DeadCodeElimination(), ctx, op)
