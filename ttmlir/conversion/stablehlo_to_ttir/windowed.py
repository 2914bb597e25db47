"""StableHLO → TTIR patterns of the windowed families: convolution, reduce_window (pools, cumsum, cumprod),
select_and_scatter and scatter.

TTIR's conv2d and pools read NHWC inputs (and OIHW weights): the StableHLO op's layout, given by its dimension
numbers (or, for reduce_window, by which dimensions have a window), is permuted to that and back.
"""

from __future__ import annotations

import itertools
import math

from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, Float32Type, FloatAttr, IntegerType, TensorType
from xdsl.ir import Operation

from ttmlir.ir.props import int_values
from ttmlir.dialects.stablehlo import ints_of, int_of
from ttmlir.conversion.stablehlo_to_ttir.lowering import (Builder, broadcast_to, interior_pad, inverse, permute, refuse,
                                                      shape, splat_of)


def _pairs(attr, rank: int) -> list[tuple[int, int]]:
    flat = ints_of(attr) if attr is not None else (0,) * (2 * rank)
    return [(flat[2 * i], flat[2 * i + 1]) for i in range(rank)]


def convolution(b: Builder, op):
    layout = op.attr("dimension_numbers").data
    lhs, rhs = op.operands
    ib, if_, ispatial = layout.input_dims
    ki, ko, kspatial = layout.kernel_dims
    ob, of, ospatial = layout.output_dims
    n = len(ispatial)
    if n not in (1, 2, 3):
        raise refuse(op, f"{n} spatial dimensions are not supported")
    if any(ints_of(op.attr("window_reversal"))):
        raise refuse(op, "window_reversal is not supported")
    batch_groups = int_of(op.attr("batch_group_count"), 1)
    if batch_groups != 1 and n == 3:
        raise refuse(op, "batch_group_count > 1 is supported for 1-d and 2-d convolutions")
    lhs_dilation = ints_of(op.attr("lhs_dilation"))
    if any(d != 1 for d in lhs_dilation):
        if batch_groups == 1 and _transposed_refusal(op) is None:
            return [_transposed_convolution(b, op)]
        if n == 3:
            raise refuse(op, _transposed_refusal(op) or "batch_group_count > 1 with lhs_dilation is not supported "
                                                        "for 3-d convolutions")
        # otherwise the dilation itself: zeros between the input's elements, then a plain convolution
        interior = [0] * len(shape(lhs))
        for d, k in zip(ispatial, lhs_dilation):
            interior[d] = k - 1
        lhs = interior_pad(b, lhs, interior, 0)
    if n == 3:
        return [_convolution3d(b, op)]
    if batch_groups == 1:
        return [_convolution(b, op, lhs, rhs, shape(op.results[0]))]
    # batch groups: group g of the input's batch convolved with group g of the kernels' outputs, results side by
    # side along the output's features
    out = list(shape(op.results[0]))
    step_batch, step_out = shape(lhs)[ib] // batch_groups, shape(rhs)[ko] // batch_groups
    part_out = [n // batch_groups if d == of else n for d, n in enumerate(out)]
    slabs = [(_slab(b, lhs, ib, g * step_batch, step_batch), _slab(b, rhs, ko, g * step_out, step_out))
             for g in range(batch_groups)]
    parts = [_convolution(b, op, x, w, part_out) for x, w in slabs]
    return [b.ttir("concat", parts, op.results[0].type, dim=of)]


def _slab(b: Builder, x, dim: int, start: int, size: int):
    src = list(shape(x))
    begins = [start if d == dim else 0 for d in range(len(src))]
    ends = [start + size if d == dim else n for d, n in enumerate(src)]
    return b.ttir("slice_static", [x], TensorType(x.type.element_type, [e - g for g, e in zip(begins, ends)]),
                  begins=begins, ends=ends, step=[1] * len(src))


def _convolution(b: Builder, op, lhs, rhs, out):
    """A 1-d or 2-d convolution (op's window and layout) of `lhs` by `rhs` giving `out`: ttir.conv1d in NLC, or
    ttir.conv2d in NHWC (a 1-d one with negative padding over a width of 1)."""
    layout = op.attr("dimension_numbers").data
    ib, if_, ispatial = layout.input_dims
    ki, ko, kspatial = layout.kernel_dims
    ob, of, ospatial = layout.output_dims
    n = len(ispatial)
    strides = list(ints_of(op.attr("window_strides")) or (1,) * n)
    dilation = list(ints_of(op.attr("rhs_dilation")) or (1,) * n)
    pads = _pairs(op.attr("padding"), n)
    x = permute(b, lhs, [ib, *ispatial, if_])
    w = permute(b, rhs, [ko, ki, *kspatial])
    element = op.results[0].type.element_type
    groups = int_of(op.attr("feature_group_count"), 1)
    if n == 1 and pads[0][0] >= 0 and pads[0][1] >= 0:  # TTIR's conv1d, in NLC
        y = b.ttir("conv1d", [x, w], TensorType(element, [out[ob], out[ospatial[0]], out[of]]), stride=strides,
                   padding=list(pads[0]), dilation=dilation, groups=groups)
        return permute(b, y, inverse([ob, *ospatial, of]))
    # a 1-d convolution written as a 2-d one over a unit dim (as torch-xla writes conv1d) is TTIR's conv1d
    unit = [i for i in range(n) if shape(x)[1 + i] == 1 and shape(w)[2 + i] == 1 and pads[i] == (0, 0)]
    if n == 2 and len(unit) == 1 and all(p >= 0 for pair in pads for p in pair):
        k = 1 - unit[0]
        y = b.ttir("conv1d", [b.reshape(x, [shape(x)[0], shape(x)[1 + k], shape(x)[3]]),
                              b.reshape(w, [*shape(w)[:2], shape(w)[2 + k]])],
                   TensorType(element, [out[ob], out[ospatial[k]], out[of]]), stride=[strides[k]],
                   padding=list(pads[k]), dilation=[dilation[k]], groups=groups)
        order = [ob, *ospatial, of]
        return permute(b, b.reshape(y, [out[d] for d in order]), inverse(order))
    out_nhwc = [out[ob], *(out[d] for d in ospatial), out[of]]
    if n == 1:  # a 1-d convolution is a 2-d one over a width of 1
        x = b.reshape(x, [*shape(x)[:2], 1, shape(x)[2]])
        w = b.reshape(w, [*shape(w), 1])
        strides, dilation, pads = strides + [1], dilation + [1], pads + [(0, 0)]
        out_nhwc = [out_nhwc[0], out_nhwc[1], 1, out_nhwc[2]]
    # negative padding drops input rows: off the input first, unless it is a whole number of strides off the low
    # side, which the output loses instead (as upstream crops it)
    if any(low < 0 and low % s for (low, _), s in zip(pads, strides)):
        x = _cropped(b, x, [(max(0, -low), max(0, -high)) for low, high in pads])
        pads = [(max(0, low), max(0, high)) for low, high in pads]
    cut = [(-low // s if low < 0 else 0) for (low, _), s in zip(pads, strides)]
    full = [(i + max(0, low) + max(0, high) - (k - 1) * d - 1) // s + 1 for i, k, (low, high), d, s in
            zip(shape(x)[1:3], shape(w)[2:], pads, dilation, strides)]
    wide = [out_nhwc[0], *full, out_nhwc[3]]
    y = b.ttir("conv2d", [x, w], TensorType(element, wide), stride=strides, dilation=dilation,
               padding=[max(0, pads[0][0]), max(0, pads[1][0]), max(0, pads[0][1]), max(0, pads[1][1])],
               groups=groups)
    if wide != out_nhwc:
        begins = [0, *cut, 0]
        y = b.ttir("slice_static", [y], TensorType(element, out_nhwc), begins=begins,
                   ends=[g + o for g, o in zip(begins, out_nhwc)], step=[1] * 4)
    if n == 1:
        y = b.reshape(y, [out_nhwc[0], out_nhwc[1], out_nhwc[3]])
    return permute(b, y, inverse([ob, *ospatial, of]))


def _cropped(b: Builder, x, crops):
    """NHWC `x` without (low, high) rows of each spatial dim."""
    begins = [0] + [low for low, _ in crops] + [0]
    ends = [shape(x)[0]] + [n - high for n, (_, high) in zip(shape(x)[1:3], crops)] + [shape(x)[3]]
    return b.ttir("slice_static", [x], TensorType(x.type.element_type, [e - g for g, e in zip(begins, ends)]),
                  begins=begins, ends=ends, step=[1] * 4)


def _convolution3d(b: Builder, op):
    """A 3-d convolution: `ttir.conv3d` in the op's own layout (named by its dimensions) or NDHWC; its padding is
    symmetric, so an uneven one pads the input first."""
    layout = op.attr("dimension_numbers").data
    lhs, rhs = op.operands
    ib, if_, ispatial = layout.input_dims
    ki, ko, kspatial = layout.kernel_dims
    ob, of, ospatial = layout.output_dims
    if any(d != 1 for d in ints_of(op.attr("rhs_dilation"))):
        raise refuse(op, "rhs_dilation in 3 spatial dimensions is not supported")
    pads = _pairs(op.attr("padding"), 3)
    padding = [min(low, high) for low, high in pads]
    if any(low != high for low, high in pads):
        edges = [0] * (2 * len(shape(lhs)))
        for d, (low, high), p in zip(ispatial, pads, padding):
            edges[2 * d], edges[2 * d + 1] = low - p, high - p
        padded = [n + edges[2 * i] + edges[2 * i + 1] for i, n in enumerate(shape(lhs))]
        lhs = b.ttir("pad", [lhs], TensorType(lhs.type.element_type, padded), padding=edges,
                     value=FloatAttr(0.0, Float32Type()))
    props = dict(stride=list(ints_of(op.attr("window_strides")) or (1, 1, 1)), padding=padding,
                 groups=int_of(op.attr("feature_group_count"), 1))
    kernel = permute(b, rhs, [ko, ki, *kspatial])
    if (ob, of, list(ospatial)) == (ib, if_, list(ispatial)):
        return b.ttir("conv3d", [lhs, kernel], op.results[0].type, batch_dim=ib, depth_dim=ispatial[0],
                      height_dim=ispatial[1], width_dim=ispatial[2], channel_dim=if_, **props)
    order = [ob, *ospatial, of]
    out = shape(op.results[0])
    y = b.ttir("conv3d", [permute(b, lhs, [ib, *ispatial, if_]), kernel],
               TensorType(op.results[0].type.element_type, [out[d] for d in order]), **props)
    return permute(b, y, inverse(order))


def _transposed_refusal(op) -> str | None:
    """Why a convolution with lhs_dilation is not a `ttir.conv_transpose2d`, or None when it is one."""
    what = "a transposed convolution (lhs_dilation)"
    if len(op.attr("dimension_numbers").data.input_dims[2]) != 2 or \
            any(s != 1 for s in ints_of(op.attr("window_strides"))):
        return f"{what} is supported in 2-d and with unit window strides"
    stride, dilation = ints_of(op.attr("lhs_dilation")), ints_of(op.attr("rhs_dilation")) or (1, 1)
    pads = _pairs(op.attr("padding"), 2)
    if any(high - low >= max(s, d) for (low, high), s, d in zip(pads, stride, dilation)):
        return f"{what} has more high than low padding ({[list(p) for p in pads]}) by a stride or more"
    return None


def _transposed_convolution(b: Builder, op):
    """A convolution of the input dilated by `lhs_dilation`: a transposed convolution with that stride. Its kernel
    is the transposed one's flipped (a flip already in the program cancels), its padding what the kernel's extent
    leaves of the low padding, the high side's surplus the output padding."""
    layout = op.attr("dimension_numbers").data
    lhs, rhs = op.operands
    ib, if_, ispatial = layout.input_dims
    ki, ko, kspatial = layout.kernel_dims
    ob, of, ospatial = layout.output_dims
    groups = int_of(op.attr("feature_group_count"), 1)
    stride = list(ints_of(op.attr("lhs_dilation")))
    dilation = list(ints_of(op.attr("rhs_dilation")) or (1, 1))
    extent = [(shape(rhs)[k] - 1) * d + 1 for k, d in zip(kspatial, dilation)]
    pads = _pairs(op.attr("padding"), 2)
    # a low padding past the kernel's extent, or a high one short of the low one, is cropped off afterwards
    padding = [e - 1 - low for e, (low, _) in zip(extent, pads)]
    crop_low = [max(0, -p) for p in padding]
    out_pad = [high - low for low, high in pads]
    crop_high = [max(0, -p) for p in out_pad]
    padding, out_pad = [max(0, p) for p in padding], [max(0, p) for p in out_pad]
    # a transposed convolution slides the kernel flipped: a kernel the program reversed already is used as it
    # was before, any other one is flipped last, once it is in [in, out/G, kh, kw] order
    flipped = getattr(rhs.owner, "name", None) == "ttir.reverse" and \
        sorted(ints_of(rhs.owner.prop("dimensions"))) == sorted(kspatial)
    kernel = permute(b, rhs.owner.operands[0] if flipped else rhs, [ki, ko, *kspatial])
    if groups > 1:  # [in/G, out, kh, kw] -> [in, out/G, kh, kw]: each group's kernels stacked along the input
        per_in, out_channels, kh, kw = shape(kernel)
        split = b.reshape(kernel, [per_in, groups, out_channels // groups, kh, kw])
        kernel = b.reshape(permute(b, split, [1, 0, 2, 3, 4]), [groups * per_in, out_channels // groups, kh, kw])
    if not flipped:
        kernel = b.ttir("reverse", [kernel], kernel.type, dimensions=[2, 3])
    props = dict(stride=stride, padding=[padding[0], padding[1], padding[0], padding[1]], output_padding=out_pad,
                 dilation=dilation, groups=groups)
    out = list(shape(op.results[0]))
    for d, low, high in zip(ospatial, crop_low, crop_high):
        out[d] += low + high
    element = op.results[0].type.element_type
    if (ob, of, list(ospatial)) == (ib, if_, list(ispatial)):  # the op's own layout, named by its dimensions
        y = b.ttir("conv_transpose2d", [lhs, kernel], TensorType(element, out), batch_dim=ib,
                   height_dim=ispatial[0], width_dim=ispatial[1], channel_dim=if_, **props)
    else:
        order = [ob, *ospatial, of]
        y = b.ttir("conv_transpose2d", [permute(b, lhs, [ib, *ispatial, if_]), kernel],
                   TensorType(element, [out[d] for d in order]), **props)
        y = permute(b, y, inverse(order))
    if any(crop_low) or any(crop_high):
        begins = [0] * len(out)
        for d, low in zip(ospatial, crop_low):
            begins[d] = low
        ends = [b_ + n for b_, n in zip(begins, shape(op.results[0]))]
        y = b.ttir("slice_static", [y], op.results[0].type, begins=begins, ends=ends, step=[1] * len(out))
    return y


POOL_BODIES = {"stablehlo.maximum": "max_pool2d", "stablehlo.add": "avg_pool2d"}


def reduce_window(b: Builder, op):
    """Each result reduced on its own: its body value must combine only its own input's pair of arguments."""
    n = len(op.operands) // 2
    block = op.regions[0].block
    kinds = []
    for i, value in enumerate(block.last_op.operands):
        owner = value.owner
        own = isinstance(owner, Operation) and owner.parent_block() is block and \
            set(owner.operands) == {block.args[i], block.args[n + i]}
        kinds.append(owner.name if own else None)
    return [_reduce_window(b, op, op.operands[i], op.operands[n + i], kinds[i], op.results[i]) for i in range(n)]


def _reduce_window(b: Builder, op, x, init, kind, result):
    src, out = shape(x), shape(result)
    rank = len(src)
    window = list(ints_of(op.attr("window_dimensions")))
    strides = list(ints_of(op.attr("window_strides")) or (1,) * rank)
    pads = _pairs(op.attr("padding"), rank)
    if any(d != 1 for d in ints_of(op.attr("base_dilations"))) or \
            any(d != 1 for d in ints_of(op.attr("window_dilations"))):
        raise refuse(op, "dilations are not supported")
    active = [d for d in range(rank) if window[d] != 1 or strides[d] != 1 or pads[d] != (0, 0)]
    # a running sum or product along one dimension (JAX's cumsum, cumprod): the window spans it, padded in front
    running = [d for d in range(rank) if window[d] == src[d] and strides[d] == 1 and pads[d] == (src[d] - 1, 0)]
    scan = {"stablehlo.add": ("cumsum", 0), "stablehlo.multiply": ("cumprod", 1)}.get(kind)
    if scan is not None and splat_of(init) == scan[1] and running and len(active) <= 1 and \
            set(active) <= set(running):
        dim = active[0] if active else running[0]
        return b.ttir(scan[0], [x], result.type, dim=dim)
    neutral = {"stablehlo.maximum": float("-inf"), "stablehlo.add": 0}
    padded = x.owner if getattr(x.owner, "name", None) == "ttir.pad" else None
    if padded is not None and kind in neutral and padded.prop("value").value.data == neutral[kind]:
        # padding with the value that changes nothing is the pool's own padding
        edges = int_values(padded.prop("padding"))
        pads = [(low + edges[2 * d], high + edges[2 * d + 1]) for d, (low, high) in enumerate(pads)]
        x = padded.operands[0]
        src = shape(x)
        active = [d for d in range(rank) if window[d] != 1 or strides[d] != 1 or pads[d] != (0, 0)]
    if kind == "stablehlo.maximum" and rank == 5 and len(active) <= 3 and splat_of(init) == neutral[kind]:
        return _max_pool3d(b, x, window, strides, pads, active, result)
    if kind not in POOL_BODIES or len(active) > 2 or rank not in (2, 3, 4) or splat_of(init) != neutral[kind]:
        raise refuse(op, "neither a 2-d max/sum pool nor a cumulative sum or product")
    if rank < 4:  # a pool of a rank-2 (H, W) or rank-3 tensor: unit dimensions added (N first, C last)
        lead, trail = (1, 1) if rank == 2 else (1, 0)
        x = b.reshape(x, [1] * lead + list(src) + [1] * trail)
        window = [1] * lead + window + [1] * trail
        strides = [1] * lead + strides + [1] * trail
        pads = [(0, 0)] * lead + pads + [(0, 0)] * trail
        out = (1,) * lead + tuple(out) + (1,) * trail
    spatial, order = _pool_layout(window, strides, pads, 4)
    pool = POOL_BODIES[kind]
    props = dict(kernel=[window[d] for d in spatial], stride=[strides[d] for d in spatial], dilation=[1, 1],
                 padding=[pads[spatial[0]][0], pads[spatial[1]][0], pads[spatial[0]][1], pads[spatial[1]][1]],
                 ceil_mode=False)
    if pool == "avg_pool2d":
        props["count_include_pad"] = True
    y = b.ttir(pool, [permute(b, x, order)], TensorType(result.type.element_type, [out[d] for d in order]), **props)
    if pool == "avg_pool2d":  # a windowed sum: the average times the window's size
        y = b.ttir("multiply", [y, b.splat(float(math.prod(window[d] for d in spatial)), y.type)], y.type)
    return b.reshape(permute(b, y, inverse(order)), shape(result))


def _max_pool3d(b: Builder, x, window, strides, pads, active, result):
    """A max pool over three dimensions as two 2-d ones (a maximum's window splits): over (H, W) with D folded
    into the batch, then over D with H and W flattened; in NDHWC, back through NCDHW."""
    spatial = sorted(active + [d for d in range(5) if d not in active][: 3 - len(active)])
    n, c = (d for d in range(5) if d not in spatial)
    order = [n, *spatial, c]
    y = permute(b, x, order)
    batch, depth, height, width, channels = shape(y)
    element = result.type.element_type

    def pool(value, dims, out_shape):
        kernel = [window[d] if d is not None else 1 for d in dims]
        stride = [strides[d] if d is not None else 1 for d in dims]
        side = [pads[d] if d is not None else (0, 0) for d in dims]
        return b.ttir("max_pool2d", [value], TensorType(element, out_shape), kernel=kernel, stride=stride,
                      dilation=[1, 1], padding=[side[0][0], side[1][0], side[0][1], side[1][1]], ceil_mode=False)
    out = shape(result)
    d_out, h_out, w_out = (out[d] for d in spatial)
    y = pool(b.reshape(y, [batch * depth, height, width, channels]), spatial[1:],
             [batch * depth, h_out, w_out, channels])
    y = pool(b.reshape(y, [batch, depth, h_out * w_out, channels]), [spatial[0], None],
             [batch, d_out, h_out * w_out, channels])
    y = b.reshape(permute(b, y, [0, 3, 1, 2]), [batch, channels, d_out, h_out, w_out])
    return permute(b, y, inverse([n, c, *spatial]))


def _pool_layout(window, strides, pads, rank: int):
    """The two spatial dimensions of a 2-d pool over a rank-4 tensor (those with a window, stride or padding, then
    the first others) and the order putting the tensor in NHWC."""
    active = [d for d in range(rank) if window[d] != 1 or strides[d] != 1 or pads[d] != (0, 0)]
    spatial = sorted(active + [d for d in range(rank) if d not in active][: 2 - len(active)])
    rest = [d for d in range(rank) if d not in spatial]
    return spatial, [rest[0], spatial[0], spatial[1], rest[1]]


def select_and_scatter(b: Builder, op):
    """The gradient of a max pool: each source value added at its window's (first) maximum, onto the init value;
    the maxima's positions come from `ttir.max_pool2d_with_indices`."""
    operand, source, init = op.operands
    select, scatter_body = (list(r.block.ops) for r in op.regions)
    rank = len(shape(operand))
    window = list(ints_of(op.attr("window_dimensions")))
    strides = list(ints_of(op.attr("window_strides")) or (1,) * rank)
    pads = _pairs(op.attr("padding"), rank)
    if len(select) != 2 or select[0].name != "stablehlo.compare" or \
            select[0].attr("comparison_direction").data != "GE" or \
            list(select[0].operands) != list(op.regions[0].block.args) or \
            [o.name for o in scatter_body] != ["stablehlo.add", "stablehlo.return"]:
        raise refuse(op, "supported as a max pool's gradient (select GE, "
                              "scatter add)")
    spatial, order = _pool_layout(window, strides, pads, rank) if rank == 4 else (None, None)
    value = splat_of(init)
    if order is None or len([d for d in range(4) if window[d] != 1 or strides[d] != 1 or pads[d] != (0, 0)]) > 2 \
            or value is None:
        raise refuse(op, "needs a rank-4 operand pooled over at most two "
                              "dimensions and a constant init value")
    x = permute(b, operand, order)
    n, h, w, c = shape(x)
    src = permute(b, source, order)
    _, oh, ow, _ = shape(src)
    element = operand.type.element_type
    pooled = b.ttir_op("max_pool2d_with_indices", [x], [src.type, TensorType(IntegerType(32), shape(src))],
                       kernel=[window[d] for d in spatial], stride=[strides[d] for d in spatial], dilation=[1, 1],
                       padding=[pads[spatial[0]][0], pads[spatial[1]][0], pads[spatial[0]][1], pads[spatial[1]][1]],
                       ceil_mode=False)
    index = b.reshape(pooled.results[1], [n, oh * ow, c, 1])
    plane = TensorType(element, [n, h * w, c, 1])
    y = b.ttir("scatter", [b.constant(value, plane), index, b.reshape(src, [n, oh * ow, c, 1])], plane, dim=1,
               scatter_reduce_type="sum")
    return [permute(b, b.reshape(y, [n, h, w, c]), inverse(order))]


SCATTER_REDUCE = {"stablehlo.add": "sum", "stablehlo.multiply": "prod", "stablehlo.maximum": "max",
                  "stablehlo.minimum": "min"}


def _scatter_reduce(op) -> str:
    """The update computation as TTIR's reduce type: `invalid` is an overwrite (returning the update)."""
    block = op.regions[0].block
    ops = list(block.ops)
    if len(ops) == 1 and list(ops[0].operands) == [block.args[1]]:
        return "invalid"
    if len(ops) == 2 and ops[0].name in SCATTER_REDUCE and set(ops[0].operands) == set(block.args) and \
            list(ops[1].operands) == list(ops[0].results):
        return SCATTER_REDUCE[ops[0].name]
    raise refuse(op, "its update computation neither overwrites nor adds, multiplies, takes the maximum "
                               "or the minimum")


def scatter(b: Builder, op):
    """A torch-style `ttir.scatter`: a scatter along at most one operand dimension lines its update and indices
    up with the operand; one along several scatters scalars into the flattened operand."""
    if len(op.operands) != 3:
        raise refuse(op, "TTIR scatters one tensor at a time")
    reduce = _scatter_reduce(op)
    if reduce == "invalid" and _writes_one_token(op):
        return [_update_cache(b, op)]
    if reduce == "sum" and _adds_rows(op) and not isinstance(op.operands[0].type.element_type, IntegerType):
        return [_embedding_backward(b, op)]  # a bf16 kernel: integer rows are scattered exactly below
    if len(op.attr("scatter_dimension_numbers").scatter_dims_to_operand_dims) <= 1:
        return [_scatter_aligned(b, op, reduce)]
    return [_scatter_flat(b, op, reduce)]


def _writes_one_token(op) -> bool:
    """A decode step's KV-cache write: every user's [heads, dim] token overwrites one sequence position of a
    [users, heads, seq, dim] float cache nothing else reads (the cache is updated in place)."""
    cache, indices, updates = op.operands
    d = op.attr("scatter_dimension_numbers")
    if len(shape(cache)) != 4 or isinstance(cache.type.element_type, IntegerType) or len(list(cache.uses)) != 1:
        return False
    users, heads, _, dim = shape(cache)
    window = [shape(updates)[u] for u in d.update_window_dims]
    return window == [users, heads, dim] and math.prod(shape(updates)) == users * heads * dim and \
        math.prod(shape(indices)) == 1 and list(d.inserted_window_dims) == [2] and \
        list(d.scatter_dims_to_operand_dims) == [2] and not d.input_batching_dims


def _update_cache(b: Builder, op):
    """ttir.update_cache takes the tokens as [1, heads, users, dim] and the position as a 1-element tensor."""
    cache, indices, updates = op.operands
    users, heads, _, dim = shape(cache)
    tokens = permute(b, b.reshape(updates, [users, heads, 1, dim]), [2, 1, 0, 3])
    position = indices if shape(indices) == (1,) else b.reshape(indices, [1])
    b.ttir_op("update_cache", [cache, tokens, position], [], batch_offset=0)
    return cache


def _adds_rows(op) -> bool:
    """Whole rows of a [rows, features] operand added at row indices (an embedding's gradient): the update is one
    row per index, the index vector a single row number."""
    operand, indices, updates = op.operands
    d = op.attr("scatter_dimension_numbers")
    index_shape, update_shape = shape(indices), shape(updates)
    return len(shape(operand)) == 2 and list(d.inserted_window_dims) == [0] and \
        list(d.scatter_dims_to_operand_dims) == [0] and not d.input_batching_dims and \
        d.index_vector_dim == len(index_shape) - 1 and index_shape[-1] == 1 and \
        list(d.update_window_dims) == [len(update_shape) - 1] and \
        update_shape == (*index_shape[:-1], shape(operand)[1])


def _embedding_backward(b: Builder, op):
    """The rows added: embedding_backward sums each index's update row into a zero table ([batch, positions, 1]
    indices), which is added to the operand unless that is zero."""
    operand, indices, updates = op.operands
    index_shape = shape(indices)
    if len(index_shape) != 3:
        indices = b.reshape(indices, (1, math.prod(index_shape[:-1]), 1))
    grad = b.ttir("embedding_backward", [indices, operand, updates], op.results[0].type)
    return grad if splat_of(operand) == 0 else b.ttir("add", [operand, grad], op.results[0].type)


def _scatter_aligned(b: Builder, op, reduce: str):
    operand, indices, updates = op.operands
    d = op.attr("scatter_dimension_numbers")
    rank, update_shape, index_shape = len(shape(operand)), shape(updates), shape(indices)
    window_dims, batching = list(d.update_window_dims), list(d.input_batching_dims)
    if not d.scatter_dims_to_operand_dims and not d.inserted_window_dims and not batching and reduce == "invalid" \
            and window_dims == list(range(len(update_shape))) and update_shape == shape(operand):
        return updates  # one window starting at the origin and covering the operand: an overwrite of it all
    scatter_dim = d.scatter_dims_to_operand_dims[0] if d.scatter_dims_to_operand_dims else 0
    # per operand dimension: the update dimension landing there, and the index dimension varying its position
    source: list[int | None] = [None] * rank
    varies: list[int | None] = [None] * rank
    collapsed = set(d.inserted_window_dims) | set(batching)
    for operand_dim, update_dim in zip([i for i in range(rank) if i not in collapsed], window_dims):
        source[operand_dim] = update_dim
    batch_update_dims = [u for u in range(len(update_shape)) if u not in window_dims]
    batch_index_dims = [i for i in range(len(index_shape)) if i != d.index_vector_dim]
    taken = False
    for update_dim, index_dim in zip(batch_update_dims, batch_index_dims):
        if index_dim in d.scatter_indices_batching_dims:
            operand_dim = batching[list(d.scatter_indices_batching_dims).index(index_dim)]
        elif d.scatter_dims_to_operand_dims and not taken:
            operand_dim, taken = scatter_dim, True
        else:
            raise refuse(op, "TTIR scatter supports at most one non-batching scatter-batch dimension")
        if source[operand_dim] is not None and update_shape[source[operand_dim]] != 1:
            raise refuse(op, "an operand dimension carries both a scatter-batch dimension and a window "
                                       "wider than one element")
        source[operand_dim], varies[operand_dim] = update_dim, index_dim
    placed = [u for u in source if u is not None]
    if placed != sorted(placed):  # the update's dimensions in operand order (the rest have one element)
        updates = permute(b, updates, placed + [u for u in range(len(update_shape)) if u not in placed])
    aligned = [update_shape[u] if u is not None else 1 for u in source]
    updates = b.reshape(updates, aligned)
    index_type = TensorType(indices.type.element_type, aligned)
    coordinate = lambda: b.ttir("arange", [], index_type, start=0, end=aligned[scatter_dim], step=1,  # noqa: E731
                                arange_dimension=scatter_dim)
    if not d.scatter_dims_to_operand_dims:
        index = coordinate()
    else:
        if [i for i in varies if i is not None] != sorted(i for i in varies if i is not None):
            raise refuse(op, "the indices' batch dimensions are not in operand order")
        index = b.reshape(indices, [index_shape[i] if i is not None else 1 for i in varies])
        if shape(index) != tuple(aligned):
            repeats = [1 if n == m else m for n, m in zip(shape(index), aligned)]
            index = b.ttir("repeat", [index], index_type, repeat_dimensions=repeats)
        if source[scatter_dim] in window_dims:  # an index starts a window: each element adds its offset in it
            index = b.ttir("add", [index, coordinate()], index_type)
    return b.ttir("scatter", [operand, index, updates], op.results[0].type, dim=scatter_dim,
                  scatter_reduce_type=reduce)


def _scatter_flat(b: Builder, op, reduce: str):
    """Each update element's position in the flattened operand: its window's start (the index vector times the
    operand's strides) plus its offset in the window (a constant)."""
    operand, indices, updates = op.operands
    d = op.attr("scatter_dimension_numbers")
    operand_shape, index_shape, update_shape = shape(operand), shape(indices), shape(updates)
    to_operand = list(d.scatter_dims_to_operand_dims)
    if d.input_batching_dims or d.scatter_indices_batching_dims:
        raise refuse(op, "a scatter along several dimensions with batching dimensions is not supported")
    if d.index_vector_dim != len(index_shape) - 1:
        raise refuse(op, "a scatter along several dimensions needs the index vector last")
    if to_operand != sorted(to_operand) or not set(d.inserted_window_dims) <= set(to_operand):
        raise refuse(op, "scatter_dims_to_operand_dims must be increasing and hold every inserted "
                                   "window dimension")
    strides = [math.prod(operand_shape[i + 1:]) for i in range(len(operand_shape))]
    window_operand_dims = [i for i in range(len(operand_shape)) if i not in d.inserted_window_dims]
    window = [update_shape[u] for u in d.update_window_dims]
    positions, width = math.prod(index_shape[:-1]), math.prod(window)
    element = indices.type.element_type
    column_type = TensorType(element, [positions, 1])
    vectors = b.reshape(indices, [positions, len(to_operand)])
    start = None
    for k, operand_dim in enumerate(to_operand):
        column = b.ttir("slice_static", [vectors], column_type, begins=[0, k], ends=[positions, k + 1], step=[1, 1])
        if strides[operand_dim] != 1:
            column = b.ttir("multiply", [column, b.constant(strides[operand_dim], column_type)], column_type)
        start = column if start is None else b.ttir("add", [start, column], column_type)
    flat_type = TensorType(element, [positions, width])
    if width > 1:
        offsets_type = TensorType(element, [1, width])
        offsets = [sum(c * strides[o] for c, o in zip(coords, window_operand_dims))
                   for coords in itertools.product(*(range(n) for n in window))]
        offsets = b.ttir("constant", [], offsets_type, value=DenseIntOrFPElementsAttr.from_list(offsets_type, offsets))
        start = b.ttir("add", [b.ttir("repeat", [start], flat_type, repeat_dimensions=[1, width]),
                               broadcast_to(b, offsets, (positions, width))], flat_type)
    index = b.reshape(start, [positions * width])
    batch_dims = [u for u in range(len(update_shape)) if u not in d.update_window_dims]
    updates = b.reshape(permute(b, updates, batch_dims + list(d.update_window_dims)), [positions * width])
    flat = b.ttir("scatter", [b.reshape(operand, [math.prod(operand_shape)]), index, updates],
                  TensorType(operand.type.element_type, [math.prod(operand_shape)]), dim=0,
                  scatter_reduce_type=reduce)
    return b.reshape(flat, operand_shape)


PATTERNS = {"stablehlo.convolution": convolution, "stablehlo.reduce_window": reduce_window,
            "stablehlo.scatter": scatter, "stablehlo.select_and_scatter": select_and_scatter}
