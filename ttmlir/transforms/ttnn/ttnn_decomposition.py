"""`--ttnn-decomposition`: TTNN ops rewritten into primitive TTNN ops that compute the same values.

Without `enable-op-constraints` every op below is decomposed, as upstream's pass does (a pipeline that keeps the
fused kernels turns the pass off with `enable-ttnn-decomposition-pass=false`). With it, only ops the fused kernel
cannot run in their shape are: concatenate_heads whose head size is no whole number of tiles (tt-metal splits
heads on tile boundaries) and group_norm whose per-sample height is not (its kernel reduces over the padded
height); SDPA kernels run every shape this dialect verifies, so they stay.

The decompositions compute what the simulator's fused kernels compute: SDPA is softmax(scale * Q K^T + bias) V
with the bias the mask, the causal and/or sliding-window positions, and a per-head sink joining the softmax
denominator; decode SDPA is one query row per user at its position (cur_pos, else the last key).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import DenseArrayBase, FloatAttr, ModuleOp, TensorType, f32, i32
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from ttmlir.dialects import ttcore, ttnn
from ttmlir.ir.props import KINDS
from ttmlir.ir.syntax import enum
from ttmlir.dialects.ttnn import TTNNOp
from ttmlir.ir.props import scalar
from ttmlir.transforms.ttnn.ttnn_utils import device_of, helper_location, mesh_shape_of, ttnn_op


def like(t: TensorType, shape, dtype: str | None = None) -> TensorType:
    """`t` with another shape (and data type), in its layout and buffer when it has one."""
    layout = t.encoding
    element = ttnn.DATA_TYPE_TO_MLIR[dtype] if dtype else t.element_type
    if not isinstance(layout, ttnn.TTNNLayoutAttr):
        return TensorType(element, list(shape))
    return TensorType(element, list(shape), ttnn.layout_for(tuple(shape), element, layout.buffer_type,
                                                            layout.is_tiled, dtype or layout.data_type))


class Emitter:
    """Builds TTNN ops before `at` (with its location), each returning its result."""

    def __init__(self, at: Operation):
        self.at, self.ops = at, []

    def __call__(self, name: str, operands, props: dict[str, Attribute], result: TensorType) -> SSAValue:
        new = ttnn_op(name, operands, props, [result], self.at)
        self.at.parent.insert_op_before(new, self.at)
        self.ops.append(new)
        return new.results[0]

    def reshape(self, value: SSAValue, shape, result: TensorType | None = None) -> SSAValue:
        return self("reshape", [value], {"shape": KINDS["i32_array"].build(list(shape))},
                    result or like(value.type, shape))

    def permute(self, value: SSAValue, perm, result: TensorType | None = None) -> SSAValue:
        shape = value.type.get_shape()
        return self("permute", [value], {"permutation": KINDS["i64_darray"].build(list(perm))},
                    result or like(value.type, [shape[p] for p in perm]))

    def binary(self, name: str, lhs: SSAValue, rhs: SSAValue, dtype: str | None = None) -> SSAValue:
        a, b = lhs.type.get_shape(), rhs.type.get_shape()
        shape = [max(x, y) for x, y in zip(a, b)]
        return self(name, [lhs, rhs], {}, like(lhs.type, shape, dtype))

    def full(self, ref: TensorType, shape, value: float, dtype: str | None = None, spelled: bool = True) -> SSAValue:
        """A tensor of `value`; unless `spelled`, its data type and page layout are left to its result's layout."""
        result = like(ref, shape, dtype)
        props = {"shape": ttnn.ShapeAttr(tuple(shape)), "fill_value": FloatAttr(value, f32)}
        if spelled:
            props |= {"dtype": enum(ttcore.DataTypeAttr, ttnn.data_type_of(result.element_type)),
                      "layout": enum(ttnn.LayoutAttr, "tile")}
        return self("full", [device_of(self.at.parent)], props, result)

    def positions(self, ref: TensorType, length: int, axis: int) -> SSAValue:
        """0 .. length-1 in f32 along `axis` of a rank-4 tensor of ones elsewhere."""
        props = {"start": KINDS["si64"].build(0), "end": KINDS["si64"].build(length), "step": KINDS["si64"].build(1),
                 "dtype": enum(ttcore.DataTypeAttr, "f32"), "layout": enum(ttnn.LayoutAttr, "tile")}
        line = self("arange", [device_of(self.at.parent)], props, like(ref, [length], "f32"))
        shape = [1, 1, 1, 1]
        shape[axis] = length
        return self.reshape(line, shape)

    def hidden(self, condition: SSAValue) -> SSAValue:
        """-inf where `condition` holds, else 0 (f32)."""
        shape = condition.type.get_shape()
        return self("where", [condition, self.full(condition.type, shape, -math.inf, "f32"),
                              self.full(condition.type, shape, 0.0, "f32")], {}, like(condition.type, shape, "f32"))

    def slice(self, value: SSAValue, ends) -> SSAValue:
        array = KINDS["i32_array"].build
        return self("slice_static", [value], {"begins": array([0] * len(ends)), "ends": array(list(ends)),
                                              "step": array([1] * len(ends))}, like(value.type, ends))


def _replace(op: TTNNOp, emit: Emitter, value: SSAValue) -> None:
    for new in emit.ops:
        new.location = helper_location(op.location, new.name.split(".")[1]) if new.results[0] is not value \
            else op.location
    op.results[0].replace_all_uses_with(value)
    Rewriter.erase_op(op)


def _concatenate_heads(op: TTNNOp, constrained: bool) -> bool:
    if constrained and op.operands[0].type.get_shape()[3] % ttnn.TILE == 0:
        return False
    emit = Emitter(op)
    result = op.results[0].type
    value = emit.reshape(emit.permute(op.operands[0], [0, 2, 1, 3]), result.get_shape(), result)
    _replace(op, emit, value)
    return True


def _bias_positions(emit: Emitter, ref: TensorType, queries: int, keys: int, causal: bool,
                    window: int | None) -> SSAValue | None:
    """The additive bias hiding keys a query row does not see (prefill: query i at position i), or None."""
    if not causal and window is None:
        return None
    rows, cols = emit.positions(ref, queries, 2), emit.positions(ref, keys, 3)
    if window is None:
        return emit.hidden(emit.binary("gt", cols, rows))
    offset = emit.binary("subtract", rows, cols)  # how far back a key is
    if causal:
        low = emit.binary("lt", offset, emit.full(offset.type, [1, 1, 1, 1], 0.0, "f32"))
        high = emit.binary("ge", offset, emit.full(offset.type, [1, 1, 1, 1], float(window), "f32"))
    else:
        half = float(window // 2)
        low = emit.binary("lt", offset, emit.full(offset.type, [1, 1, 1, 1], -half, "f32"))
        high = emit.binary("gt", offset, emit.full(offset.type, [1, 1, 1, 1], half, "f32"))
    return emit.binary("add", emit.hidden(low), emit.hidden(high))


def _sdpa(op: TTNNOp, constrained: bool) -> bool:
    if constrained:
        return False
    groups = op.operand_groups()
    query, key, value = groups["query"][0], groups["key"][0], groups["value"][0]
    mask = groups["attention_mask"][0] if groups["attention_mask"] else None
    sink = groups["attention_sink"][0] if groups["attention_sink"] else None
    batch, heads, queries, size = query.type.get_shape()
    kv_heads, keys = key.type.get_shape()[1], key.type.get_shape()[2]
    emit = Emitter(op)
    if kv_heads != heads:  # grouped-query attention: each key/value head serves heads / kv_heads query heads
        props = {"repeats": KINDS["ui32"].build(heads // kv_heads), "dim": KINDS["si32"].build(1)}
        key, value = (emit("repeat_interleave", [v], props, like(v.type, [batch, heads, *v.type.get_shape()[2:]]))
                      for v in (key, value))
    transposed = emit("transpose", [key], {"dim0": KINDS["si32"].build(-2), "dim1": KINDS["si32"].build(-1)},
                      like(key.type, [batch, heads, size, keys]))
    scores = emit("matmul", [query, transposed], {}, like(query.type, [batch, heads, queries, keys]))
    scale = op.prop("scale").value.data if op.prop("scale") is not None else 1 / math.sqrt(size)
    scale_tensor = emit.full(query.type, [1, 1, 1, 1], scale)
    scores = emit.binary("multiply", scores, scale_tensor)
    if mask is not None:
        shape = mask.type.get_shape()
        if shape[1] == 1 and heads > 1:
            mask = emit("repeat", [mask], {"repeat_dims": ttnn.ShapeAttr((1, heads, 1, 1))},
                        like(mask.type, [shape[0], heads, *shape[2:]]))
        scores = emit.binary("add", scores, mask)
    causal = op.prop("is_causal") is None or op.prop("is_causal").value.data
    window = op.prop("sliding_window_size").value.data if op.prop("sliding_window_size") is not None else None
    bias = _bias_positions(emit, query.type, queries, keys, causal and mask is None, window)
    if bias is not None:
        dtype = ttnn.data_type_of(query.type.element_type)
        scores = emit.binary("add", scores, emit("typecast", [bias], {}, like(bias.type, bias.type.get_shape(), dtype)))
    if sink is not None:  # one logit per head, scaled like the scores, joins each row's softmax and adds no value
        shape = sink.type.get_shape()
        if shape[-1] != 1:
            sink = emit.slice(sink, [*shape[:-1], 1])
        sink = emit.binary("multiply", sink, scale_tensor)
        if tuple(sink.type.get_shape()) != (batch, heads, queries, 1):
            sink = emit("repeat", [sink], {"repeat_dims": ttnn.ShapeAttr((batch, 1, queries, 1))},
                        like(sink.type, [batch, heads, queries, 1]))
        scores = emit("concat", [scores, sink], {"dim": KINDS["si32"].build(-1)},
                      like(scores.type, [batch, heads, queries, keys + 1]))
    probs = emit("softmax", [scores], {"dimension": KINDS["si32"].build(-1), "numericStable": KINDS["bool"].build(True)},
                 scores.type)
    if sink is not None:
        probs = emit.slice(probs, [batch, heads, queries, keys])
    result = emit("matmul", [probs, value], {}, op.results[0].type)
    _replace(op, emit, result)
    return True


def _sdpa_decode(op: TTNNOp, constrained: bool) -> bool:
    """[1, B, H, D] queries become [B, H, 1, D] rows of a prefill SDPA whose mask places each user's position."""
    if constrained:
        return False
    groups = op.operand_groups()
    query, key = groups["query"][0], groups["key"][0]
    mask = groups["attention_mask"][0] if groups["attention_mask"] else None
    positions = groups["cur_pos_tensor"][0] if groups["cur_pos_tensor"] else None
    sink = groups["attention_sink"][0] if groups["attention_sink"] else None
    users, keys = query.type.get_shape()[1], key.type.get_shape()[2]
    causal = op.prop("is_causal") is None or op.prop("is_causal").value.data
    window = op.prop("sliding_window_size").value.data if op.prop("sliding_window_size") is not None else None
    emit = Emitter(op)
    rows = emit.permute(query, [1, 2, 0, 3])
    bias = None
    if (causal and positions is not None) or window is not None:
        cols = emit.positions(query.type, keys, 3)
        if positions is not None:
            where = emit.reshape(positions, [users, 1, 1, 1])
            where = emit("typecast", [where], {}, like(where.type, [users, 1, 1, 1], "f32"))
        else:  # the query is the last key
            where = emit.full(query.type, [1, 1, 1, 1], float(keys - 1), "f32")
        hidden = []
        if causal:
            hidden.append(emit.binary("gt", cols, where))
        if window is not None and causal:
            first = emit.binary("subtract", where, emit.full(where.type, [1, 1, 1, 1], float(window - 1), "f32"))
            hidden.append(emit.binary("lt", cols, first))
        elif window is not None:
            half = emit.full(where.type, [1, 1, 1, 1], float(window // 2), "f32")
            hidden.append(emit.binary("lt", cols, emit.binary("subtract", where, half)))
            hidden.append(emit.binary("gt", cols, emit.binary("add", where, half)))
        for condition in hidden:
            term = emit.hidden(condition)
            bias = term if bias is None else emit.binary("add", bias, term)
        dtype = ttnn.data_type_of(query.type.element_type)
        bias = emit("typecast", [bias], {}, like(bias.type, bias.type.get_shape(), dtype))
    if mask is not None:  # [B, 1, H, Sk] -> [B, H, 1, Sk]
        mask = emit.permute(mask, [0, 2, 1, 3])
        bias = mask if bias is None else emit.binary("add", mask, bias)
    if sink is not None and len(sink.type.get_shape()) == 2:  # [H, tile] -> [1, H, 1, 1]: the first column
        heads, width = sink.type.get_shape()
        sink = emit.slice(emit.reshape(sink, [1, heads, 1, width]), [1, heads, 1, 1])
    props = {"is_causal": KINDS["bool"].build(False)}
    if op.prop("scale") is not None:
        props["scale"] = op.prop("scale")
    operands = [rows, key, groups["value"][0], *([bias] if bias is not None else []), *([sink] if sink else [])]
    props["operandSegmentSizes"] = DenseArrayBase.from_list(i32, [1, 1, 1, int(bias is not None), int(sink is not None)])
    prefill = emit("scaled_dot_product_attention", operands, props, rows.type)
    result = emit.permute(prefill, [2, 0, 1, 3], op.results[0].type)
    _replace(op, emit, result)
    return True


def _group_norm(op: TTNNOp, constrained: bool) -> bool:
    """Per sample and group, (x - mean) / sqrt(var + eps) over the group's positions and channels, then the
    per-channel weight and bias."""
    value = op.operands[0]
    shape = value.type.get_shape()
    groups_count = op.prop("num_groups").value.data
    if len(shape) != 4 or groups_count <= 0 or shape[3] % groups_count:
        return False
    batch, size, channels = shape[0], shape[1] * shape[2], shape[3]  # [N, 1, H*W, C], or [N, H, W, C]
    if constrained and size % ttnn.TILE == 0:
        return False
    emit = Emitter(op)
    grouped = emit.reshape(value, [batch, size, groups_count, channels // groups_count])
    dims = {"dim_arg": KINDS["i32_array"].build([1, 3]), "keep_dim": KINDS["bool"].build(True)}
    stats = [batch, 1, groups_count, 1]
    mean = emit("mean", [grouped], dims, like(grouped.type, stats))
    centred = emit.binary("subtract", grouped, mean)
    variance = emit("mean", [emit.binary("multiply", centred, centred)], dims, like(grouped.type, stats))
    epsilon = op.prop("epsilon").value.data
    shifted = emit.binary("add", variance, emit.full(variance.type, [1, 1, 1, 1], epsilon))
    normed = emit.binary("multiply", centred, emit("rsqrt", [shifted], {}, shifted.type))
    parts = op.operand_groups()
    tail = [(combine, parts[name][0]) for name, combine in (("weight", "multiply"), ("bias", "add")) if parts[name]]
    result = emit.reshape(normed, shape, None if tail else op.results[0].type)
    for i, (combine, param) in enumerate(tail):
        result = emit(combine, [result, emit.reshape(param, [1, 1, 1, channels])], {},
                      op.results[0].type if i == len(tail) - 1 else result.type)
    _replace(op, emit, result)
    return True


# tt-metal fails on a grouped conv over more channels than this (input or output): a wider one runs in chunks
MAX_GROUPED_CONV_CHANNELS = 4096


def _groups_per_chunk(groups: int, per_in: int, per_out: int) -> int:
    """Whole groups per chunk: a divisor of `groups` (every chunk alike), within the channel budget, the largest
    whose channel counts are whole tiles, else the largest; 0 when one group alone is over the budget."""
    largest = 0
    for candidate in range(min(MAX_GROUPED_CONV_CHANNELS // max(per_in, per_out), groups), 0, -1):
        if groups % candidate:
            continue
        largest = largest or candidate
        if (candidate * per_in) % ttnn.TILE == 0 and (candidate * per_out) % ttnn.TILE == 0:
            return candidate
    return largest


def _channel_slice(emit: Emitter, value: SSAValue, dim: int, begin: int, end: int) -> SSAValue:
    shape = list(value.type.get_shape())
    begins, ends = [0] * len(shape), list(shape)
    begins[dim], ends[dim] = begin, end
    array = KINDS["i32_array"].build
    return emit("slice_static", [value], {"begins": array(begins), "ends": array(ends), "step": array([1] * len(shape))},
                like(value.type, [*shape[:dim], end - begin, *shape[dim + 1:]]))


def _grouped_conv(op: TTNNOp, constrained: bool) -> bool:
    """A grouped conv1d/conv2d wider than the channel budget as convs over chunks of whole groups, concatenated
    on the channel dim: a group reads only its own input channels and writes only its own output channels (with
    its weight rows and bias), so the chunks compute the whole exactly. A prepared weight (output channels no
    longer its first dim) is left alone."""
    groups, cin, cout = (op.prop(name).value.data for name in ("groups", "in_channels", "out_channels"))
    operands = op.operand_groups()
    weight = operands["weight"][0]
    if groups <= 1 or max(cin, cout) <= MAX_GROUPED_CONV_CHANNELS or cin % groups or cout % groups or \
            weight.type.get_shape()[0] != cout:
        return False
    chunk = _groups_per_chunk(groups, cin // groups, cout // groups)
    if chunk in (0, groups):
        return False
    emit, result = Emitter(op), op.results[0].type
    chunk_in, chunk_out = chunk * (cin // groups), chunk * (cout // groups)
    channel = len(result.get_shape()) - 1
    pieces = []
    for k in range(groups // chunk):
        new = [_channel_slice(emit, operands["input"][0], len(operands["input"][0].type.get_shape()) - 1,
                              k * chunk_in, (k + 1) * chunk_in),
               _channel_slice(emit, weight, 0, k * chunk_out, (k + 1) * chunk_out)]
        for bias in operands["bias"]:
            new.append(_channel_slice(emit, bias, len(bias.type.get_shape()) - 1, k * chunk_out, (k + 1) * chunk_out))
        i32 = KINDS["i32"].build
        props = {**op.properties, "in_channels": i32(chunk_in), "out_channels": i32(chunk_out), "groups": i32(chunk)}
        pieces.append(emit(op.ROW.name, [*new, *operands["device"]], props,
                           like(result, [*result.get_shape()[:-1], chunk_out])))
    value = emit("concat", pieces, {"dim": KINDS["si32"].build(channel)}, result)
    location = op.location
    _replace(op, emit, value)
    for k, piece in enumerate(pieces):  # each chunk's conv named for its chunk, as upstream's
        piece.owner.location = helper_location(location, f"group_chunk_{k}")
    return True


def _cluster_size(op: TTNNOp) -> int:
    """The chips along the op's cluster axis: of the mesh its `ttnn.get_device` names, else the registered one."""
    device = op.operand_groups()["device"][0].owner
    mesh = device.prop("mesh_shape") if isinstance(device, TTNNOp) and device.ROW.name == "get_device" else None
    shape = tuple(mesh.data) if mesh is not None else mesh_shape_of(op)
    return shape[scalar(op.prop("cluster_axis"))]


def _with_operands(op: TTNNOp, emit: Emitter, result: TensorType, **replaced: SSAValue | None) -> SSAValue:
    """A copy of `op` (same properties) with some operands replaced (None drops an optional one)."""
    groups = {name: ([replaced[name]] if replaced[name] is not None else []) if name in replaced else values
              for name, values in op.operand_groups().items()}
    props = {**op.properties, "operandSegmentSizes": DenseArrayBase.from_list(i32, [len(v) for v in groups.values()])}
    return emit(op.ROW.name, [v for vs in groups.values() for v in vs], props, result)


def _residual_added(op: TTNNOp, emit: Emitter) -> SSAValue:
    groups = op.operand_groups()
    value = groups["input"][0]
    return emit.binary("add", value, groups["residual"][0]) if groups["residual"] else value


def _gather_stats(op: TTNNOp, emit: Emitter, stats: SSAValue) -> SSAValue:
    """Every chip's statistics side by side along the last dimension."""
    shape = stats.type.get_shape()
    gathered = [*shape[:-1], shape[-1] * _cluster_size(op)]
    props = {"all_gather_dim": KINDS["si32"].build(len(shape) - 1), "cluster_axis": op.prop("cluster_axis"),
             **{k: op.properties[k] for k in ("num_links", "topology") if k in op.properties}}
    return emit("all_gather", [stats], props, like(stats.type, gathered))


def _fused_rms_norm_shape(op: TTNNOp) -> bool:
    """tt-metal's fused distributed rms_norm takes one tile of rows, a whole number of tiles wide, with a weight."""
    shape = op.operands[0].type.get_shape()
    return bool(op.operand_groups()["weight"]) and len(shape) >= 2 and shape[-2] == ttnn.TILE and \
        shape[-1] % ttnn.TILE == 0 and all(d == 1 for d in shape[:-2])


def _distributed_rms_norm(op: TTNNOp, constrained: bool) -> bool:
    """The fused kernel's shape keeps the op, at (1, 1, 32, N) with the weight in rows of one tile's width (as the
    kernel reads it); any other shape is computed from the gathered per-chip sums of squares: x / sqrt(sum / (N *
    chips) + eps) * weight, rank 4 as rms_norm_pre_all_gather takes it."""
    emit, groups = Emitter(op), op.operand_groups()
    shape, result = op.operands[0].type.get_shape(), op.results[0].type
    if _fused_rms_norm_shape(op):
        weight = groups["weight"][0]
        size = math.prod(weight.type.get_shape())
        tiled = len(weight.type.get_shape()) == 1 and size % ttnn.TILE == 0
        canonical = len(shape) == 4
        if canonical and not tiled:
            return False
        weight = emit.reshape(weight, [size // ttnn.TILE, ttnn.TILE]) if tiled else weight
        if canonical:
            value = _with_operands(op, emit, result, weight=weight)
        else:
            target = [1, 1, ttnn.TILE, shape[-1]]
            residual = [emit.reshape(v, target) for v in groups["residual"]]
            norm = _with_operands(op, emit, like(result, target), input=emit.reshape(groups["input"][0], target),
                                  weight=weight, residual=residual[0] if residual else None)
            value = emit.reshape(norm, shape, result)
        _replace(op, emit, value)
        return True
    if len(shape) < 4:  # rms_norm_pre_all_gather takes rank 4: the op again at that rank (decomposed in turn)
        target = [1] * (4 - len(shape)) + list(shape)
        residual = [emit.reshape(v, target) for v in groups["residual"]]
        norm = _with_operands(op, emit, like(result, target), input=emit.reshape(groups["input"][0], target),
                              residual=residual[0] if residual else None)
        _replace(op, emit, emit.reshape(norm, shape, result))
        return True
    value = _residual_added(op, emit)
    rank, chips = len(shape), _cluster_size(op)
    stats = emit("rms_norm_pre_all_gather", [value], {}, like(value.type, [*shape[:-1], ttnn.TILE]))
    gathered = _gather_stats(op, emit, stats)
    by_chip = emit.reshape(gathered, [*shape[:-1], chips, ttnn.TILE])
    sums = emit.reshape(emit.slice(by_chip, [*shape[:-1], chips, 1]), [*shape[:-1], chips])
    row = [*shape[:-1], 1]
    mean = emit("mean", [sums], {"dim_arg": KINDS["i32_array"].build([rank - 1]), "keep_dim": KINDS["bool"].build(True)},
                like(value.type, row))
    squares = emit.binary("multiply", mean, emit.full(value.type, row, 1.0 / shape[-1], spelled=False))
    shifted = emit.binary("add", squares, emit.full(value.type, row, scalar(op.prop("epsilon")), spelled=False))
    normed = emit("multiply", [value, emit("rsqrt", [shifted], {}, shifted.type)], {},
                  result if not groups["weight"] else value.type)
    if groups["weight"]:
        normed = emit("multiply", [normed, groups["weight"][0]], {}, result)
    _replace(op, emit, normed)
    return True


def _distributed_layer_norm(op: TTNNOp, constrained: bool) -> bool:
    """Each chip's row sums and sums of squares (pre all-gather), gathered, then the norm of the local part
    (post all-gather) with weight and bias."""
    emit, groups = Emitter(op), op.operand_groups()
    value = _residual_added(op, emit)
    shape = value.type.get_shape()
    stats = emit("layer_norm_pre_all_gather", [value], {"operandSegmentSizes": DenseArrayBase.from_list(i32, [1, 0, 0])},
                 like(value.type, [*shape[:-1], 2 * ttnn.TILE]))
    operands = [value, _gather_stats(op, emit, stats), *groups["weight"], *groups["bias"]]
    sizes = [1, 1, len(groups["weight"]), len(groups["bias"])]
    props = {"epsilon": op.prop("epsilon"), "operandSegmentSizes": DenseArrayBase.from_list(i32, sizes)}
    _replace(op, emit, emit("layer_norm_post_all_gather", operands, props, op.results[0].type))
    return True


DECOMPOSITIONS = {"concatenate_heads": _concatenate_heads, "scaled_dot_product_attention": _sdpa,
                  "scaled_dot_product_attention_decode": _sdpa_decode, "group_norm": _group_norm,
                  "conv1d": _grouped_conv, "conv2d": _grouped_conv,
                  "distributed_rms_norm": _distributed_rms_norm, "distributed_layer_norm": _distributed_layer_norm}


@dataclass(frozen=True)
class TTNNDecompositionPass(ModulePass):
    """Decompose TTNN ops into primitive TTNN ops (with op constraints: only those no fused kernel runs)."""

    name: ClassVar[str] = "ttnn-decomposition"
    enable_op_constraints: bool = False
    max_fallback_attempts: int = 10000

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        work = [op for op in module.walk() if isinstance(op, TTNNOp) and op.ROW.name in DECOMPOSITIONS]
        while work:
            op = work.pop(0)
            before = op.prev_op
            block = op.parent
            if DECOMPOSITIONS[op.ROW.name](op, self.enable_op_constraints):
                # what a decomposition built may decompose further (decode SDPA becomes a prefill SDPA)
                start = before.next_op if before is not None else block.first_op
                new = []
                while start is not None:
                    if isinstance(start, TTNNOp) and start.ROW.name in DECOMPOSITIONS and start not in work:
                        new.append(start)
                    start = start.next_op
                work = [o for o in new if o.ROW.name in ("scaled_dot_product_attention", "distributed_rms_norm")] + work
