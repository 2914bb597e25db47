"""Semaphores in a data-movement kernel function, as upstream lowers them.

A semaphore is its L1 address here (a `ttkernel.get_semaphore` of a local one, a global one's address). Setting
this core's own is a store through an L1 pointer (`noc_semaphore_set`); an increment of one core's is an atomic
increment at the semaphore's NoC address on that core; a set over a rectangle of cores sets this core's copy and
multicasts it to the rectangle (`noc_semaphore_set_multicast` to all but this core). A wait spins on the pointer
(`experimental.semaphore_wait`) and may reset it. Cores are named by logical coordinates, which the NoC needs
translated; the NoC is the one the thread's RISC-V drives (NoC 0 for dm_core 1, NoC 1 otherwise, as tt-metal's
reader/writer presets), and NoC 1 runs the other way, so a multicast on it swaps the rectangle's corners.
"""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType, IntegerAttr, IntegerType, i32
from xdsl.ir import Operation, SSAValue

from ttmlir.dialects import ttkernel
from ttmlir.errors import PassFailure


def kernel_noc(kernel, op: Operation) -> int:
    """The NoC the data-movement kernel's RISC-V drives."""
    thread = kernel.func.attributes.get("d2m.thread")
    if thread is None:
        raise PassFailure(op, f"unable to resolve datamovement kernel NoC index for '{op.name}' (the kernel has no "
                              "d2m.thread saying its core)")
    if thread.thread != "datamovement":
        raise PassFailure(op, f"'{op.name}' runs on a data-movement thread (it drives a NoC)")
    return 0 if thread.dm_core.data == 1 else 1


def noc_constant(noc: int) -> arith.ConstantOp:
    return arith.ConstantOp(IntegerAttr(noc, IntegerType(8)))


def translated(new: list[Operation], y: SSAValue, x: SSAValue) -> tuple[SSAValue, SSAValue]:
    """Logical core coordinates (y, x) in the NoC's translated coordinates."""
    ty = ttkernel.OP_CLASSES["experimental.convert_logical_y_to_translated"].create(operands=[y],
                                                                                    result_types=[y.type])
    tx = ttkernel.OP_CLASSES["experimental.convert_logical_x_to_translated"].create(operands=[x],
                                                                                    result_types=[x.type])
    new += [ty, tx]
    return ty.results[0], tx.results[0]


def last_of(new: list[Operation], start: SSAValue, extent: SSAValue) -> SSAValue:
    """`start + extent - 1`: the last index of a range."""
    one = arith.ConstantOp(IntegerAttr(1, IndexType()))
    total = arith.AddiOp(start, extent)
    new += [total, one, arith.SubiOp(total.result, one.result)]
    return new[-1].result


def l1_pointer(semaphore: SSAValue) -> Operation:
    return ttkernel.OP_CLASSES["reinterpret_cast"].create(operands=[semaphore], result_types=[ttkernel.L1AddrPtrType()])


def lower_semaphore_update(kernel, op: Operation) -> None:
    """`d2m.semaphore_set` (here, or multicast) and `d2m.semaphore_inc` (on one core)."""
    sem, value = op.semaphore, op.value
    is_inc = op.name == "d2m.semaphore_inc"
    core, mcast = list(op.dst_core_index), list(op.mcast_shape)
    if op.start_device:
        raise PassFailure(op, f"'{op.name}' on another device needs the fabric, which this build does not lower")
    new: list[Operation] = []
    if not core:
        if is_inc:
            raise PassFailure(op, "'d2m.semaphore_inc' increments another core's semaphore: it needs core[...]")
        ptr = l1_pointer(sem)
        new += [ptr, ttkernel.OP_CLASSES["noc_semaphore_set"].create(operands=[ptr.results[0], value])]
    elif not mcast:
        if not is_inc:
            raise PassFailure(op, "'d2m.semaphore_set' of one other core is not supported; set a rectangle with "
                                  "mcast[...] or increment it")
        noc = noc_constant(kernel_noc(kernel, op))
        new.append(noc)
        y, x = translated(new, core[0], core[1])
        addr = ttkernel.OP_CLASSES["get_noc_addr"].create(operands=[x, y, sem, noc.result],
                                                          result_types=[ttkernel.NocAddrType()])
        new += [addr, ttkernel.OP_CLASSES["noc_semaphore_inc"].create(operands=[addr.results[0], value, noc.result])]
    else:
        if is_inc:
            raise PassFailure(op, "'d2m.semaphore_inc' cannot multicast; use d2m.semaphore_set with mcast[...]")
        start_y, start_x = translated(new, core[0], core[1])
        last_y, last_x = last_of(new, core[0], mcast[0]), last_of(new, core[1], mcast[1])
        end_y, end_x = translated(new, last_y, last_x)
        count = arith.MuliOp(mcast[0], mcast[1])
        count32 = arith.IndexCastOp(count.result, i32)
        one = arith.ConstantOp(IntegerAttr(1, i32))
        others = arith.SubiOp(count32.result, one.result)
        index = kernel_noc(kernel, op)
        noc = noc_constant(index)
        new += [count, count32, one, others, noc]
        corners = [start_x, start_y, end_x, end_y] if index == 0 else [end_x, end_y, start_x, start_y]
        addr = ttkernel.OP_CLASSES["get_noc_multicast_addr"].create(operands=[*corners, sem, noc.result],
                                                                    result_types=[ttkernel.NocAddrType()])
        ptr = l1_pointer(sem)
        new += [addr, ptr, ttkernel.OP_CLASSES["noc_semaphore_set"].create(operands=[ptr.results[0], value]),
                ttkernel.OP_CLASSES["noc_semaphore_set_multicast"].create(
                    operands=[sem, addr.results[0], others.result])]
    kernel.replace(op, new)


def lower_semaphore_wait(kernel, op: Operation) -> None:
    """Spin until the semaphore holds the value, then (with `reset`) set it back."""
    ptr = l1_pointer(op.semaphore)
    new = [ptr, ttkernel.OP_CLASSES["experimental.semaphore_wait"].create(operands=[ptr.results[0], op.value])]
    if op.reset_value is not None:
        new.append(ttkernel.OP_CLASSES["noc_semaphore_set"].create(operands=[ptr.results[0], op.reset_value]))
    kernel.replace(op, new)
