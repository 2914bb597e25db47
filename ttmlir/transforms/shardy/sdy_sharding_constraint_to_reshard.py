"""`--sdy-sharding-constraint-to-reshard`: a sharding constraint, once propagation has used it, is a reshard."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from ttmlir.dialects import sdy


@dataclass(frozen=True)
class ShardingConstraintToReshardPass(ModulePass):
    """Convert ShardingConstraintOp into ReshardOp."""

    name = "sdy-sharding-constraint-to-reshard"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for inner in list(op.walk()):
            if isinstance(inner, sdy.ShardingConstraintOp):
                Rewriter.replace_op(inner, sdy.ReshardOp(operands=[inner.input], result_types=[inner.result.type],
                                                         properties={"sharding": inner.sharding},
                                                         attributes=dict(inner.attributes)))
