"""`--ttkernel-control-dst-section`: the dst register's critical section around the packs of each acquire.

A compute kernel owns dst between `tile_regs_acquire` and `tile_regs_release`; the math thread hands dst to the
packer with `tile_regs_commit`, the packer takes it with `tile_regs_wait`. This pass writes the handshake a kernel
built from acquires and packs alone leaves out: for each acquire, the packs it opens (`pack_tile`, or
`pack_tile_block`, each kind on its own: their packer configurations differ) get one `commit; wait` before the
first of them and one `release` after the last. A pack nested in a loop or an if counts as that op, at the
acquire's level. Packs a group op already brackets (an acquire before them and a release after, in their own
block) and packs after a commit of their acquire are left alone, so the pass can run twice.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Operation
from xdsl.passes import ModulePass

from ttmlir.dialects.ttkernel import OP_CLASSES

PACKS = ("ttkernel.pack_tile", "ttkernel.pack_tile_block")
ACQUIRE, RELEASE, COMMIT = "ttkernel.tile_regs_acquire", "ttkernel.tile_regs_release", "ttkernel.tile_regs_commit"


def _before(op: Operation):
    while (op := op.prev_op) is not None:
        yield op


def _after(op: Operation):
    while (op := op.next_op) is not None:
        yield op


def _first_of(ops, names: tuple[str, ...]) -> Operation | None:
    return next((o for o in ops if o.name in names), None)


def _self_managed(pack: Operation) -> bool:
    """An acquire opens the pack's own block before it and a release closes it after, none in between."""
    before, after = _first_of(_before(pack), (ACQUIRE, RELEASE)), _first_of(_after(pack), (ACQUIRE, RELEASE))
    return getattr(before, "name", None) == ACQUIRE and getattr(after, "name", None) == RELEASE


def _at_acquire_level(pack: Operation) -> Operation | None:
    """The pack, or the op enclosing it, in the nearest enclosing block that holds an acquire."""
    op = pack
    while op is not None:
        block: Block | None = op.parent_block()
        if block is None:
            return None
        if any(o.name == ACQUIRE for o in block.ops):
            return op
        op = block.parent_op()
    return None


@dataclass(frozen=True)
class TTKernelControlDstSectionPass(ModulePass):
    """Insert tile_regs_commit/wait before and tile_regs_release after the packs of each dst section."""

    name: ClassVar[str] = "ttkernel-control-dst-section"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        spans: dict[tuple[int, str], list] = {}  # (acquire, pack kind) -> [acquire, first, last, location]
        for pack in op.walk():
            if pack.name not in PACKS or _self_managed(pack):
                continue
            if (level := _at_acquire_level(pack)) is None:
                continue
            if getattr(_first_of(_before(level), (COMMIT, ACQUIRE)), "name", None) == COMMIT:
                continue
            acquire = _first_of(_before(level), (ACQUIRE,))
            if acquire is None:
                continue
            span = spans.setdefault((id(acquire), pack.name), [acquire, level, level])
            span[2] = level  # the walk is in program order: a later pack only extends the span
        for _, first, last in spans.values():
            block = first.parent_block()
            block.insert_ops_before([OP_CLASSES["tile_regs_commit"].create(),
                                     OP_CLASSES["tile_regs_wait"].create()], first)
            block.insert_op_after(OP_CLASSES["tile_regs_release"].create(), last)
