"""StableHLO → TTIR patterns of the windowed families: convolution and reduce_window (pools, cumsum).

TTIR's conv2d and pools read NHWC inputs (and OIHW weights): the StableHLO op's layout, given by its dimension
numbers (or, for reduce_window, by which dimensions have a window), is permuted to that and back.
"""

from __future__ import annotations

import math

from xdsl.dialects.builtin import TensorType

from ttmlir.dialects.stablehlo import ints_of, int_of
from ttmlir.passes import PassFailure
from ttmlir.passes.convert_stablehlo_to_ttir import Builder, shape, splat_of


def permute(b: Builder, value, order):
    if list(order) == sorted(order):
        return value
    src = shape(value)
    return b.ttir("permute", [value], TensorType(value.type.element_type, [src[i] for i in order]),
                  permutation=list(order))


def inverse(order) -> list[int]:
    inv = [0] * len(order)
    for i, o in enumerate(order):
        inv[o] = i
    return inv


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
    if n not in (1, 2):
        raise PassFailure(op, f"'stablehlo.convolution' op with {n} spatial dimensions is not supported")
    if any(d != 1 for d in ints_of(op.attr("lhs_dilation"))):
        raise PassFailure(op, "'stablehlo.convolution' op with lhs_dilation (a transposed convolution) is not "
                              "supported")
    if any(ints_of(op.attr("window_reversal"))):
        raise PassFailure(op, "'stablehlo.convolution' op with window_reversal is not supported")
    if int_of(op.attr("batch_group_count"), 1) != 1:
        raise PassFailure(op, "'stablehlo.convolution' op with batch_group_count > 1 is not supported")
    strides = list(ints_of(op.attr("window_strides")) or (1,) * n)
    dilation = list(ints_of(op.attr("rhs_dilation")) or (1,) * n)
    pads = _pairs(op.attr("padding"), n)
    x = permute(b, lhs, [ib, *ispatial, if_])
    w = permute(b, rhs, [ko, ki, *kspatial])
    out = shape(op.results[0])
    out_nhwc = [out[ob], *(out[d] for d in ospatial), out[of]]
    if n == 1:  # a 1-d convolution is a 2-d one over a width of 1
        x = b.reshape(x, [*shape(x)[:2], 1, shape(x)[2]])
        w = b.reshape(w, [*shape(w), 1])
        strides, dilation, pads = strides + [1], dilation + [1], pads + [(0, 0)]
        out_nhwc = [out_nhwc[0], out_nhwc[1], 1, out_nhwc[2]]
    element = op.results[0].type.element_type
    y = b.ttir("conv2d", [x, w], TensorType(element, out_nhwc), stride=strides, dilation=dilation,
               padding=[pads[0][0], pads[1][0], pads[0][1], pads[1][1]],
               groups=int_of(op.attr("feature_group_count"), 1))
    if n == 1:
        y = b.reshape(y, [out_nhwc[0], out_nhwc[1], out_nhwc[3]])
    return [permute(b, y, inverse([ob, *ospatial, of]))]


POOL_BODIES = {"stablehlo.maximum": "max_pool2d", "stablehlo.add": "avg_pool2d"}


def reduce_window(b: Builder, op):
    if len(op.operands) != 2:
        raise PassFailure(op, "'stablehlo.reduce_window' op with several inputs is not supported")
    x, init = op.operands
    body = list(op.regions[0].block.ops)
    kind = body[0].name if len(body) == 2 else None
    src, out = shape(x), shape(op.results[0])
    rank = len(src)
    window = list(ints_of(op.attr("window_dimensions")))
    strides = list(ints_of(op.attr("window_strides")) or (1,) * rank)
    pads = _pairs(op.attr("padding"), rank)
    if any(d != 1 for d in ints_of(op.attr("base_dilations"))) or \
            any(d != 1 for d in ints_of(op.attr("window_dilations"))):
        raise PassFailure(op, "'stablehlo.reduce_window' op with dilations is not supported")
    active = [d for d in range(rank) if window[d] != 1 or strides[d] != 1 or pads[d] != (0, 0)]
    # a running sum along one dimension (JAX's cumsum): the window spans it, padded in front
    running = [d for d in range(rank) if window[d] == src[d] and strides[d] == 1 and pads[d] == (src[d] - 1, 0)]
    if kind == "stablehlo.add" and splat_of(init) == 0 and running and len(active) <= 1 and \
            set(active) <= set(running):
        dim = active[0] if active else running[0]
        return [b.ttir("cumsum", [x], op.results[0].type, dim=dim)]
    neutral = {"stablehlo.maximum": float("-inf"), "stablehlo.add": 0}
    if kind not in POOL_BODIES or len(active) > 2 or rank not in (2, 3, 4) or splat_of(init) != neutral[kind]:
        raise PassFailure(op, "'stablehlo.reduce_window' op is neither a 2-d max/sum pool nor a cumulative sum")
    if rank < 4:  # a pool of a rank-2 (H, W) or rank-3 tensor: unit dimensions added (N first, C last)
        lead, trail = (1, 1) if rank == 2 else (1, 0)
        x = b.reshape(x, [1] * lead + list(src) + [1] * trail)
        window = [1] * lead + window + [1] * trail
        strides = [1] * lead + strides + [1] * trail
        pads = [(0, 0)] * lead + pads + [(0, 0)] * trail
        active = [d + lead for d in active]
        src, out = (1,) * lead + tuple(src) + (1,) * trail, (1,) * lead + tuple(out) + (1,) * trail
    rest = [d for d in range(4) if d not in active]
    spatial = active + [d for d in rest if d not in active][: 2 - len(active)]
    spatial.sort()
    rest = [d for d in range(4) if d not in spatial]
    order = [rest[0], spatial[0], spatial[1], rest[1]]
    y_in = permute(b, x, order)
    out_nhwc = [out[d] for d in order]
    pool = POOL_BODIES[kind]
    element = op.results[0].type.element_type
    props = dict(kernel=[window[d] for d in spatial], stride=[strides[d] for d in spatial], dilation=[1, 1],
                 padding=[pads[spatial[0]][0], pads[spatial[1]][0], pads[spatial[0]][1], pads[spatial[1]][1]],
                 ceil_mode=False)
    if pool == "avg_pool2d":
        props["count_include_pad"] = True
    y = b.ttir(pool, [y_in], TensorType(element, out_nhwc), **props)
    if pool == "avg_pool2d":  # a windowed sum: the average times the window's size
        area = math.prod(window[d] for d in spatial)
        y = b.ttir("multiply", [y, b.constant(float(area), y.type)], y.type)
    y = permute(b, y, inverse(order))
    return [b.reshape(y, shape(op.results[0]))]


PATTERNS = {"stablehlo.convolution": convolution, "stablehlo.reduce_window": reduce_window}

