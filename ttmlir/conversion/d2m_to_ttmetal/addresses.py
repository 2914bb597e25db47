"""Addresses of a host program's device buffers by liveness: a buffer holds its range of L1 (per core) or DRAM
(per bank) from its `ttmetal.create_buffer` to the last command using it, after which a
`ttmetal.deallocate_buffer` frees it and a later buffer may take the range. The command queue runs in order, so a
program never sees a buffer freed under it; what must fit is the largest set of buffers live at once, not every
tensor of the function. The program being complete, every lifetime is known before any address is given: the
buffers are packed offline, largest first, each at the lowest 32-byte aligned address clear of the buffers placed
before it whose lifetimes overlap its own (so a large buffer is not kept out by holes small ones left, as it would
be placing them in program order)."""

from __future__ import annotations

from typing import Hashable

from xdsl.dialects.builtin import IntegerAttr, i64
from xdsl.ir import Operation, SSAValue

from ttmlir.dialects import ttmetal
from ttmlir.errors import PassFailure

ALIGN = 32


def aligned(size: int) -> int:
    return -(-size // ALIGN) * ALIGN


def pack(lifetimes: dict[Hashable, tuple[int, int, int]], base: int, limit: int
         ) -> tuple[dict[Hashable, int], list[Hashable]]:
    """Addresses in [base, limit) for buffers given as (first, last, bytes): their first and last positions in the
    program and their size. Returns the address of each placed buffer and, in program order, those that did not
    fit."""
    placed: dict[Hashable, tuple[int, int, int, int]] = {}  # first, last, address, end
    failed = []
    for key in sorted(lifetimes, key=lambda k: (-lifetimes[k][2], lifetimes[k][0])):
        first, last, size = lifetimes[key]
        size = aligned(size)
        address = base
        for _, _, start, end in sorted((p for p in placed.values() if p[0] <= last and first <= p[1]),
                                       key=lambda p: p[2]):
            if address + size <= start:
                break
            address = max(address, end)
        if address + size > limit:
            failed.append(key)
        else:
            placed[key] = (first, last, address, address + size)
    failed.sort(key=lambda k: lifetimes[k][0])
    return {k: p[2] for k, p in placed.items()}, failed


def live_with(lifetimes: dict[Hashable, tuple[int, int, int]], key: Hashable) -> int:
    """The most bytes the buffers live at once take at some point of `key`'s lifetime (its own included)."""
    first, last, _ = lifetimes[key]
    points = sorted({max(first, f) for f, l, _ in lifetimes.values() if f <= last and first <= l})
    return max(sum(aligned(s) for f, l, s in lifetimes.values() if f <= t <= l) for t in points)


def assign_addresses(ops: list[Operation], sizes: dict[SSAValue, tuple[str, int, Operation]], chip: dict,
                     function: str, layouts: dict) -> list[Operation]:
    """`ops` with each created buffer's address set and a deallocate after its last use; `sizes` gives each
    buffer's memory ("l1" or "dram"), the bytes it takes per core or bank, and the op it was made for (where a
    buffer that does not fit is reported)."""
    first: dict[SSAValue, int] = {}
    last: dict[SSAValue, int] = {}
    for index, op in enumerate(ops):
        if isinstance(op, ttmetal.CreateBufferOp) and op.result in sizes:
            first[op.result] = last[op.result] = index
        for value in op.operands:
            if value in sizes:
                last[value] = index
    spaces = {"l1": (int(chip["l1_unreserved_base"]), int(chip["l1_size"])),
              "dram": (int(chip["dram_unreserved_base"]), int(chip["dram_unreserved_end"]))}
    addresses: dict[SSAValue, int] = {}
    for memory, (base, limit) in spaces.items():
        lifetimes = {b: (first[b], last[b], sizes[b][1]) for b in first if sizes[b][0] == memory}
        placed, failed = pack(lifetimes, base, limit)
        if failed:
            buffer = failed[0]
            raise PassFailure(sizes[buffer][2], f"the tensors live at once in @{function} need "
                                                f"{live_with(lifetimes, buffer)} B of {memory.upper()} per "
                                                f"{'core' if memory == 'l1' else 'bank'} ({limit - base} B free; a "
                                                f"buffer of this op takes {sizes[buffer][1]} B)")
        addresses.update(placed)
    dying: dict[int, list[SSAValue]] = {}
    for buffer, index in last.items():
        dying.setdefault(index, []).append(buffer)
    result: list[Operation] = []
    for index, op in enumerate(ops):
        if isinstance(op, ttmetal.CreateBufferOp) and op.result in addresses:
            op.address = IntegerAttr(addresses[op.result], i64)
            layouts[op.result].address = addresses[op.result]
        result.append(op)
        for buffer in dying.get(index, ()):
            result.append(ttmetal.DeallocateBufferOp.create(operands=[buffer]))
    return result
