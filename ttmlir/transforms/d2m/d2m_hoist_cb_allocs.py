"""`--d2m-hoist-cb-allocs`: after allocation, each circular buffer a generic's region allocates (an alloc marked
`d2m.synchronized_buffer = N` or `d2m.scratch_buffer`, with its address) becomes a buffer of its own outside the
generic, typed `#ttcore.cb_layout<strides, N>` (one buffer for scratch), passed in the generic's `additionalArgs` and
freed (`memref.dealloc`) right after the generic; the region uses the argument. A `d2m.operand_alias` in the region
moves out the same way. Any other alloc in a region, or a CB alloc without an address, is refused."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import IntegerAttr, MemRefType, ModuleOp
from xdsl.dialects.memref import AllocOp, DeallocOp
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ttmlir.dialects import d2m
from ttmlir.dialects.d2m_alias import OperandAliasOp
from ttmlir.dialects.ttcore_cb_layout import CBLayoutAttr
from ttmlir.errors import PassFailure, derive
from ttmlir.transforms.d2m.d2m_allocate import element_bytes
from ttmlir.transforms.d2m.d2m_preallocate_mcast_semaphores import append_additional_args

SYNCHRONIZED, SCRATCH = "d2m.synchronized_buffer", "d2m.scratch_buffer"


def _cb_type(t: MemRefType, buffers: int) -> MemRefType:
    return MemRefType(t.element_type, t.get_shape(), CBLayoutAttr.for_buffer(t, element_bytes(t), buffers),
                      t.memory_space)


def _buffers(alloc: AllocOp) -> int:
    """How many buffers the CB cycles through (a scratch buffer is one)."""
    if SCRATCH in alloc.attributes:
        kind, buffers = "scratch", 1
    elif SYNCHRONIZED in alloc.attributes:
        kind, count = "synchronized", alloc.attributes[SYNCHRONIZED]
        buffers = count.value.data if isinstance(count, IntegerAttr) else 0
    else:
        raise PassFailure(alloc, "unexpected alloc op: expected d2m.scratch_buffer or d2m.synchronized_buffer "
                                 "attribute")
    if not isinstance(alloc.attributes.get("address"), IntegerAttr):
        raise PassFailure(alloc, f"{kind} buffer must have address attribute")
    return buffers


def hoist(generic: d2m.GenericOp) -> None:
    allocs = [o for region in generic.regions for o in region.walk() if isinstance(o, AllocOp)]
    buffers = [_buffers(alloc) for alloc in allocs]
    for alloc, count in zip(allocs, buffers):
        outside = AllocOp.create(result_types=[_cb_type(alloc.memref.type, count)],
                                 attributes=dict(alloc.attributes), properties=dict(alloc.properties))
        free = DeallocOp.get(outside.memref)
        derive([outside, free], alloc)
        Rewriter.insert_op(outside, InsertPoint.before(generic))
        Rewriter.insert_op(free, InsertPoint.after(generic))
        append_additional_args(generic, [outside.memref])
        alloc.memref.replace_all_uses_with(outside.memref)
        Rewriter.erase_op(alloc)
    for alias in [o for o in generic.walk() if isinstance(o, OperandAliasOp)]:
        outside = OperandAliasOp.create(operands=[alias.memref], result_types=[alias.aliased_buffer.type],
                                        attributes=dict(alias.attributes))
        derive([outside], alias)
        Rewriter.insert_op(outside, InsertPoint.before(generic))
        append_additional_args(generic, [outside.aliased_buffer])
        alias.aliased_buffer.replace_all_uses_with(outside.aliased_buffer)
        Rewriter.erase_op(alias)


@dataclass(frozen=True)
class D2MHoistCBAllocsPass(ModulePass):
    name: ClassVar[str] = "d2m-hoist-cb-allocs"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for generic in [o for o in op.walk() if isinstance(o, d2m.GenericOp)]:
            hoist(generic)
