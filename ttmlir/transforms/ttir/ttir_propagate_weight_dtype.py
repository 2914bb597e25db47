"""`--ttir-propagate-weight-dtype`: a weight's requested storage format (`ttcore.weight_dtype` on a function
argument) reaches the matmul that reads it.

From each matmul, linear and sparse_matmul, its weight operand (the second) is traced back through the ops that
only move or re-type data (reshape, permute, transpose, broadcast, typecast, mesh_shard/mesh_partition, concat) to
the function arguments it comes from. Their `ttcore.weight_dtype` values go on the matmul as its own
`ttcore.weight_dtype`; weights concatenated with different ones get the most precise of them, so no weight loses
precision (`--ttnn-weight-dtype-conversion` then converts it).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, StringAttr
from xdsl.dialects.func import FuncOp
from xdsl.ir import BlockArgument, SSAValue
from xdsl.passes import ModulePass

from ttmlir import hardware
from ttmlir.ir.tt_op import TTOp
from ttmlir.errors import PassWarning

WEIGHT_DTYPE = "ttcore.weight_dtype"
MATMULS = {"ttir.matmul", "ttir.linear", "ttir.sparse_matmul"}
DATA_MOVES = {"ttir.reshape", "ttir.permute", "ttir.transpose", "ttir.broadcast", "ttir.typecast", "ttir.mesh_shard",
              "ttir.mesh_partition", "ttir.concat", "ttir.squeeze", "ttir.unsqueeze"}


def _sources(value: SSAValue, seen: set) -> list[BlockArgument]:
    """The function arguments `value` is a moved or re-typed copy of (all of a concatenation's)."""
    if value in seen:
        return []
    seen.add(value)
    if isinstance(value, BlockArgument):
        return [value]
    owner = value.owner
    if owner.name not in DATA_MOVES:
        return []
    operands = owner.operands if owner.name == "ttir.concat" else owner.operands[:1]
    return [arg for v in operands for arg in _sources(v, seen)]


def _requested(arg: BlockArgument) -> str | None:
    func = arg.owner.parent_op()
    if not isinstance(func, FuncOp) or func.arg_attrs is None:
        return None
    attr = func.arg_attrs.data[arg.index].data.get(WEIGHT_DTYPE)
    return attr.data if isinstance(attr, StringAttr) else None


@dataclass(frozen=True)
class TTIRPropagateWeightDtypePass(ModulePass):
    """Put each weight argument's `ttcore.weight_dtype` on the matmuls that read it."""

    name: ClassVar[str] = "ttir-propagate-weight-dtype"

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        for op in module.walk():
            if op.name not in MATMULS or not isinstance(op, TTOp) or len(op.operands) < 2:
                continue
            requested = {d for arg in _sources(op.operands[1], set()) if (d := _requested(arg)) is not None}
            if requested:
                widest = max(requested, key=lambda d: hardware.DTYPE_BYTES.get(d, 0))
                op.attributes[WEIGHT_DTYPE] = StringAttr(widest)
                if len(requested) > 1:
                    warnings.warn(PassWarning(op, f"fusing matmuls with differing weight dtype overrides "
                                                  f"({', '.join(sorted(requested))}): using {widest}"))
