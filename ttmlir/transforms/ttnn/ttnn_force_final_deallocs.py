"""`--ttnn-force-final-deallocs`: one buffer, one real deallocation.

A reshape that keeps the rows of its input's pages (the last dim, and for tiles the one before it) is a view: its
result shares its input's device buffer, which tt-metal reference-counts, so a non-forced deallocate of either name
frees nothing while the other lives. Per buffer, the deallocate last in program order is forced and the others
removed; a buffer something else frees (returned from the function, or an L1 conv2d activation the conv frees
with `deallocate_activation`) loses all of its deallocates. A buffer with one name keeps its one deallocate.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.dialects.func import FuncOp, ReturnOp
from xdsl.ir import SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from ttmlir.dialects import ttnn
from ttmlir.ir.props import KINDS
from ttmlir.dialects.ttnn import TTNNOp
from ttmlir.transforms.ttnn.ttnn_utils import frees_its_activation


def _is_view(op: TTNNOp) -> bool:
    before, after = op.operands[0].type, op.results[0].type
    if not all(isinstance(t, TensorType) and isinstance(t.encoding, ttnn.TTNNLayoutAttr) for t in (before, after)):
        return False
    a, b = before.get_shape(), after.get_shape()
    kept = 2 if before.encoding.is_tiled else 1
    return bool(a) and bool(b) and len(a) >= kept and len(b) >= kept and tuple(a[-kept:]) == tuple(b[-kept:])


@dataclass(frozen=True)
class TTNNForceFinalDeallocsPass(ModulePass):
    """Force the last deallocate of each aliased device buffer; drop the no-op ones."""

    name: ClassVar[str] = "ttnn-force-final-deallocs"

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        for func in module.walk():
            if isinstance(func, FuncOp) and not func.is_declaration:
                self._function(func)

    @staticmethod
    def _function(func: FuncOp) -> None:
        buffer: dict[SSAValue, SSAValue] = {}  # each name's buffer, by the name that made it
        for op in func.walk():
            if isinstance(op, TTNNOp) and op.ROW.name == "reshape" and _is_view(op):
                buffer[op.results[0]] = buffer.get(op.operands[0], op.operands[0])
        root = lambda value: buffer.get(value, value)
        deallocs: dict[SSAValue, list[TTNNOp]] = {}
        freed_elsewhere: set[SSAValue] = set()
        for op in func.walk():
            for value in op.operands:
                if isinstance(op, ReturnOp) or (isinstance(op, TTNNOp) and frees_its_activation(op, value)):
                    freed_elsewhere.add(root(value))
            if isinstance(op, TTNNOp) and op.ROW.name == "deallocate":
                deallocs.setdefault(root(op.operands[0]), []).append(op)
        aliased = {root(v) for v in buffer}
        for owner, ops in deallocs.items():
            if owner not in freed_elsewhere and owner not in aliased:
                continue
            keep = None if owner in freed_elsewhere else ops[-1]
            for op in ops:
                if op is keep:
                    op.properties["force"] = KINDS["bool"].build(True)
                else:
                    Rewriter.erase_op(op)
