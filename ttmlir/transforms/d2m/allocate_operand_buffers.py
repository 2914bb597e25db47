"""`--d2m-allocate`'s choice, per generic operand, between moving its blocks through a stream buffer of their own
and working in the operand's shards in place: a remote load's or store's local buffer (a `memref.alloc` in the
generic's region) becomes a `d2m.operand_alias` of the operand when no data has to move. An output in L1 that is
no reblocking view is always aliased; under `stream-insert-policy=always` nothing else is; under `infer` an input is
aliased unless it is seen through a reblocking view, lives in DRAM, belongs to a generic in explicit data-movement
form, or its indexing map broadcasts a dim, reads a reduction dim or permutes the dims (its blocks then come from
other cores), and a multicast load is never aliased. The local buffers left become stream buffers
(`d2m.synchronized_buffer = num-stream-buffers`, unless already marked), and region allocs nothing uses any more
are dropped."""

from __future__ import annotations

from xdsl.dialects.builtin import IntegerAttr, MemRefType, UnitAttr, i32
from xdsl.dialects.func import FuncOp
from xdsl.dialects.memref import AllocOp
from xdsl.ir import SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineMap

from ttmlir.dialects import d2m, ttcore
from ttmlir.dialects.d2m_alias import OperandAliasOp

STREAM_INSERT_POLICIES = ("infer", "always")
SPECULATIVE = "d2m.speculative_stream_buffer"  # a stream buffer kept only in case its operand is spilled


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
    in_dram = _space(operand) == "dram"
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
    dims = []
    for result in amap.results:
        if isinstance(result, AffineConstantExpr):
            return False  # a broadcast dim
        if isinstance(result, AffineDimExpr) and iterators[result.position] == "reduction":
            return False
        if isinstance(result, AffineDimExpr):
            dims.append(result.position)
    # dims out of order (a transposing map): a core's block is another core's shard
    return dims == sorted(dims)


def _alias(alloc: AllocOp, operand: SSAValue) -> None:
    alias = OperandAliasOp.create(operands=[operand], result_types=[alloc.memref.type])
    alloc.parent_block().insert_op_before(alias, alloc)
    alloc.memref.replace_all_uses_with(alias.aliased_buffer)
    alloc.detach()
    alloc.erase()


def choose_operand_buffers(generic: d2m.GenericOp, policy: str, stream_buffers: int,
                           speculative: set[SSAValue]) -> None:
    """Each remote load's and store's local buffer in `generic` aliased to its operand or kept as a stream buffer;
    the buffers of an operand in `speculative` (an intermediate the allocator may spill) stay stream buffers until
    the allocator knows where the operand lives (`alias_unspilled`)."""
    loads = [op for op in generic.walk() if isinstance(op, d2m.RemoteLoadOp) and op.local is not None]
    stores = [op for op in generic.walk() if isinstance(op, d2m.RemoteStoreOp) and op.local is not None]
    for op, operand in [*((load, load.source) for load in loads if not load.mcast),
                        *((store, store.dest) for store in stores)]:
        alloc = op.local.owner  # not a buffer a load already aliased: that one is no alloc any more
        if isinstance(alloc, AllocOp) and can_alias(generic, operand, policy):
            if operand in speculative:
                alloc.attributes[SPECULATIVE] = UnitAttr()
            else:
                _alias(alloc, operand)
    for op in [*loads, *stores]:
        alloc = op.local.owner
        if isinstance(alloc, AllocOp) and "d2m.scratch_buffer" not in alloc.attributes and \
                "d2m.synchronized_buffer" not in alloc.attributes:
            alloc.attributes["d2m.synchronized_buffer"] = IntegerAttr(stream_buffers, i32)
    for alloc in [op for op in generic.walk() if isinstance(op, AllocOp)]:
        if not alloc.memref.uses:
            alloc.detach()
            alloc.erase()


def _space(value: SSAValue) -> str | None:
    space = getattr(value.type, "memory_space", None)
    return space.data.value if isinstance(space, ttcore.MemorySpaceAttr) else None


def _generic_users(value: SSAValue) -> list[d2m.GenericOp]:
    return [u.operation for u in value.uses if isinstance(u.operation, d2m.GenericOp)]


def is_generic_output(value: SSAValue) -> bool:
    return any(value in g.outputs for g in _generic_users(value))


def spill_candidates(func: FuncOp, allow_output_spilling: bool) -> list[AllocOp]:
    """The L1 buffers of `func` the allocator may move to DRAM: made in its body, read or written by generics
    only, and not a generic's output unless output spilling is allowed and another generic reads it (an
    intermediate). A buffer the function returns keeps its memory, as its signature says."""
    candidates = []
    for alloc in [op for op in func.body.block.ops if isinstance(op, AllocOp)]:
        value = alloc.memref
        generics = _generic_users(value)
        if _space(value) != "l1" or not generics:
            continue
        inside = [u for u in value.uses if any(g.is_ancestor(u.operation) and u.operation is not g for g in generics)]
        if any(not isinstance(u.operation, d2m.GenericOp) and u not in inside for u in value.uses):
            continue  # another user (a copy, a view, the function's return) binds it where it is
        if is_generic_output(value) and (not allow_output_spilling or len(set(generics)) < 2):
            continue
        candidates.append(alloc)
    return candidates


def spill(value: SSAValue) -> None:
    """The buffer `value` moved to DRAM: its type's memory space (its layout kept)."""
    t = value.type
    if _space(value) != "dram":
        value._type = MemRefType(t.element_type, t.get_shape(), t.layout,
                                 ttcore.MemorySpaceAttr(ttcore.MemorySpaceAttr.enum_type("dram")))


def alias_unspilled(generic: d2m.GenericOp, speculative: set[SSAValue]) -> None:
    """The speculative stream buffers of `generic` whose operand stayed in L1 aliased to it after all."""
    for op in [o for o in generic.walk() if isinstance(o, (d2m.RemoteLoadOp, d2m.RemoteStoreOp))]:
        alloc = op.local.owner if op.local is not None else None
        if not isinstance(alloc, AllocOp) or SPECULATIVE not in alloc.attributes:
            continue
        del alloc.attributes[SPECULATIVE]
        operand = op.source if isinstance(op, d2m.RemoteLoadOp) else op.dest
        if _space(operand) == "l1":
            _alias(alloc, operand)
