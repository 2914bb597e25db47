"""`--convert-ttir-to-ttnn`: every TTIR op to its TTNN counterpart.

Conversion walks each function once with a dispatch table keyed by op family: most families map
an op to its TTNN row unchanged (properties the TTNN op accepts are carried over), a few rewrite
(transpose → permute, squeeze/unsqueeze → reshape, broadcast → repeat); ops TTNN lacks were decomposed
before (--ttir-to-ttir-decomposition).
A TTIR op with no lowering yet is a located `failed to legalize` diagnostic.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import DenseArrayBase, FunctionType, i32, IntegerAttr, ModuleOp, TensorType
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute, BlockArgument, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter
from xdsl.traits import SymbolTable
from xdsl.transforms.dead_code_elimination import region_dce

from ttmlir.dialects import ttcore, ttnn
from ttmlir.dialects.tt_rewrites import splat_fill_value
from ttmlir.dialects.conv import CONV1D_DIMS, TILE_WIDTH, conv1d_params
from ttmlir.ir.props import int_triple
from ttmlir.dialects.debug import DebugOp
from ttmlir.dialects.moe_fused import DEFAULT_MUX_CORES, packed_w0_w1_shape, packed_w2_shape
from ttmlir.ir.op_table import IN_PLACE_OPERAND
from ttmlir.ir.props import KINDS, dense_values, int_values, scalar
from ttmlir.ir.syntax import enum
from ttmlir.ir.tt_op import TTOp
from ttmlir.dialects.ttir_shapes import broadcast_shape, first_shape, matmul_product_shape
from ttmlir.dialects.ttnn import TTNN_OP_CLASSES, TTNNOp
from ttmlir.errors import PassFailure
from ttmlir.transforms.ttir.cpu_hoist_manually_tagged import FORWARD_CPU, FUNCTION_TYPE
from ttmlir.transforms.ttnn.ttnn_utils import (device_functions, device_of, helper_location, interleaved_memory_config,
                                               mesh_shape_of, ttnn_op)
from ttmlir.spatial import padding4, pair, round_up


def _props(op: TTOp, **overrides: Attribute) -> dict[str, Attribute]:
    return {**op.properties, **overrides}


def _with_defaults(op: TTOp) -> dict[str, Attribute]:
    """Every property, defaulted ones spelled out: upstream's patterns pass each attribute on explicitly."""
    return {**{name: op.prop(name) for name, _, default, _ in op.ROW.props if default is not None}, **op.properties}


def _reshape_to_result(op: TTOp) -> Operation:
    return _reshape(op.operands[0], op.results[0].type.get_shape(), op)


def _transpose(op: TTOp) -> Operation:
    rank = len(op.operands[0].type.get_shape())
    perm = list(range(rank))
    a, b = (int_values(op.prop(n))[0] % rank for n in ("dim0", "dim1"))
    perm[a], perm[b] = perm[b], perm[a]
    return _permute(op.operands[0], perm, op)


def _repeat_by(prop: str) -> Callable[[TTOp], Operation]:
    """broadcast and repeat both become ttnn.repeat; only the property naming the factors differs."""
    def convert(op: TTOp) -> Operation:
        dims = ttnn.ShapeAttr(tuple(int_values(op.prop(prop))))
        return ttnn_op("repeat", op.operands, {"repeat_dims": dims}, [op.results[0].type], op)
    return convert


def _direct(op: TTOp) -> Operation:
    """One to one; the output data type is the result layout's (upstream sets no `dtype` attribute)."""
    return ttnn_op(op.ROW.ttnn, op.operands, _props(op), [r.type for r in op.results], op)


def _direct_with_defaults(op: TTOp) -> Operation:
    """One to one, defaulted properties written out (upstream's conversion passes them all)."""
    return ttnn_op(op.ROW.ttnn, op.operands, _with_defaults(op), [r.type for r in op.results], op)


def _tensor(shape, like: TensorType) -> TensorType:
    """A tensor of `like`'s element type; laid out as `like` is when it has a layout (--ttnn-layout ran first)."""
    encoding = like.encoding
    if not isinstance(encoding, ttnn.TTNNLayoutAttr):
        return TensorType(like.element_type, tuple(shape))
    return TensorType(like.element_type, tuple(shape), ttnn.layout_for(tuple(shape), like.element_type,
                                                                       encoding.buffer_type, encoding.is_tiled))


def _reshape(value: SSAValue, shape, source: Operation) -> Operation:
    return ttnn_op("reshape", [value], {"shape": KINDS["i32_array"].build(list(shape))},
                    [_tensor(shape, value.type)], source)


def _permute(value: SSAValue, perm: list[int], source: Operation) -> Operation:
    shape = value.type.get_shape()
    return ttnn_op("permute", [value], {"permutation": KINDS["i64_darray"].build(perm)},
                    [_tensor([shape[p] for p in perm], value.type)], source)


def _creation_props(op: TTOp) -> dict[str, Attribute]:
    element = op.results[0].type.element_type
    return {"dtype": enum(ttcore.DataTypeAttr, ttnn.data_type_of(element)), "layout": enum(ttnn.LayoutAttr, "tile"),
            "memory_config": interleaved_memory_config()}


def _creation(op: TTOp) -> list[Operation]:
    """zeros/ones/full/empty/rand/constant: the TTNN op on the device (attached by --ttnn-layout)."""
    result = op.results[0].type
    props = {**_with_defaults(op), **_creation_props(op)}
    shape = ttnn.ShapeAttr(tuple(result.get_shape()))
    props["shape" if op.ROW.name != "rand" else "size"] = shape
    return [ttnn_op(op.ROW.ttnn, [], props, [result], op)]


def _constant(op: TTOp) -> list[Operation]:
    """A splat constant becomes ttnn.full (upstream canonicalizes it to ttir.full first); others keep their data, as
    upstream's ttnn.constant: its value alone (data type, layout and memory are its result's layout)."""
    fill = splat_fill_value(op.prop("value"))
    if fill is None:
        return [ttnn_op("constant", [], {"value": op.prop("value")}, [op.results[0].type], op)]
    props = {**_creation_props(op), "shape": ttnn.ShapeAttr(tuple(op.results[0].type.get_shape())), "fill_value": fill}
    return [ttnn_op("full", [], props, [op.results[0].type], op)]


def _fill_value(value: SSAValue) -> Attribute | None:
    """The value every element of `value` has, when it comes from a full op or a splat constant (through
    reshapes, typecasts and layout changes)."""
    owner = value.owner
    while isinstance(owner, TTOp) and owner.ROW.name in ("reshape", "typecast", "to_layout"):
        owner = owner.operands[0].owner
    if isinstance(owner, ttcore.LoadCachedOp):  # a const-eval result: what its function returns
        func = SymbolTable.lookup_symbol(owner, owner.callee.root_reference.data)
        if isinstance(func, FuncOp) and func.body.blocks:
            return _fill_value(func.body.block.last_op.operands[owner.results.index(value)])
    if isinstance(owner, TTOp) and owner.ROW.name == "full":
        return owner.prop("fill_value")
    return splat_fill_value(owner.prop("value")) if isinstance(owner, TTOp) and owner.ROW.name == "constant" else None


def _retyped_integers(op: TTOp) -> Operation:
    """One to one, defaults spelled out, integer properties in the TTNN op's integer type (cumsum's dim as si32,
    sort's as si8), as upstream's patterns build them."""
    kinds = {name: kind for name, kind, _, _ in TTNN_OP_CLASSES[op.ROW.ttnn].ROW.props}
    props = {name: KINDS[kinds[name]].build(attr.value.data) if isinstance(attr, IntegerAttr) and
             not KINDS[kinds[name]].check(attr) else attr for name, attr in _with_defaults(op).items()}
    return ttnn_op(op.ROW.ttnn, op.operands, props, [r.type for r in op.results], op)


def _gather(op: TTOp) -> Operation | list[Operation]:
    """tt-metal's gather needs rank >= 2: a rank-1 gather runs on (1, n) views along dim 1."""
    if op.prop("dim") is None or len(op.results[0].type.get_shape()) != 1:
        return _retyped_integers(op)
    views = [_reshape(v, [1, *v.type.get_shape()], op) for v in op.operands]
    result = op.results[0].type
    gather = ttnn_op("gather", [v.results[0] for v in views], {"dim": KINDS["si32"].build(1)},
                     [_tensor([1, *result.get_shape()], result)], op)
    return [*views, gather, _reshape(gather.results[0], result.get_shape(), op)]


def _one_dim_reduction(op: TTOp) -> Operation:
    """argmax and prod of one dimension (--ttir-to-ttir-decomposition splits the others) name it as TTNN does."""
    dims_attr = op.prop("dim_arg")
    dims = int_values(dims_attr) if dims_attr is not None else []
    name, dim_prop = op.ROW.ttnn, "dim" if op.ROW.name == "argmax" else "dim_arg"
    build = KINDS["si32" if name == "argmax" else "si64"].build
    props = {"keep_dim": op.prop("keep_dim"), **({dim_prop: build(dims[0])} if len(dims) == 1 else {})}
    return ttnn_op(name, op.operands, props, [op.results[0].type], op)


def _pow(op: TTOp) -> Operation:
    """A constant non-negative exponent makes ttnn.pow_scalar (pow_scalar takes no negative one)."""
    exponent = _fill_value(op.operands[1])
    if exponent is None or scalar(exponent) < 0:
        return _direct(op)
    return ttnn_op("pow_scalar", [op.operands[0]], {"rhs": exponent}, [op.results[0].type], op)


def _arange(op: TTOp) -> Operation:
    """A 1-D arange (--ttir-to-ttir-decomposition broadcasts the others from one)."""
    return ttnn_op("arange", [], {**_props(op), **_creation_props(op)}, [op.results[0].type], op)


def _flattened_info(op: TTOp, message: str) -> tuple[int, int, int]:
    info = op.prop("flattened_compat_info")
    if info is None:
        raise PassFailure(op, f"'{op.name}' op {message}")
    return info.data


def _conv(op: TTOp) -> Operation:
    """A flattened conv2d/conv_transpose2d is TTNN's, with the (N, H, W) its input was flattened from."""
    n, h, w = _flattened_info(op, "TTNN only supports flattened input tensors for Conv2dOp. Please run the "
                                  "FlattenSlidingWindow pass before lowering to TTNN.")
    weight = op.operands[1].type.get_shape()
    darray, i32 = KINDS["i32_darray"].build, KINDS["i32"].build
    props = {"in_channels": i32(op.operands[0].type.get_shape()[-1]),
             "out_channels": i32(op.results[0].type.get_shape()[-1]),
             "batch_size": i32(n), "input_height": i32(h), "input_width": i32(w),
             "kernel_size": darray(weight[2:]), "groups": op.prop("groups"),
             **{k: darray(pair(int_values(op.prop(k)))) for k in ("stride", "dilation")},
             "padding": darray(_conv_padding(op))}
    if op.ROW.name == "conv_transpose2d":
        props["output_padding"] = darray(pair(int_values(op.prop("output_padding"))))
    operands = [op.operands[0], op.operands[1], *op.operand_groups().get("bias", [])]
    return ttnn_op(op.ROW.name, operands, props, [op.results[0].type], op)


def _conv1d(op: TTOp) -> list[Operation]:
    """tt-metal's conv1d reads (N, L, C) (another layout is permuted to it), a (1, 1, 1, O) bias, and gives conv2d's
    flattened (1, 1, N * L_out, O), reshaped back (and permuted back)."""
    dims = [scalar(op.prop(name)) for name in CONV1D_DIMS]
    groups = op.operand_groups()
    ops: list[Operation] = []
    source = groups["input"][0]
    if dims != [0, 1, 2]:
        ops.append(_permute(source, dims, op))
        source = ops[-1].results[0]
    n, length, channels = source.type.get_shape()
    weight = groups["weight"][0]
    out_channels, _, kernel = weight.type.get_shape()
    operands = [source, weight]
    if groups.get("bias"):
        ops.append(_reshape(groups["bias"][0], [1, 1, 1, out_channels], op))
        operands.append(ops[-1].results[0])
    stride, padding, dilation = conv1d_params(op)
    result = op.results[0].type
    out_length = result.get_shape()[dims[1]]
    i32 = KINDS["i32"].build
    props = {"in_channels": i32(channels), "out_channels": i32(out_channels), "batch_size": i32(n),
             "input_length": i32(length), "kernel_size": i32(kernel), "stride": i32(stride),
             "padding": KINDS["i32_darray"].build(list(padding)), "dilation": i32(dilation), "groups": op.prop("groups")}
    ops.append(ttnn_op("conv1d", operands, props, [_tensor([1, 1, n * out_length, out_channels], result)], op))
    ops.append(_reshape(ops[-1].results[0], [n, out_length, out_channels], op))
    if dims != [0, 1, 2]:
        ops.append(_permute(ops[-1].results[0], [dims.index(i) for i in range(3)], op))
    return ops


def _conv_padding(op: TTOp) -> list[int]:
    """TTNN's padding: (height, width), or conv2d's four sides as (top, bottom, left, right); a transposed conv
    pads symmetrically only, as tt-metal's does."""
    padding = pair(int_values(op.prop("padding")))
    if len(padding) == 2:
        return padding
    top, left, bottom, right = padding
    if op.ROW.name == "conv2d":
        return [top, bottom, left, right]
    if (top, left) != (bottom, right):
        raise PassFailure(op, f"'{op.name}' op TTNN only supports padding height/width attributes. Thus, "
                              "padding_top/padding_left must equal padding_bottom/padding_right for the op to execute "
                              "as expected.")
    return [top, left]


def _conv3d(op: TTOp) -> list[Operation]:
    """An NDHWC conv3d is TTNN's: input channels padded to whole tiles, the bias as (1, O), and the complete
    default config upstream attaches (tt-metal completes only an absent one): single spatial output blocks,
    tile-wide output-channel blocks, the smallest input-channel block whose weight rows stay tile- and
    L1-aligned, and the device's worker grid."""
    if scalar(op.prop("groups")) != 1:
        raise PassFailure(op, f"failed to legalize operation '{op.name}': ttnn.conv3d only supports groups == 1")
    groups, result = op.operand_groups(), op.results[0].type
    source, weight = groups["input"][0], groups["weight"][0]
    n, d, h, w, channels = source.type.get_shape()
    kernel, out_channels = list(weight.type.get_shape()[2:]), result.get_shape()[4]
    ops: list[Operation] = []
    if channels % TILE_WIDTH:
        ops.append(_pad_end(source, 4, -channels % TILE_WIDTH, op))
        source, channels = ops[-1].results[0], round_up(channels, TILE_WIDTH)
    operands = [source, weight]
    if groups.get("bias"):
        ops.append(_reshape(groups["bias"][0], [1, out_channels], op))
        operands.append(ops[-1].results[0])
    device = ttcore.registered_device(op)
    system = op.get_toplevel_object().attributes.get("ttcore.system_desc")
    chip = system.data.chip() if system is not None else {}
    tile_factor = TILE_WIDTH // math.gcd(math.prod(kernel), TILE_WIDTH)
    block = min(math.lcm(int(chip.get("noc_l1_address_align_bytes", 16)), tile_factor), channels)
    grid = ttcore.Grid(tuple(device.worker_grid.shape if device else chip.get("grid", (8, 8))))
    config = ttnn.Conv3dConfigAttr((("t_out_block", 1), ("w_out_block", 1), ("h_out_block", 1),
                                    ("c_out_block", TILE_WIDTH), ("c_in_block", block),
                                    ("compute_with_storage_grid_size", ttcore.GridAttr(grid))))
    darray, i32 = KINDS["i32_darray"].build, KINDS["i32"].build
    props = {"in_channels": i32(channels), "out_channels": i32(out_channels), "batch_size": i32(n),
             "input_depth": i32(d), "input_height": i32(h), "input_width": i32(w), "kernel_size": darray(kernel),
             "stride": darray(int_triple(op, "stride")), "padding": darray(int_triple(op, "padding")), "padding_mode": op.prop("padding_mode"),
             "groups": op.prop("groups"), "conv3d_config": config}
    return [*ops, ttnn_op("conv3d", operands, props, [result], op)]


def _pool(op: TTOp) -> list[Operation]:
    """A flattened pool is TTNN's. tt-metal pads at most half a kernel, so a wider padding is applied first, on
    the unflattened input, as upstream's conversion does (with -inf for max, which upstream's zero gets wrong for
    negative inputs; an average that excludes its padding from the count keeps it in the op)."""
    n, h, w = _flattened_info(op, "only supports lowering to TTNN for flattened input tensors. Please run the "
                                  "FlattenSlidingWindow pass before lowering to TTNN")
    kernel, stride, dilation = (pair(int_values(op.prop(k))) for k in ("kernel", "stride", "dilation"))
    if op.ROW.name == "avg_pool2d" and dilation != [1, 1]:
        raise PassFailure(op, f"'{op.name}' op only supports lowering to TTNN for dilation of (1, 1)")
    source, channels = op.operands[0], op.operands[0].type.get_shape()[-1]
    top, left, bottom, right = padding4(int_values(op.prop("padding")))
    ops: list[Operation] = []
    wide = top > kernel[0] // 2 or bottom > kernel[0] // 2 or left > kernel[1] // 2 or right > kernel[1] // 2
    if wide and scalar(op.prop("count_include_pad")) is not False:
        ops.append(_reshape(source, [n, h, w, channels], op))
        padding = KINDS["i32_darray"].build([0, 0, top, bottom, left, right, 0, 0])
        h, w = h + top + bottom, w + left + right
        ops.append(ttnn_op("pad", [ops[-1].results[0]], {"padding": padding, "value": KINDS["f32"].build(
            -math.inf if op.ROW.name.startswith("max_pool2d") else 0.0)},
                           [_tensor([n, h, w, channels], source.type)], op))
        ops.append(_reshape(ops[-1].results[0], [1, 1, n * h * w, channels], op))
        source, top, left, bottom, right = ops[-1].results[0], 0, 0, 0, 0
    si32, darray = KINDS["si32"].build, KINDS["i32_darray"].build
    padding = [top, left] if (top, left) == (bottom, right) else [top, left, bottom, right]
    props = {"batch_size": si32(n), "input_height": si32(h), "input_width": si32(w), "channels": si32(channels),
             "kernel_size": darray(kernel), "stride": darray(stride), "dilation": darray(dilation),
             "padding": darray(padding), "ceil_mode": op.prop("ceil_mode")}
    if op.prop("count_include_pad") is not None:
        props["count_include_pad"] = op.prop("count_include_pad")
    return [*ops, ttnn_op(op.ROW.name, [source], props, [r.type for r in op.results], op)]


def _quantization(op: TTOp) -> Operation:
    """The unrolled quantize ops are TTNN's, with the result's data type spelled out."""
    dtype = enum(ttcore.DataTypeAttr, ttnn.data_type_of(op.results[0].type.element_type))
    return ttnn_op(op.ROW.ttnn, op.operands, _props(op, output_dtype=dtype), [op.results[0].type], op)


def _linear(op: TTOp) -> Operation | list[Operation]:
    """tt-metal's fused bias adds row 0 of its bias tile to every row: a bias with more rows, one on a batched B,
    or one not as wide as the product is added after a matmul instead (upstream's linear workaround)."""
    groups = op.operand_groups()
    if not groups.get("bias"):
        return _direct_with_defaults(op)
    product, bias, b = (matmul_product_shape(op), groups["bias"][0].type.get_shape(),
                        groups["b"][0].type.get_shape())
    batched_b = len(b) > 2 and any(d > 1 for d in b[:-2])
    if not product and math.prod(bias) == 1:  # a dot product of two vectors plus one value
        return _direct_with_defaults(op)
    product = product or (1,)  # a dot product, as the one-element tensor TTNN's matmul makes of it
    if not batched_b and all(d == 1 for d in bias[:-1]) and bias[-1] == product[-1]:
        return _direct_with_defaults(op)
    result = op.results[0].type
    matmul = ttnn_op("matmul", [groups["a"][0], groups["b"][0]], _with_defaults(op), [_tensor(product, result)], op)
    summed = broadcast_shape(product, bias)
    add = ttnn_op("add", [matmul.results[0], groups["bias"][0]], {}, [_tensor(summed, result)], op)
    if summed == tuple(result.get_shape()):
        return [matmul, add]
    return [matmul, add, _reshape(add.results[0], result.get_shape(), op)]


def _embedding_backward(op: TTOp) -> list[Operation]:
    """tt-metal's embedding_bw takes (B, 1, 1, N) indices with N a tile multiple and a (1, 1, B * N, C) gradient,
    and returns the weight's gradient as (1, 1, V, C): indices and gradient are reshaped (and zero-padded to
    whole tiles: padded entries add zero rows), the result reshaped back to the weight's shape."""
    indices, weight, gradient = op.operands
    ops: list[Operation] = []

    def then(new: Operation) -> SSAValue:
        ops.append(new)
        return new.results[0]

    shape = list(indices.type.get_shape())
    if len(shape) > 2 and shape[-1] == 1:  # StableHLO scatter's trailing index vector dimension
        shape = shape[:-1]
        indices = then(_reshape(indices, shape, op))
    if len(shape) == 1:
        shape = [1, shape[0]]
        indices = then(_reshape(indices, shape, op))
    padded = round_up(shape[-1], ttnn.TILE)
    if padded != shape[-1]:
        indices = then(_pad_end(indices, len(shape) - 1, padded - shape[-1], op))
        gradient = then(_pad_end(gradient, len(gradient.type.get_shape()) - 2, padded - shape[-1], op))
    rows = gradient.type.get_shape()
    gradient = then(_reshape(gradient, [1, 1, math.prod(rows[:-1]), rows[-1]], op))
    if len(shape) == 2:
        indices = then(_reshape(indices, [shape[0], 1, 1, padded], op))
    result = op.results[0].type
    grad = then(ttnn_op("embedding_bw", [indices, weight, gradient], {}, [_tensor([1, 1, *result.get_shape()], result)], op))
    then(_reshape(grad, result.get_shape(), op))
    return ops


def _pad_end(value: SSAValue, dim: int, amount: int, source: Operation) -> Operation:
    """`value` with `amount` zeros after its data along `dim`."""
    shape = list(value.type.get_shape())
    padding = [0] * (2 * len(shape))
    padding[2 * dim + 1], shape[dim] = amount, shape[dim] + amount
    return ttnn_op("pad", [value], {"padding": KINDS["i32_darray"].build(padding), "value": KINDS["f32"].build(0.0)},
                   [_tensor(shape, value.type)], source)


def _norm(op: TTOp) -> list[Operation]:
    """TTNN normalizes over the last dimension: a normalized_shape of several trailing dimensions is flattened
    into one (input, weight and bias reshaped), and the result reshaped back."""
    groups, props = op.operand_groups(), _with_defaults(op)
    normalized = int_values(op.prop("normalized_shape"))
    result = op.results[0].type
    if len(normalized) == 1:
        return [ttnn_op(op.ROW.ttnn, op.operands, props, [result], op)]
    shape = result.get_shape()
    flat = [*shape[:len(shape) - len(normalized)], math.prod(normalized)]
    ops = [_reshape(groups["input"][0], flat, op)]
    params = [_reshape(groups[name][0], flat[-1:], op) for name in ("weight", "bias") if groups[name]]
    ops += params  # the same operand segments as the TTIR op's
    norm = ttnn_op(op.ROW.ttnn, [ops[0].results[0], *(p.results[0] for p in params)], props,
                   [_tensor(flat, result)], op)
    return [*ops, norm, _reshape(norm.results[0], shape, op)]


def _slice_along(value: SSAValue, axis: int, start: int, stop: int, source: Operation) -> Operation:
    """`value`'s elements start..stop along `axis`."""
    shape, build = list(value.type.get_shape()), KINDS["i32_array"].build
    begins, ends = [0] * len(shape), list(shape)
    begins[axis], ends[axis] = start, stop
    return ttnn_op("slice_static", [value], {"begins": build(begins), "ends": build(ends), "step": build([1] * len(shape))},
                   [_tensor(shape[:axis] + [stop - start] + shape[axis + 1:], value.type)], source)


def _mesh_shard(op: TTOp) -> Operation:
    """A split over devices needs the mesh it was written for: the chips along the mesh axes that split a dimension
    must be as many as its pieces, read from the op's types (compiled for one chip, a two-way split would keep half
    a weight). shard_shape is not consulted: upstream's own files do not always keep it in step."""
    mesh = mesh_shape_of(op)
    if op.prop("shard_type").data.value == "devices":
        whole, piece = (first_shape(op), op.results[0].type.get_shape())
        if op.prop("shard_direction").data.value == "shard_to_full":
            whole, piece = piece, whole
        chips: dict[int, list[int]] = {}
        for axis, dim in enumerate(int_values(op.prop("shard_dims"))[:2]):
            if dim >= 0:
                chips.setdefault(dim, []).append(axis)
        for dim, axes in chips.items():
            pieces, have = whole[dim] // max(1, piece[dim]), math.prod(mesh[a] for a in axes)
            if pieces != have or whole[dim] % max(1, piece[dim]):
                raise PassFailure(op, f"'{op.name}' op splits dimension {dim} ({whole[dim]} -> {piece[dim]}) over mesh "
                                      f"axis {axes[0]}, which has {have} chip(s) in the "
                                      f"{mesh[0]}x{mesh[1]} mesh; compile for the mesh the model was written for "
                                      "(mesh-shape=Y,X)")
    kind, dims = op.prop("shard_type").data.value, int_values(op.prop("shard_dims"))
    if kind == "identity":
        return _already_placed(op)
    if kind not in ("replicate", "devices"):
        raise PassFailure(op, f"Unsupported shard type: {kind}")
    if op.prop("shard_direction").data.value == "full_to_shard":
        placements = [("replicate", -1)] * 2 if kind == "replicate" else \
            [("shard" if d >= 0 else "replicate", d) for d in dims]
        config = {"mapper_config": ttnn.MeshMapperConfigAttr((tuple(placements), tuple(mesh)))}
        return ttnn_op("distribute_tensor", [op.operands[0], device_of(op.parent)], config, [op.results[0].type], op)
    if kind == "replicate":  # every chip holds the whole tensor: the first one's
        composer = ((0,), (1,))
    else:  # a mesh axis that splits nothing reads one chip along it, concatenated along a dim no other axis uses
        rank, taken = len(first_shape(op)), []  # (-1 when every dim is used: one piece, nothing to join)
        for d in dims:
            taken.append(d if d >= 0 else
                         next((x for x in reversed(range(rank)) if x not in dims and x not in taken), -1))
        composer = (tuple(taken), tuple(mesh[axis] if d >= 0 else 1 for axis, d in enumerate(dims)))
    return ttnn_op("aggregate_tensor", [op.operands[0], device_of(op.parent)],
                   {"composer_config": ttnn.MeshComposerConfigAttr(composer)}, [op.results[0].type], op)


def _already_placed(op: TTOp) -> list[Operation]:
    """An identity mesh_shard moves nothing: a presharded argument already holds each chip's piece, so it takes the
    piece's type (its `ttcore.runtime_tensor_sharding` keeps that local shape)."""
    value, want = op.operands[0], op.results[0].type
    if value.type != want:
        func = op.parent_op()
        if not (isinstance(value, BlockArgument) and isinstance(func, FuncOp) and value.owner is func.body.block):
            raise PassFailure(op, "Unsupported shard type: identity (only on a presharded function argument)")
        Rewriter.replace_value_with_new_type(value, want)
        func.function_type = FunctionType.from_lists([a.type for a in func.body.block.args],
                                                     func.function_type.outputs.data)
    return []


def _chip_rows(op: TTOp, prop: str) -> list[list[int]]:
    """A chip-id table (replica groups, source-target pairs) as its rows."""
    attr = op.prop(prop)
    flat, width = [int(v) for v in dense_values(attr)], attr.type.get_shape()[-1]
    return [flat[i:i + width] for i in range(0, len(flat), width)] if width else []


class _Exchanges:
    """Point-to-point copies between the chips of the op's mesh, chained through the buffers they write."""

    def __init__(self, op: TTOp):
        self.op, self.mesh, self.ops = op, mesh_shape_of(op), []

    def add(self, new: Operation) -> SSAValue:
        self.ops.append(new)
        return new.results[0]

    def assign(self, value: SSAValue) -> SSAValue:
        return self.add(ttnn_op("assign", [value], {}, [value.type], self.op))

    def send(self, value: SSAValue, sender: int, receiver: int, into: SSAValue) -> SSAValue:
        coords = {"sender_coord": divmod(sender, self.mesh[1]), "receiver_coord": divmod(receiver, self.mesh[1])}
        return self.add(ttnn_op("point_to_point", [value, into], {k: KINDS["i64_darray"].build(list(v))
                                                                 for k, v in coords.items()}, [into.type], self.op))


def _collective_permute(op: TTOp) -> list[Operation]:
    """A copy of the input, each (source, target) pair's data sent into it; chips no pair targets get zeros
    (an input clamped to [0, 0], sent from another chip, as upstream's conversion does)."""
    value, pairs, chips = op.operands[0], _chip_rows(op, "source_target_pairs"), _Exchanges(op)
    zero = KINDS["f32"].build(0.0)
    if not pairs:
        return [ttnn_op("clamp_scalar", [value], {"min": zero, "max": zero}, [value.type], op)]
    result = chips.assign(value)
    for source, target in pairs:
        if source != target:
            result = chips.send(value, source, target, result)
    unvisited = sorted(set(range(chips.mesh[0] * chips.mesh[1])) - {target for _, target in pairs})
    if unvisited:
        zeros = chips.add(ttnn_op("clamp_scalar", [value], {"min": zero, "max": zero}, [value.type], op))
        for target in unvisited:
            result = chips.send(zeros, 1 if target == 0 else 0, target, result)
    return chips.ops


def _collective_broadcast(op: TTOp) -> list[Operation]:
    """A copy of the input, into which each group's first chip sends its data to the rest of the group."""
    value, chips = op.operands[0], _Exchanges(op)
    result = chips.assign(value)
    for group in _chip_rows(op, "replica_groups"):
        for member in group[1:]:
            result = chips.send(value, group[0], member, result)
    return chips.ops


def _all_to_all(op: TTOp) -> list[Operation]:
    """The input split into one piece per group member; piece i of each member sent into buffer i of its
    receiver (its own piece assigned there), the buffers joined: upstream's slice, point-to-point, concat."""
    value, chips = op.operands[0], _Exchanges(op)
    groups, dim = _chip_rows(op, "replica_groups"), scalar(op.prop("split_dim"))
    size = value.type.get_shape()[dim] // len(groups[0])
    pieces = [chips.add(_slice_along(value, dim, i * size, (i + 1) * size, op)) for i in range(len(groups[0]))]
    buffers = [chips.assign(piece) for piece in pieces]
    for group in groups:
        for place, sender in enumerate(group):
            for other, receiver in enumerate(group):
                if place != other:
                    buffers[place] = chips.send(pieces[other], sender, receiver, buffers[place])
    return [*chips.ops, ttnn_op("concat", buffers, {"dim": op.prop("concat_dim")}, [op.results[0].type], op)]


def _by_name(name: str, groups: dict[str, list[SSAValue]], props: dict[str, Attribute], result_types,
             source: Operation) -> Operation:
    """A TTNN op from operands named as its row names them (absent ones omitted), with its operand segments."""
    names = TTNN_OP_CLASSES[name].ROW.operands
    values = [groups.get(n.rstrip("?*"), []) for n in names]
    props = {k: v for k, v in props.items() if k != "operandSegmentSizes"}
    if sum(n[-1] in "?*" for n in names) > 1:
        props["operandSegmentSizes"] = DenseArrayBase.from_list(i32, [len(v) for v in values])
    return ttnn_op(name, [v for vs in values for v in vs], props, result_types, source)


def _batch_norm(op: TTOp) -> Operation:
    """TTNN's batch norm takes (input, running mean, running variance, weight, bias) and normalizes dimension 1 of
    NCHW, as --ttir-to-ttir-decomposition leaves TTIR's (statistics reshaped to [1, C, 1, 1])."""
    operands = op.operand_groups()
    if len(first_shape(op)) != 4 or int_values(op.prop("dimension"))[0] != 1:
        raise PassFailure(op, "TTNN normalizes dimension 1 of a rank-4 input: run --ttir-to-ttir-decomposition first")
    mean, var = ("running_mean", "running_variance") if "running_mean" in operands else ("mean", "variance")
    groups = {"input": operands["operand"], "running_mean": operands[mean], "running_var": operands[var],
              "weight": operands["scale"], "bias": operands["offset"]}
    props = {name: op.prop(name) for name in ("epsilon", "momentum") if name in op.properties}
    return _by_name(op.ROW.ttnn, groups, props, [r.type for r in op.results], op)


def _dispatch_metadata(op: TTOp) -> list[Operation]:
    """TTNN's op takes the mapping as [D, E]; the persistent buffers are left to the runtime."""
    groups = op.operand_groups()
    mapping = groups["expert_mapping"][0]
    reshape = _reshape(mapping, mapping.type.get_shape()[2:], op)
    groups["expert_mapping"] = [reshape.results[0]]
    return [reshape, _by_name(op.ROW.name, groups, _props(op), [r.type for r in op.results], op)]


def _moe_compute(op: TTOp) -> list[Operation]:
    """The raw expert weights packed on the device first (ttnn.prepare_moe_compute_*: once, a const-eval pass may
    hoist them), then ttnn.moe_compute on the packed ones, has_bias from the biases and the default mux cores; its
    combine output buffer and semaphore stay unbound (the prelude allocation passes bind them)."""
    groups, device = op.operand_groups(), [device_of(op.parent)]
    has_bias, w0, w2 = bool(groups["bias_0"]), groups["w0"][0], groups["w2"][0]
    sizes = {"hidden_size": KINDS["ui32"].build(w0.type.get_shape()[2]),
             "intermediate_size": op.prop("intermediate_size")}
    w0_w1 = _by_name("prepare_moe_compute_w0_w1_weights",
                     {**{n: groups[n] for n in ("w0", "w1", "bias_0", "bias_1")}, "device": device}, sizes,
                     [_tensor(packed_w0_w1_shape(w0.type.get_shape(), has_bias), w0.type)], op)
    packed_w2 = _by_name("prepare_moe_compute_w2_weights", {"w2": [w2], "bias_2": groups["bias_2"], "device": device},
                         sizes, [_tensor(packed_w2_shape(w2.type.get_shape(), has_bias), w2.type)], op)
    props = {**_with_defaults(op), "has_bias": KINDS["bool"].build(has_bias), "mux_core_range_set": DEFAULT_MUX_CORES}
    operands = {n: groups[n] for n in ("tilize_input_tensor", "tilize_expert_indices_tensor",
                                       "tilize_expert_scores_tensor", "tilize_expert_mapping_tensor")}
    operands.update(matmul_w0_w1_tensor=w0_w1.results, matmul_w2_tensor=packed_w2.results, device=device)
    return [w0_w1, packed_w2, _by_name("moe_compute", operands, props, [op.results[0].type], op)]


def _distributed_norm(op: TTOp) -> Operation:
    """TTNN's op also takes the device (its segments counted with it); the epsilon TTIR defaults is written out, as
    TTNN's own default differs."""
    groups = {**op.operand_groups(), "device": [device_of(op.parent)]}
    return _by_name(op.ROW.ttnn, groups, _with_defaults(op), [r.type for r in op.results], op)


DECODE_QUERY = [2, 0, 1, 3]  # [B, Hq, 1, D] -> the decode op's [1, B, Hq, D]
DECODE_MASK = [0, 2, 1, 3]  # [B, Hq, 1, Sk] -> the decode op's [B, 1, Hq, Sk]


def _attention(op: TTOp) -> list[Operation]:
    """The TTNN attention op of the same name, without TTIR's output operand. Generic attention of one query
    token is TTNN's decode op (query and mask permuted to its layout, the mask's heads materialized, the result
    permuted back); a prefill mask broadcast over queries is materialized (the kernel streams over them), and the
    sink is divided by the scale the kernels apply to it, as upstream's conversion does."""
    groups, props, ops = op.operand_groups(), _with_defaults(op), []
    groups.pop("output", None)

    def then(new: Operation) -> SSAValue:
        ops.append(new)
        return new.results[0]

    name, result = op.ROW.name, op.results[0].type
    if name != "scaled_dot_product_attention":
        return [_by_name(name, groups, props, [result], op)]
    query, mask, sink = groups["query"][0].type.get_shape(), groups["attention_mask"], groups["attention_sink"]
    if sink:
        scale = scalar(op.prop("scale")) if op.prop("scale") is not None else 1 / math.sqrt(query[3])
        if scale not in (0.0, 1.0):
            inverse = ttnn_op("full", [], {**_creation_props(op), "shape": ttnn.ShapeAttr(tuple(sink[0].type.get_shape())),
                                           "fill_value": KINDS["f32"].build(1 / scale)}, [sink[0].type], op)
            groups["attention_sink"] = [then(ttnn_op("multiply", [sink[0], then(inverse)], {}, [sink[0].type], op))]
    if query[2] != 1:
        if mask and mask[0].type.get_shape()[2] == 1:
            groups["attention_mask"] = [then(_repeat_to(mask[0], 2, query[2], op))]
        return [*ops, _by_name(name, groups, props, [result], op)]
    groups["query"] = [then(_permute(groups["query"][0], DECODE_QUERY, op))]
    if mask:
        permuted = then(_permute(mask[0], DECODE_MASK, op))
        groups["attention_mask"] = [permuted if permuted.type.get_shape()[2] == query[1] else
                                    then(_repeat_to(permuted, 2, query[1], op))]
    decode = then(_by_name("scaled_dot_product_attention_decode", groups, props,
                           [_tensor([query[p] for p in DECODE_QUERY], result)], op))
    return [*ops, _permute(decode, [DECODE_QUERY.index(i) for i in range(4)], op)]


def _repeat_to(value: SSAValue, dim: int, size: int, source: Operation) -> Operation:
    """`value`, of size 1 along `dim`, repeated to `size` there."""
    shape = list(value.type.get_shape())
    reps = [size if i == dim else 1 for i in range(len(shape))]
    shape[dim] = size
    return ttnn_op("repeat", [value], {"repeat_dims": ttnn.ShapeAttr(tuple(reps))}, [_tensor(shape, value.type)], source)


def _adamw(op: TTOp) -> Operation:
    """TTNN's adamw updates param and the moments in place: each result becomes the operand it updates, so an
    operand read after the step would see the new value (upstream refuses that too)."""
    block = op.parent
    for name in IN_PLACE_OPERAND["optimizer_in_place"]:
        for value in op.operand_groups()[name]:
            if any(use.operation is not op and (use.operation.parent is not block or
                                                block.get_operation_index(use.operation) > block.get_operation_index(op))
                   for use in value.uses):
                raise PassFailure(op, f"failed to legalize operation '{op.name}': its {name} operand is read after "
                                      "the step, which updates it in place")
    return ttnn_op("adamw", op.operands, _with_defaults(op), [], op)


def _to_tensor_spec(op: TTOp) -> Operation:
    """ttir.to_layout is the aggregate ttnn.to_tensor_spec; --ttnn-decompose-layouts breaks it down later."""
    return ttnn_op("to_tensor_spec", [op.operands[0]], {}, [op.results[0].type], op)


# Conversions by op name, else by family (ops of the other families convert one to one).
def _group_norm(op: TTOp) -> list[Operation]:
    """TTNN normalizes channels-last [N, 1, H*W, C] data: channels elsewhere (NCHW, `channel_dim`) are permuted last
    and back, and the positions of an input of rank 4 or more flattened into one row dim and back."""
    props = {k: v for k, v in op.properties.items() if k != "channel_dim"}
    rank = len(op.operands[0].type.get_shape())
    channel = scalar(op.prop("channel_dim")) % rank
    order = [d for d in range(rank) if d != channel] + [channel]
    ops: list[Operation] = [_permute(op.operands[0], order, op)] if channel != rank - 1 else []
    value = ops[-1].results[0] if ops else op.operands[0]
    shape = value.type.get_shape()
    rows = [shape[0], 1, math.prod(shape[1:-1]), shape[-1]]
    flat = rank >= 4 and list(shape) != rows
    if flat:
        ops.append(_reshape(value, rows, op))
    norm = ttnn_op("group_norm", [ops[-1].results[0] if ops else value, *op.operands[1:]], props,
                   [(ops[-1].results[0] if ops else value).type], op)
    ops.append(norm)
    if flat:
        ops.append(_reshape(norm.results[0], list(shape), op))
    if channel != rank - 1:
        ops.append(_permute(ops[-1].results[0], [order.index(d) for d in range(rank)], op))
    return ops


CONVERSIONS: dict[str, Callable[[TTOp], Operation | list[Operation]]] = {
    "group_norm": _group_norm, "transpose": _transpose, "squeeze": _reshape_to_result, "unsqueeze": _reshape_to_result,
    "broadcast": _repeat_by("broadcast_dimensions"), "repeat": _repeat_by("repeat_dimensions"),
    "fill": _creation, "full": _creation, "creation": _creation, "rand": _creation, "constant": _constant,
    "arange": _arange,
    "conv1d": _conv1d, "conv2d": _conv, "conv_transpose2d": _conv, "conv3d": _conv3d, "pool2d": _pool, "to_layout": _to_tensor_spec, "pow": _pow,
    "cumsum": _retyped_integers,
    "sort": _retyped_integers, "scatter": _retyped_integers, "topk": _retyped_integers, "gather": _gather,
    "argmax": _one_dim_reduction, "prod": _one_dim_reduction,
    "softmax": _direct_with_defaults, "embedding_backward": _embedding_backward, "norm": _norm, "gelu_bw": _direct_with_defaults,
    "dropout": _direct_with_defaults, "quantization": _quantization, "linear": _linear, "attention": _attention,
    "collective_permute": _collective_permute, "collective_broadcast": _collective_broadcast, "all_to_all": _all_to_all,
    "all_to_all_dispatch_metadata": _dispatch_metadata, "mesh_shard": _mesh_shard, "distributed_norm": _distributed_norm,
    "dump": lambda op: ttnn_op("dump_tensor", op.operands, _props(op), [], op),
    "adamw": _adamw, "ttml_attention": _direct_with_defaults, "batch_norm": _batch_norm,
    "moe_compute": _moe_compute, "moe_gpt": _direct_with_defaults,
}
DIRECT_FAMILIES = {"unary", "binary", "ternary", "reduction", "cumsum", "reshape", "permute", "concat",
                   "repeat_interleave", "pad", "slice", "reverse", "gather", "matmul", "softmax", "embedding",
                   "upsample2d", "norm", "group_norm", "cache", "ccl", "global_pool2d",
                   "mesh_partition", "distributed_norm", "concatenate_heads",
                   "split_qkv", "slice_dynamic", "bitcast", "sparse_matmul", "topk_router_gpt",
                   "all_to_all_dispatch", "all_to_all_combine", "moe_expert_token_remap", "sampling",
                   "tt_lang", "selective_reduce_combine"}


def _conversion(op: TTOp) -> Callable[[TTOp], Operation | list[Operation]] | None:
    if op.ROW.name in CONVERSIONS:
        return CONVERSIONS[op.ROW.name]
    if op.ROW.family in CONVERSIONS:
        return CONVERSIONS[op.ROW.family]
    if op.ROW.family in DIRECT_FAMILIES and op.ROW.ttnn in TTNN_OP_CLASSES:
        return _direct
    return None


def _refuse_dynamic_shapes(module: ModuleOp) -> None:
    """A device tensor needs its size at compile time: the first tensor with a dynamic dimension is an error."""
    for op in module.walk():
        types = [*op.function_type.inputs, *op.function_type.outputs] if isinstance(op, FuncOp) else \
            [v.type for v in (*op.operands, *op.results)]
        for t in types:
            if isinstance(t, TensorType) and any(d < 0 for d in t.get_shape()):
                raise PassFailure(op, f"dynamic shapes are not supported: {t}")


@dataclass(frozen=True)
class ConvertTTIRToTTNNPass(ModulePass):
    """Convert every TTIR op to its TTNN counterpart."""

    name: ClassVar[str] = "convert-ttir-to-ttnn"

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        _refuse_dynamic_shapes(module)
        for op in list(module.walk()):
            if not isinstance(op, TTOp) or isinstance(op, TTNNOp) or (isinstance(op, DebugOp) and op.ROW.name != "dump"):
                continue  # debug ops stay as they are (legal in TTNN IR, as upstream's); dump becomes ttnn.dump_tensor
            convert = _conversion(op)
            if convert is None:
                raise PassFailure(op, f"failed to legalize operation '{op.name}' that was explicitly marked illegal")
            new = convert(op)
            new = new if isinstance(new, list) else [new]
            for created in new:
                op.parent.insert_op_before(created, op)
            for helper in new[:-1]:  # only the op standing for the TTIR result keeps its location (and golden)
                helper.location = helper_location(helper.location, helper.name.split(".")[-1])
            on_host = op.parent_op() is not None and op.parent_op().attributes.get(FUNCTION_TYPE) == FORWARD_CPU
            for i, created in enumerate(new):
                if _needs_device(created) and not on_host:
                    new[i] = _attach_device(created, device_of(op.parent))
            replaced = new[-1].results if new else op.operands
            if new and new[-1].ROW.family in IN_PLACE_OPERAND and op.results:  # updated in place: the operands
                groups = new[-1].operand_groups()
                replaced = [v for name in IN_PLACE_OPERAND[new[-1].ROW.family] for v in groups[name]]
            for old, value in zip(op.results, replaced):
                old.replace_all_uses_with(value)
            op.detach()
            op.erase()
        for func in device_functions(module):  # what the conversion left unused (a folded pow exponent)
            region_dce(func.body)


def _needs_device(op: Operation) -> bool:
    return isinstance(op, TTNNOp) and any(n.rstrip("?") == "device" for n in op.ROW.operands) \
        and not any(isinstance(v.type, ttnn.DeviceType) for v in op.operands)


def _attach_device(op: TTNNOp, device: SSAValue) -> Operation:
    """Ops that need the device handle get the function's `ttnn.get_device` result."""
    operands = list(op.operands)
    operands.insert([n.rstrip("?") for n in op.ROW.operands].index("device"), device)
    new = type(op).create(operands=operands, result_types=[r.type for r in op.results],
                          properties=dict(op.properties), attributes=dict(op.attributes))
    new.location = op.location
    op.parent.insert_op_before(new, op)
    for old, value in zip(op.results, new.results):
        old.replace_all_uses_with(value)
    op.detach()
    op.erase()
    return new
