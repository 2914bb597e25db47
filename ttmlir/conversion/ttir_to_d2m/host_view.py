"""Reshapes `--ttir-to-d2m` leaves on the host: a `ttir.reshape` (or squeeze, unsqueeze) of a function argument.

A reshape keeps the row-major order of the elements, and a function's argument is a row-major host buffer: the
reshaped tensor is the same bytes seen in another shape, a view the host makes for free. Moved to the device as it
is, the argument would first be padded matrix by matrix to whole tiles (a convolution's (O, C, KH, KW) weight: each
KHxKW window a tile of its own, a hundred times its size) and a program would then move its elements into the
reshaped tensor's tiles. Left on the host, only the reshaped tensor is moved (the weight as the (O, C*KH*KW)
matrix it is); `--convert-d2m-to-ttmetal` writes the view as a `memref.reinterpret_cast` of the argument's buffer."""

from __future__ import annotations

from xdsl.dialects.func import FuncOp
from xdsl.ir import BlockArgument

from ttmlir.ir.tt_op import TTOp

# the TTIR ops that only reshape their operand (row-major order kept)
HOST_VIEWS = ("ttir.reshape", "ttir.squeeze", "ttir.unsqueeze")


def host_view(op: TTOp) -> bool:
    """Whether `op` reshapes an argument of its function, keeping its element type: a view the host makes."""
    if op.name not in HOST_VIEWS:
        return False
    source = op.operands[0]
    return isinstance(source, BlockArgument) and isinstance(source.owner.parent_op(), FuncOp) and \
        source.type.element_type == op.results[0].type.element_type
