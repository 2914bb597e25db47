"""TTIR-level fusions applied before conversion (`--ttir-fusing`), as upstream's TTIRFusing patterns:

- `reshape(sum(x, dims, keep_dim = false))` that puts the dims back as ones → `sum(x, dims, keep_dim = true)`
  (any reduction);
- `add(matmul(a, b), bias)` → `linear(a, b, bias)`;
- `div(exp(x), sum(exp(x), dim, keep_dim))` → `softmax(x, dim)` (a broadcast of the sum in between is fine);
- `softmax(x - max(x, dim, keep_dim), dim)` → `softmax(x, dim, numericStable = true)`;
- `add(reshape(a), reshape(b))` (any elementwise op, operands reshaped from one shape) → `reshape(add(a, b))`;
- an activation written out elementwise (`x * sigmoid(x)`, `0.5 * x * (1 + erf(x / sqrt(2)))` or its tanh form,
  `min(max(x, 0), 6)`, `maximum(x, 0)`, mish, hardsigmoid) → that op (silu, gelu, relu6, relu, ...), found by
  evaluating the elementwise cone over one tensor at sample points;
- conv bias adds, and with `ttnn-enable-conv2d-with-multiply-pattern` per-channel scales and batch norms after a
  conv, into the conv (`ttir_fusing_conv`);
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
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from ttmlir.dialects.props import KINDS, int_values, scalar
from ttmlir.dialects.tt_op import TTOp
from ttmlir.dialects.ttir import TTIR_OP_CLASSES
from ttmlir.passes.ttir_fusing_conv import batch_norm_after_conv, conv_bias, conv_multiply


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


def _linear(add: Operation) -> None:
    for product, bias in (add.operands, reversed(add.operands)):
        matmul = _producer(product, "matmul")
        if matmul is not None and product.has_one_use() and bias is not product and \
                _bias_fits(bias.type.get_shape(), add.results[0].type.get_shape()) and \
                product.type == add.results[0].type:
            _replace(add, "linear", [*matmul.operands, bias], dict(matmul.properties), [matmul],
                     {**add.attributes, **matmul.attributes})
            return


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


def _one_reshape_after(op: Operation) -> None:
    """An elementwise op of several operands, each a single-use reshape of a tensor of one shape, runs on those
    tensors, and one reshape follows it."""
    reshapes = [_producer(v, "reshape") for v in op.operands]
    if len(reshapes) < 2 or any(r is None or not r.results[0].has_one_use() for r in reshapes) or \
            len({r.operands[0].type.get_shape() for r in reshapes}) != 1 or \
            any(v.type.get_shape() != op.results[0].type.get_shape() for v in op.operands):
        return
    result = op.results[0].type
    inner = TTIR_OP_CLASSES[op.ROW.name].create(
        operands=[r.operands[0] for r in reshapes], properties=dict(op.properties),
        result_types=[TensorType(result.element_type, reshapes[0].operands[0].type.get_shape())])
    reshape = TTIR_OP_CLASSES["reshape"].create(operands=[inner.results[0]], result_types=[result],
                                                properties=dict(reshapes[0].properties))
    inner.location = reshape.location = op.location
    Rewriter.replace_op(op, [inner, reshape])
    for r in reshapes:
        Rewriter.erase_op(r)


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


def _splat(value: SSAValue) -> float | None:
    from ttmlir.dialects.canonicalize import _constant_fill

    owner = value.owner
    if isinstance(owner, TTOp) and owner.ROW.family == "fill":
        return 0.0 if owner.ROW.name == "zeros" else 1.0
    fill = _constant_fill(value)
    return None if fill is None else float(fill)


def _cone(root: Operation, x: SSAValue | None):
    """The elementwise cone above `root` as a function of `x` (of the first tensor it reads if None): its ops (root
    first), the function and x; None if it reads anything else than x and splat constants. `seen` collects every
    value the cone reads, the candidates for x."""
    shape, ops, leaf = root.results[0].type.get_shape(), [], [x] if x is not None else []

    def build(value: SSAValue) -> Callable[[float], float] | None:
        if leaf and value is leaf[0]:
            return lambda v: v
        if (fill := _splat(value)) is not None:
            return lambda v, c=fill: c
        op = value.owner
        if isinstance(op, TTOp) and (op.ROW.name in SCALAR or op.ROW.name == "clamp_scalar") and \
                value.type.get_shape() == shape and len(ops) < MAX_CONE:
            if op not in ops:
                ops.append(op)
            parts = [build(v) for v in op.operands]
            if None in parts:
                return None
            if op.ROW.name == "clamp_scalar":
                low, high = (float(scalar(op.prop(n))) for n in ("min", "max"))
                return lambda v: min(max(parts[0](v), low), high)
            fn = SCALAR[op.ROW.name]
            return lambda v: fn(*(p(v) for p in parts))
        if leaf:
            return None
        leaf.append(value)
        return lambda v: v

    fn = build(root.results[0])
    if fn is None or not leaf or leaf[0] is root.results[0]:
        return None
    inside = set(ops)
    if any(use.operation not in inside for op in ops[1:] for use in op.results[0].uses):
        return None  # an intermediate value is needed elsewhere: the cone cannot go
    return leaf[0], ops, fn


def _candidates(root: Operation) -> list[SSAValue]:
    """The values the elementwise ops above `root` read, farthest first: where the activation's input may be."""
    found, frontier = [], [root]
    while frontier and len(found) < MAX_CONE * 2:
        op = frontier.pop(0)
        for value in op.operands:
            if value not in found and _splat(value) is None:
                found.append(value)
                owner = value.owner
                if isinstance(owner, TTOp) and owner.ROW.name in SCALAR:
                    frontier.append(owner)
    return found[::-1]


def _close(a: float, b: float) -> bool:
    return math.isfinite(a) and abs(a - b) <= 2e-2 * max(1.0, abs(b))


def _match(root: Operation, x: SSAValue | None):
    cone = _cone(root, x)
    if cone is None or cone[0].type.get_shape() != root.results[0].type.get_shape():
        return None
    try:
        values = [cone[2](s) for s in SAMPLES]
    except (OverflowError, ValueError, ZeroDivisionError):
        return None
    name = next((n for n, f in ACTIVATIONS if all(_close(v, f(s)) for v, s in zip(values, SAMPLES))), None)
    if name is None or (len(cone[1]) == 1 and cone[1][0].ROW.name == name):
        return None
    return name, cone[0], cone[1]


def _activation(root: Operation) -> None:
    found = _match(root, None) or next(filter(None, (_match(root, x) for x in _candidates(root))), None)
    if found is None:
        return
    name, x, ops = found
    result = root.results[0].type
    made = [TTIR_OP_CLASSES[name].create(operands=[x], result_types=[TensorType(x.type.element_type, result.get_shape())])]
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
    ("reshape", _reduction_keeping_dims), ("add", _linear), ("add", conv_bias), ("div", _softmax),
    ("softmax", _stable_softmax))  # in this order: softmax fuses first, with its sum keeping its dim
CONV_SCALING = (("batch_norm_inference", batch_norm_after_conv), ("multiply", conv_multiply))


@dataclass(frozen=True)
class TTIRFusingPass(ModulePass):
    """Fuse matmul + bias into linear, exp/sum/div (after an optional max subtraction) into softmax, and the reshapes
    of an elementwise op's operands into one after it."""

    name: ClassVar[str] = "ttir-fusing"
    enable_permute_matmul_fusion: bool = False
    ttnn_enable_conv2d_with_multiply_pattern: bool = False

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        if self.enable_permute_matmul_fusion:
            for op in [op for op in module.walk() if op.name in ("ttir.matmul", "ttir.linear")]:
                _permute_into_matmul(op)
        for name, fuse in (*(CONV_SCALING if self.ttnn_enable_conv2d_with_multiply_pattern else ()), *FUSIONS):
            for op in [op for op in module.walk() if isinstance(op, TTOp) and op.name == "ttir." + name]:
                if op.parent is not None:
                    fuse(op)
        # last op first: the largest cone that is an activation goes before any part of it
        for op in reversed([op for op in module.walk() if isinstance(op, TTOp) and op.name.startswith("ttir.")
                            and op.ROW.name in SCALAR]):
            if op.parent is not None:
                _activation(op)
        for op in [op for op in module.walk() if isinstance(op, TTOp) and op.name.startswith("ttir.")
                   and op.ROW.family in ("binary", "ternary")]:
            _one_reshape_after(op)
