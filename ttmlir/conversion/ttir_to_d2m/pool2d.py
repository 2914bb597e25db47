"""`ttir.max_pool2d`, `ttir.avg_pool2d`, `ttir.global_avg_pool2d` and `ttir.upsample2d` in `--ttir-to-d2m`:
written, where they are, as gathers of an NHWC input's windows (see `conv2d.py`) and ops the D2M path computes.

A pool gathers, for each window offset (kh, kw), the (N*OH*OW, C) matrix of what that offset reads, and combines
them with `maximum` or `add`. What a window reads outside the input is padding: a max pool masks it with -inf
(`where` over the same gather of a tensor of ones, for the offsets that read outside), an average pool counts it
as zero and divides by the window's size (count_include_pad) or by the number of elements it read (the sum of
those gathers of ones). An average pool whose ceil_mode windows leave the padded input is refused (its divisor
is neither). A global average pool sums each image's pixels (a matmul of the (N*H*W, C) pixels by a selector
whose row n is ones over image n's, gathered from one row of ones) and divides by H*W. Nearest upsampling is one
gather: output (n, y, x, c) reads input (n, y / sh, x / sw, c); bilinear upsampling is refused."""

from __future__ import annotations

from xdsl.ir import SSAValue
from xdsl.ir.affine import AffineExpr

from ttmlir.conversion.ttir_to_d2m.conv2d import Program, Windows
from ttmlir.dialects import ttnn
from ttmlir.dialects.ttir_shapes_nn import flattened_info, int_pair, int_quad
from ttmlir.errors import PassFailure
from ttmlir.ir.props import scalar
from ttmlir.ir.tt_op import TTOp


def _checked(op: TTOp) -> None:
    value = op.operands[0]
    if isinstance(getattr(value.type, "encoding", None), ttnn.TTNNLayoutAttr):
        raise PassFailure(op, f"'{op.name}' is not converted to D2M in ttnn-mode yet")


def _outside(windows: Windows, kh: int, kw: int) -> bool:
    """Whether window offset (kh, kw) reads outside the input for some output position."""
    (oh, ow), (sh, sw), (dh, dw) = windows.out, windows.stride, windows.dilation
    rows = (kh * dh - windows.top, (oh - 1) * sh + kh * dh - windows.top)
    cols = (kw * dw - windows.left, (ow - 1) * sw + kw * dw - windows.left)
    return rows[0] < 0 or rows[1] >= windows.h or cols[0] < 0 or cols[1] >= windows.w


def _windows(convert, op: TTOp) -> tuple[Program, SSAValue, Windows]:
    _checked(op)
    if flattened_info(op) is not None:
        raise PassFailure(op, f"a {op.ROW.name} of a flattened input (flattened_compat_info) is not converted to D2M "
                              "yet")
    value = op.operands[0]
    out = op.results[0].type.get_shape()
    windows = Windows(value.type.get_shape(), (out[1], out[2]), int_pair(op, "kernel"), int_pair(op, "stride"),
                      int_pair(op, "dilation"), int_quad(op, "padding"))
    return Program(op, convert.build_generic), value, windows


def _offsets(windows: Windows) -> list[tuple[int, int]]:
    return [(kh, kw) for kh in range(windows.kernel[0]) for kw in range(windows.kernel[1])]


def max_pool2d(convert, op: TTOp) -> list[TTOp]:
    """The TTIR ops (and gather programs) replacing max_pool2d `op` (see the module doc); `convert` is the pass."""
    program, value, windows = _windows(convert, op)
    element = value.type.element_type
    shape = [windows.n * windows.out[0] * windows.out[1], windows.c]
    ones = lowest = None
    best = None
    for kh, kw in _offsets(windows):
        read = windows.window(program, value, kh, kw)
        if _outside(windows, kh, kw):
            if ones is None:
                ones = program.full(value.type.get_shape(), element, 1.0)
                lowest = program.full(shape, element, float("-inf"))
            read = program.add("where", [windows.window(program, ones, kh, kw), read, lowest], shape, element)
        best = read if best is None else program.add("maximum", [best, read], shape, element)
    return program.done(windows.result(program, best, windows.c))


def avg_pool2d(convert, op: TTOp) -> list[TTOp]:
    """The TTIR ops (and gather programs) replacing avg_pool2d `op` (see the module doc)."""
    program, value, windows = _windows(convert, op)
    element = value.type.element_type
    shape = [windows.n * windows.out[0] * windows.out[1], windows.c]
    include_pad = scalar(op.prop("count_include_pad")) is not False
    offsets = _offsets(windows)
    if include_pad and scalar(op.prop("ceil_mode")):
        bottom, right = int_quad(op, "padding")[2:]
        padded = Windows((windows.n, windows.h + windows.top + bottom, windows.w + windows.left + right, windows.c),
                         windows.out, windows.kernel, windows.stride, windows.dilation, (0, 0, 0, 0))
        if any(_outside(padded, kh, kw) for kh, kw in offsets):
            raise PassFailure(op, "an avg_pool2d with count_include_pad whose ceil_mode windows leave the padded "
                                  "input is not converted to D2M yet")
    total = None
    for kh, kw in offsets:
        read = windows.window(program, value, kh, kw)
        total = read if total is None else program.add("add", [total, read], shape, element)
    if include_pad:
        scale = program.full(shape, element, 1.0 / len(offsets))
        mean = program.add("multiply", [total, scale], shape, element)
    else:
        ones = program.full(value.type.get_shape(), element, 1.0)
        outside = [(kh, kw) for kh, kw in offsets if _outside(windows, kh, kw)]
        count = program.full(shape, element, float(len(offsets) - len(outside)))
        for kh, kw in outside:
            count = program.add("add", [count, windows.window(program, ones, kh, kw)], shape, element)
        mean = program.add("div", [total, count], shape, element)
    return program.done(windows.result(program, mean, windows.c))


def upsample2d(convert, op: TTOp) -> list[TTOp]:
    """The gather program replacing nearest upsample2d `op` (see the module doc)."""
    _checked(op)
    if scalar(op.prop("mode")) != "nearest":
        raise PassFailure(op, f"an upsample2d in mode {scalar(op.prop('mode'))} is not converted to D2M yet "
                              "(nearest is)")
    value = op.operands[0]
    sh, sw = int_pair(op, "scale_factor")
    program = Program(op, convert.build_generic)
    upsampled = program.gather(value, op.results[0].type.get_shape(), lambda i: [i[0], i[1] // sh, i[2] // sw,
                                                                                 i[3]])
    return program.done(upsampled)


def global_avg_pool2d(convert, op: TTOp) -> list[TTOp]:
    """The TTIR ops (and gather program) replacing global_avg_pool2d `op` (see the module doc)."""
    _checked(op)
    value = op.operands[0]
    shape, element = value.type.get_shape(), value.type.element_type
    if len(shape) != 4:
        raise PassFailure(op, f"a global_avg_pool2d of rank {len(shape)} is not converted to D2M yet (of an NHWC "
                              "tensor is)")
    n, h, w, c = shape
    program = Program(op, convert.build_generic)
    pixels = program.reshape(value, [n * h * w, c])
    # row i of the selector is ones over image i's pixels: the one row of ones, shifted by i images (zero elsewhere)
    ones = program.full([1, h * w], element, 1.0)
    selector = program.gather(ones, [n, n * h * w], lambda i: [AffineExpr.constant(0), i[1] - i[0] * (h * w)])
    sums = program.add("matmul", [selector, pixels], [n, c], element)
    mean = program.add("div", [sums, program.full([n, c], element, float(h * w))], [n, c], element)
    return program.done(program.reshape(mean, [n, 1, 1, c]))


POOLS = {"max_pool2d": max_pool2d, "avg_pool2d": avg_pool2d, "global_avg_pool2d": global_avg_pool2d,
         "upsample2d": upsample2d}
