"""`--d2m-insert-compute-cb` (the third stage of `--d2m-split-unified-thread`): in a split generic (data movement,
compute), the compute thread gets its side of the circular-buffer protocol: one `d2m.wait`/`d2m.pop` around all the
reads of each CB it consumes, one `d2m.reserve`/`d2m.push` around all the writes of each CB it produces, the accesses
then naming the block the wait/reserve returned. Reads and writes are found on synchronizable compute ops
(`linalg.generic`, tilize blocks), on lowered compute (memref loads/stores and tile ops in scf.for nests, traced
through collapse_shape/subview to the CB) and on other ops naming a CB. The pair sits at the loop depth the data
movement transfers the CB at (the top of the region for a CB moved once). A load or store aliased in place moves no
data: the compute thread supplies the missing half (reserve/push before its reads, wait/pop after its writes, or both
at the end if it does not touch the CB) and the marker is dropped from the data-movement thread."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects import memref, scf
from xdsl.dialects.builtin import ArrayAttr, MemRefType, ModuleOp
from xdsl.ir import Block, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import IsTerminator

from ttmlir.dialects import d2m
from ttmlir.dialects.d2m_cb import PopOp, PushOp, ReserveOp, ThreadAttr, WaitOp
from ttmlir.errors import PassFailure, derive
from ttmlir.transforms.d2m.cb_ports import (SHARD_DMA, TILE_COMPUTE, aliased, dma_cb_port, for_depth, in_block,
                                            is_local_buffer)
from ttmlir.transforms.d2m.d2m_assign_threads import cb_of
from ttmlir.transforms.d2m.d2m_split_threads import VIEWS, drop_dead
from ttmlir.transforms.d2m.synchronizable import consumed, is_synchronizable, produced

Use = tuple[Operation, int]  # an op and the index of its operand naming a CB (or a view of it)


@dataclass
class _Sync:
    anchors: list[Operation] = field(default_factory=list)
    uses: list[Use] = field(default_factory=list)

    def add(self, anchor: Operation, use: Use) -> None:
        if not self.anchors or self.anchors[-1] is not anchor:
            self.anchors.append(anchor)
        self.uses.append(use)


def _trace(generic: d2m.GenericOp, op: Operation, index: int) -> tuple[SSAValue, Use] | None:
    """The CB (an additional argument) an operand reads or writes, through views, and the operand naming it."""
    use, value = (op, index), op.operands[index]
    while True:
        if isinstance(value.type, MemRefType) and value in generic.additional_args:
            return None if is_local_buffer(value) else (value, use)
        owner = value.owner
        if not isinstance(owner, Operation) or not generic.is_ancestor(owner):
            return None
        if not isinstance(owner, VIEWS):
            return None
        use, value = (owner, 0), owner.operands[0]


def _matmul_block(op: Operation) -> bool:
    return op.name == "d2m.tile_matmul_block"


def _spans(block: Block, generic: d2m.GenericOp) -> list[Operation]:
    """The outermost non-synchronizable op around each tile compute op (a lowered loop nest, or a bare op)."""
    holders = {op.parent_op() for op in block.walk() if is_synchronizable(op)}
    spans = []
    for op in block.walk():
        if not isinstance(op, TILE_COMPUTE):
            continue
        outer = op
        while outer.parent_op() is not generic and outer.parent_op() not in holders:
            outer = outer.parent_op()
        if not is_synchronizable(outer) and outer not in spans:
            spans.append(outer)
    return spans


def _accesses(generic: d2m.GenericOp, ops, consumers: dict, producers: dict) -> None:
    """Loads read, stores (and a matmul block's output) write; a CB written here is not also a read."""
    read: dict[SSAValue, list] = {}
    written: dict[SSAValue, list] = {}
    for op in ops:
        traced = []
        if isinstance(op, memref.LoadOp):
            traced = [(_trace(generic, op, 0), read)]
        elif isinstance(op, memref.StoreOp):
            traced = [(_trace(generic, op, 1), written)]
        elif _matmul_block(op):
            last = len(op.operands) - 1
            traced = [(_trace(generic, op, i), written if i == last else read) for i in range(len(op.operands))]
        for found, into in traced:
            if found is not None:
                into.setdefault(found[0], []).append((op, found[1]))
    for cb in written:
        read.pop(cb, None)
    for side, into in ((read, consumers), (written, producers)):
        for cb, accesses in side.items():
            for op, use in accesses:
                into.setdefault(cb, _Sync()).add(op, use)


def _scope_block(sync: _Sync, depth: int, block: Block) -> Block | None:
    """The compute block at loop depth `depth` holding the CB's accesses (the region's block at depth 0)."""
    if depth == 0:
        return block
    for op in [*sync.anchors, *(owner for owner, _ in sync.uses)]:
        if for_depth(op) < depth:
            continue
        bodies = []
        inner = op
        while inner.parent_block() is not block:
            if isinstance(inner.parent_op(), scf.ForOp):
                bodies.append(inner.parent_op().body.block)
            inner = inner.parent_op()
        return list(reversed(bodies))[depth - 1]
    return None


def insert(generic: d2m.GenericOp, block: Block, aliased_loads: list, aliased_stores: list, depths: dict) -> None:
    consumers: dict[SSAValue, _Sync] = {}
    producers: dict[SSAValue, _Sync] = {}
    spans = _spans(block, generic)
    for span in spans:
        _accesses(generic, list(span.walk()), consumers, producers)
    covered = {op for span in spans for op in span.walk()}
    _accesses(generic, [op for op in block.walk() if op not in covered], consumers, producers)
    for op in block.walk():
        if not is_synchronizable(op) or isinstance(op, SHARD_DMA) or any(p in covered for p in _ancestors(op)):
            continue
        for i, value in enumerate(op.operands):
            # a CB is one of the generic's buffer arguments (a block a wait/reserve returned is already synchronized)
            if value not in generic.additional_args or is_local_buffer(value):
                continue
            if value in consumed(op):
                consumers.setdefault(value, _Sync()).add(op, (op, i))
            if value in produced(op):
                producers.setdefault(value, _Sync()).add(op, (op, i))
    direct: dict[SSAValue, list] = {}
    for op in block.walk():
        if isinstance(op, (memref.LoadOp, memref.StoreOp, *VIEWS, *SHARD_DMA)) or _matmul_block(op) or \
                is_synchronizable(op):
            continue
        for i, value in enumerate(op.operands):
            if isinstance(value.type, MemRefType) and (found := _trace(generic, op, i)) is not None:
                direct.setdefault(found[0], []).append((op, found[1]))
    for cb, accesses in direct.items():
        into = consumers if cb in consumers else producers
        for op, use in accesses:
            into.setdefault(cb, _Sync()).add(op, use)

    order = {op: i for i, op in enumerate(block.walk())}

    def bracket(sync: _Sync, scope: Block, skip_views: bool):
        boundary, views = [], []
        for anchor in sync.anchors:
            boundary.append(in_block(scope, anchor))
            if isinstance(anchor, memref.LoadOp):
                boundary += [in_block(scope, u.operation) for u in anchor.res.uses]
        for owner, _ in sync.uses:
            (views if skip_views and isinstance(owner, VIEWS) else boundary).append(in_block(scope, owner))
        boundary = [op for op in boundary if op is not None] or [op for op in views if op is not None]
        if not boundary:
            return None, None
        boundary.sort(key=lambda op: order[op])
        return boundary[0], boundary[-1]

    for cb, sync in consumers.items():
        index = list(generic.operands).index(cb)
        scope = _scope_block(sync, depths.get(index, 0), block)
        if scope is None:
            raise PassFailure(generic, "'d2m.generic' op CB has consumers across distinct loop nests; cross-nest "
                                       "fan-out is not yet supported (would deadlock on a wait/pop cadence mismatch)")
        first, last = bracket(sync, scope, cb in producers)
        if first is None:
            continue
        handle = cb_of(generic, block, index)
        underlying = handle.type.underlying
        before = []
        if cb in aliased_loads:  # nothing transfers it in: compute hands the block over itself
            before += [ReserveOp.create(operands=[handle], result_types=[underlying]),
                       PushOp.create(operands=[handle])]
        wait = WaitOp.create(operands=[handle], result_types=[underlying])
        pop = PopOp.create(operands=[handle])
        derive([*before, wait, pop], generic)
        Rewriter.insert_op([*before, wait], InsertPoint.before(first))
        Rewriter.insert_op(pop, InsertPoint.after(last))

        def after_wait(op: Operation) -> bool:
            holder = in_block(wait.parent_block(), op)
            return holder is not None and holder is not wait and wait.is_before_in_block(holder)

        for owner, i in sync.uses:
            if isinstance(owner, VIEWS) and not after_wait(owner):
                clone = owner.clone()
                Rewriter.insert_op(clone, InsertPoint.after(wait))
                clone.operands[i] = wait.results[0]
                for use in list(owner.results[0].uses):
                    if use.operation is not clone and after_wait(use.operation):
                        use.operation.operands[use.index] = clone.results[0]
                continue
            owner.operands[i] = wait.results[0]

    for cb, sync in producers.items():
        index = list(generic.operands).index(cb)
        scope = _scope_block(sync, depths.get(index, 0), block)
        if scope is None:
            raise PassFailure(generic, "'d2m.generic' op CB has producers across distinct loop nests; cross-nest "
                                       "fan-out is not yet supported (would deadlock on a reserve/push cadence "
                                       "mismatch)")
        first, last = bracket(sync, scope, False)
        if first is None:
            continue
        handle = cb_of(generic, block, index)
        underlying = handle.type.underlying
        reserve = ReserveOp.create(operands=[handle], result_types=[underlying])
        after = [PushOp.create(operands=[handle])]
        if cb in aliased_stores:  # nothing transfers it out: compute takes the block back itself
            after += [WaitOp.create(operands=[handle], result_types=[underlying]), PopOp.create(operands=[handle])]
        derive([reserve, *after], generic)
        Rewriter.insert_op(reserve, InsertPoint.before(first))
        Rewriter.insert_op(after, InsertPoint.after(last))
        for owner, i in sync.uses:
            if owner.parent_block() is not scope and not scope.parent_region().is_ancestor(owner):
                owner.detach()
                Rewriter.insert_op(owner, InsertPoint.after(reserve))  # a hoisted view, next to the reserve
            owner.operands[i] = reserve.results[0]

    last_op = block.last_op
    end = InsertPoint.before(last_op) if last_op is not None and last_op.has_trait(IsTerminator) else \
        InsertPoint.at_end(block)
    for cb in aliased_loads:
        if cb not in consumers:
            handle = cb_of(generic, block, list(generic.operands).index(cb))
            ops = [ReserveOp.create(operands=[handle], result_types=[handle.type.underlying]),
                   PushOp.create(operands=[handle])]
            derive(ops, generic)
            Rewriter.insert_op(ops, end)
    for cb in aliased_stores:
        if cb not in producers:
            handle = cb_of(generic, block, list(generic.operands).index(cb))
            ops = [WaitOp.create(operands=[handle], result_types=[handle.type.underlying]),
                   PopOp.create(operands=[handle])]
            derive(ops, generic)
            Rewriter.insert_op(ops, end)


def _ancestors(op: Operation):
    while op is not None:
        yield op
        op = op.parent_op()


def is_split(generic: d2m.GenericOp) -> bool:
    threads = generic.attributes.get("threads")
    return len(generic.regions) == 2 and isinstance(threads, ArrayAttr) and \
        [t.thread for t in threads.data if isinstance(t, ThreadAttr)] == ["datamovement", "compute"]


@dataclass(frozen=True)
class D2MInsertComputeCBPass(ModulePass):
    name: ClassVar[str] = "d2m-insert-compute-cb"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for generic in [o for o in op.walk() if isinstance(o, d2m.GenericOp) and is_split(o)]:
            dm, compute = (r.blocks[0] for r in generic.regions)
            markers = [o for o in dm.walk() if aliased(o)]
            aliased_loads = [m.local for m in markers if isinstance(m, d2m.RemoteLoadOp)]
            aliased_stores = [m.local for m in markers if isinstance(m, d2m.RemoteStoreOp)]
            depths = {dma_cb_port(generic, o): for_depth(o) for o in dm.walk() if isinstance(o, SHARD_DMA)}
            insert(generic, compute, aliased_loads, aliased_stores, depths)
            for marker in markers:
                Rewriter.erase_op(marker)
            drop_dead(dm)
