"""A reshape `--ttir-to-d2m` leaves on the host (`conversion/ttir_to_d2m/host_view.py`) as TTMetal host IR: a
`memref.reinterpret_cast` of the argument's row-major buffer to the reshaped shape (offset 0, row-major strides),
the same bytes in another shape; the flatbuffer carries it as a memref copy, which the runtime holds as a view."""

from __future__ import annotations

from xdsl.dialects.builtin import MemRefType, TensorType
from xdsl.dialects.memref import ReinterpretCastOp
from xdsl.ir import SSAValue

from ttmlir.ir.sizes import row_major_strides


def host_view(host: SSAValue, t: TensorType) -> ReinterpretCastOp:
    """The host buffer `host` seen as a buffer of `t`'s shape (whose elements it holds in the same order)."""
    shape = tuple(t.get_shape())
    return ReinterpretCastOp(host, [], [], [], [0], shape, row_major_strides(shape),
                             MemRefType(t.element_type, shape))
