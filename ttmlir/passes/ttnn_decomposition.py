"""`--ttnn-decomposition`: TTNN ops no kernel takes in a given shape, rewritten into primitive TTNN ops.

Here: concatenate_heads whose head size is not a whole number of tiles (tt-metal's kernel splits heads on tile
boundaries) becomes a permute of heads behind the sequence and a reshape joining them, as upstream's pass does.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from ttmlir.dialects import ttnn
from ttmlir.dialects.props import KINDS
from ttmlir.dialects.ttnn import TTNNOp
from ttmlir.passes.ttnn_utils import helper_location, ttnn_op


def _concatenate_heads(op: TTNNOp) -> None:
    batch, heads, seq, size = op.operands[0].type.get_shape()
    if size % ttnn.TILE == 0:
        return
    result = op.results[0].type
    permute = ttnn_op("permute", [op.operands[0]], {"permutation": KINDS["i64_darray"].build([0, 2, 1, 3])},
                      [TensorType(result.element_type, [batch, seq, heads, size])], op)
    permute.location = helper_location(op.location, "concat_heads")
    reshape = ttnn_op("reshape", [permute.results[0]],
                      {"shape": KINDS["i32_array"].build(list(result.get_shape()))}, [result], op)
    Rewriter.replace_op(op, [permute, reshape])


DECOMPOSITIONS = {"concatenate_heads": _concatenate_heads}


@dataclass(frozen=True)
class TTNNDecompositionPass(ModulePass):
    """Decompose TTNN ops that no fused kernel takes in their shape into primitive TTNN ops."""

    name: ClassVar[str] = "ttnn-decomposition"

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        for op in list(module.walk()):
            if isinstance(op, TTNNOp) and op.ROW.name in DECOMPOSITIONS:
                DECOMPOSITIONS[op.ROW.name](op)
