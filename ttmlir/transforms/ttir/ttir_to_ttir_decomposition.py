"""`--ttir-to-ttir-decomposition`: TTIR ops TTNN has no counterpart for, rewritten into TTIR ops it has.

Quantize, dequantize and requantize, whose scales and zero points live in their `!quant.uniform` types, become the
`_unrolled` ops that take them as constant operands (a (1,) tensor per tensor, one value per index of the quantized
axis otherwise), as TTNN's quantization kernels take them; reduce_or the sum of the inputs compared with zero,
compared with zero, reduce_and their product; dot_general a matmul between permutes and reshapes; index and index_select
slices; get_dimension_size a constant; argmax and prod over several dimensions one-dimension ops; an arange along a
dimension of a larger tensor a 1-D arange broadcast; a negative pad a slice; a pool of a `full` that `full`; a batch
norm with statistics not (1, C, 1, 1) one on an NCHW view; a reverse an embedding lookup; an arithmetic right shift logical shifts (D2M has the op); ttml's
training ops (adamw, sdpa_fw, sdpa_bw) take rank-4 operands.

`config` (upstream's option) names the backend: `ttnn` (default) and `ttmetal` decompose everything (but a conv1d,
which only `ttmetal` makes a conv2d: TTNN has the op), `cpu-fallback` (the host path, which runs these ops itself) only what its kernels lack: dot_general, the logical
reductions, and the shape-dependent cases (arange, prod, argmax, negative pad, pools of a constant), and
split_query_key_value_and_split_heads (TTNN has that op) into slices, reshapes and permutes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, Float32Type, IntegerType, ModuleOp, Signedness, TensorType
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from ttmlir.dialects.conv import CONV1D_DIMS, conv1d_params
from ttmlir.ir.props import CONV3D_DIMS, conv3d_dims
from ttmlir.ir.props import FLOAT_TYPES, KINDS, int_values, scalar
from ttmlir.dialects.quant import UniformQuantizedType
from ttmlir.ir.tt_op import TTOp
from ttmlir.dialects.ttml import as_4d
from ttmlir.dialects.ttir import TTIR_OP_CLASSES
from ttmlir.errors import PassFailure
from ttmlir.transforms.ttir.ttir_flatten_sliding_window import permuted, reshaped, ttir_op

SI32 = IntegerType(32, Signedness.SIGNED)


def _constant(values: list, element, before: Operation) -> SSAValue:
    result = TensorType(element, [len(values)])
    op = TTIR_OP_CLASSES["constant"].create(
        result_types=[result], properties={"value": DenseIntOrFPElementsAttr.from_list(result, values)})
    op.location = before.location
    before.parent.insert_op_before(op, before)
    return op.results[0]


def scale_and_zero_point(element: UniformQuantizedType, before: Operation) -> list[SSAValue]:
    q = element.data
    return [_constant(list(q.scales), Float32Type(), before), _constant(list(q.zero_points), SI32, before)]


def unroll(op: TTOp) -> None:
    """Replace a quantize-family op by its unrolled form, the parameters of its quantized types as constants."""
    quantized = [v.type.element_type for v in (op.operands[0], op.results[0])
                 if isinstance(v.type.element_type, UniformQuantizedType)]
    operands = [op.operands[0]] + [c for element in quantized for c in scale_and_zero_point(element, op)]
    axis = next((element.data.axis for element in quantized if element.per_axis), None)
    props = {} if axis is None else {"axis": KINDS["i32"].build(axis)}
    new = TTIR_OP_CLASSES[op.ROW.name + "_unrolled"].create(
        operands=operands, result_types=[op.results[0].type], properties=props)
    new.location = op.location
    Rewriter.replace_op(op, new)


def logical_reduction(op: TTOp) -> None:
    """TTNN has no logical reductions: the inputs compared with zero are 0s and 1s, all of which is their product
    and any their sum compared with zero (upstream's decompositions, which skip the first comparison)."""
    nonzero = _nonzero(op.operands[0])
    reduced = TTIR_OP_CLASSES[LOGICAL_REDUCTIONS[op.ROW.name]].create(
        operands=[nonzero[-1].results[0]], result_types=[op.results[0].type], properties=dict(op.properties))
    made = [*nonzero, reduced, *(_nonzero(reduced.results[0]) if op.ROW.name == "reduce_or" else [])]
    for new in made:
        new.location = op.location
    Rewriter.replace_op(op, made)


def _nonzero(value: SSAValue) -> list[Operation]:
    """`value != 0`, in `value`'s type (a one-element zero the comparison broadcasts, and the comparison)."""
    return _compared(value, "ne")


def _compared(value: SSAValue, comparison: str) -> list[Operation]:
    """`value <comparison> 0`, in `value`'s type (a one-element zero the comparison broadcasts, and the
    comparison)."""
    kind = value.type
    ones = [1] * kind.get_num_dims()
    zero = 0.0 if isinstance(kind.element_type, FLOAT_TYPES) else 0
    zeros = TTIR_OP_CLASSES["full"].create(result_types=[TensorType(kind.element_type, ones)], properties={
        "shape": KINDS["i32_darray"].build(ones), "fill_value": KINDS["number"].build(zero)})
    return [zeros, TTIR_OP_CLASSES[comparison].create(operands=[value, zeros.results[0]], result_types=[kind])]


def arithmetic_right_shift(op: TTOp) -> None:
    """`a >> b` copying the sign bit in, as logical shifts: (a ^ s) shifted logically, ^ s again, where s is all
    ones for a negative `a` (-(a < 0)) and zero otherwise."""
    a, by = op.operands
    kind = a.type
    compared = _compared(a, "lt")
    for new in compared:
        new.location = op.location
        op.parent.insert_op_before(new, op)
    sign = ttir_op("neg", [compared[-1].results[0]], {}, [kind], op).results[0]
    flipped = ttir_op("bitwise_xor", [a, sign], {}, [kind], op).results[0]
    shifted = ttir_op("logical_right_shift", [flipped, by], {}, [kind], op).results[0]
    result = ttir_op("bitwise_xor", [shifted, sign], {}, [kind], op)
    result.location = op.location
    Rewriter.replace_op(op, [], [result.results[0]])


def conv3d_to_ndhwc(op: TTOp) -> None:
    """TTNN's conv3d reads NDHWC: a conv3d with its dimensions elsewhere is permuted there and back (its bias's
    channels sit where the result's do)."""
    dims = conv3d_dims(op)
    if dims == NDHWC:
        return
    groups = op.operand_groups()
    inputs = [permuted(groups["input"][0], dims, op), groups["weight"][0]]
    if groups.get("bias"):
        inputs.append(permuted(groups["bias"][0], dims, op))
    shape = op.results[0].type.get_shape()
    result = TensorType(op.results[0].type.element_type, [shape[d] for d in dims])
    props = {k: v for k, v in op.properties.items() if k not in CONV3D_DIMS}
    conv = ttir_op("conv3d", inputs, props, [result], op)
    back = permuted(conv.results[0], [dims.index(i) for i in range(5)], op)
    back.owner.location = op.location
    Rewriter.replace_op(op, [], [back])


def conv1d_as_conv2d(op: TTOp) -> None:
    """A conv1d is a conv2d over a height of one (as tt-metal's is): NLC input as (N, 1, L, C), weight
    (O, C/G, 1, K), bias (1, 1, 1, O), the result reshaped back (inputs in another layout are permuted to NLC and the
    result back)."""
    dims = [scalar(op.prop(name)) for name in CONV1D_DIMS]
    groups = op.operand_groups()
    source, weight = groups["input"][0], groups["weight"][0]
    if dims != [0, 1, 2]:
        source = permuted(source, dims, op)
    n, length, channels = source.type.get_shape()
    o, per_group, k = weight.type.get_shape()
    element = op.results[0].type.element_type
    inputs = [reshaped(source, [n, 1, length, channels], op), reshaped(weight, [o, per_group, 1, k], op)]
    if groups.get("bias"):
        inputs.append(reshaped(groups["bias"][0], [1, 1, 1, o], op))
    out = op.results[0].type.get_shape()
    out_length = out[dims[1]]
    stride, (left, right), dilation = conv1d_params(op)
    pair = KINDS["i32_darray"].build
    props = {"stride": pair([1, stride]), "padding": pair([0, left, 0, right]), "dilation": pair([1, dilation]),
             "groups": op.prop("groups")}
    conv = ttir_op("conv2d", inputs, props, [TensorType(element, [n, 1, out_length, o])], op)
    result = reshaped(conv.results[0], [n, out_length, o], op)
    if dims != [0, 1, 2]:
        result = permuted(result, [dims.index(i) for i in range(3)], op)
    result.owner.location = op.location
    Rewriter.replace_op(op, [], [result])


def ttml_in_4d(op: TTOp) -> None:
    """ttml's kernels (adamw, sdpa_fw, sdpa_bw) take rank-4 tensors only: other operands are reshaped to (1, product
    of the leading dims, S, D) and each result back to its own shape."""
    if all(len(v.type.get_shape()) == 4 for v in (*op.operands, *op.results)):
        return
    operands = [v if len(v.type.get_shape()) == 4 else reshaped(v, as_4d(v.type.get_shape()), op) for v in op.operands]
    results = [TensorType(r.type.element_type, as_4d(r.type.get_shape())) for r in op.results]
    new = ttir_op(op.ROW.name, operands, dict(op.properties), results, op)
    new.location = op.location
    back = [n if n.type == r.type else reshaped(n, r.type.get_shape(), op) for n, r in zip(new.results, op.results)]
    Rewriter.replace_op(op, [], back)


def _replace(op: TTOp, value: SSAValue) -> None:
    """`op`'s result is now `value` (made by the decomposition, which takes `op`'s location)."""
    if value.owner is not op:
        value.owner.location = op.location
    Rewriter.replace_op(op, [], [value])


def _sliced(value: SSAValue, begins: list[int], ends: list[int], steps: list[int], source: Operation) -> SSAValue:
    build = KINDS["i32_array"].build
    shape = [len(range(b, e, s)) for b, e, s in zip(begins, ends, steps)]
    props = {"begins": build(begins), "ends": build(ends), "step": build(steps)}
    return ttir_op("slice_static", [value], props, [TensorType(value.type.element_type, shape)], source).results[0]


def _along(value: SSAValue, dim: int, begin: int, end: int, step: int, source: Operation) -> SSAValue:
    """`value`'s elements begin..end (by step) along `dim`."""
    shape = list(value.type.get_shape())
    begins, ends, steps = [0] * len(shape), list(shape), [1] * len(shape)
    begins[dim], ends[dim], steps[dim] = begin, end, step
    return _sliced(value, begins, ends, steps, source)


def _arranged(value: SSAValue, perm: list[int], shape: list[int], source: Operation) -> SSAValue:
    """`value` permuted by `perm` (unless that is the identity) and reshaped to `shape` (unless it has it)."""
    if perm != sorted(perm):
        value = permuted(value, perm, source)
    return value if list(value.type.get_shape()) == list(shape) else reshaped(value, shape, source)


def dot_general(op: TTOp) -> None:
    """Both sides permuted to (batch..., free, contract) / (batch..., contract, free) and flattened, a matmul (a
    broadcast multiply when nothing is contracted, as upstream, which keeps f32 products exact), reshaped back."""
    lhs, rhs = op.operands
    ls, rs = list(lhs.type.get_shape()), list(rhs.type.get_shape())
    bl, cl, br, cr = (int_values(op.prop(n)) for n in ("batch_dims_lhs", "contract_dims_lhs", "batch_dims_rhs",
                                                       "contract_dims_rhs"))
    fl = [d for d in range(len(ls)) if d not in bl and d not in cl]
    fr = [d for d in range(len(rs)) if d not in br and d not in cr]
    batch = [ls[d] for d in bl]
    m, k, n = math.prod(ls[d] for d in fl), math.prod(ls[d] for d in cl), math.prod(rs[d] for d in fr)
    a = _arranged(lhs, bl + fl + cl, batch + [m, k], op)
    b = _arranged(rhs, br + cr + fr, batch + [k, n], op)
    result = op.results[0].type
    product = ttir_op("multiply" if k == 1 else "matmul", [a, b], {},
                      [TensorType(result.element_type, batch + [m, n])], op).results[0]
    _replace(op, _arranged(product, [], list(result.get_shape()), op))


def index(op: TTOp) -> None:
    """A slice along one dimension (negative bounds count from its end)."""
    size = op.operands[0].type.get_shape()[scalar(op.prop("dim")) % op.operands[0].type.get_num_dims()]
    dim = scalar(op.prop("dim")) % op.operands[0].type.get_num_dims()
    begin, end, step = (scalar(op.prop(n)) for n in ("begin", "end", "step"))
    _replace(op, _along(op.operands[0], dim, begin % size if begin < 0 else begin, end + size if end < 0 else end,
                        step, op))


def index_select(op: TTOp) -> None:
    """`length` elements from `begin` of every `stride`-sized chunk: one slice per chunk joined by a concat (as
    upstream); many chunks, when the stride divides the dimension, as one slice of the tensor viewed in chunks."""
    source = op.operands[0]
    shape = list(source.type.get_shape())
    dim = scalar(op.prop("dim")) % len(shape)
    begin, length, stride = (scalar(op.prop(n)) for n in ("begin", "length", "stride"))
    stride = stride or shape[dim]
    starts = range(begin, shape[dim], stride)
    if len(starts) <= MAX_SLICES or shape[dim] % stride:
        pieces = [_along(source, dim, b, min(b + length, shape[dim]), 1, op) for b in starts]
        joined = pieces[0] if len(pieces) == 1 else ttir_op(
            "concat", pieces, {"dim": KINDS["si32"].build(dim)}, [op.results[0].type], op).results[0]
        return _replace(op, joined)
    chunks = reshaped(source, shape[:dim] + [shape[dim] // stride, stride] + shape[dim + 1:], op)
    _replace(op, reshaped(_along(chunks, dim + 1, begin, begin + length, 1, op), op.results[0].type.get_shape(), op))


def get_dimension_size(op: TTOp) -> None:
    """The size is known at compile time: a one-element `full`."""
    shape = op.operands[0].type.get_shape()
    size = shape[scalar(op.prop("dimension")) % len(shape)]
    props = {"shape": KINDS["i32_darray"].build([1]), "fill_value": KINDS["number"].build(size)}
    _replace(op, ttir_op("full", [], props, [op.results[0].type], op).results[0])


def arange(op: TTOp) -> None:
    """An arange along one dimension of a larger tensor: the 1-D arange, reshaped onto that dimension and
    broadcast over the others."""
    result = op.results[0].type
    shape = list(result.get_shape())
    dim = scalar(op.prop("arange_dimension")) % len(shape)
    props = {**op.properties, "arange_dimension": KINDS["i64"].build(0)}
    line = ttir_op("arange", [], props, [TensorType(result.element_type, [shape[dim]])], op).results[0]
    placed = [shape[dim] if i == dim else 1 for i in range(len(shape))]
    value = reshaped(line, placed, op)
    if placed != shape:
        factors = KINDS["i64_darray"].build([s // p for s, p in zip(shape, placed)])
        value = ttir_op("broadcast", [value], {"broadcast_dimensions": factors}, [result], op).results[0]
    _replace(op, value)


def _reduced_dims(op: TTOp) -> list[int]:
    rank = op.operands[0].type.get_num_dims()
    return sorted({d % rank for d in int_values(op.prop("dim_arg"))})


def prod(op: TTOp) -> None:
    """TTNN's prod reduces one dimension or all: several become one prod each, the last first (so the others keep
    their places)."""
    value, keep = op.operands[0], scalar(op.prop("keep_dim"))
    for d in reversed(_reduced_dims(op)):
        shape = list(value.type.get_shape())
        out = shape[:d] + ([1] if keep else []) + shape[d + 1:]
        props = {"dim_arg": KINDS["i32_array"].build([d]), "keep_dim": op.prop("keep_dim")}
        value = ttir_op("prod", [value], props, [TensorType(value.type.element_type, out)], op).results[0]
    _replace(op, value)


def argmax(op: TTOp) -> None:
    """TTNN's argmax reduces one dimension: the reduced ones are moved last and merged into one."""
    source, dims = op.operands[0], _reduced_dims(op)
    shape = list(source.type.get_shape())
    kept = [d for d in range(len(shape)) if d not in dims]
    merged = _arranged(source, kept + dims, [shape[d] for d in kept] + [math.prod(shape[d] for d in dims)], op)
    keep = scalar(op.prop("keep_dim"))
    result = op.results[0].type
    out = [shape[d] for d in kept] + ([1] if keep else [])
    props = {"dim_arg": KINDS["i32_array"].build([len(kept)]), "keep_dim": op.prop("keep_dim")}
    value = ttir_op("argmax", [merged], props, [TensorType(result.element_type, out)], op).results[0]
    _replace(op, _arranged(value, [], list(result.get_shape()), op))


def negative_pad(op: TTOp) -> None:
    """Negative padding removes elements: a slice, then a pad by the positive amounts if any remain."""
    padding = int_values(op.prop("padding"))
    source = op.operands[0]
    shape = source.type.get_shape()
    begins = [max(0, -padding[2 * i]) for i in range(len(shape))]
    ends = [size - max(0, -padding[2 * i + 1]) for i, size in enumerate(shape)]
    value = _sliced(source, begins, ends, [1] * len(shape), op)
    rest = [max(0, p) for p in padding]
    if any(rest):
        props = {"padding": KINDS["i32_darray"].build(rest), "value": op.prop("value")}
        value = ttir_op("pad", [value], props, [op.results[0].type], op).results[0]
    _replace(op, value)


def pool_of_full(op: TTOp) -> None:
    """A window over a constant tensor is that constant: a `full` of the pool's result shape."""
    fill = op.operands[0].owner
    props = {"shape": KINDS["i32_darray"].build(list(op.results[0].type.get_shape())),
             "fill_value": fill.prop("fill_value")}
    _replace(op, ttir_op("full", [], props, [op.results[0].type], op).results[0])


# which statistics operand each op reshapes first: upstream's order (inference the running statistics before
# scale and offset), so the printed IR reads as upstream's does
BATCH_NORM_RESHAPE_ORDER = {"ttir.batch_norm_inference": (3, 4, 1, 2), "ttir.batch_norm_training": (1, 2, 3, 4)}


def batch_norm_nchw(op: TTOp) -> None:
    """TTNN's batch norm reads (N, C, H, W) with (1, C, 1, 1) statistics: the input is viewed so (the dims before
    the channel merged into N, those after it into H x W, as (S/32, 32) when a tile fits), the statistics reshaped,
    and the result viewed back (training's batch statistics back to the running statistics' shape)."""
    source = op.operands[0]
    shape = list(source.type.get_shape())
    dim = scalar(op.prop("dimension")) % len(shape)
    channels, rest = shape[dim], math.prod(shape[dim + 1:])
    view = [math.prod(shape[:dim]), channels, *((rest // 32, 32) if rest % 32 == 0 and rest > 32 else (rest, 1))]
    if len(shape) == 4 and dim == 1:
        view = shape
    value = source if view == shape else reshaped(source, view, op)
    made = {i: reshaped(op.operands[i], [1, channels, 1, 1], op) for i in BATCH_NORM_RESHAPE_ORDER[op.name]}
    stats = [made[i] for i in (1, 2, 3, 4)]
    props = {**op.properties, "dimension": KINDS["i32"].build(1)}
    result = op.results[0].type
    stat_type = TensorType(result.element_type, [1, channels, 1, 1])
    norm = ttir_op(op.ROW.name, [value, *stats], props,
                   [TensorType(result.element_type, view), *[stat_type] * (len(op.results) - 1)], op)
    outputs = [norm.results[0] if view == shape else reshaped(norm.results[0], shape, op),
               *(reshaped(batch, list(old.type.get_shape()), op) for batch, old in zip(norm.results[1:], op.results[1:]))]
    outputs[0].owner.location = op.location  # what stands for the result carries the op's location
    Rewriter.replace_op(op, [], outputs)


def _not_nchw(op: TTOp) -> bool:
    """Not yet as TTNN reads it: statistics other than 4-d, or an input other than rank 4 normalized along dim 1."""
    rank = op.operands[0].type.get_num_dims()
    return (any(v.type.get_num_dims() != 4 for v in op.operands[1:]) or rank != 4
            or scalar(op.prop("dimension")) % rank != 1)


def reverse(op: TTOp) -> None:
    """TTNN has no reverse: the reversed dims are moved first and merged into rows, the rows gathered in reverse
    order (reversing a merged index reverses each of its dims), and the result put back. Float rows are looked up
    by an embedding of constant indices (upstream's decomposition); integer rows, which the embedding kernel would
    read as bf16, by a gather along the rows, which moves them exactly."""
    source, dims = op.operands[0], sorted({d % op.operands[0].type.get_num_dims() for d in int_values(op.prop("dimensions"))})
    shape = list(source.type.get_shape())
    rest = [d for d in range(len(shape)) if d not in dims]
    rows, width = math.prod(shape[d] for d in dims), math.prod(shape[d] for d in rest)
    table = _arranged(source, dims + rest, [rows, width], op)
    indices = _constant(list(range(rows - 1, -1, -1)), SI32, op)
    result = TensorType(source.type.element_type, [rows, width])
    if isinstance(source.type.element_type, IntegerType):
        indices = reshaped(indices, [rows, 1], op)
        if width != 1:
            indices = ttir_op("broadcast", [indices], {"broadcast_dimensions": KINDS["i64_darray"].build([1, width])},
                              [TensorType(SI32, [rows, width])], op).results[0]
        gathered = ttir_op("gather", [table, indices], {"dim": KINDS["i32"].build(0)}, [result], op)
    else:
        gathered = ttir_op("embedding", [indices, table], {}, [result], op)
    moved = [shape[d] for d in dims + rest]
    value = reshaped(gathered.results[0], moved, op)
    if dims + rest != sorted(dims + rest):
        value = permuted(value, [(dims + rest).index(d) for d in range(len(shape))], op)
    _replace(op, value)


def split_heads(op: TTOp) -> None:
    """Q | K | V along the hidden dim (K | V from the second input when given) sliced apart, each viewed as
    [batch, seq, heads, head size] and permuted to [batch, heads, seq, head size]; K transposed after when asked."""
    groups = op.operand_groups()
    fused, kv = groups["input_tensor"][0], (groups.get("kv_input_tensor") or [None])[0]
    heads = scalar(op.prop("num_heads"))
    kv_heads = scalar(op.prop("num_kv_heads")) if op.prop("num_kv_heads") is not None else heads
    batch, seq, hidden = fused.type.get_shape()
    size = hidden // heads if kv is not None else hidden // (heads + 2 * kv_heads)
    if kv is None:
        widths = [heads * size, kv_heads * size, kv_heads * size]
        bounds = [sum(widths[:i]) for i in range(4)]
        parts = [_along(fused, 2, bounds[i], bounds[i + 1], 1, op) for i in range(3)]
        counts = [heads, kv_heads, kv_heads]
    else:
        q = permuted(reshaped(fused, [batch, seq, heads, size], op), [0, 2, 1, 3], op)
        width = kv.type.get_shape()[2] // 2
        parts = [_along(kv, 2, 0, width, 1, op), _along(kv, 2, width, 2 * width, 1, op)]
        counts = [kv_heads, kv_heads]
    views = [reshaped(p, [batch, seq, n, size], op) for p, n in zip(parts, counts)]
    results = [permuted(v, [0, 2, 1, 3], op) for v in views]
    if kv is not None:
        results.insert(0, q)
    if scalar(op.prop("transpose_key")):
        results[1] = permuted(results[1], [0, 1, 3, 2], op)
    for value in results:
        value.owner.location = op.location
    Rewriter.replace_op(op, [], results)


def _has_negative_padding(op: TTOp) -> bool:
    return any(p < 0 for p in int_values(op.prop("padding")))


def _pools_a_full(op: TTOp) -> bool:
    """A pool of a `full` whose every window sees only that value (max pools pad with -inf; average pools only
    when nothing pads or the padding is not counted)."""
    fill = op.operands[0].owner
    if not (isinstance(fill, TTOp) and fill.name == "ttir.full"):
        return False
    return op.ROW.name == "max_pool2d" or not any(int_values(op.prop("padding"))) \
        or scalar(op.prop("count_include_pad")) is False


def _several_dims(op: TTOp) -> bool:
    return op.prop("dim_arg") is not None and 1 < len(_reduced_dims(op)) < op.operands[0].type.get_num_dims()


def _off_dim_zero(op: TTOp) -> bool:
    return op.results[0].type.get_num_dims() > 1 or scalar(op.prop("arange_dimension")) != 0


NDHWC = [0, 1, 2, 3, 4]
MAX_SLICES = 8  # chunks an index_select takes one slice each (more: one slice of a chunked view)
LOGICAL_REDUCTIONS = {"reduce_or": "sum", "reduce_and": "prod"}
_always = lambda op: True
CONFIGS = ("ttnn", "ttmetal", "cpu-fallback")
DEVICE, HOST, ALL = frozenset(CONFIGS[:2]), frozenset(CONFIGS[2:]), frozenset(CONFIGS)
METAL = frozenset(CONFIGS[1:2])  # TTNN has its own op (conv1d); D2M has not
# op -> (rewrite, when it applies, the configs that make it)
DECOMPOSED: dict[str, tuple[Callable[[TTOp], None], Callable[[TTOp], bool], frozenset]] = {
    **dict.fromkeys(("quantize", "dequantize", "requantize"), (unroll, _always, DEVICE)),
    **dict.fromkeys(LOGICAL_REDUCTIONS, (logical_reduction, _always, ALL)),
    "dot_general": (dot_general, _always, ALL),
    "conv3d": (conv3d_to_ndhwc, _always, DEVICE), "conv1d": (conv1d_as_conv2d, _always, METAL),
    "index": (index, _always, DEVICE), "index_select": (index_select, _always, DEVICE),
    "get_dimension_size": (get_dimension_size, _always, DEVICE),
    "arange": (arange, _off_dim_zero, ALL), "prod": (prod, _several_dims, ALL),
    "argmax": (argmax, _several_dims, ALL), "pad": (negative_pad, _has_negative_padding, ALL),
    **dict.fromkeys(("max_pool2d", "avg_pool2d"), (pool_of_full, _pools_a_full, ALL)),
    **dict.fromkeys(("batch_norm_inference", "batch_norm_training"), (batch_norm_nchw, _not_nchw, ALL)),
    "reverse": (reverse, lambda op: bool(int_values(op.prop("dimensions"))), DEVICE),
    "split_query_key_value_and_split_heads": (split_heads, _always, HOST),  # TTNN has the op
    "right_shift": (arithmetic_right_shift, _always, frozenset({"ttnn", "cpu-fallback"})),  # D2M has the op
    **dict.fromkeys(("adamw", "sdpa_fw", "sdpa_bw"), (ttml_in_4d, _always, ALL)),
}


@dataclass(frozen=True)
class TTIRToTTIRDecompositionPass(ModulePass):
    """Decomposes TTIR operations into simpler TTIR operations (which ones, by the backend `config` names)."""

    name: ClassVar[str] = "ttir-to-ttir-decomposition"
    config: str = "ttnn"

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        if self.config not in CONFIGS:
            raise PassFailure(module, f"invalid config '{self.config}' for ttir-to-ttir-decomposition: expected one "
                                      f"of {', '.join(CONFIGS)}")
        for op in list(module.walk()):
            if isinstance(op, TTOp) and op.name.startswith("ttir.") and op.ROW.name in DECOMPOSED:
                rewrite, applies, configs = DECOMPOSED[op.ROW.name]
                if self.config in configs and applies(op):
                    rewrite(op)
