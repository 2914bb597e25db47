"""`--d2m-optimize-dma`: the shard-level DMA of generics' data-movement regions reordered so more transfers are in
flight at once, as upstream's pass does.

1. Barrier coalescing: in each block, each DMA wait (with the push or pop of its CB right after it) sinks past the
   ops it may pass, so the transfers of a run of reads (or writes) are all issued before their barriers. A wait does
   not pass another wait, an op with regions, or an op using it; a read's wait does not pass a CB wait, a write, a
   read or push of its CB, or a semaphore op; a write's wait does not pass a read or write of its CB, a pop of its
   CB or a semaphore set. A push does not pass a reserve or push of its CB, any CB wait, or a DMA wait of its CB; a
   pop does not pass a wait, pop or reserve of its CB, or a DMA wait of its CB.
2. Write barrier deferral: a loop body ending in a (non-multicast) write's wait and the pop of its CB has them moved
   to the next iteration (before that iteration's wait for the CB, or after its last read) under `iv != lb`, the
   transfer carried in a loop value starting as `d2m.null_tx`, and the last one waited for after the loop. Not when
   the body reads the written CB or the written buffer, or writes from that CB twice. The loop must run at least
   once.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import IsTerminator

from ttmlir.dialects import d2m
from ttmlir.dialects.d2m_cb import PopOp, PushOp, ReserveOp, WaitOp
from ttmlir.dialects.d2m_dma import DMAReadOp, DMAWaitOp, DMAWriteOp, SemaphoreIncOp, SemaphoreSetOp, SemaphoreWaitOp
from ttmlir.dialects.d2m_null_tx import NullTxOp
from ttmlir.errors import PassFailure


def _cb_of_block(value: SSAValue | None) -> SSAValue | None:
    """The CB a local block was reserved from or waited for."""
    owner = getattr(value, "owner", None)
    return owner.cb if isinstance(owner, (ReserveOp, WaitOp)) else None


def _cb_of(op: Operation | None) -> SSAValue | None:
    """The CB an op of the protocol acts on (a read's destination block, a write's source block, a wait's transfer)."""
    if isinstance(op, (ReserveOp, PushOp, PopOp, WaitOp)):
        return op.cb
    if isinstance(op, DMAReadOp):
        return _cb_of_block(op.dst)
    if isinstance(op, DMAWriteOp):
        return _cb_of_block(op.src)
    if isinstance(op, DMAWaitOp):
        owner = op.mem_tx.owner
        return _cb_of(owner) if isinstance(owner, Operation) else None
    return None


def _differ(a: SSAValue | None, b: SSAValue | None) -> bool:
    return a is not None and b is not None and a is not b


def _kind(wait: DMAWaitOp) -> str:
    return wait.mem_tx.type.kind.data


def _barrier_may_pass(wait: DMAWaitOp, other: Operation, cb: SSAValue) -> bool:
    if isinstance(other, DMAWaitOp):
        return False
    if _kind(wait) == "read":
        if isinstance(other, (WaitOp, DMAWriteOp, SemaphoreSetOp, SemaphoreWaitOp, SemaphoreIncOp)):
            return False
        if isinstance(other, DMAReadOp):
            return _differ(_cb_of(other), cb)
        if isinstance(other, PushOp):
            return _differ(other.cb, cb)
    elif _kind(wait) == "write":
        if isinstance(other, (DMAReadOp, DMAWriteOp)):
            return _differ(_cb_of(other), cb)
        if isinstance(other, PopOp):
            return _differ(other.cb, cb)
        if isinstance(other, SemaphoreSetOp):
            return False
    return True


def _push_may_pass(other: Operation, cb: SSAValue) -> bool:
    if isinstance(other, (ReserveOp, PushOp)):
        return _differ(other.cb, cb)
    if isinstance(other, WaitOp):
        return False
    if isinstance(other, DMAWaitOp):
        return _differ(_cb_of(other), cb)
    return True


def _pop_may_pass(other: Operation, cb: SSAValue) -> bool:
    if isinstance(other, (WaitOp, PopOp, ReserveOp)):
        return _differ(other.cb, cb)
    if isinstance(other, DMAWaitOp):
        return _differ(_cb_of(other), cb)
    return True


def _may_pass(op: Operation, other: Operation) -> bool:
    """Whether `op` may move past `other` (later in its block) without breaking the DMA ordering."""
    if other.regions or any(use.operation is op for r in other.results for use in r.uses):
        return False
    cb = _cb_of(op)
    if cb is None:
        return False
    if isinstance(op, DMAWaitOp):
        return _barrier_may_pass(op, other, cb)
    if isinstance(op, PushOp):
        return _push_may_pass(other, cb)
    if isinstance(op, PopOp):
        return _pop_may_pass(other, cb)
    return False


def _sink_barriers(block: Block) -> None:
    """Each DMA wait, with the push or pop of its CB right after it, moved as late as it may go (last ones first,
    clearing the way for earlier ones)."""
    groups = []
    for op in block.ops:
        if isinstance(op, DMAWaitOp):
            after = op.next_op
            companion = after if isinstance(after, (PushOp, PopOp)) and _cb_of(op) is not None and \
                _cb_of(after) is _cb_of(op) else None
            groups.append((op, companion))
    for wait, companion in reversed(groups):
        tail = companion or wait
        target, candidate = tail, tail.next_op
        while candidate is not None and not candidate.has_trait(IsTerminator):
            if not _may_pass(wait, candidate) or (companion is not None and not _may_pass(companion, candidate)):
                break
            target, candidate = candidate, candidate.next_op
        if target is not tail:
            moved = [wait, *([companion] if companion else [])]
            for op in moved:
                op.detach()
            block.insert_ops_after(moved, target)


def _sink_all(region: Region) -> None:
    for block in region.blocks:
        _sink_barriers(block)
        for op in list(block.ops):
            for nested in op.regions:
                _sink_all(nested)


def _write_group(body: Block) -> tuple[DMAWaitOp, PopOp, SSAValue, SSAValue] | None:
    """The write's wait and pop of its CB ending a loop body (before the yield), with the CB and written buffer."""
    last = body.last_op
    pop = last.prev_op if last is not None else None
    wait = pop.prev_op if isinstance(pop, PopOp) else None
    if not isinstance(wait, DMAWaitOp) or _kind(wait) != "write":
        return None
    cb, write = _cb_of(wait), wait.mem_tx.owner
    if cb is None or pop.cb is not cb or not isinstance(write, DMAWriteOp):
        return None
    return wait, pop, cb, write.dst


def _deferrable(body: Block, cb: SSAValue, written: SSAValue) -> bool:
    ops = [op for op in body.walk()]
    if any(isinstance(op, DMAReadOp) and (_cb_of_block(op.dst) is cb or op.src is written) for op in ops):
        return False
    return sum(isinstance(op, DMAWriteOp) and _cb_of_block(op.src) is cb for op in ops) <= 1


def _deferral_point(body: Block, cb: SSAValue) -> Operation:
    last_read = None
    for op in body.ops:
        if isinstance(op, WaitOp) and op.cb is cb:
            return op
        if isinstance(op, DMAReadOp):
            last_read = op
    return last_read.next_op if last_read is not None else body.first_op


def _constant(value: SSAValue) -> int | None:
    owner = value.owner
    return owner.value.value.data if isinstance(owner, arith.ConstantOp) else None


def _defer_one(loop: scf.ForOp) -> scf.ForOp | None:
    """The loop with one write barrier moved into its next iteration (None when it has none to defer)."""
    body = loop.body.block
    group = _write_group(body)
    if group is None:
        return None
    wait, pop, cb, written = group
    if not _deferrable(body, cb, written):
        return None
    lb, ub = _constant(loop.lb), _constant(loop.ub)
    if lb is not None and ub is not None and ub <= lb:
        raise PassFailure(loop, "write barrier deferral requires loop to execute at least once")
    before = _deferral_point(body, cb)
    null = NullTxOp.create(result_types=[wait.mem_tx.type])
    Rewriter.insert_op(null, InsertPoint.before(loop))
    current = wait.mem_tx
    Rewriter.erase_op(wait)
    Rewriter.erase_op(pop)
    previous = body.insert_arg(current.type, len(body.args))
    terminator = body.last_op
    Rewriter.replace_op(terminator, scf.YieldOp(*terminator.operands, current))
    region = loop.detach_region(loop.body)
    new_loop = scf.ForOp(loop.lb, loop.ub, loop.step, [*loop.iter_args, null.result], region)
    Rewriter.insert_op(new_loop, InsertPoint.before(loop))
    for old, new in zip(loop.results, new_loop.results):
        old.replace_all_uses_with(new)
    Rewriter.erase_op(loop)
    not_first = arith.CmpiOp(new_loop.body.block.args[0], new_loop.lb, "ne")
    guard = scf.IfOp(not_first.result, [], Region(Block([DMAWaitOp.create(operands=[previous]),
                                                         PopOp.create(operands=[cb]), scf.YieldOp()])))
    Rewriter.insert_op([not_first, guard], InsertPoint.before(before))
    Rewriter.insert_op([DMAWaitOp.create(operands=[new_loop.results[-1]]), PopOp.create(operands=[cb])],
                       InsertPoint.after(new_loop))
    return new_loop


@dataclass(frozen=True)
class D2MOptimizeDMAPass(ModulePass):
    """Barrier coalescing and write barrier deferral in generics' data-movement regions (see the module doc)."""

    name: ClassVar[str] = "d2m-optimize-dma"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for generic in [g for g in op.walk() if isinstance(g, d2m.GenericOp)]:
            threads = generic.attributes["threads"].data
            for thread, region in zip(threads, generic.regions):
                if thread.thread != "datamovement" or not region.blocks:
                    continue
                _sink_all(region)
                for loop in [o for o in region.walk() if isinstance(o, scf.ForOp)]:
                    while loop is not None:
                        loop = _defer_one(loop)
