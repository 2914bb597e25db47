"""`ttir.conv_transpose2d` in `--ttir-to-d2m`: written, where it is, as the gather and matmul of `conv2d.py`.

Input pixel (iy, ix) reaches output pixel (oy, ox) through kernel tap (kh, kw) when oy = iy*sh - top + kh*dh (and
likewise across). So output row (n, oy, ox), column (kh, kw, c) of the patch matrix holds the input's element
(n, (oy + top - kh*dh) / sh, ..., c) where that division is exact, zero elsewhere: the view names q + r * far for
quotient q and remainder r, far enough past the input that an inexact division names an element outside it (as a
negative q does), which the reader leaves zero. The weight (C, O/groups, KH, KW), seen as
(C, O/groups*KH*KW), gives the (KH*KW*C, O) matrix: row (kh, kw, c), column o holds weight[c, o - g*O/groups, kh, kw]
for o in c's group g, zero for other groups' outputs. The patches times that matrix, plus the bias, reshaped (and
permuted) are the result."""

from __future__ import annotations

from xdsl.ir import SSAValue
from xdsl.ir.affine import AffineExpr

from ttmlir.conversion.ttir_to_d2m.conv2d import Program, biased, convolution
from ttmlir.conversion.ttir_to_d2m.row_gather import _div
from ttmlir.dialects.ttir_shapes_nn import int_pair, int_quad
from ttmlir.ir.props import scalar
from ttmlir.ir.tt_op import TTOp


def _source(offset: AffineExpr, stride: int, reach: int, size: int) -> AffineExpr:
    """The input position an output position `offset` (oy + top - kh*dh, at least -reach) reads: offset / stride
    when exact, else one at least `size` (outside the input). The kernel's index arithmetic is unsigned, so the
    division is of offset + stride*lead (never negative), lead taken off the quotient after."""
    if stride == 1:
        return offset
    lead = -(-reach // stride)
    shifted = offset + stride * lead
    return shifted // stride - lead + (shifted % stride) * (size + lead)


def _weight_matrix(program: Program, weight: SSAValue, groups: int) -> SSAValue:
    """(KH*KW*C, O): row (kh, kw, c), column o holds weight[c, o - g*O/groups, kh, kw] for o in c's group g.
    Ungrouped, that is the weight seen as (C, O, KH*KW) with its window dim moved first: a permute whose steps
    transpose tiles and move face rows (the output channels stay the last dim), not a gather of each element."""
    channels, per_group, kh_count, kw_count = weight.type.get_shape()
    window = kh_count * kw_count
    if groups == 1:
        taps = program.permute(program.reshape(weight, [channels, per_group, window]), [2, 0, 1])
        return program.reshape(taps, [window * channels, per_group])
    flat = program.reshape(weight, [channels, per_group * window])
    inputs = channels // groups

    def index(i: list[AffineExpr]) -> list[AffineExpr]:
        c = i[0] % channels
        return [c, (i[1] - _div(c, inputs) * per_group) * window + _div(i[0], channels)]

    return program.gather(flat, [window * channels, per_group * groups], index)


def conv_transpose2d(convert, op: TTOp) -> list[TTOp]:
    """The TTIR ops (and gather programs) replacing conv_transpose2d `op`, where it was (see the module doc);
    `convert` is the pass."""
    program, to_nhwc, back = convolution(convert, op)
    value, weight = op.operands[:2]
    element = op.results[0].type.element_type
    x = program.permute(value, to_nhwc)
    n, h, w, c = x.type.get_shape()
    _, oh, ow, o_count = (op.results[0].type.get_shape()[d] for d in to_nhwc)
    _, _, kh_count, kw_count = weight.type.get_shape()
    (sh, sw), (dh, dw) = int_pair(op, "stride"), int_pair(op, "dilation")
    top, left = int_quad(op, "padding")[:2]
    # several images: the reader checks rows and columns, not the batch they fold into, so each image is a matrix
    flat = n > 1
    source = program.reshape(x, [n, h, w * c]) if flat else x

    def index(i: list[AffineExpr]) -> list[AffineExpr]:
        position, column = i
        kh, kw, channel = _div(column, kw_count * c), _div(column, c) % kw_count, column % c
        iy = _source((_div(position, ow) % oh) + top - kh * dh, sh, (kh_count - 1) * dh, h)
        ix = _source(position % ow + left - kw * dw, sw, (kw_count - 1) * dw, w)
        image = _div(position, oh * ow)
        return [image, iy, ix * c + channel] if flat else [image, iy, ix, channel]

    rows = n * oh * ow
    patches = program.gather(source, [rows, kh_count * kw_count * c], index)
    matrix = _weight_matrix(program, weight, int(scalar(op.prop("groups"))))
    product = biased(program, op, program.add("matmul", [patches, matrix], [rows, o_count], element))
    return program.done(program.permute(program.reshape(product, [n, oh, ow, o_count]), back))


TRANSPOSED_CONVOLUTIONS = {"conv_transpose2d": conv_transpose2d}
