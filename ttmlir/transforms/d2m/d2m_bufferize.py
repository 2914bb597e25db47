"""How D2M ops bufferize (what `--ttcore-one-shot-bufferize` and `--ttir-bufferization-pipeline` do to them): device
tensors become buffers in ttcore's memref layouts and the ops write them in place.

`d2m.empty` is a `memref.alloc` (a TTNN tensor stays: TTNN allocates it); `d2m.to_layout`, `d2m.to_device` and
`d2m.to_host` write their output buffer and have no result (a host buffer the device layout pads is copied
through a padded `#ttcore.host_layout` buffer); a `d2m.view_layout` is a `#ttcore.view<rank>` memref
of its input's buffer; `d2m.mask` writes its output (its input seen through a view of the output's layout if the
two differ); a generic takes its operands' buffers and has no results, and in its region the loads, stores, local
copies and linalg.generics write their destination buffers, circular buffers hold memrefs in L1, and the yield
goes. `ttir.ttnn_metal_layout_cast` casts to or from a buffer."""

from __future__ import annotations

from xdsl.dialects import linalg, memref
from xdsl.dialects.builtin import AffineMapAttr, MemRefType, NoneAttr, TensorType
from xdsl.ir import Attribute, Operation
from xdsl.ir.affine import AffineMap
from xdsl.rewriter import Rewriter

from ttmlir.dialects import d2m, ttcore
from ttmlir.dialects.d2m_dma import LocalCopyOp
from ttmlir.dialects.d2m_cb import CBType
from ttmlir.dialects.d2m_tilize import TileTilizeBlockOp, TileUntilizeBlockOp
from ttmlir.dialects.d2m_mask import MaskOp
from ttmlir.dialects.memref_ext import CopyOp
from ttmlir.dialects.ttcore_alignments import collapsed_intervals
from ttmlir.dialects.ttir import TTNNMetalLayoutCastOp
from ttmlir.errors import PassFailure, derive
from ttmlir.transforms.d2m.d2m_bufferize_embedding import EMBEDDING_BUFFERIZE
from ttmlir.dialects.d2m_topk import TOPK_BUFFERIZE
from ttmlir.transforms.d2m.d2m_bufferize_host_view import HOST_VIEW_BUFFERIZE

L1 = ttcore.MemorySpaceAttr(ttcore.MemorySpaceAttr.enum_type("l1"))


def view_type(t: TensorType) -> MemRefType:
    """The buffer a view of a device tensor is: its shape in the view layout of its rank, in its memory."""
    space = ttcore.MemorySpaceAttr(ttcore.MemorySpaceAttr.enum_type(t.encoding.data.memory_space))
    return MemRefType(t.element_type, t.get_shape(), ttcore.ViewLayoutAttr(len(t.get_shape())), space)


def _in_place(op: Operation) -> None:
    """`op` again on buffers, with no result: what read its result reads the buffer it wrote."""
    made = type(op).create(operands=list(op.operands), result_types=[], properties=dict(op.properties),
                           attributes=dict(op.attributes))
    derive([made], op)
    Rewriter.replace_op(op, made, [made.operands[_DEST[type(op)]] for _ in op.results])


# which operand an op writes (its result's buffer once bufferized)
_DEST = {d2m.ToLayoutOp: 1, d2m.RemoteLoadOp: 0, d2m.RemoteStoreOp: 0, LocalCopyOp: 1, TileTilizeBlockOp: 1,
         TileUntilizeBlockOp: 1}


def _empty(op: d2m.EmptyOp, buffer_type) -> None:
    t = op.result.type
    if isinstance(t, TensorType) and not isinstance(t.encoding, (NoneAttr, ttcore.MetalLayoutAttr)):
        return  # a TTNN tensor: TTNN allocates it
    attributes = {f"d2m.{k}": v for k, v in op.attributes.items() if k.startswith("virtualGrid")}
    alloc = memref.AllocOp([], [], buffer_type(t))
    alloc.attributes.update(attributes)
    derive([alloc], op)
    Rewriter.replace_op(op, alloc)


def _view(op: d2m.ViewLayoutOp, buffer_type) -> None:
    if not isinstance(op.result.type, TensorType):
        return
    made = d2m.ViewLayoutOp.create(operands=[op.input], result_types=[view_type(op.result.type)],
                                   properties=dict(op.properties), attributes=dict(op.attributes))
    derive([made], op)
    Rewriter.replace_op(op, made)


def _mask(op: MaskOp, buffer_type) -> None:
    if not isinstance(op.result.type, TensorType):
        return
    source, out = op.input, op.output
    new = []
    if source.type != out.type:
        a, b = source.type, out.type
        if a.element_type != b.element_type or a.memory_space != b.memory_space or \
                a.element_count() != b.element_count():
            raise PassFailure(op, "bufferized input and output types are incompatible")
        rank = len(b.get_shape())
        new.append(d2m.ViewLayoutOp.create(operands=[source], result_types=[b], properties={
            "remapping": AffineMapAttr(AffineMap.identity(rank))}))
        source = new[-1].results[0]
    made = MaskOp.create(operands=[source, out], result_types=[out.type], properties=dict(op.properties),
                         attributes=dict(op.attributes))
    derive([*new, made], op)
    Rewriter.replace_op(op, [*new, made], [out])


def _moves(op: Operation, buffer_type) -> None:
    """to_layout, remote loads and stores and local copies on buffers write in place."""
    if op.results and any(isinstance(r.type, TensorType) for r in op.results):
        _in_place(op)


def host_strides(layout: ttcore.MetalLayout) -> tuple[tuple[int, ...], int]:
    """The element strides of the host buffer a device tensor is read from or written to (each collapsed group of
    dims padded to its alignments, as the device holds it) and its volume."""
    shape, align = layout.logical_shape, layout.dim_alignments
    strides = [0] * len(shape)
    current = 1
    for start, end in reversed(collapsed_intervals(layout)):
        collapsed = 1
        for d in range(end - 1, start - 1, -1):
            strides[d] = current
            current //= collapsed
            collapsed = -(-collapsed * shape[d] // align[d]) * align[d]
            current *= collapsed
    if len(shape) == 1:
        current *= 32  # a 1-d tensor is one row of a tile
    return tuple(strides), current


def _host_buffer(host: MemRefType, layout: ttcore.MetalLayoutAttr) -> MemRefType | None:
    """The padded host buffer (`#ttcore.host_layout`) the device layout needs between it and `host`, or None when
    `host` is already laid out as the device holds it."""
    strides, volume = host_strides(layout.data)
    if volume <= host.element_count():
        return None
    shape = tuple(host.get_shape())
    return MemRefType(host.element_type, shape, ttcore.HostLayoutAttr(ttcore.HostLayout(shape, strides, volume)))


def _transfer(op: Operation, buffer_type) -> None:
    """to_device and to_host write their output in place; a host buffer the device layout pads is bounced through
    a padded copy (`memref.copy` into it before a to_device, out of it after a to_host)."""
    if not (op.results and isinstance(op.results[0].type, TensorType)):
        return
    host_index = 0 if isinstance(op, d2m.ToDeviceOp) else 1
    operands = list(op.operands)
    bounce_type = _host_buffer(operands[host_index].type, op.layout)
    new = []
    if bounce_type is not None:
        bounce = memref.AllocOp([], [], bounce_type)
        new.append(bounce)
        if host_index == 0:
            new.append(CopyOp(operands[0], bounce.memref))
        host, operands[host_index] = operands[host_index], bounce.memref
    made = type(op).create(operands=operands, result_types=[], properties=dict(op.properties),
                           attributes=dict(op.attributes))
    new.append(made)
    if bounce_type is not None and host_index == 1:
        new.append(CopyOp(bounce.memref, host))
    derive(new, op)
    Rewriter.replace_op(op, new, [op.operands[1]])


def _generic(op: d2m.GenericOp, buffer_type) -> None:
    if not op.results:
        return
    made = d2m.GenericOp.create(operands=list(op.operands), result_types=[], properties=dict(op.properties),
                                attributes=dict(op.attributes), regions=[op.detach_region(r) for r in
                                                                         list(op.regions)])
    derive([made], op)
    Rewriter.replace_op(op, made, list(op.outputs))


def _yield(op: d2m.YieldOp, buffer_type) -> None:
    parent = op.parent_op()
    if isinstance(parent, d2m.GenericOp) and any(isinstance(v.type, (TensorType, MemRefType)) for v in op.operands):
        Rewriter.erase_op(op)  # a generic on buffers writes its outputs; nothing is yielded


def _linalg(op: linalg.GenericOp, buffer_type) -> None:
    if not op.results:
        return
    made = linalg.GenericOp(list(op.inputs), list(op.outputs), op.detach_region(op.body), op.indexing_maps,
                            op.iterator_types, [], op.doc, op.library_call)
    derive([made], op)
    Rewriter.replace_op(op, made, list(op.outputs))


def _cb_type(t: Attribute) -> Attribute:
    """A circular buffer of tensor blocks as one of L1 memrefs."""
    if isinstance(t, CBType) and isinstance(t.underlying, TensorType):
        block = t.underlying
        return CBType(MemRefType(block.element_type, block.get_shape(), NoneAttr(), L1))
    return t


def _cb_op(op: Operation, buffer_type) -> None:
    """get_cb, wait and reserve: their CB and block types as buffers."""
    for result in op.results:
        t = result.type
        new = _cb_type(t) if isinstance(t, CBType) else \
            MemRefType(t.element_type, t.get_shape(), NoneAttr(), L1) if isinstance(t, TensorType) else t
        if new != t:
            Rewriter.replace_value_with_new_type(result, new)


def _cast(op: TTNNMetalLayoutCastOp, buffer_type) -> None:
    t = op.results[0].type
    if isinstance(t, TensorType) and isinstance(t.encoding, ttcore.MetalLayoutAttr):
        Rewriter.replace_value_with_new_type(op.results[0], buffer_type(t))


D2M_BUFFERIZE = {d2m.EmptyOp: _empty, d2m.ViewLayoutOp: _view, MaskOp: _mask, d2m.GenericOp: _generic,
                 d2m.YieldOp: _yield, linalg.GenericOp: _linalg, TTNNMetalLayoutCastOp: _cast,
                 d2m.ToDeviceOp: _transfer, d2m.ToHostOp: _transfer,
                 **{cls: _moves for cls in _DEST},
                 **{cls: _cb_op for cls in d2m.CB_OPS if cls.name in ("d2m.get_cb", "d2m.wait", "d2m.reserve")},
                 **EMBEDDING_BUFFERIZE,
                 **TOPK_BUFFERIZE,
                 **HOST_VIEW_BUFFERIZE}
