"""`--ttkernel-dedup-inits`: engine configuration calls that change nothing are dropped from straight-line code.

The per-op D2M lowering gives every compute op its own init, so identical configurations pile up. Two rules, both
value-preserving (they only drop reconfiguration):
- an init identical to the op just before it (same op, operands and attributes) is a no-op;
- in a run `reduce_init(X); reduce_tile...; reduce_uninit; reduce_init(X); ...` the inner uninit/init pairs go,
  leaving one init and one uninit around the reduces. Only arith ops (index math) may sit between an uninit and
  the re-init; a reduce_tile there ran under the reset configuration, so that uninit stays, and any other op ends
  the run.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Operation
from xdsl.passes import ModulePass

from ttmlir.dialects.ttkernel import is_init


def _same(a: Operation, b: Operation) -> bool:
    return (a.name == b.name and tuple(a.operands) == tuple(b.operands) and a.properties == b.properties
            and a.attributes == b.attributes)


def _repeated_inits(block: Block) -> list[Operation]:
    return [op for op in block.ops if is_init(op) and op.prev_op is not None and is_init(op.prev_op)
            and _same(op.prev_op, op)]


def _reduce_round_trips(block: Block) -> list[Operation]:
    """The uninit/init pairs that close and reopen the configuration in force."""
    dropped: list[Operation] = []
    config = uninit = None  # the reduce_init in force; the uninit that closed it, while nothing has run since
    for op in block.ops:
        if op.name == "ttkernel.reduce_init":
            if uninit is not None and _same(config, op):
                dropped += [uninit, op]
            else:
                config = op
            uninit = None
        elif op.name == "ttkernel.reduce_uninit":
            uninit = op if config is not None else None
        elif op.name == "ttkernel.reduce_tile":
            if uninit is not None:  # it reduced under the reset configuration: X is no longer in force
                config = uninit = None
        elif op.dialect_name() != "arith":
            config = uninit = None
    return dropped


@dataclass(frozen=True)
class TTKernelDedupInitsPass(ModulePass):
    """Drop repeated engine inits and same-configuration reduce uninit/init round trips."""

    name: ClassVar[str] = "ttkernel-dedup-inits"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        blocks = [block for inner in op.walk() for region in inner.regions for block in region.blocks]
        dropped = {id(o): o for block in blocks for o in [*_repeated_inits(block), *_reduce_round_trips(block)]}
        for redundant in dropped.values():
            redundant.detach()
            redundant.erase()
