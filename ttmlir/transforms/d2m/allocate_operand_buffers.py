"""`--d2m-allocate`'s choice, per generic operand, between moving its blocks through a stream buffer of their own
and working in the operand's shards in place: a remote load's or store's local buffer (a `memref.alloc` in the
generic's region) becomes a `d2m.operand_alias` of the operand when no data has to move. An output in L1 that is
no reblocking view is always aliased; under `stream-insert-policy=always` nothing else is; under `infer` an input is
aliased unless it is seen through a reblocking view, lives in DRAM, belongs to a generic in explicit data-movement
form, or its indexing map broadcasts a dim or reads a reduction dim (its blocks then come from other cores), and a
multicast load is never aliased. The local buffers left become stream buffers (`d2m.synchronized_buffer =
num-stream-buffers`, unless already marked), and region allocs nothing uses any more are dropped."""

from __future__ import annotations

from xdsl.dialects.builtin import IntegerAttr, MemRefType, i32
from xdsl.dialects.memref import AllocOp
from xdsl.ir import SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineMap

from ttmlir.dialects import d2m, ttcore
from ttmlir.dialects.d2m_alias import OperandAliasOp

STREAM_INSERT_POLICIES = ("infer", "always")


def _nontrivial_view(value: SSAValue) -> bool:
    """Whether `value` is a view remapping its source's elements (through any chain of views)."""
    op = value.owner
    if isinstance(op, d2m.ViewLayoutOp):
        remapping = op.remapping.data
        return remapping != AffineMap.identity(remapping.num_dims) or _nontrivial_view(op.input)
    return getattr(op, "name", "") == "d2m.composite_view"


def _explicit(generic: d2m.GenericOp) -> bool:
    maps = generic.attributes.get("indexing_maps")
    return maps is None or not maps.data


def can_alias(generic: d2m.GenericOp, operand: SSAValue, policy: str) -> bool:
    """Whether the blocks of `operand` can be worked on in its own shards (see the module doc)."""
    if not isinstance(operand.type, MemRefType):
        return False
    space = operand.type.memory_space
    in_dram = isinstance(space, ttcore.MemorySpaceAttr) and space.data.value == "dram"
    if operand in generic.outputs and not _nontrivial_view(operand) and not in_dram:
        return True
    if policy == "always" or _nontrivial_view(operand) or in_dram or _explicit(generic):
        return False
    operands = [*generic.inputs, *generic.outputs]
    if operand not in operands:
        return False
    amap = generic.attributes["indexing_maps"].data[operands.index(operand)].data
    iterators = [str(t.data.value if hasattr(t.data, "value") else t.data)
                 for t in generic.attributes["iterator_types"].data]
    for result in amap.results:
        if isinstance(result, AffineConstantExpr):
            return False  # a broadcast dim
        if isinstance(result, AffineDimExpr) and iterators[result.position] == "reduction":
            return False
    return True


def _alias(alloc: AllocOp, operand: SSAValue) -> None:
    alias = OperandAliasOp.create(operands=[operand], result_types=[alloc.memref.type])
    alloc.parent_block().insert_op_before(alias, alloc)
    alloc.memref.replace_all_uses_with(alias.aliased_buffer)
    alloc.detach()
    alloc.erase()


def choose_operand_buffers(generic: d2m.GenericOp, policy: str, stream_buffers: int) -> None:
    """Each remote load's and store's local buffer in `generic` aliased to its operand or kept as a stream buffer."""
    loads = [op for op in generic.walk() if isinstance(op, d2m.RemoteLoadOp) and op.local is not None]
    stores = [op for op in generic.walk() if isinstance(op, d2m.RemoteStoreOp) and op.local is not None]
    for load in loads:
        alloc = load.local.owner
        if isinstance(alloc, AllocOp) and not load.mcast and can_alias(generic, load.source, policy):
            _alias(alloc, load.source)
    for store in stores:
        alloc = store.local.owner
        if isinstance(alloc, AllocOp) and can_alias(generic, store.dest, policy):
            _alias(alloc, store.dest)  # not a buffer a load already aliased: that one is no alloc any more
    for op in [*loads, *stores]:
        alloc = op.local.owner
        if isinstance(alloc, AllocOp) and "d2m.scratch_buffer" not in alloc.attributes and \
                "d2m.synchronized_buffer" not in alloc.attributes:
            alloc.attributes["d2m.synchronized_buffer"] = IntegerAttr(stream_buffers, i32)
    for alloc in [op for op in generic.walk() if isinstance(op, AllocOp)]:
        if not alloc.memref.uses:
            alloc.detach()
            alloc.erase()
