"""`--ttnn-resolve-composites`: each ttcore.composite replaced by its decomposition function's body.

Upstream may instead promote a composite it knows to a fused TTNN op once its op model validates it; without an
op model (as here) it inlines every composite, which is this pass's one mode. Decomposition functions no longer
referenced are erased.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, SymbolRefAttr
from xdsl.dialects.func import FuncOp, ReturnOp
from xdsl.ir import SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from ttmlir.dialects.ttcore import CompositeOp
from ttmlir.passes import PassFailure


def inline_composite(composite: CompositeOp) -> None:
    """The decomposition's ops cloned in front of the composite, its results replaced by what they return."""
    func = composite.callee()
    values: dict[SSAValue, SSAValue] = dict(zip(func.body.block.args, composite.operands))
    for op in func.body.block.ops:
        if isinstance(op, ReturnOp):
            Rewriter.replace_op(composite, [], [values[v] for v in op.operands])
            return
        clone = op.clone(value_mapper=values)
        composite.parent.insert_op_before(clone, composite)
        values.update(zip(op.results, clone.results))


@dataclass(frozen=True)
class TTNNResolveCompositesPass(ModulePass):
    """Inline every ttcore.composite's decomposition and erase decompositions no longer used."""

    name: ClassVar[str] = "ttnn-resolve-composites"
    composite_resolution: str = "inline"

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        if self.composite_resolution not in ("inline", "auto"):
            raise PassFailure(module, f"composite-resolution={self.composite_resolution} needs the op model, which "
                                      "this build does not have; use 'inline'")
        composites = [op for op in module.walk() if isinstance(op, CompositeOp)]
        decompositions = {op.callee() for op in composites}
        for composite in composites:
            inline_composite(composite)
        referenced = {attr.root_reference.data for op in module.walk() for attr in (*op.properties.values(),
                      *op.attributes.values()) if isinstance(attr, SymbolRefAttr)}
        for func in decompositions:
            if isinstance(func, FuncOp) and func.sym_name.data not in referenced and func.parent is not None:
                Rewriter.erase_op(func)
