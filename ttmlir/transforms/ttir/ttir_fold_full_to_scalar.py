"""`--ttir-fold-full-to-scalar`: a `full`/`zeros`/`ones` read only by elementwise ops becomes one element.

Elementwise ops broadcast their operands implicitly, so a constant fill needs a single element, not a tensor
of the result's size in DRAM. Where the fill was what gave a consumer its shape, the consumer computes on the
smaller shape and a broadcast after it restores the result's. Ops of constants left this way fold (the greedy
driver runs the canonicalization patterns afterwards, as upstream's pass does).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter
from ttmlir.dialects.canonicalize import CanonicalizePass

from ttmlir.ir.props import KINDS
from ttmlir.ir.tt_op import TTOp
from ttmlir.transforms.ttir.ttir_implicit_broadcast_fold import BROADCASTABLE, broadcast_result

FILLS = ("ttir.full", "ttir.zeros", "ttir.ones")


def _shrinks(op) -> bool:
    shape = op.results[0].type.get_shape()
    return math.prod(shape) != 1 and all(isinstance(use.operation, TTOp) and use.operation.name.startswith("ttir.")
                                         and use.operation.ROW.family in BROADCASTABLE for use in op.results[0].uses)


@dataclass(frozen=True)
class TTIRFoldFullToScalarPass(ModulePass):
    """Fills read only by elementwise ops shrink to one element."""

    name: ClassVar[str] = "ttir-fold-full-to-scalar"

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        for op in [op for op in module.walk() if op.name in FILLS and _shrinks(op)]:
            result = op.results[0]
            ones = [1] * len(result.type.get_shape())
            result = Rewriter.replace_value_with_new_type(result, TensorType(result.type.element_type, ones))
            op.properties["shape"] = KINDS["i32_darray"].build(ones)
            for use in list(result.uses):
                broadcast_result(use.operation)
        CanonicalizePass().apply(ctx, module)
