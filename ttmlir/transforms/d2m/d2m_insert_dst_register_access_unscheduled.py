"""`--d2m-insert-dst-register-access-unscheduled`: DST register access for the `d2m.linalg_root` loop nests that the
op scheduler did not mark `d2m.scheduled` (matmuls, reductions, plain eltwise nests).

In each root nest of a compute region, every tile op gets DST slices from a bump allocator: a CB load feeding a DST
operand is copied into DST before the nest (in a copy of the nest's loops), the op reads DST instead, and a store of
a result to a CB is drained from DST after the nest; a result consumed by another tile op is kept in DST. An
accumulator re-read on every iteration of a reduction loop is copied in on the first iteration only, and with L1
accumulation (a tile_matmul into a natively packed format, unless `disable-l1-acc`) the packer adds the partials in
L1 instead of reloading them. `max-dst-physical-size-tiles` overrides the chip's DST size."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects import affine
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass

from ttmlir.dialects import d2m
from ttmlir.dialects.d2m_dst import (dst_in_place, dst_operands, input_slice_stride, is_dst_compute_op,
                                     is_dst_memref, is_scalar_operand, scratch_slices)
from ttmlir.errors import PassFailure
from ttmlir.transforms.d2m import dst_register_access as dra
from ttmlir.transforms.d2m.d2m_linalg_to_affine import compute_regions


def _cb_load(value) -> Operation | None:
    """The affine load from a CB (not DST) that defines `value`, if one does."""
    owner = value.owner
    if isinstance(owner, affine.LoadOp) and not is_dst_memref(owner.memref.type):
        return owner
    return None


def collect(root: Operation, capacity: int) -> tuple[dict, dict]:
    """The DST accesses of the tile ops in `root`'s nest (loads and stores by root) and the intermediates kept in
    DST (op -> (slice, root))."""
    copy_infos: dict = {}
    intermediates: dict = {}
    dra.split_shared_loads(root)
    allocator = dra.SliceAllocator(capacity, root)
    ops = [op for op in root.walk() if is_dst_compute_op(op)]
    remaining = {op: sum(1 for use in op.results[0].uses
                         if is_dst_compute_op(use.operation) or isinstance(use.operation, dra.STORES))
                 for op in ops if len(op.results) == 1}

    def reusable_slice(op: Operation) -> int | None:
        for index in dst_operands(op):
            if is_scalar_operand(op, index):
                continue
            producer = op.operands[index].owner
            if producer in intermediates and remaining.get(producer, 2) <= 1:
                return intermediates[producer][0]
        return None

    for op in ops:
        indices = [i for i in dst_operands(op) if not is_scalar_operand(op, i)]
        cb_loads = [(i, load) for i in indices if (load := _cb_load(op.operands[i])) is not None]
        first_input = None
        for index, load in cb_loads:
            slice_ = dra.recorded_slice(copy_infos, root, load)
            if slice_ is None:
                slice_ = allocator.allocate_input(input_slice_stride(op))
                dra.record_load(copy_infos, root, load, index, op, slice_, no_guard=len(cb_loads) >= 2)
            first_input = slice_ if first_input is None else first_input
        in_place = dst_in_place(op) or is_scalar_operand(op, 1)

        def output_slice(final: bool) -> int:
            if in_place:
                return reusable_slice(op) if reusable_slice(op) is not None else \
                    first_input if first_input is not None else allocator.allocate_output()
            if final:
                allocator.stored_to_dst = True
            return first_input if len(cb_loads) >= 2 else allocator.allocate_output()

        produced = None
        for use in list(op.results[0].uses) if op.results else []:
            user = use.operation
            if isinstance(user, dra.STORES) and user.value is op.results[0] and not is_dst_memref(user.memref.type):
                if allocator.stored_to_dst:
                    raise PassFailure(user, "Multiple stores from last op to dst not supported")
                produced = output_slice(final=True)
                dra.record(copy_infos, root, dra.DstAccess(user, produced), emit_guard=False)
            elif is_dst_compute_op(user) and op not in intermediates:
                produced = output_slice(final=False)
                if op.name == "d2m.tile_bcast" and (load := _cb_load(op.operands[0])) is not None:
                    # the broadcast is done on the way into DST, once per tile it is taken from
                    dra.record(copy_infos, root, dra.DstAccess(load, produced, bcast=op), emit_guard=True)
                else:
                    intermediates[op] = (produced, root)
        for operand in op.operands:
            producer = operand.owner
            if producer in intermediates and producer in remaining:
                remaining[producer] -= 1
                if remaining[producer] == 0 and intermediates[producer][0] != produced:
                    allocator.release(intermediates[producer][0])
        for _ in range(scratch_slices(op)):
            dra.set_scratch_index(op, allocator.allocate_scratch(), root)
    return copy_infos, intermediates


@dataclass(frozen=True)
class D2MInsertDstRegisterAccessUnscheduledPass(ModulePass):
    name: ClassVar[str] = "d2m-insert-dst-register-access-unscheduled"
    max_dst_physical_size_tiles: int = 0
    disable_l1_acc: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        dra.verify_preconditions(op)
        for generic in [g for g in op.walk() if isinstance(g, d2m.GenericOp)]:
            for region in compute_regions(generic):
                roots = [r for r in dra.linalg_roots(region)
                         if "d2m.scheduled" not in r.attributes and "d2m.dst_access_inserted" not in r.attributes]
                if not roots:
                    continue
                capacity = dra.dst_capacity(generic, region, self.max_dst_physical_size_tiles)
                for root in roots:
                    dra.mark_inserted(root)
                    no_l1_acc = self.disable_l1_acc or not dra.has_tile_matmul(root) or \
                        not dra.matmul_outputs_support_l1_acc(root)
                    copy_infos, intermediates = collect(root, capacity)
                    dra.finalize(region, capacity, root, no_l1_acc, copy_infos, intermediates, dra.emit_copy_nests,
                                 generic)
