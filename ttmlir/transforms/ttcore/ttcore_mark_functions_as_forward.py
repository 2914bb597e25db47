"""`--ttcore-mark-functions-as-forward`: tag every public function without a type as a forward device function.

Later passes (const-eval, CPU hoisting, the translator) tell a program's entry points from helpers by
the `tt.function_type` attribute; marking first gives them one way to find the entry points.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, StringAttr
from xdsl.dialects.func import FuncOp
from xdsl.passes import ModulePass

FUNCTION_TYPE = "tt.function_type"
FORWARD_DEVICE = StringAttr("forward_device")
CONST_EVAL = "const_eval"  # the tt.function_type of a const-eval function


@dataclass(frozen=True)
class TTCoreMarkFunctionsAsForwardPass(ModulePass):
    """Mark public functions without a tt.function_type as forward device functions."""

    name: ClassVar[str] = "ttcore-mark-functions-as-forward"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for func in op.walk():
            if (isinstance(func, FuncOp) and FUNCTION_TYPE not in func.attributes
                    and (func.sym_visibility is None or func.sym_visibility.data == "public")):
                func.attributes[FUNCTION_TYPE] = FORWARD_DEVICE
