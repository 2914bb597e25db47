"""`--d2m-insert-scratch-buffers`: a fused generic (one computing, whose region holds more than one
`linalg.generic`) gets an L1 scratch buffer to spill intermediates to: `memref.alloc() {d2m.scratch_buffer} :
memref<1xNx!tile, #l1>` and its `d2m.scratch_init` anchor at the top of the region, N tiles of the first tiled input
(or output) making 128 KB. A `d2m.blocking_map` that fusion left on a region's `linalg.generic` moves onto the allocs
it writes, where the allocator reads it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects import linalg
from xdsl.dialects.builtin import MemRefType, ModuleOp, NoneAttr, UnitAttr
from xdsl.dialects.memref import AllocOp
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ttmlir import hardware
from ttmlir.dialects import d2m, ttcore
from ttmlir.dialects.d2m_scratch import ScratchInitOp
from ttmlir.errors import derive
from ttmlir.transforms.d2m.cb_ports import TILE_COMPUTE

SCRATCH_BYTES = 128 * 1024
BLOCKING_MAP = "d2m.blocking_map"


def _tiled_reference(generic: d2m.GenericOp) -> MemRefType | None:
    for group in (generic.inputs, generic.outputs):
        for value in group:
            if isinstance(value.type, MemRefType) and isinstance(value.type.element_type, ttcore.TileType):
                return value.type
    return None


def transfer_blocking_maps(generic: d2m.GenericOp) -> None:
    if not generic.regions or not generic.regions[0].blocks:
        return
    for op in generic.regions[0].blocks[0].ops:
        if isinstance(op, linalg.GenericOp) and BLOCKING_MAP in op.attributes:
            blocking = op.attributes.pop(BLOCKING_MAP)
            for init in op.outputs:
                if isinstance(init.owner, AllocOp):
                    init.owner.attributes[BLOCKING_MAP] = blocking


def add_scratch(generic: d2m.GenericOp) -> None:
    if not any(isinstance(op, TILE_COMPUTE) for region in generic.regions for op in region.walk()):
        return  # no compute: nothing to spill
    if sum(isinstance(op, linalg.GenericOp) for op in generic.regions[0].walk()) <= 1:
        return
    reference = _tiled_reference(generic)
    if reference is None:
        return
    tile = reference.element_type
    tiles = max(SCRATCH_BYTES // hardware.tile_bytes(tile.dtype), 1)
    l1 = ttcore.MemorySpaceAttr(ttcore.MemorySpaceAttr.enum_type("l1"))
    scratch = AllocOp([], [], MemRefType(tile, [1, tiles], NoneAttr(), l1))
    scratch.attributes["d2m.scratch_buffer"] = UnitAttr()
    init = ScratchInitOp.create(operands=[scratch.memref])
    derive([scratch, init], generic)
    Rewriter.insert_op([scratch, init], InsertPoint.at_start(generic.regions[0].blocks[0]))


@dataclass(frozen=True)
class D2MInsertScratchBuffersPass(ModulePass):
    name: ClassVar[str] = "d2m-insert-scratch-buffers"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for generic in [o for o in op.walk() if isinstance(o, d2m.GenericOp)]:
            transfer_blocking_maps(generic)
            if generic.regions:
                add_scratch(generic)
