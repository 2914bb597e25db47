"""`--d2m-insert-scratch-buffers`: a compute generic fused from several linalg.generic ops gets an L1 scratch
buffer for the intermediates it spills: `memref.alloc() {d2m.scratch_buffer} : memref<1xNx!tile, #l1>` (128 KiB of
the tile type of its first tiled input, or output) anchored by `d2m.scratch_init` at the start of its region. The
`d2m.blocking_map` a fused linalg op carries moves to the alloc of its output, where the allocator reads it. A
generic of a `d2m.topk_block` that generates its indices gets the index buffer (one index tile per value tile,
`d2m.topk_index_buffer`) and the lane buffer its tiles derive from (`d2m.topk_lane_buffer`) the same way."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects import memref
from xdsl.dialects.builtin import MemRefType, ModuleOp, NoneAttr, UnitAttr
from xdsl.dialects.linalg import GenericOp as LinalgGenericOp
from xdsl.passes import ModulePass

from ttmlir import hardware
from ttmlir.dialects import d2m, ttcore
from ttmlir.dialects.d2m_scratch import ScratchInitOp
from ttmlir.dialects.d2m_topk import INDEX_BUFFER_ATTR, LANE_BUFFER_ATTR, LANE_TILE_ROWS, TopkBlockOp
from ttmlir.ir.syntax import enum

SCRATCH_BYTES = 128 * 1024


def _tiled(values) -> MemRefType | None:
    return next((v.type for v in values if isinstance(v.type, MemRefType) and
                 isinstance(v.type.get_element_type(), ttcore.TileType)), None)


def _computes(generic: d2m.GenericOp) -> bool:
    return any(op.name.startswith("d2m.tile_") or op.name == "d2m.acquire_dst" for op in generic.walk())


def move_blocking_maps(generic: d2m.GenericOp) -> None:
    if not generic.regions:
        return
    for op in generic.regions[0].block.ops:
        if isinstance(op, LinalgGenericOp) and "d2m.blocking_map" in op.attributes:
            blocking = op.attributes.pop("d2m.blocking_map")
            for init in op.outputs:
                if isinstance(init.owner, memref.AllocOp):
                    init.owner.attributes["d2m.blocking_map"] = blocking


def add_scratch(generic: d2m.GenericOp) -> None:
    if not generic.regions or not _computes(generic):
        return
    if sum(isinstance(op, LinalgGenericOp) for op in generic.regions[0].walk()) <= 1:
        return  # one linalg op: nothing is spilled between ops
    reference = _tiled(generic.inputs) or _tiled(generic.outputs)
    if reference is None:
        return
    tile = reference.get_element_type()
    tiles = max(SCRATCH_BYTES // hardware.tile_bytes(tile.dtype, tuple(tile.dims)), 1)
    scratch_type = MemRefType(tile, [1, tiles], NoneAttr(), enum(ttcore.MemorySpaceAttr, "l1"))
    alloc = memref.AllocOp([], [], scratch_type)
    alloc.attributes["d2m.scratch_buffer"] = UnitAttr()
    block = generic.regions[0].block
    anchor = ScratchInitOp.create(operands=[alloc.memref])
    if block.first_op is None:
        block.add_ops([alloc, anchor])
    else:
        block.insert_ops_before([alloc, anchor], block.first_op)




def add_topk_index_buffers(generic: d2m.GenericOp) -> None:
    """A generic whose `d2m.topk_block` generates its indices: its index and lane buffers (see the module doc)."""
    if not generic.regions:
        return
    block = next((o for o in generic.regions[0].walk() if isinstance(o, TopkBlockOp) and
                  o.generate_indices is not None and o.generate_indices.value.data), None)
    if block is None or not isinstance(block.input_values.type, MemRefType):
        return
    tile = block.out_indices.type.get_element_type()
    space = enum(ttcore.MemorySpaceAttr, "l1")
    made = []
    for shape, role in ((block.input_values.type.get_shape(), INDEX_BUFFER_ATTR),
                        ((LANE_TILE_ROWS, 1), LANE_BUFFER_ATTR)):
        alloc = memref.AllocOp([], [], MemRefType(tile, list(shape), NoneAttr(), space))
        alloc.attributes["d2m.scratch_buffer"] = UnitAttr()
        alloc.attributes[role] = UnitAttr()
        alloc.location = block.location
        made += [alloc, ScratchInitOp.create(operands=[alloc.memref])]  # the anchor keeps the unused alloc alive
    region_block = generic.regions[0].block
    region_block.insert_ops_before(made, region_block.first_op)


@dataclass(frozen=True)
class D2MInsertScratchBuffersPass(ModulePass):
    name: ClassVar[str] = "d2m-insert-scratch-buffers"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for generic in [g for g in op.walk() if isinstance(g, d2m.GenericOp)]:
            move_blocking_maps(generic)
            add_scratch(generic)
            add_topk_index_buffers(generic)
