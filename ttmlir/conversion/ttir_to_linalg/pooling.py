"""TTIR's sliding-window ops: pools to `linalg.pooling_nhwc_*` (padding as `tensor.pad`), max pool with indices to
a `linalg.generic`, conv2d to `tosa.conv2d`. Flattened inputs ([1, 1, N*H*W, C], `flattened_compat_info`) are
reshaped to NHWC first and the result back after."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import arith, tensor
from xdsl.dialects.linalg import ops as linalg
from xdsl.dialects.builtin import DenseArrayBase, DenseIntOrFPElementsAttr, IndexType, IntegerAttr, TensorType, f32, i32, i64
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap

from ttmlir.conversion.ttir_to_linalg.data_movement import pad_with
from ttmlir.conversion.ttir_to_linalg.emitter import Emitter, element, is_float, lowest, scalar_attr, shape
from ttmlir.dialects.linalg_ext import DivOp, PoolingNhwcMaxOp, PoolingNhwcSumOp


def _pair(attr) -> list[int]:
    if isinstance(attr, DenseArrayBase):
        values = [int(v) for v in attr.get_values()]
        return values if len(values) != 1 else values * 2
    return [int(attr.value.data)] * 2


def _padding(attr) -> list[int]:
    """[top, left, bottom, right] from TTIR's one value, [vertical, horizontal] or four values."""
    if attr is None:
        return [0, 0, 0, 0]
    if isinstance(attr, DenseArrayBase):
        values = [int(v) for v in attr.get_values()]
        return values if len(values) == 4 else values * 2 if len(values) == 2 else values * 4
    return [int(attr.value.data)] * 4


@dataclass
class Window:
    """A 2-D window's geometry over an NHWC input; `extra` pads bottom/right so the output has exactly the
    result's size (ceil mode, or TOSA's divisibility rule)."""

    kernel: list[int]
    stride: list[int]
    dilation: list[int]
    pad: list[int]  # top, left, bottom, right
    out_hw: tuple[int, int]

    def extra(self, in_hw) -> list[int]:
        extra = []
        for axis in (0, 1):
            span = (self.kernel[axis] - 1) * self.dilation[axis] + 1
            needed = (self.out_hw[axis] - 1) * self.stride[axis] + span
            have = in_hw[axis] + self.pad[axis] + self.pad[axis + 2]
            extra.append(max(0, needed - have))
        return extra


def _unflatten(e: Emitter, op: Operation, x: SSAValue) -> tuple[SSAValue, tuple[int, ...] | None]:
    """The NHWC input, and the flattened result shape to return to (None when not flattened)."""
    info = op.prop("flattened_compat_info")
    out = op.results[0].type.get_shape()
    if info is None:
        return x, None
    n, h, w = info.data
    return e.reshape(x, (n, h, w, shape(x)[-1])), tuple(out)


def _window(op: Operation, x: SSAValue, flat_out, kernel: list[int]) -> Window:
    """The window of `op` over the NHWC `x`; the output's spatial size is the result's, or for a flattened
    result computed as TTIR computes it (ceil mode rounding up)."""
    stride, dilation, pad = _pair(op.prop("stride")), _pair(op.prop("dilation")), _padding(op.prop("padding"))
    if flat_out is None:
        out_hw = tuple(op.results[0].type.get_shape()[1:3])
    else:
        ceil = op.prop("ceil_mode") is not None and bool(op.prop("ceil_mode").value.data)
        sizes = []
        for axis in (0, 1):
            room = shape(x)[1 + axis] + pad[axis] + pad[axis + 2] - (kernel[axis] - 1) * dilation[axis] - 1
            sizes.append(-(-room // stride[axis]) + 1 if ceil else room // stride[axis] + 1)
        out_hw = tuple(sizes)
    return Window(kernel, stride, dilation, pad, out_hw)


def _scalar(e: Emitter, value, t) -> SSAValue:
    return e.add(arith.ConstantOp(scalar_attr(value, t))).results[0]


def _pad_input(e: Emitter, x: SSAValue, win: Window, value, user_pad: bool = True) -> SSAValue:
    extra = win.extra(shape(x)[1:3])
    top, left, bottom, right = win.pad if user_pad else (0, 0, 0, 0)
    low, high = [0, top, left, 0], [0, bottom + extra[0], right + extra[1], 0]
    if not any(low) and not any(high):
        return x
    return pad_with(e, x, low, high, _scalar(e, value, element(x)))


def _pool_props(win: Window) -> dict:
    vector = lambda values: DenseIntOrFPElementsAttr.from_list(TensorType(i64, [2]), values)
    return {"strides": vector(win.stride), "dilations": vector(win.dilation)}


def _out_type(x: SSAValue, win: Window, channels: int | None = None, t=None) -> TensorType:
    return TensorType(t or element(x), [shape(x)[0], *win.out_hw, channels or shape(x)[3]])


def _finish(e: Emitter, value: SSAValue, flat_out) -> SSAValue:
    return e.reshape(value, flat_out) if flat_out is not None else value


def max_pool2d(e: Emitter, op: Operation) -> SSAValue:
    x, flat_out = _unflatten(e, op, op.operands[0])
    win = _window(op, x, flat_out, _pair(op.prop("kernel")))
    padded = _pad_input(e, x, win, lowest(element(x)))
    out = _out_type(x, win)
    window = e.empty(TensorType(element(x), win.kernel))
    pooled = e.named(PoolingNhwcMaxOp, [padded, window], out, e.fill(lowest(element(x)), out), **_pool_props(win))
    return _finish(e, pooled, flat_out)


def avg_pool2d(e: Emitter, op: Operation) -> SSAValue:
    """The window sums divided by how many elements each window covers: all of the user's padding when
    `count_include_pad`, none of it otherwise, never the extra rows ceil mode reads."""
    x, flat_out = _unflatten(e, op, op.operands[0])
    win = _window(op, x, flat_out, _pair(op.prop("kernel")))
    t = element(x)
    out = _out_type(x, win)
    window = e.empty(TensorType(t, win.kernel))
    total = e.named(PoolingNhwcSumOp, [_pad_input(e, x, win, 0), window], out, e.fill(0, out), **_pool_props(win))
    include = op.prop("count_include_pad")
    top, left, bottom, right = win.pad
    if include is None or include.value.data:
        ones = e.fill(1, TensorType(t, [shape(x)[0], shape(x)[1] + top + bottom, shape(x)[2] + left + right,
                                        shape(x)[3]]))
        extra = win.extra(shape(x)[1:3])
        if any(extra):
            ones = pad_with(e, ones, [0, 0, 0, 0], [0, extra[0], extra[1], 0], _scalar(e, 0, t))
    else:
        ones = _pad_input(e, e.fill(1, x.type), win, 0)
    counts = e.named(PoolingNhwcSumOp, [ones, window], out, e.fill(0, out), **_pool_props(win))
    return _finish(e, e.named(DivOp, [total, counts], out), flat_out)


def global_avg_pool2d(e: Emitter, op: Operation) -> SSAValue:
    x = op.operands[0]
    n, h, w, _ = shape(x)
    total = e.reduce("sum", e.reduce("sum", x, 1), 2)
    return e.reshape(e.mul(total, e.like(1.0 / (h * w), x)), op.results[0].type.get_shape())


def max_pool2d_with_indices(e: Emitter, op: Operation) -> list[SSAValue]:
    """Values and each maximum's flat index in its unpadded (H, W) plane, in one `linalg.generic` over
    (n, oh, ow, c, kh, kw); the first of equal values wins."""
    x, flat_out = _unflatten(e, op, op.operands[0])
    win = _window(op, x, flat_out, _pair(op.prop("kernel")))
    t, index_t = element(x), op.results[1].type.element_type
    padded = _pad_input(e, x, win, lowest(t))
    width = shape(x)[2]
    n, oh, ow, c, kh, kw = (AffineDimExpr(d) for d in range(6))
    sh, sw = win.stride
    dh, dw = win.dilation
    maps = [AffineMap(6, 0, (n, oh * sh + kh * dh, ow * sw + kw * dw, c)), AffineMap(6, 0, (kh, kw)),
            AffineMap(6, 0, (n, oh, ow, c)), AffineMap(6, 0, (n, oh, ow, c))]
    window = e.empty(TensorType(t, win.kernel))
    out = _out_type(x, win)
    inits = [e.fill(lowest(t), out), e.fill(0, _out_type(x, win, t=index_t))]
    top, left = win.pad[0], win.pad[1]

    def position(dim_out, dim_k, stride, dilation, before):
        const = lambda v: arith.ConstantOp(IntegerAttr(v, IndexType())).results[0]
        o, k = linalg.IndexOp(dim_out).results[0], linalg.IndexOp(dim_k).results[0]
        at = arith.AddiOp(arith.MuliOp(o, const(stride)).results[0], arith.MuliOp(k, const(dilation)).results[0])
        return arith.SubiOp(at.results[0], const(before)).results[0]

    def body(v, _w, best_v, best_i):
        row = position(1, 4, sh, dh, top)
        column = position(2, 5, sw, dw, left)
        width_ = arith.ConstantOp(IntegerAttr(width, IndexType())).results[0]
        flat = arith.AddiOp(arith.MuliOp(row, width_).results[0], column).results[0]
        flat = arith.IndexCastOp(flat, index_t).results[0]
        larger = (arith.CmpfOp(v, best_v, "ogt") if is_float(t) else arith.CmpiOp(v, best_v, "sgt")).results[0]
        return [arith.SelectOp(larger, v, best_v).results[0], arith.SelectOp(larger, flat, best_i).results[0]]

    iterators = ["parallel"] * 4 + ["reduction"] * 2
    values, indices = e.generic([padded, window], maps, inits, iterators, body)
    return [_finish(e, values, flat_out), _finish(e, indices, flat_out)]


def conv2d(e: Emitter, op: Operation) -> SSAValue:
    """NHWC input, OIHW weight (transposed to TOSA's OHWI), bias [.., O]; rows TOSA's exact-division rule adds
    at the bottom/right are sliced off the result."""
    groups = op.operand_groups()
    weight = e.transpose(groups["weight"][0], [0, 2, 3, 1])
    out_channels = shape(weight)[0]
    t = element(groups["input"][0])
    bias = groups.get("bias")
    bias = e.reshape(bias[0], [out_channels]) if bias else e.const(
        DenseIntOrFPElementsAttr.from_list(TensorType(t, [out_channels]), [0]))
    x, flat_out = _unflatten(e, op, groups["input"][0])
    if op.prop("groups") is not None and op.prop("groups").value.data != 1:
        raise e.fail("grouped convolutions are not lowered to TOSA here")
    kernel = list(shape(weight)[1:3])
    win = _window(op, x, flat_out, kernel)
    top, left, bottom, right = win.pad
    extra = []
    for axis, (size, before, after) in enumerate(((shape(x)[1], top, bottom), (shape(x)[2], left, right))):
        span = (kernel[axis] - 1) * win.dilation[axis]
        extra.append(-(size - 1 + before + after - span) % win.stride[axis])
    full = [(s - 1 + b + a + x_ - (k - 1) * d) // st + 1 for s, b, a, x_, k, d, st in
            zip(shape(x)[1:3], (top, left), (bottom, right), extra, kernel, win.dilation, win.stride)]
    conv_t = TensorType(element(x), [shape(x)[0], *full, out_channels])
    i64s = lambda values: DenseArrayBase.from_list(i64, list(values))
    acc = f32 if is_float(t) else i32
    result = e.tosa("conv2d", [x, weight, bias, e.zero_point(t), e.zero_point(t)], conv_t,
                    pad=i64s([top, bottom + extra[0], left, right + extra[1]]), stride=i64s(win.stride),
                    dilation=i64s(win.dilation), acc_type=acc)
    if tuple(full) != tuple(win.out_hw):
        out = TensorType(element(x), [shape(x)[0], *win.out_hw, out_channels])
        result = e.add(tensor.ExtractSliceOp(result, [0] * 4, list(out.get_shape()), [1] * 4, out)).results[0]
    return _finish(e, result, flat_out)


PATTERNS = {"max_pool2d": max_pool2d, "avg_pool2d": avg_pool2d, "global_avg_pool2d": global_avg_pool2d,
            "max_pool2d_with_indices": max_pool2d_with_indices, "conv2d": conv2d}
