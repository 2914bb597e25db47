"""Addresses of a host program's device buffers by liveness: a buffer holds its range of L1 (per core) or DRAM
(per bank) from its `ttmetal.create_buffer` to the last command using it, after which a
`ttmetal.deallocate_buffer` frees it and a later buffer may take the range (first fit, 32-byte aligned). The
command queue runs in order, so a program never sees a buffer freed under it; what must fit is the largest set of
buffers live at once, not every tensor of the function."""

from __future__ import annotations

from xdsl.dialects.builtin import IntegerAttr, i64
from xdsl.ir import Operation, SSAValue

from ttmlir.dialects import ttmetal
from ttmlir.errors import PassFailure

ALIGN = 32


class _Space:
    """One memory space's free ranges, [base, limit)."""

    def __init__(self, base: int, limit: int):
        self.base, self.limit = base, limit
        self.taken: dict[SSAValue, tuple[int, int]] = {}
        self.peak = base

    def allocate(self, buffer: SSAValue, size: int) -> int | None:
        size = -(-size // ALIGN) * ALIGN
        address = self.base
        for start, end in sorted(self.taken.values()):
            if address + size <= start:
                break
            address = max(address, end)
        if address + size > self.limit:
            self.peak = max(self.peak, address + size)
            return None
        self.taken[buffer] = (address, address + size)
        self.peak = max(self.peak, address + size)
        return address

    def free(self, buffer: SSAValue) -> None:
        self.taken.pop(buffer, None)


def assign_addresses(ops: list[Operation], sizes: dict[SSAValue, tuple[str, int, Operation]], chip: dict,
                     function: str, layouts: dict) -> list[Operation]:
    """`ops` with each created buffer's address set and a deallocate after its last use; `sizes` gives each
    buffer's memory ("l1" or "dram"), the bytes it takes per core or bank, and the op it was made for (where a
    buffer that does not fit is reported)."""
    last: dict[SSAValue, int] = {}
    for index, op in enumerate(ops):
        for value in op.operands:
            if value in sizes:
                last[value] = index
    spaces = {"l1": _Space(int(chip["l1_unreserved_base"]), int(chip["l1_size"])),
              "dram": _Space(int(chip["dram_unreserved_base"]), int(chip["dram_unreserved_end"]))}
    dying: dict[int, list[SSAValue]] = {}
    for buffer, index in last.items():
        dying.setdefault(index, []).append(buffer)
    result: list[Operation] = []
    for index, op in enumerate(ops):
        if isinstance(op, ttmetal.CreateBufferOp) and op.result in sizes:
            memory, size, at = sizes[op.result]
            space = spaces[memory]
            address = space.allocate(op.result, size)
            if address is None:
                live = sum(end - start for start, end in space.taken.values())
                raise PassFailure(at, f"the tensors live at once in @{function} need {live + size} B of "
                                      f"{memory.upper()} per {'core' if memory == 'l1' else 'bank'} "
                                      f"({space.limit - space.base} B free; a buffer of this op takes {size} B)")
            op.address = IntegerAttr(address, i64)
            layouts[op.result].address = address
        result.append(op)
        for buffer in dying.get(index, ()):
            spaces[sizes[buffer][0]].free(buffer)
            result.append(ttmetal.DeallocateBufferOp.create(operands=[buffer]))
    return result
