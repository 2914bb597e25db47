"""DMA in a data-movement kernel function, as upstream lowers the fully indexed form (`<numElems>` > 0): NoC reads
and writes of `numElems` elements.

A local side is a CB block: its L1 address the CB's write pointer (a block this thread reserved, or the
destination of a read) or read pointer (a block it waited for) plus the index. A remote side is a buffer with a
device layout, indexed [grid y, grid x, byte offset] in L1 (the core's translated coordinates, the buffer's base
address plus the offset) or [_, bank, byte offset] in DRAM. A read copies the far side (this core's own L1 for a
local source) into the block; a write sends the block to the far side, to this core (a local destination), or to a
rectangle of cores (a multicast, which includes this core unless it sends a block to itself). A transfer is then
done (`d2m.dma_wait`) at its barrier: reads at the read barrier, writes at the write barrier, multicasts need
none. `d2m.core_index` is this core's logical coordinate (through the generic's physical-to-virtual map when
there is one).
"""

from __future__ import annotations

from xdsl.dialects import affine, arith
from xdsl.dialects.builtin import AffineMapAttr, BoolAttr, DenseArrayBase, IndexType, IntegerAttr, IntegerType, MemRefType, \
    i32
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineMap

from ttmlir import hardware
from ttmlir.conversion.d2m_to_ttkernel.kernel_semaphores import kernel_noc, last_of, noc_constant, translated
from ttmlir.dialects import ttcore, ttkernel
from ttmlir.errors import PassFailure


def _space(t) -> str | None:
    space = getattr(t, "memory_space", None)
    return getattr(getattr(space, "data", None), "value", None)


def _remote(t) -> bool:
    """A buffer with a device layout (sharded or interleaved, or a view of one: its DMA indices name the viewed
    buffer's core and offset once fully indexed), reached over the NoC."""
    return isinstance(t, MemRefType) and isinstance(t.layout, (ttcore.ShardLayoutAttr, ttcore.InterleavedLayoutAttr,
                                                               ttcore.ViewLayoutAttr))


def _element_bytes(t: MemRefType) -> int:
    element = t.element_type
    if isinstance(element, ttcore.TileType):
        return hardware.tile_bytes(element.dtype, tuple(a.value.data for a in element.shape.data))
    return element.bitwidth // 8


def _i32(new: list[Operation], value: SSAValue) -> SSAValue:
    new.append(arith.IndexCastOp(value, i32))
    return new[-1].result


def _my_core(new: list[Operation]) -> tuple[SSAValue, SSAValue]:
    y, x = ttkernel.MyLogicalYOp.create(result_types=[IndexType()]), ttkernel.MyLogicalXOp.create(
        result_types=[IndexType()])
    new += [y, x]
    return y.results[0], x.results[0]


class DmaLowering:
    """The DMA lowerings of one kernel function (`kernel`, a KernelFunction)."""

    def __init__(self, kernel):
        self.kernel = kernel

    def written(self, op: Operation, index: int):
        """Operand `index` of `op` as written: its type and the op that made it (before lowering replaced it)."""
        return self.kernel.types[op][index][0], self.kernel.makers[op][index]

    @staticmethod
    def local_address(new: list[Operation], cb: SSAValue, indices, write: bool) -> SSAValue:
        """A CB block's L1 address (its write or read pointer) plus the index."""
        pointer = ttkernel.OP_CLASSES["get_write_ptr" if write else "get_read_ptr"].create(
            operands=[cb], result_types=[i32])
        new.append(pointer)
        if not indices:
            return pointer.results[0]
        new.append(arith.AddiOp(pointer.results[0], _i32(new, indices[0])))
        return new[-1].result

    def far(self, new: list[Operation], op: Operation, base: SSAValue, t, indices) -> tuple[list, list, SSAValue]:
        """The far side of a transfer: its core (or DRAM bank) and address."""
        if len(indices) != 3:
            raise PassFailure(op, f"'{op.name}' reaches a device buffer by [grid y, grid x, offset] once fully "
                                  "indexed (d2m-lower-dma-to-fully-indexed-form)")
        if _space(t) == "dram":
            bank = _i32(new, indices[1])
            new.append(arith.AddiOp(base, _i32(new, indices[2])))
            return [], [bank], new[-1].result
        new.append(arith.AddiOp(base, _i32(new, indices[2])))
        address = new[-1].result
        y, x = translated(new, indices[0], indices[1])
        return [x, y], [], address

    def sized(self, new: list[Operation], op: Operation, src_type) -> SSAValue:
        """The transfer's bytes (numElems elements of the source); a page-by-page TensorAccessor transfer and a
        whole shard are refused."""
        if op.tensorAccessorPageMap is not None:
            raise PassFailure(op, f"'{op.name}' through a TensorAccessor (tensorAccessorPageMap) is not lowered "
                                  "in kernel functions yet")
        elems = op.numElems.value.data
        if elems <= 0:
            raise PassFailure(op, f"'{op.name}' of a whole shard is lowered once fully indexed "
                                  "(d2m-lower-dma-to-fully-indexed-form)")
        new.append(arith.ConstantOp(IntegerAttr(elems * _element_bytes(src_type), i32)))
        return new[-1].result

    def done(self, op: Operation, new: list[Operation]) -> None:
        """The transfer issued: its handle is a null one (index 0), as upstream's d2m.null_tx."""
        new.append(arith.ConstantOp(IntegerAttr(0, IndexType())))
        self.kernel.replace(op, new, [new[-1].result])

    def read(self, op: Operation) -> None:
        src_type, _ = self.written(op, 0)
        new: list[Operation] = []
        dst = self.local_address(new, op.dst, list(op.dst_indices), write=True)
        size = self.sized(new, op, src_type)
        noc = noc_constant(kernel_noc(self.kernel, op))
        new.append(noc)
        if _remote(src_type):
            core, bank, address = self.far(new, op, op.src, src_type, list(op.src_indices))
        else:
            address = self.local_address(new, op.src, list(op.src_indices), write=False)
            y, x = translated(new, *_my_core(new))
            core, bank = [x, y], []
        new.append(_transfer(ttkernel.NocAsyncReadOp, [core, bank, [address], [dst], [size], [noc.result]]))
        self.done(op, new)

    def write(self, op: Operation) -> None:
        src_type, src_maker = self.written(op, 0)
        dst_type, _ = self.written(op, 1 + len(op.src_indices))  # the destination follows the source's indices
        if op.start_device:
            raise PassFailure(op, "'d2m.dma_write' to another device needs the fabric, which this build does not "
                                  "lower")
        new: list[Operation] = []
        index = kernel_noc(self.kernel, op)
        if _remote(dst_type):
            src = self.local_address(new, op.src, list(op.src_indices), write=False)
            core, bank, address = self.far(new, op, op.dst, dst_type, list(op.dst_indices))
            size = self.sized(new, op, src_type)
            noc = noc_constant(index)
            new += [noc, _transfer(ttkernel.NocAsyncWriteOp, [[src], core, bank, [address], [size], [noc.result]])]
            return self.done(op, new)
        # both sides local: whole blocks at the CBs' pointers (a block this thread reserved at its write pointer)
        produced = src_maker is not None and src_maker.name == "d2m.reserve"
        src = self.local_address(new, op.src, [], write=produced)
        dst = self.local_address(new, op.dst, [], write=True)
        size = self.sized(new, op, src_type)
        if not op.mcast_shape:
            y, x = translated(new, *_my_core(new))
            noc = noc_constant(index)
            new += [noc, _transfer(ttkernel.NocAsyncWriteOp, [[src], [x, y], [], [dst], [size], [noc.result]])]
            return self.done(op, new)
        start, shape = list(op.mcast_start), list(op.mcast_shape)
        start_y, start_x = translated(new, start[0], start[1])
        end_y, end_x = translated(new, last_of(new, start[0], shape[0]), last_of(new, start[1], shape[1]))
        count = arith.MuliOp(shape[0], shape[1])
        count32 = arith.IndexCastOp(count.result, i32)
        one = arith.ConstantOp(IntegerAttr(1, i32))
        others = arith.SubiOp(count32.result, one.result)
        new += [count, count32, one, others]
        corners = [[start_x, start_y], [end_x, end_y]] if index == 0 else [[end_x, end_y], [start_x, start_y]]
        noc = noc_constant(index)
        new.append(noc)
        itself = op.src is op.dst  # a block sent to its own place elsewhere: this core has it already
        kind = ttkernel.NocAsyncWriteMulticastOp if itself else ttkernel.NocAsyncWriteMulticastLoopbackSrcOp
        dests = others.result if itself else count32.result
        new.append(kind.create(operands=[src, size, dests, *corners[0], *corners[1], dst, noc.result], properties={
            "operandSegmentSizes": _segments([1, 1, 1, 2, 2, 1, 1]), "linked": BoolAttr(True, IntegerType(1))}))
        self.done(op, new)

    def wait(self, op: Operation) -> None:
        kind = self.kernel.types[op][0][0].kind.data
        new: list[Operation] = []
        if kind != "mcast_write":
            noc = noc_constant(kernel_noc(self.kernel, op))
            barrier = "noc_async_read_barrier" if kind == "read" else "noc_async_write_barrier"
            new += [noc, ttkernel.OP_CLASSES[barrier].create(operands=[noc.result])]
        self.kernel.replace(op, new)

    def core_index(self, op: Operation) -> None:
        new: list[Operation] = []
        y, x = _my_core(new)
        dim = op.dim.value.data
        mapping = op.phys_to_virt_map
        if mapping is None or not mapping.data.results:
            if dim not in (0, 1):
                raise PassFailure(op, "a core index without a virtual grid map is of dim 0 or 1")
            return self.kernel.replace(op, new, [x if dim else y])
        whole = mapping.data
        if dim + 1 >= len(whole.results):
            raise PassFailure(op, f"'d2m.core_index' dim {dim} is past the grid map's results")
        selected = AffineMap(whole.num_dims, whole.num_symbols, (whole.results[dim + 1],))
        new.append(affine.ApplyOp([y, x], AffineMapAttr(selected)))
        self.kernel.replace(op, new, [new[-1].result])


def _segments(sizes: list[int]) -> DenseArrayBase:
    return DenseArrayBase.from_list(i32, sizes)


def _transfer(kind, groups: list[list[SSAValue]]) -> Operation:
    return kind.create(operands=[v for g in groups for v in g],
                       properties={"operandSegmentSizes": _segments([len(g) for g in groups])})
