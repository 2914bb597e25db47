"""A kernel function's arguments (`d2m.get_cb`, `d2m.get_arg`): which kernel argument each is, and the reads of it.

Each names an operand of the generic it came from; its kind comes from its type, as upstream classifies them: a
circular buffer (a `d2m.get_cb`, or a memref of the core's own: no device layout, not in DST, not a strided
subview, e.g. a CB-backed scratch buffer) is a `cb_port` (one per physical port), a memref with a device layout
(shard, interleaved, view) the `buffer_address` of the operand's buffer (an i32), a `!d2m.global_semaphore` a `global_semaphore`
(an L1 address), a `!d2m.local_semaphore` a `local_semaphore` (its id, whose L1 address `ttkernel.get_semaphore`
gives) and an integer, index or float a `scalar` (a ui32 slot, bitcast to the type it carries).
"""

from __future__ import annotations

import math

from xdsl.dialects import arith
from xdsl.dialects.builtin import (AnyFloat, DenseArrayBase, IndexType, IntAttr, IntegerAttr, IntegerType, MemRefType,
                                   Signedness, StridedLayoutAttr, i32)
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute, Operation

from ttmlir.dialects import ttcore, ttkernel
from ttmlir.dialects.d2m_args import GetArgOp
from ttmlir.dialects.d2m_cb import GlobalSemaphoreType, LocalSemaphoreType
from ttmlir.errors import PassFailure

UI32 = IntegerType(32, Signedness.UNSIGNED)


def physical_port(func: FuncOp, logical: int) -> int:
    """The CB port of logical operand `logical`: the function's `d2m.physical_cb_ports` entry when it names one."""
    ports = func.attributes.get("d2m.physical_cb_ports")
    if isinstance(ports, DenseArrayBase):
        values = ports.get_values()
        if 0 <= logical < len(values) and values[logical] >= 0:
            return values[logical]
    return logical


def cb_type(shaped: Attribute) -> ttkernel.CBType:
    """A CB of a block of `shaped` (a memref): its element count and element type, as upstream's type converter."""
    return ttkernel.CBType(IntAttr(math.prod(shaped.get_shape())), shaped.element_type)


# memref layouts that make a memref an address rather than a circular buffer: a device buffer's, or a subview's offsets
ADDRESS_LAYOUTS = (ttcore.ShardLayoutAttr, ttcore.InterleavedLayoutAttr, ttcore.ViewLayoutAttr, StridedLayoutAttr)


def is_cb_memref(t: Attribute) -> bool:
    """A memref that is a circular buffer of the kernel's core, as upstream's type converter sees it: no device
    layout (a `#ttcore.cb_layout`, or none), not a subview's strided offsets, not in DST."""
    space = getattr(getattr(t, "memory_space", None), "data", None)
    return isinstance(t, MemRefType) and not isinstance(t.layout, ADDRESS_LAYOUTS) and \
        getattr(space, "value", None) != "dst"


def kernel_arg(func: FuncOp, op: Operation) -> tuple[str, None, int]:
    """The kernel argument (kind, name, operand index) a `d2m.get_cb` or `d2m.get_arg` of `func` reads."""
    if not isinstance(op, GetArgOp):
        return "cb_port", None, physical_port(func, op.cb_operand_idx.value.data)
    index, t = op.operand_index.value.data, op.result.type
    if is_cb_memref(t):
        return "cb_port", None, physical_port(func, index)
    if isinstance(t, MemRefType):
        return "buffer_address", None, index
    if isinstance(t, GlobalSemaphoreType):
        return "global_semaphore", None, index
    if isinstance(t, LocalSemaphoreType):
        return "local_semaphore", None, index
    if isinstance(t, (IntegerType, IndexType, AnyFloat)):
        return "scalar", None, index
    raise PassFailure(op, f"'d2m.get_arg' of a {t} is not a kernel argument (a buffer, a semaphore or a scalar)")


def read_arg(kernel, arg: tuple[str, None, int], result: Attribute) -> list[Operation]:
    """The read of kernel argument `arg` as a `result`: a compile-time arg (as all are under
    force-compile-time-args), else a common runtime arg (every core gets the same), by its place in its list; the
    last op's result is the value."""
    compile_time, index = kernel.slot(arg)
    if compile_time:
        return [ttkernel.OP_CLASSES["get_compile_time_arg_val"].create(
            result_types=[result], properties={"arg_index": IntegerAttr(index, i32)})]
    position = arith.ConstantOp(IntegerAttr(index, IndexType()))
    return [position, ttkernel.OP_CLASSES["get_common_arg_val"].create(operands=[position.result],
                                                                      result_types=[result])]


def lower_get_arg(kernel, op: GetArgOp) -> None:
    arg = kernel_arg(kernel.func, op)
    t = op.result.type
    kind = arg[0]
    if kind == "cb_port":
        kernel.replace(op, read_arg(kernel, arg, cb_type(t)))
    elif kind == "buffer_address":
        kernel.replace(op, read_arg(kernel, arg, i32))
    elif kind == "global_semaphore":
        kernel.replace(op, read_arg(kernel, arg, ttkernel.L1AddrType()))
    elif kind == "local_semaphore":
        new = read_arg(kernel, arg, i32)
        new.append(ttkernel.OP_CLASSES["get_semaphore"].create(operands=[new[-1].results[0]],
                                                               result_types=[ttkernel.LocalSemaphoreType()]))
        kernel.replace(op, new)
    else:
        new = read_arg(kernel, arg, UI32)
        if t != UI32:
            new.append(ttkernel.BitcastOp.create(operands=[new[-1].results[0]], result_types=[t]))
        kernel.replace(op, new)
