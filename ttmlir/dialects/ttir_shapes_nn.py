"""The shape rules of TTIR's neural-network and device families: convolutions, pools, quantization, norms,
creation, caches, collectives and fused ops (shared by TTNN's ops)."""

from __future__ import annotations

import math
from typing import Callable, Sequence

from xdsl.dialects.builtin import DenseArrayBase, DenseIntOrFPElementsAttr, DenseResourceAttr, IntegerType

from ttmlir.dialects import conv
from ttmlir.ir.props import FLOAT_TYPES, dense_values, int_values, scalar
from ttmlir.dialects.quant import UniformQuantizedType
from ttmlir.ir.tt_op import TTOp
from ttmlir.dialects.ttnn_attrs import data_type_of
from ttmlir.spatial import padding4, pair
from ttmlir.dialects.ttir_shapes import Shape, commas, first_shape, ints, normalize_dim, result_shape, shape_of


def int_pair(op: TTOp, name: str, suffix: str = "") -> list[int]:
    """A stride/dilation/kernel/scale: one integer for both dimensions or an array of two (upstream's words)."""
    attr = op.prop(name)
    values = int_values(attr)
    if isinstance(attr, DenseArrayBase) and len(values) != 2:
        raise op.error(f"Expected integer or pair of integers, got tuple of size {len(values)}{suffix}")
    return pair(values)


def int_quad(op: TTOp, name: str, suffix: str = "") -> list[int]:
    """A padding as (top, left, bottom, right): one integer, a (vertical, horizontal) pair, or four."""
    attr = op.prop(name)
    values = int_values(attr)
    if isinstance(attr, DenseArrayBase) and len(values) not in (2, 4):
        raise op.error(f"Expected integer, pair, or tuple of size 4, but got tuple of size {len(values)}{suffix}")
    return padding4(values)


def conv_dims(op: TTOp) -> list[int]:
    """Where the batch, height, width and channel dimensions are: NHWC is [0, 1, 2, 3], NCHW is [0, 2, 3, 1]."""
    return [ints(op, name)[0] for name in ("batch_dim", "height_dim", "width_dim", "channel_dim")]


FLATTENED_DIM = 2  # a flattened (1, 1, N*H*W, C) tensor's N*H*W dimension


def flattened_info(op: TTOp) -> tuple[int, int, int] | None:
    info = op.prop("flattened_compat_info")
    return None if info is None else info.data


def check_flattened(op: TTOp, capital: bool = False) -> None:
    """The flattened input holds batch_size * input_height * input_width rows (conv's message is a sentence)."""
    info = flattened_info(op)
    got = first_shape(op)[FLATTENED_DIM] if info else None
    if info and math.prod(info) != got:
        n, h, w = info
        head = "The input" if capital else "the input"
        raise op.error(f"{head} tensor's flattened dimension ({got}) does not match the product of batch_size * "
                       f"input_height * input_width from FlattenedCompatInfo ({n} * {h} * {w} = {n * h * w})"
                       + ("." if capital else ""))


def sliding_dims(op: TTOp, shape: Shape, dims: Sequence[int]) -> tuple[int, int, int, int]:
    """(N, H, W, C) of a sliding-window input, from FlattenedCompatInfo when the input is flattened."""
    info = flattened_info(op)
    return (*info, shape[dims[3]]) if info else tuple(shape[d] for d in dims)


def sliding_output(op: TTOp, n: int, h: int, w: int, checks: Sequence[tuple[Callable, Callable]], channels: int,
                   capital: bool) -> None:
    """Check the result against the computed (N, OH, OW, C): each dimension, or N*OH*OW when flattened. `checks`
    are (failed, message) for the batch and the channels; conv2d's messages are sentences, the pools' are not,
    and a flattened pool checks its channels first."""
    out, dims = result_shape(op), (conv_dims(op) if "channel_dim" in {p[0] for p in op.ROW.props} else [0, 1, 2, 3])
    the = "The output" if capital else "output"
    dot = "." if capital else ""
    if flattened_info(op) is None:
        for failed, message in checks:
            if failed(out, dims):
                raise op.error(message(out, dims))
        if (out[dims[1]], out[dims[2]]) != (h, w):
            raise op.error(f"{the} tensor height and width dimension ({out[dims[1]]}, {out[dims[2]]}) do not "
                           f"match the expected dimensions ({h}, {w}){dot}")
        return
    if out[dims[3]] != channels and not capital:
        raise op.error(checks[-1][1](out, dims))
    if n * h * w != out[FLATTENED_DIM]:
        raise op.error(f"{the} tensor's flattened dimension ({out[FLATTENED_DIM]}) does not match the "
                       f"product of batch_size * output_height * output_width ({n} * {h} * {w} = {n * h * w}){dot}")
    if out[dims[3]] != channels:
        raise op.error(checks[-1][1](out, dims))


def check_ranks(op: TTOp, *names: str) -> None:
    groups = op.operand_groups()
    for name in names:
        values = groups.get(name)
        if values and len(shape_of(values[0])) != 4:
            raise op.error(f"{name} must be a 4D tensor")
    if len(result_shape(op)) != 4:
        raise op.error("output must be a 4D tensor")


def conv2d(op: TTOp):
    check_ranks(op, "input", "weight", "bias")
    check_flattened(op, capital=True)
    dims = conv_dims(op)
    if sorted(dims) != [0, 1, 2, 3]:
        raise op.error(f"batch, height, width and channel dimensions must be a permutation of (0, 1, 2, 3), got "
                       f"({commas(dims)})")
    n, h, w, c = sliding_dims(op, first_shape(op), dims)
    weight = shape_of(op.operands[1])
    groups_bias = op.operand_groups().get("bias")
    stride = int_pair(op, "stride", " for stride")
    top, left, bottom, right = int_quad(op, "padding", " for padding")
    dilation = int_pair(op, "dilation", " for dilation")
    groups = ints(op, "groups")[0]
    if min(stride) <= 0:
        raise op.error("Stride attribute values must be > 0.")
    if min(dilation) <= 0:
        raise op.error("Dilation attribute values must be > 0.")
    if min(top, left, bottom, right) < 0:
        raise op.error("Padding attribute values must be >= 0.")
    conv.check_channel_groups(op, c, groups, weight[0], weight[1],
                              shape_of(groups_bias[0])[dims[3]] if groups_bias else None)
    padded = (h + top + bottom, w + left + right)
    kernel = (dilation[0] * (weight[2] - 1) + 1, dilation[1] * (weight[3] - 1) + 1)
    if padded[0] < kernel[0] or padded[1] < kernel[1]:
        raise op.error(f"The effective kernel size ({kernel[0]}, {kernel[1]}) cannot be greater than the padded "
                       f"input size per channel ({padded[0]}, {padded[1]}).")
    oh, ow = ((p - k) // s + 1 for p, k, s in zip(padded, kernel, stride))
    channels = weight[0]
    sliding_output(op, n, oh, ow, (
        (lambda out, d: out[d[0]] != n, lambda out, d: f"Batch size from the input tensor ({n}) must match the first "
                                                       f"dimension of the output tensor ({out[d[0]]})"),
        (lambda out, d: out[d[3]] != channels,
         lambda out, d: f"The number of output channels from the output tensor ({out[d[3]]}) must match the number "
                        f"of output channels in the weight tensor ({channels}). ")), channels, capital=True)


def conv_transpose2d(op: TTOp):
    check_flattened(op, capital=True)
    for name, what in (("input", "Input"), ("output", "Output"), ("weight", "Weight"), ("bias", "Bias")):
        values = [op.results[0]] if name == "output" else op.operand_groups().get(name)
        if values and len(shape_of(values[0])) != 4:
            raise op.error(f"{what} must be a 4D tensor")
    dims = conv_dims(op)
    shape, out, info = first_shape(op), result_shape(op), flattened_info(op)
    if info is None and shape[dims[0]] != out[dims[0]]:
        raise op.error("Batch size of input and output tensors must match")
    stride = int_pair(op, "stride", " for stride")
    if min(stride) < 1:
        raise op.error("Stride values must be greater than 0")
    top, left, bottom, right = int_quad(op, "padding", " for padding")
    if min(top, left, bottom, right) < 0:
        raise op.error("Padding values must be greater or equal than 0")
    out_pad = int_pair(op, "output_padding", " for output padding")
    if min(out_pad) < 0:
        raise op.error("Output padding values must be greater or equal than 0")
    dilation = int_pair(op, "dilation", " for dilation")
    if min(dilation) < 1:
        raise op.error("Dilation values must be greater than 0")
    weight = shape_of(op.operands[1])
    c_in, c_out, groups = shape[dims[3]], out[dims[3]], ints(op, "groups")[0]
    if groups <= 0 or c_in % groups:
        raise op.error(f"Number of input channels from input tensor must be divisible by the number of groups. Got "
                       f"{c_in} input channels and {groups} groups.")
    if c_out % groups:
        raise op.error(f"Number of output channels from output tensor must be divisible by the number of groups. "
                       f"Got {c_out} output channels and {groups} groups.")
    if c_in != weight[0]:
        raise op.error(f"Number of input channels from input tensor must match the first dimension of the weight "
                       f"tensor. Got {c_in} input channels and {weight[0]} in the weight tensor.")
    if c_out // groups != weight[1]:
        raise op.error(f"Number of output channels per group must match the second dimension of the weight tensor. "
                       f"Got {c_out // groups} output channels per group and {weight[1]} in the weight tensor.")
    bias = op.operand_groups().get("bias")
    if bias and shape_of(bias[0])[dims[3]] != c_out:
        raise op.error(f"Mismatch in bias tensor dimensions. Bias tensor has {shape_of(bias[0])[dims[3]]} channels, "
                       f"but the output tensor has {c_out} channels.")
    n, h, w, _ = sliding_dims(op, shape, dims)
    oh = (h - 1) * stride[0] - (top + bottom) + dilation[0] * (weight[2] - 1) + out_pad[0] + 1
    ow = (w - 1) * stride[1] - (left + right) + dilation[1] * (weight[3] - 1) + out_pad[1] + 1
    if oh < 0 or ow < 0:
        raise op.error(f"Given input size per channel: ({h} x {w}). Calculated output size per channel: ({oh} x {ow})."
                       f" Output size is too small")
    if info is None and (out[dims[1]], out[dims[2]]) != (oh, ow):
        raise op.error(f"Mismatch between expected output size per channel and got output tensor dimensions. "
                       f"Expected: ({oh} x {ow}), got: ({out[dims[1]]} x {out[dims[2]]}).")
    if info is not None and n * oh * ow != out[FLATTENED_DIM]:
        raise op.error(f"Mismatch between expected flattened NHW dim size. Expected: {n * oh * ow}, got: "
                       f"{out[FLATTENED_DIM]}.")


def pool2d(op: TTOp):
    check_ranks(op, "input")
    check_flattened(op)
    n, h, w, c = sliding_dims(op, first_shape(op), [0, 1, 2, 3])
    kernel, stride, dilation = (int_pair(op, k, f" for {k} attribute") for k in ("kernel", "stride", "dilation"))
    top, left, bottom, right = int_quad(op, "padding", " for padding attribute")
    for name, values in (("kernel size", kernel), ("stride", stride), ("dilation", dilation)):
        if min(values) <= 0:
            raise op.error(f"{name} attribute values must be > 0")
    if min(top, left, bottom, right) < 0:
        raise op.error("padding attribute values must be >= 0")
    padded = (h + top + bottom, w + left + right)
    effective = (dilation[0] * (kernel[0] - 1) + 1, dilation[1] * (kernel[1] - 1) + 1)
    if padded[0] < effective[0] or padded[1] < effective[1]:
        raise op.error(f"effective kernel size ({effective[0]}, {effective[1]}) cannot be greater than the padded "
                       f"input size per channel ({padded[0]}, {padded[1]})")
    if scalar(op.prop("ceil_mode")):
        oh, ow = (-((k - p) // s) + 1 for p, k, s in zip(padded, effective, stride))
        # a last window that starts in the bottom/right padding is dropped
        oh -= (oh - 1) * stride[0] >= h + top
        ow -= (ow - 1) * stride[1] >= w + left
    else:
        oh, ow = ((p - k) // s + 1 for p, k, s in zip(padded, effective, stride))
    sliding_output(op, n, oh, ow, (
        (lambda out, d: out[0] != n, lambda out, d: f"batch size from the input tensor ({n}) must match the first "
                                                    f"dimension of the output tensor ({out[0]})"),
        (lambda out, d: out[3] != c, lambda out, d: f"number of output channels from the output tensor ({out[3]}) "
                                                    f"must match the number of input channels ({c})")),
     c, capital=False)


def max_pool2d_with_indices(op: TTOp):
    pool2d(op)
    if result_shape(op, 1) != result_shape(op):
        raise op.error("Pooled values and indices must have the same shape")
    if not isinstance(op.results[1].type.element_type, IntegerType):
        raise op.error("Indices result must have integer element type")


# which of (input, result) hold quantized values
QUANTIZED_SIDES = {"quantize": (False, True), "dequantize": (True, False), "requantize": (True, True)}


def quantization(op: TTOp):
    """Upstream's quantize-family verifier: element kinds, equal shapes; for the unrolled ops, the axis, the number
    of per-axis scales and the zero points' range."""
    kind = op.ROW.name.removesuffix("_unrolled")
    unrolled = kind != op.ROW.name
    source, result = op.operands[0].type, op.results[0].type
    elements = (source.element_type, result.element_type)
    if unrolled and kind == "requantize":
        kinds = {e.per_axis if isinstance(e, UniformQuantizedType) else None for e in elements}
        if None in kinds or len(kinds) != 1:
            raise op.error(f"Input and output element types must both be per-axis or both be per-tensor quantized "
                           f"types, but got '{elements[0]}' and '{elements[1]}'")
    else:
        for what, element, quantized in zip(("Input", "Output"), elements, QUANTIZED_SIDES[kind]):
            if quantized and not isinstance(element, UniformQuantizedType):
                raise op.error(f"{what} element type must be UniformQuantizedType or UniformQuantizedPerAxisType, "
                               f"but got '{element}'")
            if not quantized and not isinstance(element, FLOAT_TYPES):
                raise op.error(f"{what} element type must be float, but got '{element}'")
    shape, out = source.get_shape(), result.get_shape()
    if len(shape) != len(out):
        raise op.error(f"Input tensor rank of {len(shape)} does not match the output tensor rank of {len(out)}")
    if shape != out:
        raise op.error(f"Output tensor shape ({commas(out, ',')}) must match the inferred shape: "
                       f"({commas(shape, ',')})")
    if not unrolled:
        return
    axis = op.prop("axis")
    if axis is not None and not 0 <= scalar(axis) < len(shape):
        raise op.error(f"Axis value {scalar(axis)} is out of the range [0, {len(shape)}) for the input tensor of "
                       f"rank {len(shape)}")
    for element in elements:
        if not isinstance(element, UniformQuantizedType):
            continue
        q = element.data
        if element.per_axis and len(q.scales) != shape[q.axis]:
            raise op.error(f"Number of scales ({len(q.scales)}) does not match the size of the quantized axis "
                           f"({shape[q.axis]})")
        for zero_point in q.zero_points:
            if not q.storage_min <= zero_point <= q.storage_max:
                raise op.error(f"Zero point {zero_point} is out of the range for storage type "
                               f"'{element.storage_type}'")
        if not element.per_axis:  # upstream stops at the first per-tensor type
            return


def global_pool2d(op: TTOp):
    shape, out = first_shape(op), result_shape(op)
    rank = len(shape)
    if rank < 2:
        raise op.error("input tensor must have at least 2 dimensions for global average pooling over 2 spatial "
                       "dimensions")
    if len(out) != rank:
        raise op.error("output tensor must have the same rank as input tensor")
    if shape[0] != out[0]:
        raise op.error("batch dimension must remain the same between input and output")
    if out[rank - 2] != 1 or out[rank - 3] != 1:
        raise op.error("spatial dimensions must be reduced to 1")
    if shape[-1] != out[-1]:
        raise op.error("channel dimension must remain the same between input and output")


def upsample2d(op: TTOp):
    shape, out = first_shape(op), result_shape(op)
    for what, rank in (("input", len(shape)), ("output", len(out))):
        if rank != 4:
            raise op.error(f"Expected rank of {what} tensor is 4, got rank {rank}")
    scale_h, scale_w = int_pair(op, "scale_factor")
    if scale_h <= 0 or scale_w <= 0:
        raise op.error(f"Scale factors H = {scale_h} and W = {scale_w} must be positive integers")
    for name, i, want in (("H", 1, shape[1] * scale_h), ("W", 2, shape[2] * scale_w)):
        if out[i] != want:
            raise op.error(f"Expected output {name} dimension to be input {name} dimension * scale{name} = {want}, "
                           f"got {out[i]}")
    for name, i in (("N", 0), ("C", 3)):
        if out[i] != shape[i]:
            raise op.error(f"Expected output {name} dimension to be {shape[i]}, got {out[i]}")
    if scalar(op.prop("mode")) not in ("nearest", "bilinear"):
        raise op.error(f'Expected modes are (nearest, bilinear), got "{scalar(op.prop("mode"))}"')


def batch_norm(op: TTOp):
    shape = first_shape(op)
    rank, dim = len(shape), ints(op, "dimension")[0]
    if not 2 <= rank <= 5:
        raise op.error(f"input tensor must have rank between 2 and 5, got rank {rank}")
    if not 0 <= dim < rank:
        raise op.error(f"dimension attribute must be within input rank bounds, got dimension {dim} for rank {rank}")
    if len(op.results) == 1:
        return [shape]
    # the batch statistics come out shaped as the running ones go in: (C,), or (1, C, 1, 1) as TTNN reads them
    running = shape_of(op.operand_groups()["running_mean"][0])
    if math.prod(running) != shape[dim]:
        raise op.error(f"running_mean must have {shape[dim]} elements (the channels of dimension {dim}), got "
                       f"{math.prod(running)}")
    return [shape, running, running]


def norm(op: TTOp):
    shape = first_shape(op)
    if result_shape(op) != shape:
        raise op.error("input and output must have the same shape")
    normalized = tuple(ints(op, "normalized_shape"))
    if not normalized:
        raise op.error("normalized_shape cannot be empty")
    if len(normalized) > len(shape):
        raise op.error("normalized_shape has more dimensions than input tensor")
    if shape[len(shape) - len(normalized):] != normalized:
        raise op.error("normalized_shape dimensions must match trailing dimensions of input tensor")
    groups = op.operand_groups()
    for name in ("weight", "bias"):
        if groups.get(name) and shape_of(groups[name][0]) != normalized:
            raise op.error(f"{name} tensor shape must match normalized_shape")


def group_norm(op: TTOp):
    shape = first_shape(op)
    groups = ints(op, "num_groups")[0]
    channel = op.prop("channel_dim")
    channels = shape[-1] if channel is None else shape[scalar(channel) % len(shape)]  # TTNN's op: channels last
    if groups <= 0 or channels % groups:
        raise op.error(f"the number of channels ({channels}) must be divisible by num_groups ({groups})")
    return [shape]


def constant(op: TTOp):
    value = op.prop("value")
    if not isinstance(value, (DenseIntOrFPElementsAttr, DenseResourceAttr)):
        raise op.error("value attribute must be one of DenseResourceElementsAttr or DenseElementsAttr.")
    if not isinstance(value.type.element_type, (IntegerType, *FLOAT_TYPES)):
        raise op.error("value attribute must be of int or float type.")
    if isinstance(value, DenseIntOrFPElementsAttr):
        return [tuple(value.type.get_shape())]
    return None


def fill(op: TTOp):
    shape = tuple(ints(op, "shape"))
    if result_shape(op) != shape:
        raise op.error(f"expected shape ({commas(result_shape(op))}), got ({commas(shape)})")


def arange(op: TTOp):
    start, end, step = (ints(op, n)[0] for n in ("start", "end", "step"))
    if step == 0:
        raise op.error("Step value cannot be zero")
    count = int((end - start) / step)  # C++ integer division truncates toward zero
    if count <= 0:
        raise op.error(f"Invalid range: start={start}, end={end}, step={step}")
    out = result_shape(op)
    dim = ints(op, "arange_dimension")[0]
    if not 0 <= dim < len(out):
        raise op.error(f"arange_dimension {dim} is out of range for a tensor of rank {len(out)}")
    if out[dim] != count:
        raise op.error(f"Output tensor shape must be {count} at dim {dim} (since start={start}, end={end}, "
                       f"step={step}), but got {out[dim]}")


def rand(op: TTOp):
    if scalar(op.prop("low")) >= scalar(op.prop("high")):
        raise op.error("'low' value must be < 'high' value.")
    size = ints(op, "size")
    if result_shape(op) != tuple(size):
        sizes = ", ".join(f"{d} : i32" for d in size)
        raise op.error(f"Size argument does not match with output tensor shape. [Size = [{sizes}], output tensor "
                       f"shape = ({commas(result_shape(op))})].")


def cache(op: TTOp):
    """update_cache writes one position per user ([1, heads, users, dim] into [users, heads, seq, dim]);
    fill_cache writes a prompt of at most the cache's length."""

    cache_type, input_type = op.operands[0].type, op.operands[1].type
    cache_dtype, input_dtype = (data_type_of(t.element_type) for t in (cache_type, input_type))
    if cache_dtype != input_dtype:
        raise op.error(f"Cache and input tensors must have the same dtype. Got cache dtype = {cache_dtype}, "
                       f"input dtype = {input_dtype}")
    cache_shape, input_shape = shape_of(op.operands[0]), shape_of(op.operands[1])
    for what, shape in (("Cache", cache_shape), ("Input", input_shape)):
        if len(shape) != 4:
            raise op.error(f"{what} tensor must be a 4D tensor")
    if op.name == "ttir.update_cache" and input_shape[0] != 1:
        raise op.error(f"Input tensor requires that dim 0 have size 1, got input dim 0 size = {input_shape[0]}")
    if op.name == "ttir.fill_cache" and input_shape[2] > cache_shape[2]:
        raise op.error(f"Input tensor requires that dim 2 have a size which is less than or equal to the size of "
                       f"dim 2 of the cache tensor. Got cache dim 2 size = {cache_shape[2]}, input dim 2 size = "
                       f"{input_shape[2]}")
    if (cache_shape[1], cache_shape[3]) != (input_shape[1], input_shape[3]):
        raise op.error(f"Cache tensor shape must match input tensor shape on dims 1 and 3. Got cache shape "
                       f"({commas(cache_shape)}), input shape ({commas(input_shape)})")
    return []


def paged_update_cache(op: TTOp):
    """Upstream's checks: 4D cache and input, one update index per user, whole-tile pages."""
    groups = op.operand_groups()
    cache, update, index = (shape_of(groups[n][0]) for n in ("cache", "input", "update_index"))
    table = groups["page_table"]
    if len(cache) != 4:
        raise op.error("Cache tensor must be a 4D tensor")
    if len(update) != 4:
        raise op.error("Input tensor must be a 4D tensor")
    if len(index) != 1:
        raise op.error("Update index tensor must be a 1D tensor")
    users = index[0]
    if table and cache[2] % 32:
        raise op.error(f"Block size must be divisible by 32, got {cache[2]}")
    if update[0] != 1:
        raise op.error(f"Input tensor must have dim 0 be equal to 1, got {update[0]}")
    if update[1] != users:
        raise op.error(f"Input tensor must have shape equal to the number of users (determined by update index "
                       f"shape): {users}, got {update[1]}")
    if update[3] != cache[3]:
        raise op.error(f"Input tensor must have dim 3 be equal to the head dimension (determined by cache shape): "
                       f"{cache[3]}, got {update[3]}")
    if table:
        pages = shape_of(table[0])
        if len(pages) != 2:
            raise op.error("Page table tensor must be a 2D tensor")
        if pages[0] != users:
            raise op.error(f"Page table tensor must have dim 0 be equal to the number of users (determined by update "
                           f"index shape): {users}, got {pages[0]}")
    return []


def same_rank(op: TTOp):
    if len(op.results[0].type.get_shape()) != len(first_shape(op)):
        raise op.error("result must have the same rank as the input")
    return None


def mesh_shard(op: TTOp):
    """Upstream refuses maximal sharding; a device split names each mesh axis's tensor dim (-1: not split there),
    so a dim outside the tensor is refused here rather than failing in the kernel (a shard shape of ones splits
    nothing: it folds away)."""
    kind = op.prop("shard_type").data.value
    if kind == "maximal":
        raise op.error("Invalid shard_type (maximal) for mesh_shard op.")
    rank = len(first_shape(op))
    dims = int_values(op.prop("shard_dims"))
    splits = any(d != 1 for d in int_values(op.prop("shard_shape")))
    if kind == "devices" and splits and any(d != -1 and not 0 <= d < rank for d in dims):
        raise op.error(f"shard_dims ({commas(dims)}) must each be -1 or a dimension of the rank-{rank} input")
    return same_rank(op)


def collective_dim(op: TTOp, prop: str, head: str, word: str) -> None:
    """`head` as the dialect words it: TTIR "Invalid dimension for all gather op", TTNN "Invalid gather dimension
    for all reduce op" (sic)."""
    rank, dim = len(first_shape(op)), scalar(op.prop(prop))
    if not -rank <= dim < rank:
        raise op.error(f"{head}. {word.capitalize()} dimension must be >= to input tensor rank or < -input tensor "
                       f"rank, got {word}_dim = {dim}")


def reduce_type_in(op: TTOp, allowed: tuple[str, ...], what: str) -> None:
    if op.prop("reduce_type").data.value not in allowed:
        raise op.error(f"Invalid reduction type for {what} op.")


def all_gather(op: TTOp):
    collective_dim(op, "all_gather_dim", "Invalid dimension for all gather op", "gather")
    return same_rank(op)


def all_reduce(op: TTOp, what: str = "all reduce"):
    reduce_type_in(op, ("sum",), what)  # upstream's TTIR reduces only by sum
    return same_rank(op)


def reduce_scatter(op: TTOp):
    reduce_type_in(op, ("sum", "max", "min"), "reduce scatter")
    collective_dim(op, "scatter_dim", "Invalid dimension for reduce scatter op", "scatter")
    return same_rank(op)


def collective_permute(op: TTOp):
    pairs = op.prop("source_target_pairs")
    if len(pairs.type.get_shape()) != 2:
        raise op.error(f"The rank of source target pairs must be 2, got rank = {len(pairs.type.get_shape())}")
    values = [int(v) for v in dense_values(pairs)]
    if len(set(values[0::2])) != len(values[0::2]) or len(set(values[1::2])) != len(values[1::2]):
        raise op.error("There are duplicate 'src' or 'dest' devices in source target pairs")
    return same_rank(op)


def replica_groups_problem(groups) -> str | None:
    """What is wrong with a replica groups attribute, in upstream's words."""
    if len(groups.type.get_shape()) != 2:
        return "replica_groups must be a 2D array"
    ids, seen = [int(v) for v in dense_values(groups)], set()
    for chip in ids:
        if chip < 0:
            return "replica_groups values must be positive"
        if chip > len(ids) - 1:
            return f"replica_groups values must be in the range [0, {len(ids) - 1}], got {chip}"
        if chip in seen:
            return "replica_groups must not contain duplicate values"
        seen.add(chip)
    return None


def all_to_all(op: TTOp):
    shape, rank = list(first_shape(op)), len(first_shape(op))
    split, concat, count = (scalar(op.prop(p)) for p in ("split_dim", "concat_dim", "split_count"))
    if not 0 <= split < rank:
        raise op.error(f"splitDim must be in the range [0, {rank - 1}], got {split}")
    if count <= 0:
        raise op.error("splitCount must be a positive integer")
    if shape[split] % count:
        raise op.error("splitDim size must be divisible by splitCount")
    if not 0 <= concat < rank:
        raise op.error(f"concatDim must be in the range [0, {rank - 1}], got {concat}")
    shape[split] //= count
    shape[concat] *= count
    if tuple(shape) != result_shape(op):
        raise op.error(f"Output shape mismatch: expected = <{commas(shape)}> output = <{commas(result_shape(op))}>")
    if op.operands[0].type.element_type != op.results[0].type.element_type:
        raise op.error("Input and output element types must match")
    groups = op.prop("replica_groups")
    if (problem := replica_groups_problem(groups)) is not None:
        raise op.error(problem)
    if groups.type.get_shape()[1] != count:
        raise op.error("replicaGroup count must match splitCount")


def collective_broadcast(op: TTOp):
    if op.operands[0].type != op.results[0].type:
        raise op.error("input and output must have the same type")
    if (problem := replica_groups_problem(op.prop("replica_groups"))) is not None:
        raise op.error(problem)


def mesh_partition(op: TTOp):
    rank, dim = len(first_shape(op)), ints(op, "dim")[0]
    if not -rank <= dim < rank:
        raise op.error("Invalid tensor dimension for mesh partition op. Dimension must be >= to input tensor rank "
                       f"or < -input tensor rank, got dim = {dim}")
    axis = op.prop("cluster_axis")
    if axis is not None and scalar(axis) > 1:
        raise op.error(f"Cluster axis must be either None, 0 or 1, got {scalar(axis)}")
    return same_rank(op)


def distributed_norm(op: TTOp):
    shape, groups = first_shape(op), op.operand_groups()
    if result_shape(op) != shape:
        raise op.error("output shape must match input shape")
    if scalar(op.prop("cluster_axis")) > 1:
        raise op.error("cluster_axis must be 0 or 1")
    if op.prop("epsilon") is not None and scalar(op.prop("epsilon")) <= 0:
        raise op.error("epsilon must be positive")
    if groups.get("residual") and shape_of(groups["residual"][0]) != shape:
        raise op.error("residual tensor shape must match input tensor shape")
    if groups.get("weight") and shape_of(groups["weight"][0])[-1:] != shape[-1:]:
        raise op.error("weight tensor's last dimension must match input's last dimension")


def concatenate_heads(op: TTOp):
    shape, out = first_shape(op), result_shape(op)
    for what, tensor, rank in (("input", shape, 4), ("output", out, 3)):
        if len(tensor) != rank:
            raise op.error(f"expected rank of {what} tensor is {rank}, got rank {len(tensor)}")
    batch, heads, seq, size = shape
    for what, want, got in (("batch", batch, out[0]), ("sequence", seq, out[1])):
        if want != got:
            raise op.error(f"expected output {what} dimension to be {want}, got {got}")
    if heads * size != out[2]:
        raise op.error(f"expected output hidden dimension to be num_heads * head_size = {heads * size}, got {out[2]}")


def split_qkv(op: TTOp):
    shape, groups = first_shape(op), op.operand_groups()
    if len(shape) != 3:
        raise op.error(f"expected rank of input tensor is 3, got rank {len(shape)}")
    outs = [result_shape(op, i) for i in range(3)]
    if any(len(o) != 4 for o in outs):
        raise op.error(f"expected rank of query/key/value output tensor is 4, got query rank: {len(outs[0])}, key "
                       f"rank: {len(outs[1])}, value rank: {len(outs[2])}")
    heads = scalar(op.prop("num_heads"))
    kv_heads = scalar(op.prop("num_kv_heads")) if op.prop("num_kv_heads") is not None else heads
    kv = shape_of(groups["kv_input_tensor"][0]) if groups.get("kv_input_tensor") else shape
    if groups.get("kv_input_tensor"):
        size, kv_size = shape[2] // heads, kv[2] // (2 * kv_heads)
    else:
        size = kv_size = shape[2] // (heads + 2 * kv_heads)
    key = (kv[0], kv_heads, kv[1], kv_size)
    if scalar(op.prop("transpose_key")):
        key = key[:2] + (key[3], key[2])
    for name, want, got in (("query", (shape[0], heads, shape[1], size), outs[0]), ("key", key, outs[1]),
                            ("value", (kv[0], kv_heads, kv[1], kv_size), outs[2])):
        if want != got:
            raise op.error(f"expected {name} output shape ({commas(want)}), got ({commas(got)})")


def get_dimension_size(op: TTOp):
    normalize_dim(op, ints(op, "dimension")[0], len(first_shape(op)))
    return [(1,)]


def tt_lang_op(op: TTOp):
    """A tt-lang kernel's roles: one per input, every "in" before the "out"s, one "out" per result."""
    inputs = op.operands
    if not inputs:
        raise op.error("tt-lang kernel must have at least one input operand.")
    roles = op.prop("arg_roles").data
    if not roles:
        raise op.error("`arg_roles` attribute must not be empty.")
    tokens = [t.strip() for t in roles.split(",")]
    if len(tokens) != len(inputs):
        raise op.error(f"`arg_roles` token count ({len(tokens)}) must match number of inputs ({len(inputs)}).")
    for i, token in enumerate(tokens):
        if token not in ("in", "out"):
            raise op.error(f'`arg_roles` token must be "in" or "out", got: "{token}".')
        if token == "in" and "out" in tokens[:i]:
            raise op.error('`arg_roles` must list all "in" operands before any "out" operand '
                           "(destination-passing-style ordering).")
    outs = tokens.count("out")
    if outs != len(op.results):
        raise op.error(f'number of "out" roles ({outs}) must match number of results ({len(op.results)}).')
    if not outs:
        raise op.error('tt-lang kernel must have at least one operand tagged "out" (the destination buffer the '
                       "runtime returns as the kernel's output).")
    for name in ("kernel_id", "version_tag"):
        if not op.prop(name).data:
            raise op.error(f"`{name}` attribute must not be empty.")
    return [tuple(v.type.get_shape()) for v in inputs[len(inputs) - outs:]]
