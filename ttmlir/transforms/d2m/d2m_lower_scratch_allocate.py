"""`--d2m-lower-scratch-allocate`: each `d2m.scratch_allocate` slot of a generic region becomes a rank-reducing
`memref.subview` of the region's scratch buffer (the `memref<1xN>` its `d2m.scratch_init` names), and the anchor is
erased. Slots are laid out largest first (by slot id among equals): a slot takes the next free offset, and a smaller
slot whose uses lie wholly outside that slot's (the uses' span over the region in program order) is packed inside its
footprint instead. A slot of rank above one is the subview expanded to its shape (`memref.expand_shape`). A region
whose slots need more elements than the buffer holds is refused: `'d2m.generic' op peak scratch usage (10
elements) exceed scratch buffer capacity (8 elements)`."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import (ArrayAttr, DenseArrayBase, IntegerAttr, MemRefType, ModuleOp, NoneAttr,
                                   StridedLayoutAttr, i64)
from xdsl.dialects.memref import ExpandShapeOp, SubviewOp
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass

from ttmlir.dialects import d2m
from ttmlir.dialects.d2m_scratch import ScratchAllocateOp, ScratchInitOp
from ttmlir.errors import PassFailure, derive


@dataclass
class _Slot:
    op: ScratchAllocateOp
    size: int
    start: int
    end: int
    offset: int = 0
    packed: bool = False

    def overlaps(self, other: "_Slot") -> bool:
        return self.start <= other.end and other.start <= self.end


def _layout(slots: list[_Slot]) -> int:
    """Offsets first fit, largest first, packing smaller slots of disjoint lifetimes into a larger one's footprint;
    the elements the layout needs."""
    top = 0
    for i, outer in enumerate(slots):
        if outer.packed:
            continue
        outer.offset, inner = top, top
        for slot in slots[i + 1:]:
            if not slot.packed and not outer.overlaps(slot) and inner + slot.size <= top + outer.size:
                slot.packed, slot.offset = True, inner
                inner += slot.size
        top += outer.size
    return top


def _strided(wanted: MemRefType, shape, offset: int) -> MemRefType:
    """`wanted`'s elements and memory space in `shape`, row-major at `offset` elements into the scratch buffer."""
    strides = [math.prod(shape[i + 1:]) for i in range(len(shape))]
    layout = StridedLayoutAttr(strides, offset) if offset else NoneAttr()
    return MemRefType(wanted.element_type, shape, layout, wanted.memory_space)


def _subview(scratch: SSAValue, slot: _Slot) -> list[Operation]:
    """The slot's elements of the `1xN` scratch buffer, as a memref of the slot's type (strided at its offset)."""
    wanted: MemRefType = slot.op.result.type
    view = SubviewOp.get(scratch, [0, slot.offset], [1, slot.size], [1, 1], _strided(wanted, [slot.size], slot.offset))
    ops: list[Operation] = [view]
    shape = wanted.get_shape()
    if len(shape) > 1:
        ops.append(ExpandShapeOp.create(
            operands=[view.result], result_types=[_strided(wanted, shape, slot.offset)],
            properties={"reassociation": ArrayAttr([ArrayAttr([IntegerAttr(i, i64) for i in range(len(shape))])]),
                        "static_output_shape": DenseArrayBase.from_list(i64, shape)}))
    return ops


@dataclass(frozen=True)
class D2MLowerScratchAllocatePass(ModulePass):
    name: ClassVar[str] = "d2m-lower-scratch-allocate"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for generic in [o for o in op.walk() if isinstance(o, d2m.GenericOp) and o.regions]:
            self.lower(generic)

    @staticmethod
    def lower(generic: d2m.GenericOp) -> None:
        region = generic.regions[0]
        inits = [o for o in region.walk() if isinstance(o, ScratchInitOp)]
        if not inits:
            return
        init = inits[-1]
        scratch = init.scratch
        if len(scratch.type.get_shape()) != 2 or scratch.type.get_shape()[0] != 1 or \
                not isinstance(scratch.type.layout, NoneAttr):
            raise PassFailure(init, "'d2m.scratch_init' op scratch buffer must be a 1xN memref of the default layout")
        order = {o: i for i, o in enumerate(region.walk())}
        slots = []
        for slot_op in [o for o in region.walk() if isinstance(o, ScratchAllocateOp)]:
            shape = slot_op.result.type.get_shape()
            if any(d < 0 for d in shape):
                raise PassFailure(slot_op, "'d2m.scratch_allocate' op scratch slots must have a static shape")
            uses = [order[u.operation] for u in slot_op.result.uses] or [order[slot_op]]
            slots.append(_Slot(slot_op, math.prod(shape), min(uses), max(uses)))
        slots.sort(key=lambda s: (-s.size, s.op.slot.value.data))
        peak = _layout(slots)
        capacity = math.prod(scratch.type.get_shape())
        if peak > capacity:
            raise PassFailure(generic, f"'d2m.generic' op peak scratch usage ({peak} elements) exceed scratch buffer "
                                       f"capacity ({capacity} elements)")
        for slot in slots:
            ops = _subview(scratch, slot)
            derive(ops, slot.op)
            slot.op.parent_block().insert_ops_before(ops, slot.op)
            slot.op.result.replace_all_uses_with(ops[-1].results[0])
            slot.op.detach()
            slot.op.erase()
        init.detach()
        init.erase()
