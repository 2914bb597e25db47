"""`--d2m-lower-load-store-ops-to-dma`: the loads and stores of a generic in explicit-CB form become shard-level DMA
under the circular-buffer protocol (grid indices only; `--d2m-lower-dma-to-fully-indexed-form` adds addresses):

- `d2m.remote_load %src[%i, %j] into %cb`: reserve a block of `%cb`, `d2m.dma_read` the shard into it, wait, push;
- a multicast load (`mcore[...] mshape[...]`, its two semaphores given by `--d2m-preallocate-mcast-semaphores`):
  the core at `mcore` reads the shard, waits until the other `prod(mshape) - 1` cores are ready, multicasts it
  (`d2m.dma_write ... core[...] mcast[...]`) and sets their second semaphore; every other core increments the
  sender's first semaphore and waits on its second (both reserve and push the block);
- `d2m.remote_store %dst[%i, %j] from %cb`: wait for a block of `%cb`, `d2m.dma_write` it to the shard, wait, pop;
- `d2m.local_copy from %a into %b`: wait for a block of `%a`, reserve one of `%b`, copy between them, wait, push
  `%b`, pop `%a`.

Loads and stores of implicit form (a local buffer, not a CB) are left for the passes that make CBs."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import ArrayAttr, DenseArrayBase, IndexType, IntegerAttr, MemRefType, ModuleOp, i32, i64
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (GreedyRewritePatternApplier, PatternRewriter, PatternRewriteWalker,
                                   RewritePattern, op_type_rewrite_pattern)

from ttmlir.dialects import d2m
from ttmlir.dialects.d2m_cb import LocalSemaphoreType, PopOp, PushOp, ReserveOp, WaitOp
from ttmlir.dialects.d2m_dma import (DMAReadOp, DMAWaitOp, DMAWriteOp, LocalCopyOp, SemaphoreIncOp, SemaphoreSetOp,
                                     SemaphoreWaitOp, mem_tx)
from ttmlir.dialects.d2m_index import CoreIndexOp
from ttmlir.errors import PassFailure, derive
from ttmlir.transforms.d2m.d2m_preallocate_mcast_semaphores import PREALLOCATED


def _index(value: int, at: Operation) -> tuple[SSAValue, list[Operation]]:
    """An index constant for use at `at`: one already defined before it (in its block or an enclosing one), as a
    greedy rewrite dedups constants, else a new one (returned to be inserted)."""
    op = at
    while op is not None:
        for other in op.parent_block().ops if op.parent_block() else ():
            if other is op:
                break
            if isinstance(other, arith.ConstantOp) and other.result.type == IndexType() and \
                    isinstance(other.value, IntegerAttr) and other.value.value.data == value:
                return other.result, []
        op = op.parent_op()
    made = arith.ConstantOp.from_int_and_width(value, IndexType())
    return made.result, [made]


def _semaphores(load: d2m.RemoteLoadOp) -> tuple[SSAValue, SSAValue]:
    """The multicast load's (receivers ready, sender finished) semaphores, operands of its generic."""
    numbers = load.attributes.get(PREALLOCATED)
    generic = load.parent_op()
    while generic is not None and not isinstance(generic, d2m.GenericOp):
        generic = generic.parent_op()
    if not isinstance(numbers, ArrayAttr) or len(numbers.data) != 2 or generic is None:
        raise PassFailure(load, "'d2m.remote_load' op a multicast load needs its preallocated_semaphores (run "
                                "--d2m-preallocate-mcast-semaphores first)")
    values = []
    for number in numbers.data:
        index = number.value.data if isinstance(number, IntegerAttr) else -1
        if not 0 <= index < len(generic.operands) or not isinstance(generic.operands[index].type,
                                                                     LocalSemaphoreType):
            raise PassFailure(load, f"'d2m.remote_load' op preallocated semaphore {index} is not a local semaphore "
                                    f"operand of its generic")
        values.append(generic.operands[index])
    return values[0], values[1]


class LowerRemoteLoad(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, load: d2m.RemoteLoadOp, rewriter: PatternRewriter) -> None:
        if load.cb is None:
            return
        if not isinstance(load.source.type, MemRefType):
            raise PassFailure(load, "'d2m.remote_load' op remote operand must be a memref at this stage")
        if load.mcast:
            raise PassFailure(load, "'d2m.remote_load' op multicast along grid dims (mcast[...]) must be lowered to "
                                    "mcore[...] mshape[...] first (--d2m-lower-multicast-loads)")
        ops = self.multicast(load) if load.mcast_start else self.unicast(load)
        derive(ops, load)
        rewriter.replace_op(load, ops, [])

    @staticmethod
    def unicast(load: d2m.RemoteLoadOp) -> list[Operation]:
        reserve = ReserveOp.create(operands=[load.cb], result_types=[load.cb.type.underlying])
        read = DMAReadOp.get(load.source, load.indices, reserve.result)
        return [reserve, read, DMAWaitOp.create(operands=[read.result]), PushOp.create(operands=[load.cb])]

    @staticmethod
    def multicast(load: d2m.RemoteLoadOp) -> list[Operation]:
        ready, finished = _semaphores(load)
        zero, made_zero = _index(0, load)
        one, made_one = _index(1, load)
        ops: list[Operation] = [*made_zero, *made_one]
        volume = load.mcast_shape[0]  # the product of the extents (written without a fold-away `1 *`)
        for extent in load.mcast_shape[1:]:
            product = arith.MuliOp(volume, extent)
            ops.append(product)
            volume = product.result
        receivers = arith.SubiOp(volume, one)
        ops.append(receivers)
        is_sender = None
        for dim, start in enumerate(load.mcast_start):
            core = CoreIndexOp.create(properties={"dim": IntegerAttr(dim, i64)},
                                      result_types=[IndexType()])
            here = arith.CmpiOp(core.result, start, "eq")
            ops += [core, here]
            if is_sender is None:
                is_sender = here.result
            else:
                both = arith.AndIOp(is_sender, here.result)
                ops.append(both)
                is_sender = both.result
        reserve = ReserveOp.create(operands=[load.cb], result_types=[load.cb.type.underlying])
        block = reserve.result
        read = DMAReadOp.get(load.source, load.indices, block)
        cast = DMAWriteOp.get(block, [], block, [], load.mcast_start, load.mcast_shape)
        sender = [read, DMAWaitOp.create(operands=[read.result]),
                  SemaphoreWaitOp.create(operands=[ready, receivers.result, zero]),
                  cast, DMAWaitOp.create(operands=[cast.result]),
                  SemaphoreSetOp.get(finished, one, load.mcast_start, load.mcast_shape), scf.YieldOp()]
        receiver = [SemaphoreIncOp.get(ready, one, load.mcast_start),
                    SemaphoreWaitOp.create(operands=[finished, one, zero]), scf.YieldOp()]
        branch = scf.IfOp(is_sender, [], Region(Block(sender)), Region(Block(receiver)))
        return [*ops, reserve, branch, PushOp.create(operands=[load.cb])]


class LowerRemoteStore(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, store: d2m.RemoteStoreOp, rewriter: PatternRewriter) -> None:
        if store.cb is None:
            return
        if not isinstance(store.dest.type, MemRefType):
            raise PassFailure(store, "'d2m.remote_store' op remote operand must be a memref at this stage")
        wait = WaitOp.create(operands=[store.cb], result_types=[store.cb.type.underlying])
        write = DMAWriteOp.get(wait.result, [], store.dest, store.indices)
        ops = [wait, write, DMAWaitOp.create(operands=[write.result]), PopOp.create(operands=[store.cb])]
        derive(ops, store)
        rewriter.replace_op(store, ops, [])


class LowerLocalCopy(RewritePattern):
    """A copy between circular buffers: wait for the source block, reserve the destination's, copy, wait, push the
    destination, pop the source."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, copy: LocalCopyOp, rewriter: PatternRewriter) -> None:
        if not copy.is_explicit_cb_form():
            return
        wait = WaitOp.create(operands=[copy.src_cb], result_types=[copy.src_cb.type.underlying])
        reserve = ReserveOp.create(operands=[copy.dst_cb], result_types=[copy.dst_cb.type.underlying])
        moved = LocalCopyOp.create(operands=[wait.result, reserve.result], result_types=[mem_tx("read")],
                                   properties={"indexing_maps": copy.indexing_maps,
                                               "operandSegmentSizes": DenseArrayBase.from_list(i32, [1, 1, 0, 0])})
        ops = [wait, reserve, moved, DMAWaitOp.create(operands=[moved.result]),
               PushOp.create(operands=[copy.dst_cb]), PopOp.create(operands=[copy.src_cb])]
        derive(ops, copy)
        rewriter.replace_op(copy, ops, [])


@dataclass(frozen=True)
class D2MLowerLoadStoreOpsToDMAPass(ModulePass):
    name: ClassVar[str] = "d2m-lower-load-store-ops-to-dma"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(GreedyRewritePatternApplier([LowerRemoteLoad(), LowerRemoteStore(), LowerLocalCopy()]),
                             apply_recursively=False).rewrite_module(op)
