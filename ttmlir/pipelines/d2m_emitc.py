"""`--d2m-emitc-pipeline`: kernels' ttkernel ops to emitc as the TTMetal path leaves them for the C++ printer:
convert-ttkernel-to-emitc, canonicalize, remove-dead-emitc-expressions (the index arithmetic no call uses any
more), form-expressions."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from ttmlir.conversion.ttkernel_to_emitc.convert_ttkernel_to_emitc import ConvertTTKernelToEmitCPass
from ttmlir.conversion.ttkernel_to_emitc.remove_dead_emitc_expressions import RemoveDeadEmitCExpressionsPass
from ttmlir.dialects.canonicalize import CanonicalizePass
from ttmlir.timing import run_pass
from ttmlir.transforms.emitc.form_expressions import FormExpressionsPass


@dataclass(frozen=True)
class D2MEmitCPipeline(ModulePass):
    """Lower TTKernel ops to EmitC, drop the dead C expressions and form expressions."""

    name: ClassVar[str] = "d2m-emitc-pipeline"

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        for stage in (ConvertTTKernelToEmitCPass(), CanonicalizePass(), RemoveDeadEmitCExpressionsPass(),
                      FormExpressionsPass()):
            run_pass(stage, ctx, module)
