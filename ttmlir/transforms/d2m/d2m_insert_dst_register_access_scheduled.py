"""`--d2m-insert-dst-register-access-scheduled`: DST register access for the `d2m.linalg_root` nests the op
scheduler marked `d2m.scheduled` (consuming the mark), and for compute regions left with no root loop at all (a
single-iteration nest folded away: the region's flat block is treated as one scheduled nest).

The scheduled order is kept: each CB load feeding a DST operand is copied into DST where it is (in the nest), slices
come from a stack that reuses an input's slice for the op's result, and the stores out of DST go to a copy of the
nest after it. A `memref.load` copied straight to a `memref.store` in L1 (a masking copy) goes through DST too."""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects import memref
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation, Region
from xdsl.passes import ModulePass

from ttmlir.dialects import d2m, ttcore
from ttmlir.dialects.d2m_dst import (AcquireDstOp, dst_in_place, dst_operands, input_slice_stride, is_dst_compute_op,
                                     is_dst_memref, is_scalar_operand, scratch_slices)
from ttmlir.errors import PassFailure
from ttmlir.transforms.d2m import dst_register_access as dra
from ttmlir.transforms.d2m.d2m_linalg_to_affine import compute_regions

SCHEDULED = "d2m.scheduled"


def _cb_load(value) -> Operation | None:
    owner = value.owner
    if isinstance(owner, dra.LOADS) and not is_dst_memref(owner.memref.type):
        return owner
    return None


def _in_l1(value) -> bool:
    space = getattr(value.type, "memory_space", None)
    return isinstance(space, ttcore.MemorySpaceAttr) and space.data.value == "l1"


def collect(scope: Operation | Region, root: Operation | None, capacity: int) -> tuple[dict, dict]:
    """The DST accesses of the tile ops under `scope` (a root nest, or a region without one) in program order."""
    copy_infos: dict = {}
    intermediates: dict = {}
    dra.split_shared_loads(scope)
    allocator = dra.SliceAllocator(capacity, root or scope.parent_op())
    for op in [o for o in scope.walk() if is_dst_compute_op(o)]:
        indices = [i for i in dst_operands(op) if not is_scalar_operand(op, i)]
        cb_loads = [(i, load) for i in indices if (load := _cb_load(op.operands[i])) is not None]
        for index, load in cb_loads:
            if dra.recorded_slice(copy_infos, root, load) is not None:
                continue
            slice_ = allocator.allocate_input(input_slice_stride(op))
            dra.record_load(copy_infos, root, load, index, op, slice_, no_guard=len(cb_loads) >= 2)
        loads = len(indices)
        in_place = dst_in_place(op) or is_scalar_operand(op, 1)
        for use in list(op.results[0].uses) if op.results else []:
            user = use.operation
            if isinstance(user, dra.STORES) and user.value is op.results[0] and not is_dst_memref(user.memref.type):
                if allocator.stored_to_dst:
                    raise PassFailure(user, "Multiple stores from last op to dst not supported")
                if in_place:
                    slice_ = allocator.current_slice()
                elif loads >= 2:
                    slice_ = allocator.first_input()
                    allocator.keep_first_input()
                    allocator.stored_to_dst = True
                else:
                    slice_ = allocator.allocate_output()
                    allocator.stored_to_dst = True
                dra.record(copy_infos, root, dra.DstAccess(user, slice_), emit_guard=False)
            elif is_dst_compute_op(user):
                if len(list(op.results[0].uses)) != 1:
                    raise PassFailure(op, "Currently we do not support multiple users in the same compute dst "
                                          "region.")
                if loads and in_place:
                    slice_ = allocator.current_slice()
                elif loads >= 2:
                    slice_ = allocator.first_input()
                    allocator.keep_first_input()
                else:
                    slice_ = allocator.allocate_output()
                intermediates[op] = (slice_, root)
        for _ in range(scratch_slices(op)):
            dra.set_scratch_index(op, allocator.allocate_scratch(), root)
    for store in [o for o in scope.walk() if isinstance(o, memref.StoreOp)]:
        load = store.value.owner
        if _in_l1(store.memref) and isinstance(load, memref.LoadOp) and _in_l1(load.memref):
            slice_ = allocator.allocate_input()
            info = copy_infos.setdefault(root or store, dra.CopyInfo())
            info.record(dra.DstAccess(load, slice_))
            info.record(dra.DstAccess(store, slice_))
    return copy_infos, intermediates


IN_PLACE = partial(dra.emit_copy_nests, clone_nest=False)  # a scheduled nest keeps its loads where they are


@dataclass(frozen=True)
class D2MInsertDstRegisterAccessScheduledPass(ModulePass):
    name: ClassVar[str] = "d2m-insert-dst-register-access-scheduled"
    max_dst_physical_size_tiles: int = 0
    disable_l1_acc: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        dra.verify_preconditions(op)
        for generic in [g for g in op.walk() if isinstance(g, d2m.GenericOp)]:
            for region in compute_regions(generic):
                has_compute = any(is_dst_compute_op(o) for o in region.walk())
                roots = dra.linalg_roots(region)
                if not has_compute and not roots:
                    continue
                capacity = dra.dst_capacity(generic, region, self.max_dst_physical_size_tiles)
                for root in roots:
                    if SCHEDULED not in root.attributes or "d2m.dst_access_inserted" in root.attributes:
                        continue
                    dra.mark_inserted(root)
                    del root.attributes[SCHEDULED]
                    no_l1_acc = self.disable_l1_acc or not dra.has_tile_matmul(root) or \
                        not dra.matmul_outputs_support_l1_acc(root)
                    copy_infos, intermediates = collect(root, root, capacity)
                    dra.finalize(region, capacity, root, no_l1_acc, copy_infos, intermediates, IN_PLACE,
                                 generic)
                if not roots and has_compute and not any(isinstance(o, AcquireDstOp) for o in region.walk()):
                    copy_infos, intermediates = collect(region, None, capacity)
                    dra.finalize(region, capacity, None, True, copy_infos, intermediates, IN_PLACE, generic)
