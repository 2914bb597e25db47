"""`--decouple-const-fanout`: a broadcast of a constant gets one copy per user.

A broadcast constant read by several ops ties their shardings together during propagation (one user wanting it
split forces the split onto the others). In functions with an argument split over a mesh axis, each further user
of such a broadcast gets its own copy, placed just before it, so each path's sharding is its own.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.func import FuncOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ttmlir.transforms.shardy.sdy_user_priority_propagate import arg_sharding


def _split_arguments(func: FuncOp) -> bool:
    return any((s := arg_sharding(func, i)) is not None and s.axes()
               for i in range(len(func.function_type.inputs.data)))


def _constant_fed_broadcast(op: Operation) -> bool:
    source = op.operands[0].owner if op.name == "stablehlo.broadcast_in_dim" else None
    return isinstance(source, Operation) and source.name == "stablehlo.constant" and len(list(op.results[0].uses)) > 1


@dataclass(frozen=True)
class DecoupleConstFanoutPass(ModulePass):
    """Duplicate const-fed, value-preserving ops per use to decouple propagation."""

    name: ClassVar[str] = "decouple-const-fanout"

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        for func in [op for op in module.walk() if isinstance(op, FuncOp) and op.body.blocks]:
            if not _split_arguments(func):
                continue
            order = {op: i for i, op in enumerate(func.walk())}
            for op in [op for op in order if _constant_fed_broadcast(op)]:
                # the last use in program order keeps the original (as MLIR's use list, newest first, has it)
                uses = sorted(op.results[0].uses, key=lambda u: (order[u.operation], u.index), reverse=True)
                for use in uses[1:]:
                    copy = op.clone()
                    Rewriter.insert_op(copy, InsertPoint.before(use.operation))
                    use.operation.operands[use.index] = copy.results[0]
