"""`--d2m-assign-threads` (the first stage of `--d2m-split-unified-thread`): in a generic of one unified region, the
loads, stores and local copies whose local buffers are the generic's circular buffers (its additional arguments)
take explicit-CB form (`d2m.remote_load %src[...] into %cb`, the CB from `d2m.get_cb(i)` of that operand, made at
the top of the region if the region has none), and each op is tagged with the thread it will run on:
`{d2m.thread = #d2m.thread<datamovement>}` for data movement, `<compute>` for compute (`linalg.generic`s and tile
ops). Ops of neither kind (structure, indices, `d2m.semaphore_wait`) stay untagged: every thread gets them. A load or
store of a buffer aliased to its own operand in place (`d2m.operand_alias`) moves no data: it keeps its implicit form
(tagged datamovement). The region is not split here."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import DenseArrayBase, IntegerAttr, ModuleOp, i32, i64
from xdsl.ir import Block, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ttmlir.dialects import d2m
from ttmlir.dialects.d2m_args import ResolutionStageAttr
from ttmlir.dialects.d2m_cb import CBType, GetCBOp, ThreadAttr
from ttmlir.dialects.d2m_dma import DMAReadOp, DMAWriteOp, IndexedRowCopyOp, LocalCopyOp
from ttmlir.errors import derive
from ttmlir.transforms.d2m.cb_ports import COMPUTE, SHARD_DMA, aliased, operand_index

THREAD = "d2m.thread"
DATA_MOVEMENT = (*SHARD_DMA, DMAReadOp, DMAWriteOp, IndexedRowCopyOp)


def cb_of(generic: d2m.GenericOp, block: Block, index: int) -> SSAValue:
    """The region's handle on the CB of operand `index`: its `d2m.get_cb`, or a new one at the region's top."""
    for op in block.walk():
        if isinstance(op, GetCBOp) and op.cb_operand_idx.value.data == index:
            return op.result
    get = GetCBOp.create(properties={"cb_operand_idx": IntegerAttr(index, i64),
                                     "resolution_stage": ResolutionStageAttr("compile")},
                         result_types=[CBType(generic.operands[index].type)])
    derive([get], generic)
    Rewriter.insert_op(get, InsertPoint.at_start(block))
    return get.result


def _segments(*groups) -> DenseArrayBase:
    return DenseArrayBase.from_list(i32, [len(g) for g in groups])


def to_explicit_cb(generic: d2m.GenericOp, block: Block) -> None:
    for load in [o for o in block.walk() if isinstance(o, d2m.RemoteLoadOp)]:
        if load.cb is not None or aliased(load):
            continue
        cb = cb_of(generic, block, operand_index(generic, load.local, load))
        new = d2m.RemoteLoadOp.create(
            operands=[load.source, *load.indices, cb, *load.mcast_start, *load.mcast_shape],
            attributes=dict(load.attributes), properties={"operandSegmentSizes": _segments(
                [], [load.source], load.indices, [cb], load.mcast_start, load.mcast_shape, [])})
        derive([new], load)
        Rewriter.replace_op(load, new, [None] * len(load.results))
    for store in [o for o in block.walk() if isinstance(o, d2m.RemoteStoreOp)]:
        if store.cb is not None or aliased(store):
            continue
        cb = cb_of(generic, block, operand_index(generic, store.local, store))
        new = d2m.RemoteStoreOp.create(operands=[store.dest, *store.indices, cb], attributes=dict(store.attributes),
                                       properties={"operandSegmentSizes": _segments([store.dest], store.indices, [],
                                                                                    [cb])})
        derive([new], store)
        Rewriter.replace_op(store, new, [None] * len(store.results))
    for copy in [o for o in block.walk() if isinstance(o, LocalCopyOp)]:
        if copy.is_explicit_cb_form():
            continue
        src = cb_of(generic, block, operand_index(generic, copy.src, copy))
        dst = cb_of(generic, block, operand_index(generic, copy.dst, copy))
        new = LocalCopyOp.create(operands=[src, dst], attributes=dict(copy.attributes), properties={
            "indexing_maps": copy.indexing_maps, "operandSegmentSizes": _segments([], [], [src], [dst])})
        derive([new], copy)
        Rewriter.replace_op(copy, new, [None] * len(copy.results))


def thread_of(op: Operation) -> str | None:
    """The thread an op runs on, or None for ops every thread gets."""
    if isinstance(op, DATA_MOVEMENT):
        return "datamovement"
    if isinstance(op, COMPUTE):
        return "compute"
    return None


@dataclass(frozen=True)
class D2MAssignThreadsPass(ModulePass):
    name: ClassVar[str] = "d2m-assign-threads"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for generic in [o for o in op.walk() if isinstance(o, d2m.GenericOp)]:
            threads = generic.attributes.get("threads")
            if len(generic.regions) != 1 or not generic.regions[0].blocks or threads is None or \
                    not isinstance(threads.data[0], ThreadAttr) or threads.data[0].thread != "unified":
                continue
            to_explicit_cb(generic, generic.regions[0].blocks[0])
            for inner in generic.regions[0].walk():
                if (thread := thread_of(inner)) is not None:
                    inner.attributes[THREAD] = ThreadAttr.get(thread)
