"""TTIR-level fusions applied before conversion (`--ttir-fusing`), as upstream's TTIRFusing patterns:

- a sort cut to its first or last k entries by slices → `topk(x, k)` (`ttir_fusing_topk`);
- `reshape(sum(x, dims, keep_dim = false))` that puts the dims back as ones → `sum(x, dims, keep_dim = true)`
  (any reduction);
- `add(matmul(a, b), bias)` → `linear(a, b, bias)`;
- `multiply(sum(x, dims), 1/N)`, N the number of elements summed (to the element type's precision) → `mean(x, dims)`;
- a mean over the two spatial dims of a rank-4 NHWC tensor → a mean over one dim of the (N, 1, H*W, C) view
  (TTNN reduces one tile-aligned dimension faster than two);
- `gamma * x * rsqrt(mean(x^2, last dim) + eps)` → `rms_norm(x, gamma)`, and F.normalize's
  `gamma * x / max(sqrt(sum(x^2, dim)), eps) * sqrt(D)` → `rms_norm` over that dim (`ttir_fusing_norm`);
- `div(exp(x), sum(exp(x), dim, keep_dim))` → `softmax(x, dim)` (a broadcast of the sum in between is fine);
- `softmax(x - max(x, dim, keep_dim), dim)` → `softmax(x, dim, numericStable = true)`;
- an activation written out elementwise (`x * sigmoid(x)`, `0.5 * x * (1 + erf(x / sqrt(2)))` or its tanh form,
  `min(max(x, 0), 6)`, `maximum(x, 0)`, mish, hardsigmoid) → that op (silu, gelu, relu6, relu, ...), found by
  evaluating the elementwise cone over one tensor at sample points;
- conv bias adds, RepVGG's sums of two convs of one input, zero pads before a conv3d, and with
  `ttnn-enable-conv2d-with-multiply-pattern` per-channel scales and batch norms after a conv, into the conv
  (`ttir_fusing_conv`);
- `reshape(permute(x, [0, 2, 1, 3]))` of attention heads x (B, H, S, D) to (B, S, H*D) (or (B*S, H*D)) →
  `concatenate_heads(x)` (then that reshape);
- three or more matmuls (or linears) of one A with like Bs → one matmul of A and the Bs concatenated (biases
  too), each result a slice of it; projections split into attention heads are left to `--ttnn-fusing`;
- with `enable-permute-slice-after-matmul-fusion` (on by default), `slice(matmul(a, b))` that keeps only some rows
  (or only some columns) of the product → `matmul(slice(a), b)` (or `matmul(a, slice(b))`), computing only what is
  kept; a linear's bias is sliced along with it where it varies;
- with `enable-permute-matmul-fusion`, `matmul(permute(a), b)` whose permute swaps the last two dims →
  `matmul(a, b)` with `transpose_a` flipped (either operand; linear too).

The fused op keeps the discardable attributes of the op it replaces (a matmul's `ttcore.weight_dtype`).

Each fires only when the ops it swallows have no other users.
"""

from __future__ import annotations

import math
import operator
from dataclasses import dataclass
from typing import Callable, ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.dialects.func import FuncOp
from xdsl.ir import Block, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter
from xdsl.transforms.dead_code_elimination import region_dce

from ttmlir.dialects.canonicalize import REWRITES, fold_all
from ttmlir.ir.props import KINDS, int_values, scalar
from ttmlir.ir.tt_op import TTOp
from ttmlir.dialects.ttir import TTIR_OP_CLASSES
from ttmlir.dialects.ttir_shapes import broadcast_shape
from ttmlir.transforms.ttir.ttir_fusing_norm import normalized_rms_norm, rms_norm
from ttmlir.transforms.ttir.ttir_fusing_topk import sort_into_topk
from ttmlir.transforms.ttnn.ttnn_utils import helper_location
from ttmlir.transforms.ttir.ttir_fusing_conv import (batch_norm_after_conv, conv_bias, conv_multiply, conv_sum,
                                                     pad_into_conv3d)


def _bias_fits(bias_shape, out_shape) -> bool:
    """A bias the linear op can take: it broadcasts onto the output without growing it."""
    if len(bias_shape) > len(out_shape):
        return False
    return all(b in (1, o) for b, o in zip(reversed(bias_shape), reversed(out_shape)))


def _producer(value: SSAValue, name: str) -> Operation | None:
    owner = value.owner
    return owner if isinstance(owner, TTOp) and owner.name == "ttir." + name else None


def _through_broadcast(value: SSAValue) -> tuple[SSAValue, list[Operation]]:
    """`value`, or the input of the single-use broadcast making it (with that broadcast)."""
    broadcast = _producer(value, "broadcast")
    return (broadcast.operands[0], [broadcast]) if broadcast is not None and value.has_one_use() else (value, [])


def _single_dim(reduction: Operation) -> int | None:
    """The one dimension a keep_dim reduction reduces, else None."""
    dims = reduction.prop("dim_arg")
    if dims is None or not scalar(reduction.prop("keep_dim")) or len(int_values(dims)) != 1:
        return None
    return int_values(dims)[0]


def _replace(old: Operation, name: str, operands, props: dict, swallowed: list[Operation],
             attributes: dict | None = None) -> None:
    """`old` becomes one new op; the ops it swallowed (users before producers) go with it."""
    new = TTIR_OP_CLASSES[name].create(operands=list(operands), result_types=[old.results[0].type], properties=props,
                                       attributes=dict(old.attributes if attributes is None else attributes))
    new.location = old.location
    Rewriter.replace_op(old, new)
    for op in swallowed:
        Rewriter.erase_op(op)


def _without_leading_ones(shape) -> list[int]:
    shape = list(shape)
    while shape and shape[0] == 1:
        shape.pop(0)
    return shape


def _bias_source(bias: SSAValue) -> SSAValue:
    """The tensor a bias was broadcast from, through broadcasts and reshapes that only add or drop leading ones
    (adding it with implicit broadcasting gives the same sums)."""
    while True:
        owner = bias.owner
        if not isinstance(owner, TTOp) or owner.name not in ("ttir.broadcast", "ttir.reshape") or \
                (owner.name == "ttir.reshape" and _without_leading_ones(owner.operands[0].type.get_shape()) !=
                 _without_leading_ones(bias.type.get_shape())):
            return bias
        bias = owner.operands[0]


def _linear(add: Operation) -> None:
    """add(matmul(a, b), bias) → linear(a, b, bias) (the bias may broadcast the product to a larger result), also
    when a reshape keeping the last dim sits between the matmul and the add and the bias varies along the last dim
    only (then the reshape follows the linear)."""
    result = add.results[0].type
    for product, bias in (add.operands, reversed(add.operands)):
        reshape = _producer(product, "reshape")
        matmul = _producer(reshape.operands[0] if reshape is not None else product, "matmul")
        if matmul is None or bias is product or product.type.element_type != result.element_type or \
                not product.has_one_use() or (reshape is not None and not matmul.results[0].has_one_use()):
            continue
        out, bias = matmul.results[0].type.get_shape(), _bias_source(bias)
        if reshape is None and broadcast_shape(out, bias.type.get_shape()) != tuple(result.get_shape()):
            continue
        if reshape is not None and (product.type != result or out[-1] != result.get_shape()[-1] or
                                    not _bias_fits(bias.type.get_shape(), out) or
                                    any(d != 1 for d in bias.type.get_shape()[:-1])):
            continue
        linear = TTIR_OP_CLASSES["linear"].create(
            operands=[*matmul.operands, bias], result_types=[result if reshape is None else matmul.results[0].type],
            properties=dict(matmul.properties), attributes={**add.attributes, **matmul.attributes})
        made = [linear] if reshape is None else [linear, TTIR_OP_CLASSES["reshape"].create(
            operands=[linear.results[0]], result_types=[result], properties=dict(reshape.properties))]
        for op in made:
            op.location = add.location
        Rewriter.replace_op(add, made)
        _erase_dead([op for op in (reshape, matmul) if op is not None])
        return


def _sliced(value: SSAValue, axis: int, bounds: tuple[int, int, int], before: Operation) -> SSAValue:
    """`value` sliced along `axis` by (begin, end, step) as written (its size there is the product's)."""
    shape = list(value.type.get_shape())
    begins, ends, steps = [0] * len(shape), list(shape), [1] * len(shape)
    begins[axis], ends[axis], steps[axis] = bounds
    size = len(range(*slice(*bounds).indices(shape[axis])))
    build = KINDS["i32_array"].build
    op = TTIR_OP_CLASSES["slice_static"].create(
        operands=[value], properties={"begins": build(begins), "ends": build(ends), "step": build(steps)},
        result_types=[TensorType(value.type.element_type, [*shape[:axis], size, *shape[axis + 1:]])])
    op.location = before.location
    before.parent.insert_op_before(op, before)
    return op.results[0]


def _slice_of_product(slice_op: Operation) -> list[Operation]:
    """A slice of a matmul/linear's rows (only) slices its A operand; of its columns (only), its B operand. Returns
    the slices it made."""
    product = slice_op.operands[0].owner
    if not (isinstance(product, TTOp) and product.name in ("ttir.matmul", "ttir.linear")) or \
            not product.results[0].has_one_use():
        return []
    groups = product.operand_groups()
    a, b = groups["a"][0], groups["b"][0]
    ra, rb = a.type.get_num_dims(), b.type.get_num_dims()
    out = list(product.results[0].type.get_shape())
    rank = len(out)
    begins, ends, steps = (int_values(slice_op.prop(n)) for n in ("begins", "ends", "step"))
    cut = [d for d in range(rank) if slice(begins[d], ends[d], steps[d]).indices(out[d]) != (0, out[d], 1)]
    rows = None if ra == 1 else rank - 1 if rb == 1 else rank - 2
    cols = rank - 1 if rb > 1 else None
    if len(cut) != 1 or cut[0] not in (rows, cols):
        return []
    dim = cut[0]
    bounds = (begins[dim], ends[dim], steps[dim])
    operands = [a, b]
    if dim == rows:
        operands[0] = _sliced(a, ra - 1 if scalar(product.prop("transpose_a")) else ra - 2, bounds, slice_op)
    else:
        operands[1] = _sliced(b, rb - 2 if scalar(product.prop("transpose_b")) else rb - 1, bounds, slice_op)
    if groups.get("bias"):
        bias = groups["bias"][0]
        axis = bias.type.get_num_dims() - (rank - dim)
        varies = axis >= 0 and bias.type.get_shape()[axis] != 1
        operands.append(_sliced(bias, axis, bounds, slice_op) if varies else bias)
    fused = type(product).create(operands=operands, result_types=[slice_op.results[0].type],
                                 properties=dict(product.properties), attributes=dict(product.attributes))
    fused.location = product.location
    Rewriter.replace_op(slice_op, fused)
    Rewriter.erase_op(product)
    return [new.owner for new, old in zip(operands, [a, b, *groups.get("bias", [])]) if new is not old]


MIN_SHARED_LHS = 3  # matmuls of one A worth one wide matmul (Q, K and V; gate and up with one more)
MAX_FUSED_WIDTH = 262144  # upstream's cap: the concatenated bias is one row-major page, which must fit in L1


def _shared_lhs(root: Operation) -> None:
    """Matmuls (or linears, all with a bias or none) of one A with like B operands → one matmul of A and the Bs
    concatenated along N (biases too), each result a slice of its columns. The last of them comes first in
    the concatenation (upstream's order); the fused op goes before the first of them, so every B and bias
    must be defined there."""
    a = root.operands[0]
    ta, tb = scalar(root.prop("transpose_a")), scalar(root.prop("transpose_b"))
    b_shape = root.operands[1].type.get_shape()
    ops = [op for op in (use.operation for use in a.uses if use.index == 0) if type(op) is type(root) and
           op.parent is root.parent and scalar(op.prop("transpose_a")) == ta and
           scalar(op.prop("transpose_b")) == tb and len(op.operands[1].type.get_shape()) == len(b_shape) and
           op.operands[1].type.get_shape()[:-2] == b_shape[:-2] and
           op.results[0].type.element_type == root.results[0].type.element_type]
    if len(set(ops)) < MIN_SHARED_LHS:
        return
    position = _positions(root.parent, a, set(ops))
    ops = sorted(set(ops), key=position.__getitem__)
    ops = ops[-1:] + ops[:-1]
    widths = [op.results[0].type.get_shape()[-1] for op in ops]
    biases = [op.operand_groups().get("bias") for op in ops]
    if len(ops) < MIN_SHARED_LHS or sum(widths) > MAX_FUSED_WIDTH or all(map(_split_into_heads, ops)) or \
            (any(biases) and not all(biases)) or \
            (all(biases) and len({b[0].type.get_shape()[:-1] for b in biases}) != 1):
        return
    first = min(ops, key=position.__getitem__)
    at = position[first]
    inputs = [op.operands[1] for op in ops] + [b[0] for b in biases if b]
    if any(isinstance(v.owner, Operation) and (v.owner.parent is not root.parent or
                                               position.get(v.owner, -1) > at) for v in inputs):
        return
    if all(biases) and any(b[0].type.get_shape()[-1] != w for b, w in zip(biases, widths)):
        return
    made = [_concat([op.operands[1] for op in ops], len(b_shape) - 2 if tb else len(b_shape) - 1)]
    if all(biases):
        made.append(_concat([op.operand_groups()["bias"][0] for op in ops], -1))
    out = root.results[0].type
    fused = type(root).create(operands=[a, *(m.results[0] for m in made)], properties=dict(root.properties),
                              result_types=[TensorType(out.element_type, [*out.get_shape()[:-1], sum(widths)])])
    made.append(fused)
    for op in made:  # a name of its own: the joint product is none of the originals, whose goldens its slices meet
        op.location = helper_location(first.location, "shared_lhs")
    first.parent.insert_ops_before(made, first)
    ends = [sum(widths[:i + 1]) for i in range(len(ops))]
    parts = [_sliced(fused.results[0], out.get_num_dims() - 1, (end - width, end, 1), op)
             for op, width, end in zip(ops, widths, ends)]
    for op, part in zip(ops, parts):
        op.results[0].replace_all_uses_with(part)
        Rewriter.erase_op(op)


def _positions(block: Block, a: SSAValue, users: set[Operation]) -> dict[Operation, int]:
    """The positions in `block` of its ops from the one defining `a` to the last of `users` (of `a`): whatever
    the users read from `block` before that stretch comes before them all. Only the stretch is walked, not the block
    once per position asked for."""
    op = a.owner if isinstance(a.owner, Operation) and a.owner.parent is block else block.first_op
    position, left = {}, set(users)
    while left:
        position[op] = len(position)
        left.discard(op)
        op = op.next_op
    return position


def _split_into_heads(op: Operation) -> bool:
    """Whether `op`'s result is only reshaped (to [B, S, heads, D]) and permuted to [B, heads, S, D]: query, key and
    value projections, which `--ttnn-fusing` joins with their head split in one kernel (left to it)."""
    value, reshaped = op.results[0], False
    while value.has_one_use() and (user := value.first_use.operation).name == "ttir.reshape":
        value, reshaped = user.results[0], True
    user = value.first_use.operation if value.has_one_use() else None
    return reshaped and user is not None and user.name == "ttir.permute" and value.type.get_num_dims() == 4 and \
        int_values(user.prop("permutation")) == [0, 2, 1, 3]


def _concat(values: list[SSAValue], dim: int) -> Operation:
    shape = list(values[0].type.get_shape())
    dim %= len(shape)
    shape[dim] = sum(v.type.get_shape()[dim] for v in values)
    return TTIR_OP_CLASSES["concat"].create(operands=values, properties={"dim": KINDS["si32"].build(dim)},
                                            result_types=[TensorType(values[0].type.element_type, shape)])


def _concatenate_heads(reshape: Operation) -> None:
    """Heads (B, H, S, D) moved behind the sequence and merged, (B, S, H*D), are TTNN's concatenate_heads."""
    permute = _producer(reshape.operands[0], "permute")
    if permute is None or not reshape.operands[0].has_one_use() or \
            int_values(permute.prop("permutation")) != [0, 2, 1, 3]:
        return
    batch, heads, seq, size = permute.operands[0].type.get_shape()
    out = list(reshape.results[0].type.get_shape())
    if out not in ([batch, seq, heads * size], [batch * seq, heads * size]):
        return
    element = reshape.results[0].type.element_type
    made = [TTIR_OP_CLASSES["concatenate_heads"].create(
        operands=[permute.operands[0]], result_types=[TensorType(element, [batch, seq, heads * size])])]
    if len(out) == 2:
        made.append(TTIR_OP_CLASSES["reshape"].create(operands=[made[0].results[0]], result_types=[reshape.results[0].type],
                                                      properties=dict(reshape.properties)))
    for op in made:
        op.location = reshape.location
    Rewriter.replace_op(reshape, made)
    Rewriter.erase_op(permute)


# a value rounded to the element type: its relative error (bf16 keeps 8 significant bits, f16 11, f32 24)
PRECISION = {"bf16": 2.0 ** -8, "f16": 2.0 ** -11, "f32": 2.0 ** -23}


def _scaled_sum(multiply: Operation) -> None:
    """sum(x, dims) * (1 / elements summed) is mean(x, dims)."""
    for product, scale in (multiply.operands, reversed(multiply.operands)):
        total = _producer(product, "sum")
        if total is None or not product.has_one_use() or product.type != multiply.results[0].type:
            continue
        from ttmlir.dialects.tt_rewrites import constant_fill
        factor, shape = constant_fill(scale), total.operands[0].type.get_shape()
        dims = int_values(total.prop("dim_arg")) if total.prop("dim_arg") is not None else range(len(shape))
        count = math.prod(shape[d] for d in dims)
        tolerance = PRECISION.get(str(multiply.results[0].type.element_type))
        if factor is None or tolerance is None or not count or abs(factor * count - 1) > tolerance:
            continue
        _replace(multiply, "mean", total.operands, dict(total.properties), [total])
        _erase_dead([scale.owner] if isinstance(scale.owner, TTOp) and _is_constant_producer(scale.owner) else [])
        return


def _spatial_mean(mean: Operation) -> None:
    """A mean over dims 1 and 2 of a rank-4 tensor is a mean over dim 2 of its (N, 1, H*W, C) view."""
    source = mean.operands[0]
    shape = source.type.get_shape()
    if len(shape) != 4 or mean.prop("dim_arg") is None or \
            sorted(d % 4 for d in int_values(mean.prop("dim_arg"))) != [1, 2]:
        return
    element = source.type.element_type
    view = TTIR_OP_CLASSES["reshape"].create(
        operands=[source], properties={"shape": KINDS["i32_array"].build([shape[0], 1, shape[1] * shape[2], shape[3]])},
        result_types=[TensorType(element, [shape[0], 1, shape[1] * shape[2], shape[3]])])
    reduced = TTIR_OP_CLASSES["mean"].create(
        operands=[view.results[0]], result_types=[TensorType(mean.results[0].type.element_type, [shape[0], 1, 1, shape[3]])],
        properties={"dim_arg": KINDS["i32_array"].build([2]), "keep_dim": KINDS["bool"].build(True)},
        attributes=dict(mean.attributes))
    made = [view, reduced]
    if not scalar(mean.prop("keep_dim")):
        made.append(TTIR_OP_CLASSES["reshape"].create(
            operands=[reduced.results[0]], result_types=[mean.results[0].type],
            properties={"shape": KINDS["i32_array"].build(list(mean.results[0].type.get_shape()))}))
    for op in made:
        op.location = mean.location
    Rewriter.replace_op(mean, made)


def _softmax(div: Operation) -> None:
    exp = _producer(div.operands[0], "exp")
    denominator, broadcast = _through_broadcast(div.operands[1])
    total = _producer(denominator, "sum")
    if exp is None or total is None or total.operands[0] is not exp.results[0] or \
            len(list(exp.results[0].uses)) != 2 or not denominator.has_one_use() or _single_dim(total) is None:
        return
    props = {"dimension": KINDS["si32"].build(_single_dim(total)), "numericStable": KINDS["bool"].build(False)}
    _replace(div, "softmax", [exp.operands[0]], props, [*broadcast, total, exp])


def _stable_softmax(softmax: Operation) -> None:
    sub = _producer(softmax.operands[0], "subtract")
    if sub is None or not sub.results[0].has_one_use():
        return
    shifted, broadcast = _through_broadcast(sub.operands[1])
    peak = _producer(shifted, "max")
    if peak is None or peak.operands[0] is not sub.operands[0] or not shifted.has_one_use() or \
            _single_dim(peak) != scalar(softmax.prop("dimension")):
        return
    props = {**softmax.properties, "numericStable": KINDS["bool"].build(True)}
    _replace(softmax, "softmax", [sub.operands[0]], props, [sub, *broadcast, peak])


REDUCTIONS = ("sum", "mean", "max", "min", "prod", "argmax")


def _reduction_keeping_dims(reshape: Operation) -> None:
    """A reshape that puts back, as ones, the dims a reduction dropped: the reduction keeps them instead."""
    reduction = reshape.operands[0].owner
    if not (isinstance(reduction, TTOp) and reduction.ROW.name in REDUCTIONS and reduction.results[0].has_one_use()
            and not scalar(reduction.prop("keep_dim"))):
        return
    shape = list(reduction.operands[0].type.get_shape())
    dims = int_values(reduction.prop("dim_arg")) if reduction.prop("dim_arg") is not None else range(len(shape))
    kept = [1 if i in {d % len(shape) for d in dims} else n for i, n in enumerate(shape)]
    if kept == list(reshape.results[0].type.get_shape()):
        _replace(reshape, reduction.ROW.name, reduction.operands,
                 {**reduction.properties, "keep_dim": KINDS["bool"].build(True)}, [reduction])


def _permute_into_matmul(op: Operation) -> None:
    """A single-use permute swapping the last two dims of a matmul/linear operand becomes its transpose flag."""
    for i, flag in ((0, "transpose_a"), (1, "transpose_b")):
        permute = _producer(op.operands[i], "permute")
        if permute is None or not op.operands[i].has_one_use():
            continue
        perm = int_values(permute.prop("permutation"))
        rank = len(perm)
        if rank < 2 or perm != [*range(rank - 2), rank - 1, rank - 2]:
            continue
        op.properties[flag] = KINDS["bool"].build(not scalar(op.prop(flag)))
        op.operands[i] = permute.operands[0]
        Rewriter.erase_op(permute)


# --- activations written out elementwise (x * sigmoid(x), 0.5 * x * (1 + erf(x / sqrt 2)), min(max(x, 0), 6), ...):
# the cone of elementwise ops above a root that reads one tensor x and otherwise only splat constants is evaluated
# at sample points; if it computes one of these functions of x, it becomes that op.

def _softplus(x: float) -> float:
    return x if x > 20 else math.log1p(math.exp(x))


ACTIVATIONS: tuple[tuple[str, Callable[[float], float]], ...] = (
    ("relu", lambda x: max(x, 0.0)),
    ("relu6", lambda x: min(max(x, 0.0), 6.0)),
    ("hardsigmoid", lambda x: min(max(x + 3.0, 0.0), 6.0) / 6.0),
    ("silu", lambda x: x / (1.0 + math.exp(-x))),
    ("mish", lambda x: x * math.tanh(_softplus(x))),
    ("gelu", lambda x: 0.5 * x * (1.0 + math.erf(x / math.sqrt(2.0)))),
)
SAMPLES = (-7.0, -3.5, -2.0, -1.0, -0.4, 0.0, 0.3, 0.8, 1.5, 2.7, 4.0, 5.5, 8.0, 25.0)
# what each elementwise op computes on scalars (comparisons give 1.0 or 0.0; a typecast keeps the value)
SCALAR: dict[str, Callable[..., float]] = {
    "add": operator.add, "subtract": operator.sub, "multiply": operator.mul,
    "div": lambda a, b: a / b if b else math.copysign(math.inf, a) if a else math.nan,
    "maximum": max, "minimum": min, "pow": lambda a, b: a ** b if a > 0 or float(b).is_integer() else math.nan,
    "neg": operator.neg, "abs": abs, "exp": lambda a: math.exp(min(a, 700.0)), "log1p": lambda a: math.log1p(a) if a > -1 else math.nan,
    "tanh": math.tanh, "erf": math.erf, "sigmoid": lambda a: 1.0 / (1.0 + math.exp(min(-a, 700.0))),
    "relu": lambda a: max(a, 0.0), "relu6": lambda a: min(max(a, 0.0), 6.0), "sqrt": lambda a: math.sqrt(a) if a >= 0 else math.nan,
    "reciprocal": lambda a: 1.0 / a if a else math.inf, "typecast": lambda a: a,
    "gt": lambda a, b: float(a > b), "ge": lambda a, b: float(a >= b), "lt": lambda a, b: float(a < b),
    "le": lambda a, b: float(a <= b), "where": lambda c, a, b: a if c else b,
    "clamp_tensor": lambda a, lo, hi: min(max(a, lo), hi),
}


MAX_CONE = 16  # ops: activations are small; a larger elementwise graph is not searched
# The ops an activation written out ends with, the only ones tried as the root of a cone: max(x, 0) and where(x > 0,
# x, 0) (relu); min(max(x, 0), 6) or a clamp between splats (relu6); x * sigmoid(x) or x / (1 + exp(-x)) (silu),
# x * tanh(...) (mish), 0.5 * x * (1 + erf(...)) (gelu), relu6(x + 3) / 6 or * (1 / 6) (hardsigmoid); any of them
# computed in another element type and cast back (typecast).
ACTIVATION_ROOTS = frozenset({"maximum", "minimum", "clamp_tensor", "multiply", "div", "where", "typecast"})


def _splat(value: SSAValue) -> float | None:
    from ttmlir.dialects.tt_rewrites import constant_fill

    owner = value.owner
    if isinstance(owner, TTOp) and owner.ROW.family == "fill":
        return 0.0 if owner.ROW.name == "zeros" else 1.0
    fill = constant_fill(value)
    return None if fill is None else float(fill)


def _close(a: float, b: float, x: float) -> bool:
    """Whether `a` is the activation's value `b` at sample `x`, allowing for constants rounded to the element type:
    2% of the value, or of the sample's magnitude up to 1 (a clamp at 1e-12 is not a relu: at 0 they differ)."""
    return math.isfinite(a) and abs(a - b) <= 2e-2 * max(abs(b), min(1.0, abs(x)))


class _ActivationMatcher:
    """The activations of one pass run. A cone above a root is a function of x when every path up from the root
    through elementwise ops of its shape ends at x or at a splat constant: x is one of the root's dominators. Each
    value's dominators (itself, then the values every path up from it passes, nearest first, as far as a cone may
    reach) follow from its operands', so each value is looked at once however many roots read it."""

    def __init__(self) -> None:
        self.splats: dict[SSAValue, float | None] = {}
        self.reads: dict[SSAValue, list[tuple[SSAValue, bool]]] = {}
        self.dominators: dict[SSAValue, tuple[SSAValue, ...] | None] = {}  # None: only splats above

    def splat(self, value: SSAValue) -> float | None:
        if value not in self.splats:
            self.splats[value] = _splat(value)
        return self.splats[value]

    def _reads(self, value: SSAValue) -> list[tuple[SSAValue, bool]]:
        """The operands of `value`'s elementwise op other than splats (which end a path), each with whether a cone
        through `value` goes on into the op making it (an elementwise op of the same shape)."""
        reads = self.reads.get(value)
        if reads is None:
            shape = value.type.get_shape()
            reads = self.reads[value] = [
                (v, isinstance(op := v.owner, TTOp) and (op.ROW.name in SCALAR or op.ROW.name == "clamp_scalar") and
                 v.type.get_shape() == shape) for v in value.owner.operands if self.splat(v) is None]
        return reads

    def dominators_of(self, value: SSAValue) -> tuple[SSAValue, ...] | None:
        memo = self.dominators
        stack = [value]
        while stack:  # operands first, without recursion (a chain may be thousands of ops long)
            top = stack[-1]
            if top in memo:
                stack.pop()
                continue
            reads = self._reads(top)
            missing = [v for v, entered in reads if entered and v not in memo]
            if missing:
                stack += missing
                continue
            stack.pop()
            common = None
            for v, entered in reads:
                mine = memo[v] if entered else (v,)
                if mine is not None and common is None:
                    common = mine
                elif mine is not None:
                    kept = frozenset(mine)
                    common = tuple(d for d in common if d in kept)
            # a dominator further than MAX_CONE ops up is of no cone: the path to it has more ops
            memo[top] = None if common is None else ((top,) + common)[:MAX_CONE + 1]
        return memo[value]

    def cone(self, root: Operation, x: SSAValue) -> list[Operation] | None:
        """The ops from `root` up to `x` (root first, each before the ops it reads), None past MAX_CONE ops."""
        ops, seen, stack = [], set(), [root.results[0]]
        while stack:
            value = stack.pop()
            if value is x or self.splat(value) is not None or value.owner in seen:
                continue
            seen.add(value.owner)
            ops.append(value.owner)
            if len(ops) > MAX_CONE:
                return None
            stack += reversed(value.owner.operands)
        return ops

    def evaluate(self, ops: list[Operation], x: SSAValue) -> str | None:
        """The activation the cone computes as a function of x, judged at SAMPLES; a name is dropped at the first
        sample it misses, so a cone computing none of them costs a sample or two."""
        order, placed, inside = [], set(), set(ops)  # order: operands before users
        for op in reversed(ops):
            self._place(op, inside, placed, order)
        names = list(ACTIVATIONS)
        try:
            for s in SAMPLES:
                values = {x: s}
                for op in order:
                    args = [values[v] if v in values else self.splats[v] for v in op.operands]
                    if op.ROW.name == "clamp_scalar":
                        low, high = (float(scalar(op.prop(n))) for n in ("min", "max"))
                        values[op.results[0]] = min(max(args[0], low), high)
                    else:
                        values[op.results[0]] = SCALAR[op.ROW.name](*args)
                got = values[ops[0].results[0]]
                names = [(n, f) for n, f in names if _close(got, f(s), s)]
                if not names:
                    return None
        except (OverflowError, ValueError, ZeroDivisionError):
            return None
        return names[0][0]

    @staticmethod
    def _place(op: Operation, inside: set, placed: set, order: list) -> None:
        stack = [(op, False)]
        while stack:
            top, ready = stack.pop()
            if top in placed:
                continue
            if ready:
                placed.add(top)
                order.append(top)
                continue
            stack.append((top, True))
            stack += [(v.owner, False) for v in top.operands if v.owner in inside and v.owner not in placed]

    def match(self, root: Operation):
        """(activation name, x, cone ops) for the farthest x whose cone computes an activation, else None."""
        dominators = self.dominators_of(root.results[0])
        if dominators is None:
            return None
        shape = root.results[0].type.get_shape()
        for x in reversed(dominators[1:]):
            if x.type.get_shape() != shape or (ops := self.cone(root, x)) is None:
                continue
            inside = set(ops)
            if any(use.operation not in inside for op in ops[1:] for use in op.results[0].uses):
                continue  # an intermediate value is needed elsewhere: the cone cannot go
            name = self.evaluate(ops, x)
            if name is not None and not (len(ops) == 1 and ops[0].ROW.name == name):
                return name, x, ops
        return None

    def fuse(self, root: Operation) -> None:
        found = self.match(root)
        if found is None:
            return
        name, x, ops = found
        result = root.results[0].type
        made = [TTIR_OP_CLASSES[name].create(operands=[x], result_types=[TensorType(x.type.element_type,
                                                                                    result.get_shape())])]
        if x.type.element_type != result.element_type:
            made.append(TTIR_OP_CLASSES["typecast"].create(operands=[made[0].results[0]], result_types=[result]))
        for op in made:
            op.location = root.location
        feeding = [v.owner for op in ops for v in op.operands if isinstance(v.owner, TTOp) and v.owner not in ops]
        Rewriter.replace_op(root, made)
        _erase_dead([*ops[1:], *(f for f in feeding if _is_constant_producer(f))])


def _is_constant_producer(op: TTOp) -> bool:
    return op.ROW.family in ("constant", "full", "fill") or op.ROW.name in ("reshape", "broadcast")


def _erase_dead(ops: list[Operation]) -> None:
    """Erase the ops of `ops` left without users, and the constants (and their reshapes) only they read."""
    pending, erased = list(ops), True
    while erased:
        erased = False
        for op in list(pending):
            if op.parent is None or any(r.uses for r in op.results):
                continue
            producers = [v.owner for v in op.operands if isinstance(v.owner, TTOp)]
            Rewriter.erase_op(op)
            pending.remove(op)
            pending += [p for p in producers if p not in pending and _is_constant_producer(p)]
            erased = True


FUSIONS: tuple[tuple[str, Callable[[Operation], None]], ...] = (
    ("sort", sort_into_topk), ("multiply", _scaled_sum), ("reshape", _reduction_keeping_dims), ("reshape", _concatenate_heads),
    ("mean", _spatial_mean), ("conv3d", pad_into_conv3d), ("add", _linear), ("add", conv_bias), ("add", conv_sum),
    ("div", _softmax), ("softmax", _stable_softmax), ("rsqrt", rms_norm), ("multiply", normalized_rms_norm))  # in this order: softmax fuses first, with its sum keeping its dim
CONV_SCALING = (("batch_norm_inference", batch_norm_after_conv), ("multiply", conv_multiply))


@dataclass(frozen=True)
class TTIRFusingPass(ModulePass):
    """Fuse matmul + bias into linear, exp/sum/div (after an optional max subtraction) into softmax, and the other
    patterns above (moving reshapes through elementwise ops is --ttir-erase-inverse-ops' work, as upstream)."""

    name: ClassVar[str] = "ttir-fusing"
    enable_permute_matmul_fusion: bool = False
    ttnn_enable_conv2d_with_multiply_pattern: bool = False
    enable_permute_slice_after_matmul_fusion: bool = True

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        if self.enable_permute_matmul_fusion:
            for op in [op for op in module.walk() if op.name in ("ttir.matmul", "ttir.linear")]:
                _permute_into_matmul(op)
        for name, fuse in (*(CONV_SCALING if self.ttnn_enable_conv2d_with_multiply_pattern else ()), *FUSIONS):
            for op in [op for op in module.walk() if isinstance(op, TTOp) and op.name == "ttir." + name]:
                if op.parent is not None:
                    fuse(op)
        for op in reversed([op for op in module.walk() if op.name in ("ttir.matmul", "ttir.linear")]):
            if op.parent is not None:
                _shared_lhs(op)
        if self.enable_permute_slice_after_matmul_fusion:
            pending = [op for op in module.walk() if op.name == "ttir.slice_static"]
            while pending:  # a slice moved onto a product's operand may cut the product making that operand
                op = pending.pop(0)
                if op.parent is not None:
                    pending += _slice_of_product(op)
        # last op first: the largest cone that is an activation goes before any part of it
        activations = _ActivationMatcher()
        for op in reversed([op for op in module.walk() if isinstance(op, TTOp) and op.name.startswith("ttir.")
                            and op.ROW.name in ACTIVATION_ROOTS]):
            if op.parent is not None:
                activations.fuse(op)
        for func in [op for op in module.walk() if isinstance(op, FuncOp)]:
            fold_all(func.body)  # as a greedy rewrite does: ops of constants are evaluated,
            region_dce(func.body)  # and what no one reads goes
        merged = False
        for op in [op for op in module.walk() if op.name == "ttir.slice_static"]:
            if (made := REWRITES["slice_static"](op)) is not None:  # slices of fused products' slices: one slice
                Rewriter.replace_op(op, made)
                merged = True
        for func in [op for op in module.walk() if isinstance(op, FuncOp)] if merged else ():
            region_dce(func.body)
