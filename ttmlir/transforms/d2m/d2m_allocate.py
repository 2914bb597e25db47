"""`--d2m-allocate`: an address for every device buffer of a bufferized D2M program.

Each `memref.alloc` of a memref in L1 or DRAM (`#ttcore.memory_space<l1>`/`<dram>`, in a function or in a generic's
region) gets `address` and `alignment` attributes, as upstream prints them:
`memref.alloc() {address = 103712 : i64, alignment = 16 : i64} : memref<...>`. The addresses come from a first-fit
allocator per memory space over each function in program order: a buffer holds its bytes from its alloc to its last
use (through the views and casts of it; one a function returns, to the end), and its bytes are free for the
buffers made after that. A buffer's bytes are per core in L1 (a shard's: its first shard dim times that dim's byte
stride in `#ttcore.shard<...>`, times the buffers it cycles through; a circular buffer's `#ttcore.cb_layout<...>`, its
whole shape times its buffers; a memref of no layout, all of it on each core),
and per bank in DRAM (the buffer's bytes spread over the chip's DRAM channels). Alignments are the chip's NoC
alignments (or a larger one the alloc asks). L1 is the chip's unreserved range (`available-l1-addr-range=base,end`
overrides it; `test-assume-l1-capacity=N` takes N bytes from its base); a function whose buffers do not fit is
refused: `'func.func' op required L1 memory usage N exceeds memory capacity M`. A buffer already given an address
keeps it and holds its bytes. A buffer a function neither returns nor frees is freed (`memref.dealloc`) after its
last use in the function's body, as upstream ends its scope.

Before addressing, each generic operand's block buffers are aliased to it or kept as stream buffers
(`stream-insert-policy`, `num-stream-buffers`; see `allocate_operand_buffers`), a stream buffer taking its bytes
once per buffer it cycles through. A function's L1 buffers that only generics use and that are no generic's output
(unless `allow-l1-output-spilling` and another generic reads it) may be spilled to DRAM, keeping their layout: all
of them under `force-spill-to-dram-if-legal`, else the largest one left while L1 cannot hold the rest; an
intermediate that stays in L1 has its blocks aliased again."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import IntegerAttr, MemRefType, ModuleOp, i64
from xdsl.dialects.func import FuncOp, ReturnOp
from xdsl.dialects.memref import AllocOp, DeallocOp
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass

from ttmlir import hardware
from ttmlir.dialects import d2m, ttcore
from ttmlir.dialects.ttcore_cb_layout import CBLayoutAttr
from ttmlir.errors import PassFailure
from ttmlir.transforms.d2m.allocate_operand_buffers import (STREAM_INSERT_POLICIES, alias_unspilled,
                                                            choose_operand_buffers, is_generic_output, spill,
                                                            spill_candidates)
from ttmlir.transforms.ttcore.register_device import device_module_of

SPACES = ("l1", "dram")


def memory_space(t: MemRefType) -> str | None:
    space = t.memory_space
    return space.data.value if isinstance(space, ttcore.MemorySpaceAttr) else None


def element_bytes(t: MemRefType) -> int:
    element = t.element_type
    if isinstance(element, ttcore.TileType):
        return hardware.tile_bytes(element.dtype)
    return max(1, element.bitwidth // 8)


def buffer_bytes(t: MemRefType, banks: int) -> int:
    """The bytes a buffer of type `t` takes on each core (L1) or each DRAM bank."""
    shape, layout = t.get_shape(), t.layout
    if isinstance(layout, CBLayoutAttr):  # one core's circular buffer: all its backing buffers
        return layout.bytes(t)
    if isinstance(layout, (ttcore.ShardLayoutAttr, ttcore.InterleavedLayoutAttr)):
        strides, buffers = layout.data if isinstance(layout, ttcore.ShardLayoutAttr) else (layout.data, 1)
        rank = len(strides)
        inner = shape[-rank] * strides[0] * buffers
        outer = math.prod(shape[:-rank])
    else:
        inner, outer = math.prod(shape) * element_bytes(t), 1
    if memory_space(t) == "dram":
        return -(-inner * outer // banks)
    return inner if isinstance(layout, ttcore.ShardLayoutAttr) else inner * outer


def _aliases(value: SSAValue) -> list[SSAValue]:
    """`value` and the memrefs ops make of it (views, casts, streams) that stand for the same bytes."""
    seen, todo = [], [value]
    while todo:
        v = todo.pop()
        seen.append(v)
        for use in v.uses:
            todo += [r for r in use.operation.results if isinstance(r.type, MemRefType) and r not in seen]
    return seen


@dataclass
class _Buffer:
    alloc: AllocOp
    space: str
    size: int
    align: int
    start: int
    end: int  # the position of its last use (math.inf: returned)
    last: Operation | None  # the op of the alloc's block after which it is freed (None: never in this function)
    address: int | None = None


class _Function:
    """The allocs of one function, in program order, and where each is live."""

    def __init__(self, func: FuncOp):
        self.func = func
        self.order: dict[Operation, int] = {op: i for i, op in enumerate(func.walk())}
        self.ends: dict[Operation, int] = {}

    def subtree_end(self, op: Operation) -> int:
        if op not in self.ends:
            self.ends[op] = max((self.order[o] for o in op.walk()), default=self.order[op])
        return self.ends[op]

    def live_range(self, alloc: AllocOp) -> tuple[float, Operation | None]:
        """The position of the alloc's last use, and the op of its block holding that use (None if returned)."""
        block, end, last = alloc.parent_block(), self.order[alloc], alloc
        for value in _aliases(alloc.memref):
            for use in value.uses:
                user = use.operation
                if isinstance(user, ReturnOp) and user.parent_op() is self.func:
                    return math.inf, None
                if isinstance(user, DeallocOp):
                    return self.subtree_end(user), None  # freed where the program says
                while user.parent_block() is not block:
                    user = user.parent_op()
                    if user is None:
                        return math.inf, None
                if self.subtree_end(user) > end:
                    end, last = self.subtree_end(user), user
        return end, last


@dataclass(frozen=True)
class D2MAllocatePass(ModulePass):
    """Addresses and alignments for the device buffers (see the module doc)."""

    name: ClassVar[str] = "d2m-allocate"
    available_l1_addr_range: tuple[int, ...] = ()
    test_assume_l1_capacity: int = 0
    num_stream_buffers: int = 2
    stream_insert_policy: str = "infer"
    allow_l1_output_spilling: bool = False
    force_spill_to_dram_if_legal: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        module = device_module_of(op)
        system = module.attributes.get("ttcore.system_desc")
        if not isinstance(system, ttcore.SystemDescAttr):
            raise PassFailure(op, "module has no ttcore.system_desc attribute (run --ttcore-register-device first)")
        chip = system.data.chip(0)
        l1_base, l1_end = int(chip["l1_unreserved_base"]), int(chip["l1_size"])
        if self.available_l1_addr_range:
            if len(self.available_l1_addr_range) != 2 or not 0 <= self.available_l1_addr_range[0] < \
                    self.available_l1_addr_range[1]:
                raise PassFailure(op, "available-l1-addr-range is a range base,end of L1 addresses (base < end)")
            l1_base, l1_end = self.available_l1_addr_range
        if self.test_assume_l1_capacity < 0:
            raise PassFailure(op, "test-assume-l1-capacity is a number of bytes")
        if self.test_assume_l1_capacity:
            l1_end = l1_base + self.test_assume_l1_capacity
        ranges = {"l1": (l1_base, l1_end),
                  "dram": (int(chip["dram_unreserved_base"]), int(chip["dram_unreserved_end"]))}
        aligns = {"l1": int(chip.get("noc_l1_address_align_bytes") or 16),
                  "dram": int(chip.get("noc_dram_address_align_bytes") or 32)}
        banks = int(chip["num_dram_channels"])
        if self.stream_insert_policy not in STREAM_INSERT_POLICIES:
            raise PassFailure(op, f"unknown stream-insert-policy '{self.stream_insert_policy}' (expected one of: "
                                  "always, infer)")
        if self.num_stream_buffers < 1:
            raise PassFailure(op, "num-stream-buffers is at least 1")
        for func in [f for f in module.ops if isinstance(f, FuncOp) and f.body.blocks]:
            candidates = spill_candidates(func, self.allow_l1_output_spilling)
            speculative = {a.memref for a in candidates if is_generic_output(a.memref)}
            for generic in [g for g in func.walk() if isinstance(g, d2m.GenericOp) and g.regions]:
                choose_operand_buffers(generic, self.stream_insert_policy, self.num_stream_buffers, speculative)
            self.spill_and_allocate(func, candidates, ranges, aligns, banks)
            for generic in [g for g in func.walk() if isinstance(g, d2m.GenericOp) and g.regions]:
                alias_unspilled(generic, speculative)

    def spill_and_allocate(self, func: FuncOp, candidates: list[AllocOp], ranges: dict, aligns: dict,
                           banks: int) -> None:
        """Addresses for `func`'s buffers, the spillable ones (`candidates`) moved to DRAM: all of them under
        force-spill-to-dram-if-legal, else the largest one left while L1 does not hold the rest."""
        spilled = list(candidates) if self.force_spill_to_dram_if_legal else []
        while True:
            for alloc in spilled:
                spill(alloc.memref)
            try:
                self.allocate(func, ranges, aligns, banks)
                return
            except PassFailure as failure:
                left = [a for a in candidates if a not in spilled]
                if "L1 memory usage" not in str(failure) or not left:
                    raise
                spilled.append(max(left, key=lambda a: buffer_bytes(a.memref.type, banks)))

    def allocate(self, func: FuncOp, ranges: dict, aligns: dict, banks: int) -> None:
        function = _Function(func)
        buffers: list[_Buffer] = []
        for alloc in [o for o in func.walk() if isinstance(o, AllocOp)]:
            space = memory_space(alloc.memref.type)
            if space not in SPACES:
                continue
            if any(d < 0 for d in alloc.memref.type.get_shape()):
                raise PassFailure(alloc, "a device buffer of dynamic shape cannot be given an address")
            asked = alloc.alignment.value.data if alloc.alignment is not None else 0
            end, last = function.live_range(alloc)
            # a stream buffer in a generic's region holds as many blocks as it cycles through
            cycled = alloc.attributes.get("d2m.synchronized_buffer") if alloc.parent_block() is not func.body.block \
                else None
            copies = cycled.value.data if isinstance(cycled, IntegerAttr) else 1
            buffer = _Buffer(alloc, space, copies * buffer_bytes(alloc.memref.type, banks),
                             max(asked, aligns[space]), function.order[alloc], end, last)
            given = alloc.attributes.get("address")
            if isinstance(given, IntegerAttr):
                buffer.address = given.value.data
            buffers.append(buffer)
        for space in SPACES:
            self.place([b for b in buffers if b.space == space], ranges[space], space, func)
        for buffer in buffers:
            buffer.alloc.attributes["address"] = IntegerAttr(buffer.address, i64)
            buffer.alloc.properties["alignment"] = IntegerAttr(buffer.align, i64)
            if buffer.last is not None and buffer.alloc.parent_block() is func.body.block:
                block = func.body.block
                block.insert_op_after(DeallocOp.get(buffer.alloc.memref), buffer.last)

    @staticmethod
    def place(buffers: list[_Buffer], bounds: tuple[int, int], space: str, func: FuncOp) -> None:
        """First fit in program order, each buffer's bytes free once it is dead."""
        base, end = bounds
        live: list[_Buffer] = [b for b in buffers if b.address is not None]
        peak = 0
        for buffer in sorted((b for b in buffers if b.address is None), key=lambda b: b.start):
            taken = sorted((b for b in live if b.end >= buffer.start and b.start <= buffer.end),
                           key=lambda b: b.address)
            address = -(-base // buffer.align) * buffer.align
            for other in taken:
                if address + buffer.size <= other.address:
                    break
                address = max(address, -(-(other.address + other.size) // buffer.align) * buffer.align)
            buffer.address = address
            live.append(buffer)
            peak = max(peak, address + buffer.size - base)
        if base + peak > end:
            raise PassFailure(func, f"'{func.name}' op required {space.upper()} memory usage {peak} exceeds memory "
                                    f"capacity {end - base}")
