"""`--remove-dead-emitc-expressions`: unused C expressions without side effects, and write-only locals, go.

Generic dead-code elimination keeps every emitc op (emitc models an expression's effects through the op, not as
MLIR memory effects), so the kernels' dead index arithmetic would reach the C++. An op is dead when none of its
results is used and it is a side-effect-free C expression (emitc's C_EXPRESSIONS), or an `emitc.expression` of
them; a variable is dead when its only uses are `emitc.assign`s to it, which go with it. Erasing one may leave its
operands' definitions dead: they are looked at next.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass

from ttmlir.dialects.emitc import effect_free

def _dead(op: Operation) -> bool:
    if op.name == "emitc.variable":
        return all(use.index == 0 and use.operation.name == "emitc.assign" for use in op.results[0].uses)
    return bool(op.results) and not any(r.uses for r in op.results) and effect_free(op)


def _erase(op: Operation) -> list[Operation]:
    """Erase a dead op (a variable with its assigns); the ops that defined the values it used."""
    doomed = [use.operation for use in op.results[0].uses] if op.name == "emitc.variable" else []
    feeders = [v.owner for o in [*doomed, op] for v in o.operands if isinstance(v.owner, Operation)]
    for o in [*doomed, op]:
        o.detach()
        o.erase()
    return [f for f in feeders if f not in doomed and f is not op]


def _dead_ops(root: Operation) -> list[Operation]:
    """The dead ops under `root`, in program order, not looking inside a dead one (it goes whole)."""
    found = []
    for region in root.regions:
        for block in region.blocks:
            for op in block.ops:
                if _dead(op):
                    found.append(op)
                else:
                    found += _dead_ops(op)
    return found


@dataclass(frozen=True)
class RemoveDeadEmitCExpressionsPass(ModulePass):
    """Remove unused side-effect-free emitc expressions and write-only emitc variables."""

    name: ClassVar[str] = "remove-dead-emitc-expressions"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        worklist = _dead_ops(op)
        queued = {id(o) for o in worklist}
        while worklist:
            candidate = worklist.pop()
            queued.discard(id(candidate))
            if candidate.parent is None or not _dead(candidate):  # erased already, or used again
                continue
            for feeder in _erase(candidate):
                if id(feeder) not in queued and feeder.parent is not None and _dead(feeder):
                    worklist.append(feeder)
                    queued.add(id(feeder))
