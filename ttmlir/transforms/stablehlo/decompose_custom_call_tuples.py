"""`--decompose-custom-call-tuples`: tuples built only to be taken apart are bypassed.

Each `stablehlo.get_tuple_element` of a `stablehlo.tuple` is replaced by the tuple's operand it selects; a tuple
left with no users is erased. (Our conversion to TTIR has no tuple values, so this is what lets such programs
lower.)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from ttmlir.dialects import stablehlo as shlo


@dataclass(frozen=True)
class DecomposeCustomCallTuplesPass(ModulePass):
    """Forward tuple operands to the get_tuple_element ops reading them."""

    name: ClassVar[str] = "decompose-custom-call-tuples"

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        for tuple_op in [op for op in module.walk() if op.name == "stablehlo.tuple"]:
            for use in list(tuple_op.results[0].uses):
                if use.operation.name == "stablehlo.get_tuple_element":
                    element = use.operation
                    Rewriter.replace_op(element, [], [tuple_op.operands[shlo.int_of(element.properties["index"])]])
            if not tuple_op.results[0].uses:
                Rewriter.erase_op(tuple_op)
