"""How a reshape `--ttir-to-d2m` leaves on the host (`conversion/ttir_to_d2m/host_view.py`) bufferizes (part of
`d2m_bufferize`): on its argument's row-major buffer it is a `memref.reinterpret_cast` to the reshaped shape, as
`--convert-d2m-to-ttmetal` writes it on the tensor path."""

from __future__ import annotations

from xdsl.dialects.builtin import MemRefType, NoneAttr
from xdsl.rewriter import Rewriter

from ttmlir.conversion.d2m_to_ttmetal.host_view import host_view
from ttmlir.conversion.ttir_to_d2m.host_view import HOST_VIEWS
from ttmlir.dialects.ttir import TTIR_OP_CLASSES
from ttmlir.errors import PassFailure


def bufferize_host_view(op, buffer_type) -> None:
    source = op.operands[0]
    if not isinstance(source.type, MemRefType) or not isinstance(source.type.layout, NoneAttr) or \
            not isinstance(source.type.memory_space, NoneAttr):
        raise PassFailure(op, "failed to bufferize op: a host view reshapes a row-major host buffer")
    Rewriter.replace_op(op, host_view(source, op.results[0].type))


HOST_VIEW_BUFFERIZE = {TTIR_OP_CLASSES[name.removeprefix("ttir.")]: bufferize_host_view for name in HOST_VIEWS}
