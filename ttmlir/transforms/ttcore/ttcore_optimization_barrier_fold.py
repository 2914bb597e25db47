"""`--ttcore-optimization-barrier-fold`: optimization barriers are replaced by their operands.

A barrier only keeps the compiler from moving work across it; at run time it means nothing, so once the
optimizing passes have run (the TTNN pipeline runs this before deallocation) its results are its operands.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from ttmlir.dialects.ttcore import OptimizationBarrierOp


@dataclass(frozen=True)
class TTCoreOptimizationBarrierFoldPass(ModulePass):
    """Each ttcore.optimization_barrier's results become its operands."""

    name: ClassVar[str] = "ttcore-optimization-barrier-fold"

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        for op in list(module.walk()):
            if isinstance(op, OptimizationBarrierOp):
                for result, operand in zip(op.results, op.operands):
                    result.replace_all_uses_with(operand)
                op.detach()
                op.erase()
