"""`--d2m-preallocate-mcast-semaphores`: every multicast `d2m.remote_load` of a generic (one with `mcore[...]
mshape[...]`, in a region's body or its `scf.for` nests) gets two local semaphores of its own, made before the
generic (`d2m.create_local_semaphore <{initialValue = 0 : ui32}>`) and appended to its `additionalArgs`: receivers
signal on the first that they are ready, the sender on the second that the data has landed. The load records their
operand numbers in the generic (`{preallocated_semaphores = [2, 3]}`), so the passes that split regions and lower
the load to DMA find them. A generic whose loads already carry them is left alone."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects import scf
from xdsl.dialects.builtin import ArrayAttr, DenseArrayBase, IntegerAttr, ModuleOp, i32, i64
from xdsl.ir import Block
from xdsl.passes import ModulePass

from ttmlir.dialects import d2m
from ttmlir.dialects.d2m_semaphore import CreateLocalSemaphoreOp
from ttmlir.errors import derive

PREALLOCATED = "preallocated_semaphores"


def _mcast_loads(block: Block) -> list[d2m.RemoteLoadOp]:
    loads = []
    for op in block.ops:
        if isinstance(op, scf.ForOp):
            loads += _mcast_loads(op.body.block)
        elif isinstance(op, d2m.RemoteLoadOp) and op.mcast_start and op.mcast_shape:
            loads.append(op)
    return loads


def append_additional_args(generic: d2m.GenericOp, values) -> None:
    """`values` added at the end of the generic's additionalArgs."""
    generic.operands = [*generic.operands, *values]
    generic.properties["operandSegmentSizes"] = DenseArrayBase.from_list(
        i32, [len(generic.inputs), len(generic.outputs), len(generic.additional_args) + len(values)])


@dataclass(frozen=True)
class D2MPreallocateMcastSemaphoresPass(ModulePass):
    name: ClassVar[str] = "d2m-preallocate-mcast-semaphores"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for generic in [o for o in op.walk() if isinstance(o, d2m.GenericOp)]:
            loads = [load for region in generic.regions if region.blocks for load in _mcast_loads(region.blocks[0])]
            if not loads or any(PREALLOCATED in load.attributes for load in loads):
                continue
            for load in loads:
                first = len(generic.operands)
                semaphores = [CreateLocalSemaphoreOp.get(0), CreateLocalSemaphoreOp.get(0)]
                derive(semaphores, generic)
                generic.parent_block().insert_ops_before(semaphores, generic)
                append_additional_args(generic, [s.result for s in semaphores])
                load.attributes[PREALLOCATED] = ArrayAttr([IntegerAttr(first, i64), IntegerAttr(first + 1, i64)])
