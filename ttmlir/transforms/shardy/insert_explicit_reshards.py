"""`--insert-explicit-reshards`: shardy's `--sdy-insert-explicit-reshards`, unless the graph is solved already.

A module whose functions hold manual computations over mesh axes was partitioned by hand (or by an earlier run):
its per-chip bodies are what they should be, and nothing is resharded.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from ttmlir.dialects import sdy
from ttmlir.transforms.shardy.sdy_insert_explicit_reshards import InsertExplicitReshardsPass


def graph_solved(module: ModuleOp) -> bool:
    return any(isinstance(op, sdy.ManualComputationOp) and op.manual_axes.data for op in module.walk())


@dataclass(frozen=True)
class InsertExplicitReshardsIfUnsolvedPass(ModulePass):
    """Insert explicit reshards only on non-solved graphs."""

    name = "insert-explicit-reshards"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if not graph_solved(op):
            InsertExplicitReshardsPass().apply(ctx, op)
