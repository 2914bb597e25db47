"""`--d2m-lower-dma-to-fully-indexed-form`: shard-level DMA (`d2m.dma_read %src[%gy, %gx], %dst, <0>`: a whole
shard of a remote buffer into a local block, `d2m.dma_write` back) in fully indexed form: each transfer names its
remote place as [core y, core x, byte offset] in L1 (or [_, bank, byte offset] in DRAM) and its local place as a
byte offset, moving `<n>` elements at once.

The places come from the buffers' memory maps (memory_maps.py). `n` is the coalescing factor: the largest run of
elements each shard's row-major walk finds contiguous in memory (dividing the shard). A shard that is contiguous is
one transfer at index 0; otherwise a loop nest walks the shard and every n-th element starts a transfer of n (an
`scf.if` on the flat index, carrying the last transfer out as a `!d2m.mem_tx`, `d2m.null_tx` where none started).
A multicast write (local to local over a core rectangle) is one transfer of its whole block. A
`d2m.local_copy` of two blocks of this core becomes reads of its source, rearranged by its indexing maps (the
source's index offset by the enclosing `d2m.blocking_loop`s' blocks).

With use-tensor-accessor-dma, a shard-level transfer of tiles between a generic's remote operand (sharded, or
interleaved in DRAM, possibly through a view) and a local block of one shard stays shard-level and is marked with
its TensorAccessor page map (`{tensorAccessorPageMap = ...}`: the remote index -> the page of the tensor, pages
row-major over grid x shard); its lowering reads pages by id. A transfer that already carries a page map is
refused (`unexpected pre-existing TensorAccessor page map`). The coalescing factor is always the sampled one (upstream
tries an analytical one first and samples when it is small), so upstream's debug-d2m-coalescing-inference, which
compares the two, has nothing to compare here and is not an option."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, ClassVar

from xdsl.context import Context
from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import AffineMapAttr, IndexType, IntegerAttr, MemRefType, ModuleOp, i64
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.passes import ModulePass

from ttmlir.dialects import d2m, ttcore
from ttmlir.dialects.d2m_dma import DMAReadOp, DMAWriteOp, LocalCopyOp, _segments, mem_tx
from ttmlir.dialects.d2m_null_tx import NullTxOp
from ttmlir.errors import PassFailure, derive
from ttmlir.transforms.d2m.memory_maps import (IndexBuilder, apply_views, coalescing_factor, element_bytes,
                                               index_constant, local_memory_map, remote_indices,
                                               memory_space, remote_memory_map, strided_map)
from ttmlir.transforms.ttcore.register_device import device_module_of

TENSOR_ACCESSOR_MAX_RANK = 8
NOC_ALIGNMENT = {"l1": "noc_l1_address_align_bytes", "dram": "noc_dram_address_align_bytes"}


def _remote(t) -> bool:
    return isinstance(t, MemRefType) and isinstance(t.layout, (ttcore.ShardLayoutAttr, ttcore.InterleavedLayoutAttr,
                                                               ttcore.ViewLayoutAttr))


def _halves(t: MemRefType) -> tuple[tuple[int, ...], tuple[int, ...]]:
    shape = tuple(t.get_shape())
    rank = len(t.layout.data[0]) if isinstance(t.layout, ttcore.ShardLayoutAttr) else len(shape) // 2
    return shape[:len(shape) - rank], shape[len(shape) - rank:]


EmitDMA = Callable[[IndexBuilder, list[SSAValue], int], SSAValue]


def _with_coalescing(b: IndexBuilder, shape: tuple[int, ...], factor: int, kind: str, emit: EmitDMA) -> SSAValue:
    """The transfers of a block of `shape` in runs of `factor` elements: one at index 0 for the whole block, else a
    loop nest starting one at every `factor`-th element (upstream's generateDMAWithCoalescing)."""
    if factor == math.prod(shape):
        zero = b.add(index_constant(0)).result
        return emit(b, [zero] * len(shape), factor)
    zero, one = b.add(index_constant(0)).result, b.add(index_constant(1)).result
    bounds = [b.add(index_constant(d)).result for d in shape]
    null = b.add(NullTxOp.create(result_types=[mem_tx(kind)])).result
    ivs: list[SSAValue] = []
    loops: list[scf.ForOp] = []
    carried = null
    outer_block, outer_before = b.block, b.before
    for bound in bounds:
        body = Block(arg_types=[IndexType(), mem_tx(kind)])
        loop = scf.ForOp(zero, bound, one, [carried], Region(body))
        if loops:
            loops[-1].body.block.add_op(loop)
        else:
            IndexBuilder(outer_block, outer_before).add(loop)
        loops.append(loop)
        ivs.append(body.args[0])
        carried = body.args[1]
    inner = IndexBuilder(loops[-1].body.block, None)
    cf, zero_in = inner.add(index_constant(factor)).result, inner.add(index_constant(0)).result
    flat, stride = zero_in, 1
    for iv, extent in reversed(list(zip(ivs, shape))):
        scaled = inner.add(arith.MuliOp(inner.add(index_constant(stride)).result, iv)).result
        flat = inner.add(arith.AddiOp(scaled, flat)).result
        stride *= extent
    starts = inner.add(arith.CmpiOp(inner.add(arith.RemSIOp(flat, cf)).result, zero_in, "eq")).result
    inner.add(NullTxOp.create(result_types=[mem_tx(kind)]))
    then_block, else_block = Block(), Block()
    then = IndexBuilder(then_block, None)
    tx = emit(then, ivs, factor)
    then.add(scf.YieldOp(tx))
    else_block.add_op(scf.YieldOp(carried))
    branch = inner.add(scf.IfOp(starts, [mem_tx(kind)], Region(then_block), Region(else_block)))
    inner.add(scf.YieldOp(branch.results[0]))
    for outer, loop in zip(reversed(loops[:-1]), reversed(loops[1:])):
        outer.body.block.add_op(scf.YieldOp(loop.results[0]))
    return loops[0].results[0]


def _transfer(op: Operation, src, src_indices, dst, dst_indices, elements: int, extra=((), (), (), ())) -> Operation:
    """A fully indexed read or write like `op`."""
    if isinstance(op, DMAReadOp) or isinstance(op, LocalCopyOp):
        groups = [[src], list(src_indices), [dst], list(dst_indices)]
        return DMAReadOp.create(operands=[v for g in groups for v in g], result_types=[mem_tx("read")], properties={
            "numElems": IntegerAttr(elements, i64), "operandSegmentSizes": _segments(*groups)})
    groups = [[src], list(src_indices), [dst], list(dst_indices), *map(list, extra)]
    return DMAWriteOp.create(operands=[v for g in groups for v in g], result_types=[op.result.type], properties={
        "numElems": IntegerAttr(elements, i64), "operandSegmentSizes": _segments(*groups)})


def _shard_level(op: Operation) -> bool:
    return op.numElems.value.data == 0


def _page_map(remote: SSAValue) -> AffineMap | None:
    """The TensorAccessor page of each index of `remote` (upstream's buildTensorAccessorPageMap), or None when the
    buffer is not a static one of tiles, sharded (L1 or DRAM) or interleaved in DRAM, of grid and shard ranks alike."""
    base, view = apply_views(remote)  # a composite view's result stays as it is: no one buffer, no page map
    t = base.type
    if not isinstance(t, MemRefType) or not isinstance(t.element_type, ttcore.TileType) or \
            not isinstance(t.layout, (ttcore.ShardLayoutAttr, ttcore.InterleavedLayoutAttr)):
        return None
    space = memory_space(t)
    if space not in ("l1", "dram") or (isinstance(t.layout, ttcore.InterleavedLayoutAttr) and space != "dram"):
        return None
    grid, shard = _halves(t)
    rank = len(grid)
    if rank == 0 or rank != len(shard) or rank > TENSOR_ACCESSOR_MAX_RANK:
        return None
    if view.num_dims != len(remote.type.get_shape()) or view.num_symbols or len(view.results) != len(t.get_shape()):
        return None
    tensor = [g * s for g, s in zip(grid, shard)]
    strides = [math.prod(tensor[d + 1:]) for d in range(rank)]
    # the page of each base index, by the coefficient of each base dim
    coefficients = [*(shard[d] * strides[d] for d in range(rank)), *strides]
    # through a view whose results are plain dims the page is a sum over the view's dims, written in dim order
    positions = [getattr(e, "position", None) for e in view.results]
    if None not in positions:
        per_dim = [0] * view.num_dims
        for position, coefficient in zip(positions, coefficients):
            per_dim[position] += coefficient
        page: AffineExpr = AffineExpr.constant(0)
        for d, coefficient in enumerate(per_dim):
            if coefficient:
                term = AffineExpr.dimension(d) if coefficient == 1 else AffineExpr.dimension(d) * coefficient
                page = term if page == AffineExpr.constant(0) else page + term
        return AffineMap(view.num_dims, 0, (page,))
    page = AffineExpr.constant(0)
    for d, coefficient in enumerate(coefficients):
        page = page + AffineExpr.dimension(d) * coefficient
    return AffineMap(len(t.get_shape()), 0, (page,)).compose(view)


def _tensor_accessor_page_map(op: Operation, chip: dict) -> AffineMap | None:
    """The page map a shard-level transfer keeps for the TensorAccessor lowering, if it is eligible."""
    if not _shard_level(op):
        return None
    if isinstance(op, DMAReadOp):
        remote, local, grid_indices = op.src, op.dst, op.src_indices
        if not _remote(remote.type):
            return None
    else:
        remote, local, grid_indices = op.dst, op.src, op.dst_indices
        if not _remote(remote.type) or op.mcast_start or op.start_device or op.device_mcast_shape:
            return None
    generic = op.parent_op()
    while generic is not None and not isinstance(generic, d2m.GenericOp):
        generic = generic.parent_op()
    if generic is None or remote not in list(generic.operands):
        return None
    remote_t, local_t = remote.type, local.type
    if not isinstance(local_t, MemRefType) or not isinstance(remote_t.element_type, ttcore.TileType) or \
            remote_t.element_type != local_t.element_type:
        return None
    page = element_bytes(remote_t.element_type)
    space = memory_space(apply_views(remote)[0].type)
    if page % int(chip.get(NOC_ALIGNMENT.get(space, ""), 1) or 1) or page % int(chip[NOC_ALIGNMENT["l1"]]):
        return None
    grid, shard = _halves(remote_t)
    if len(grid_indices) != len(grid) or math.prod(shard) != math.prod(local_t.get_shape()):
        return None
    return _page_map(remote)


@dataclass
class _Lowering:
    device: ttcore.DeviceAttr

    def read(self, op: DMAReadOp) -> None:
        remote, local = op.src, op.dst
        grid, shard = _halves(remote.type)
        remote_map = remote_memory_map(self.device, remote, op)
        local_map = local_memory_map(local)
        factor = coalescing_factor(remote_map, grid, shard, element_bytes(remote.type.element_type))
        grid_indices = list(op.src_indices)

        def emit(b: IndexBuilder, iters: list[SSAValue], n: int) -> SSAValue:
            src_indices = remote_indices(b, remote_map, [*grid_indices, *iters])
            dst_indices = b.apply(local_map, iters)
            return b.add(derive_one(_transfer(op, remote, src_indices, local, dst_indices, n), op)).results[0]
        self.replace(op, shard, factor, "read", emit)

    def write(self, op: DMAWriteOp) -> None:
        local, remote = op.src, op.dst
        if op.mcast_start:  # a block of this core to the same place on a rectangle of cores: all of it at once
            b = IndexBuilder(op.parent_block(), op)
            shape = tuple(local.type.get_shape())
            zero = b.add(index_constant(0)).result
            indices = b.apply(local_memory_map(local), [zero] * len(shape))
            new = b.add(derive_one(_transfer(op, local, indices, remote, indices, math.prod(shape),
                                             (op.mcast_start, op.mcast_shape, (), ())), op))
            op.result.replace_all_uses_with(new.results[0])
            op.detach()
            op.erase()
            return
        grid, shard = _halves(remote.type)
        remote_map = remote_memory_map(self.device, remote, op)
        local_map = local_memory_map(local)
        factor = coalescing_factor(remote_map, grid, shard, element_bytes(remote.type.element_type))
        grid_indices = list(op.dst_indices)
        fabric = ((), (), op.start_device, op.device_mcast_shape)

        def emit(b: IndexBuilder, iters: list[SSAValue], n: int) -> SSAValue:
            dst_indices = remote_indices(b, remote_map, [*grid_indices, *iters])
            src_indices = b.apply(local_map, iters)
            return b.add(derive_one(_transfer(op, local, src_indices, remote, dst_indices, n, fabric),
                                    op)).results[0]
        self.replace(op, shard, factor, "write", emit)

    def local_copy(self, op: LocalCopyOp) -> None:
        src, dst = op.src, op.dst
        src_t, dst_t = src.type, dst.type
        src_index_map, dst_index_map = (m.data for m in op.indexing_maps.data)
        if dst_index_map != AffineMap.identity(dst_index_map.num_dims):
            raise PassFailure(op, "a local copy with a non-identity destination indexing map is not lowered yet")
        shape = tuple(dst_t.get_shape())
        src_map = strided_map(tuple(src_t.get_shape()), src_t.element_type).compose(src_index_map)
        dst_map = strided_map(shape, dst_t.element_type).compose(dst_index_map)
        rank = len(shape)
        padded = src_map.replace_dims_and_symbols([AffineExpr.dimension(rank + i) for i in range(rank)], [],
                                                  2 * rank, 0)
        factor = coalescing_factor(padded, (1,) * rank, shape, element_bytes(src_t.element_type))
        blocking = []
        parent = op.parent_op()
        while parent is not None:
            if isinstance(parent, scf.ForOp) and "d2m.blocking_loop" in parent.attributes:
                dim = parent.attributes["d2m.blocking_loop"].value.data
                if dim >= rank:
                    raise PassFailure(op, "a blocking loop's dimension is beyond the local copy's rank")
                blocking.append((parent.body.block.args[0], dim))
            parent = parent.parent_op()

        def emit(b: IndexBuilder, iters: list[SSAValue], n: int) -> SSAValue:
            src_iters = list(iters)
            for iv, dim in blocking:
                size = b.add(index_constant(shape[dim])).result
                offset = b.add(arith.MuliOp(iv, size)).result
                src_iters[dim] = b.add(arith.AddiOp(offset, iters[dim])).result
            src_indices = b.apply(src_map, src_iters)
            dst_indices = b.apply(dst_map, iters)
            return b.add(derive_one(_transfer(op, src, src_indices, dst, dst_indices, n), op)).results[0]
        self.replace(op, shape, factor, "read", emit)

    @staticmethod
    def replace(op: Operation, shape: tuple[int, ...], factor: int, kind: str, emit: EmitDMA) -> None:
        tx = _with_coalescing(IndexBuilder(op.parent_block(), op), shape, factor, kind, emit)
        op.results[0].replace_all_uses_with(tx)
        op.detach()
        op.erase()


def derive_one(new: Operation, op: Operation) -> Operation:
    derive([new], op)
    return new


@dataclass(frozen=True)
class D2MLowerDMAToFullyIndexedFormPass(ModulePass):
    """Shard-level DMA to fully indexed transfers (see the module doc)."""

    name: ClassVar[str] = "d2m-lower-dma-to-fully-indexed-form"
    use_tensor_accessor_dma: bool = False

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        device_module = device_module_of(module)
        devices = [o for o in device_module.ops if isinstance(o, ttcore.DeviceOp)]
        system = device_module.attributes.get("ttcore.system_desc")
        transfers = [o for o in module.walk() if isinstance(o, (DMAReadOp, DMAWriteOp))]
        for op in transfers:
            if op.tensorAccessorPageMap is not None:
                raise PassFailure(op, f"'{op.name}' op unexpected pre-existing TensorAccessor page map")
        if not transfers and not any(isinstance(o, LocalCopyOp) and o.result is not None for o in module.walk()):
            return
        if not devices:
            raise PassFailure(module, "module has no ttcore.device (run --ttcore-register-device first)")
        if not isinstance(system, ttcore.SystemDescAttr):  # a device declared alone is on the default chip
            system = ttcore.default_system_desc()
        device = devices[0].device_attr
        chip = system.data.chip(0)
        if self.use_tensor_accessor_dma:
            for op in transfers:
                if (page_map := _tensor_accessor_page_map(op, chip)) is not None:
                    op.properties["tensorAccessorPageMap"] = AffineMapAttr(page_map)
        lowering = _Lowering(device)
        for op in list(module.walk()):
            if isinstance(op, DMAReadOp) and _shard_level(op) and op.tensorAccessorPageMap is None:
                lowering.read(op)
            elif isinstance(op, DMAWriteOp) and _shard_level(op) and op.tensorAccessorPageMap is None:
                lowering.write(op)
            elif isinstance(op, LocalCopyOp) and op.result is not None:
                lowering.local_copy(op)
