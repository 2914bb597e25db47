"""`--d2m-split-threads` (the second stage of `--d2m-split-unified-thread`): a unified generic whose ops
`--d2m-assign-threads` tagged becomes a generic of two regions, `#d2m.thread<datamovement>` and `<compute>`: the
region is cloned into both, the data-movement thread keeps its DMA ops (and the untagged ops they need, and replicated
`d2m.semaphore_wait`s), the compute thread drops the data-movement ops and what only they used; the tags go. No CB
synchronization is added here (`--d2m-insert-compute-cb` adds it).

A generic whose circular buffers the one-scope CB protocol cannot express is refused (then `'d2m.generic' op failed
to split unified thread`): a CB moved in more than one block, a CB transferred inside a loop nest but read by compute
in several sibling nests, compute under ops other than scf.for/linalg.generic, or a semaphore_inc/semaphore_set/
semaphore_wait-with-reset that every thread would execute."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects import linalg, memref, scf
from xdsl.dialects.builtin import ArrayAttr, ModuleOp
from xdsl.ir import Block, Operation, Region
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter
from xdsl.traits import IsTerminator
from xdsl.transforms.dead_code_elimination import is_trivially_dead

from ttmlir.dialects import d2m
from ttmlir.dialects.d2m_cb import ThreadAttr
from ttmlir.dialects.d2m_dma import SemaphoreIncOp, SemaphoreSetOp, SemaphoreWaitOp
from ttmlir.errors import PassFailure, derive
from ttmlir.transforms.d2m.cb_ports import SHARD_DMA, TILE_COMPUTE, dma_cb_port, is_local_buffer, operand_index
from ttmlir.transforms.d2m.d2m_assign_threads import THREAD
from ttmlir.transforms.d2m.synchronizable import consumed, is_synchronizable

FAILED = "'d2m.generic' op failed to split unified thread"
VIEWS = (memref.CollapseShapeOp, memref.SubviewOp)


def is_unified(generic: d2m.GenericOp) -> bool:
    threads = generic.attributes.get("threads")
    return len(generic.regions) == 1 and isinstance(threads, ArrayAttr) and \
        isinstance(threads.data[0], ThreadAttr) and threads.data[0].thread == "unified"


def _top_level_nest(op: Operation, block: Block) -> Operation | None:
    while op.parent_block() is not block:
        op = op.parent_op()
    return op if isinstance(op, scf.ForOp) else None


def _reads_cb(op: Operation, index: int) -> bool:
    if isinstance(op, memref.LoadOp):
        return index == 0
    if isinstance(op, linalg.GenericOp):
        return op.operands[index] in op.inputs
    return is_synchronizable(op) and op.operands[index] in consumed(op)


def _refuse(generic: d2m.GenericOp, op: Operation, message: str) -> PassFailure:
    return PassFailure(op, message, then=((generic, FAILED),))


def check_sync_scope(generic: d2m.GenericOp) -> None:
    """The invariants under which one wait/pop (reserve/push) pair per CB synchronizes the split threads."""
    region_block = generic.regions[0].blocks[0]
    ports = {}
    for cb in generic.additional_args:
        if is_local_buffer(cb):
            continue
        port, todo = operand_index(generic, cb, generic), [cb]
        while todo:
            value = todo.pop()
            ports.setdefault(value, port)
            todo += [u.operation.results[0] for u in value.uses if isinstance(u.operation, VIEWS)]
    dma_blocks: dict[int, set] = {}
    consumer_nests: dict[int, list] = {}
    nested_dma: set[int] = set()
    sync_parents, compute = set(), []
    for op in generic.regions[0].walk():
        if is_synchronizable(op):
            sync_parents.add(op.parent_op())
        if isinstance(op, VIEWS):
            continue
        if isinstance(op, SHARD_DMA):
            port = dma_cb_port(generic, op)
            dma_blocks.setdefault(port, set()).add(op.parent_block())
            if _top_level_nest(op, region_block) is not None:
                nested_dma.add(port)
            continue
        if (nest := _top_level_nest(op, region_block)) is not None:
            for i, value in enumerate(op.operands):
                if value in ports and _reads_cb(op, i):
                    nests = consumer_nests.setdefault(ports[value], [])
                    if nest not in nests:
                        nests.append(nest)
        if isinstance(op, TILE_COMPUTE):
            compute.append(op)
    for port, blocks in dma_blocks.items():
        if len(blocks) > 1:
            raise _refuse(generic, generic, f"'d2m.generic' op circular buffer (port {port}) has data-movement "
                                            f"accesses across distinct loop nests; cross-nest fan-out is not yet "
                                            f"supported (would deadlock on a cadence mismatch)")
    for port, nests in consumer_nests.items():
        if len(nests) > 1 and port in nested_dma:
            raise _refuse(generic, generic, f"'d2m.generic' op circular buffer (port {port}) is consumed by compute "
                                            f"across distinct loop nests; cross-nest fan-out is not yet supported "
                                            f"(would deadlock on a wait/pop cadence mismatch)")
    for op in compute:
        holder = op
        while holder.parent_op() is not generic and holder.parent_op() not in sync_parents:
            holder = holder.parent_op()
            if not isinstance(holder, (scf.ForOp, linalg.GenericOp)):
                raise _refuse(generic, holder, f"'{holder.name}' op parent ops containing compute ops must be "
                                               f"scf.for or linalg.generic")


_REPLICATED = {
    SemaphoreIncOp: "semaphore_inc is not supported in regions that will be replicated across multiple threads, as "
                    "all threads would increment the semaphore, creating a race condition on the shared semaphore.",
    SemaphoreSetOp: "semaphore_set is not supported in regions that will be replicated across multiple threads, as "
                    "all threads would set the semaphore, creating a race condition on the shared semaphore.",
}
_RESET = ("semaphore_wait with reset is not supported in regions that will be replicated across multiple threads, "
          "as all threads would execute the reset, creating a race condition on the shared semaphore.")


def check_semaphores(generic: d2m.GenericOp, block: Block) -> None:
    for op in block.ops:
        if type(op) in _REPLICATED:
            raise _refuse(generic, op, _REPLICATED[type(op)])
        if isinstance(op, SemaphoreWaitOp) and op.reset_value is not None:
            raise _refuse(generic, op, _RESET)
        for region in op.regions:
            if region.blocks:
                check_semaphores(generic, region.blocks[0])


def _dm_erasable(block: Block, found: list[Operation]) -> None:
    for op in block.ops:
        if op.has_trait(IsTerminator):
            continue
        if isinstance(op, scf.ForOp):
            _dm_erasable(op.body.block, found)
        elif not isinstance(op, (*SHARD_DMA, SemaphoreWaitOp)):
            found.append(op)


def keep_data_movement(block: Block) -> None:
    """Drop the compute (everything but DMA and replicated waits, outside loop structure) until nothing unused is
    left: compute ops with effects are dropped by thread, not by being dead."""
    while True:
        found: list[Operation] = []
        _dm_erasable(block, found)
        unused = [op for op in found if all(r.first_use is None for r in op.results)]
        if not unused:
            return
        for op in reversed(unused):
            Rewriter.erase_op(op)


def drop_dead(block: Block) -> None:
    while (dead := next((op for op in block.walk() if is_trivially_dead(op) and not op.has_trait(IsTerminator)),
                        None)) is not None:
        Rewriter.erase_op(dead)


def keep_compute(block: Block) -> None:
    # last first: a transfer's wait (data movement too) goes before the transfer it waits for
    for op in reversed([o for o in block.walk() if isinstance(o.attributes.get(THREAD), ThreadAttr)
                        and o.attributes[THREAD].thread == "datamovement"]):
        Rewriter.erase_op(op)
    drop_dead(block)


def split(generic: d2m.GenericOp) -> None:
    check_sync_scope(generic)
    original = generic.regions[0].blocks[0]
    check_semaphores(generic, original)
    regions = []
    for _ in range(2):
        block = Block(arg_types=[a.type for a in original.args])
        mapping = dict(zip(original.args, block.args))
        for op in original.ops:
            block.add_op(op.clone(mapping))
        regions.append(Region(block))
    keep_data_movement(regions[0].blocks[0])
    keep_compute(regions[1].blocks[0])
    attributes = dict(generic.attributes)
    attributes["threads"] = ArrayAttr([ThreadAttr.get("datamovement"), ThreadAttr.get("compute")])
    new = d2m.GenericOp.create(operands=list(generic.operands), result_types=list(generic.result_types),
                               attributes=attributes, properties=dict(generic.properties), regions=regions)
    for op in new.walk():
        op.attributes.pop(THREAD, None)
    derive([new], generic)
    Rewriter.replace_op(generic, new)


@dataclass(frozen=True)
class D2MSplitThreadsPass(ModulePass):
    name: ClassVar[str] = "d2m-split-threads"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for generic in [o for o in op.walk() if isinstance(o, d2m.GenericOp)]:
            if is_unified(generic) and generic.regions[0].blocks:
                split(generic)
