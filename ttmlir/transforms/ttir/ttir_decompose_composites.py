"""`--ttir-decompose-composites`: composite TTIR ops written out in the primitive TTIR ops a backend without fused
kernels lowers one by one (upstream's TTIRDecomposeComposites, which the TTMetal path runs before D2M).

- `rms_norm(x, w, b)`: x * rsqrt(mean(x * x) + eps) [* w] [+ b], the mean over the normalized (last) dims;
- `layer_norm(x, w, b)`: c = x - mean(x); c * rsqrt(mean(c * c) + eps) [* w] [+ b];
- `softmax(x, d)`: exp(x - max(x)) / sum(...) along d (without the max when not `numericStable`, unless
  `stable-softmax`: exp of logits above ~88 overflows f32 to inf/inf = NaN, and attention scores reach that);
- `scaled_dot_product_attention(q, k, v, mask)`: softmax(q kᵀ · scale + mask) v, the mask a causal one
  (where(row >= column, 0, -inf)) when `is_causal` and none is given; with H query heads over Hkv key/value heads
  the queries of a group are one matrix ([B, Hkv, G·Sq, D]) against their shared key/value head;
- `batch_norm_inference(x, scale, offset, mean, variance)`: (x - mean) * (scale * rsqrt(variance + eps)) + offset,
  the statistics viewed along `dimension` (the D2M path has no batch norm kernel; centring first keeps bf16 close);
- `repeat(x, n...)`: per dim, concatenations of x doubled (x, x·2, x·4, ...) joined for the bits of n;
- `distributed_rms_norm(x, w, r)`: as rms_norm of x [+ r] over its last dim split across the chips along
  `cluster_axis`: the row sums of squares all-reduced over them, divided by the whole rows' width.

Weights and biases are reshaped to broadcast over the leading dims; constants are `ttir.full` splats the
elementwise ops broadcast. An attention with a sliding window or a sink stays as it is.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import Float32Type, FloatAttr, ModuleOp, TensorType
from xdsl.ir import SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from ttmlir.conversion.stablehlo_to_ttir.lowering import Builder
from ttmlir.dialects import ttcore
from ttmlir.errors import PassFailure
from ttmlir.ir.props import int_values, scalar
from ttmlir.ir.tt_op import TTOp


class _Ops(Builder):
    """TTIR ops made in front of the op being decomposed, at its location (the StableHLO lowering's builder, with
    results given by shape)."""

    def __call__(self, name: str, operands: list[SSAValue], result_shape, element=None, /, **props) -> SSAValue:
        element = element if element is not None else operands[0].type.element_type
        return self.ttir(name, operands, TensorType(element, list(result_shape)), **props)

    def full(self, value: float, rank: int, element) -> SSAValue:
        return self("full", [], [1] * rank, element, shape=[1] * rank, fill_value=FloatAttr(value, Float32Type()))

    def reduce(self, name: str, value: SSAValue, dims: list[int]) -> SSAValue:
        shape = [1 if d in dims else n for d, n in enumerate(value.type.get_shape())]
        return self(name, [value], shape, keep_dim=True, dim_arg=dims)

    def binary(self, name: str, a: SSAValue, b: SSAValue) -> SSAValue:
        x, y = _shape(a), _shape(b)
        rank = max(len(x), len(y))
        x, y = [1] * (rank - len(x)) + x, [1] * (rank - len(y)) + y
        return self(name, [a, b], [max(m, n) for m, n in zip(x, y)], a.type.element_type)


def _shape(value: SSAValue) -> list[int]:
    return list(value.type.get_shape())


def _softmax(ops: _Ops, x: SSAValue, dim: int, stable: bool) -> SSAValue:
    if stable:
        x = ops.binary("subtract", x, ops.reduce("max", x, [dim]))
    e = ops("exp", [x], _shape(x))
    return ops.binary("div", e, ops.reduce("sum", e, [dim]))


def _affine(ops: _Ops, y: SSAValue, groups: dict[str, list[SSAValue]], normalized: list[int]) -> SSAValue:
    """y times the weight, plus the bias, each viewed over y's leading dims."""
    lead = [1] * (len(_shape(y)) - len(normalized))
    for name, combine in (("weight", "multiply"), ("bias", "add")):
        for value in groups.get(name, []):
            y = ops.binary(combine, y, ops.reshape(value, lead + normalized))
    return y


def _norm(op: TTOp, ops: _Ops) -> SSAValue:
    x, groups = op.operands[0], op.operand_groups()
    normalized = [int(n) for n in int_values(op.prop("normalized_shape"))]
    rank = len(_shape(x))
    dims = list(range(rank - len(normalized), rank))
    centered = x if op.ROW.name == "rms_norm" else ops.binary("subtract", x, ops.reduce("mean", x, dims))
    mean = ops.reduce("mean", ops.binary("multiply", centered, centered), dims)
    eps = ops.full(float(scalar(op.prop("epsilon"))), rank, x.type.element_type)
    scale = ops("rsqrt", [ops.binary("add", mean, eps)], _shape(mean))
    return _affine(ops, ops.binary("multiply", centered, scale), groups, normalized)


def _distributed_rms_norm(op: TTOp, ops: _Ops) -> SSAValue:
    """rms_norm of rows whose last dim is split over the chips along `cluster_axis`: each chip's row sums of
    squares all-reduced over them give the mean square of the whole rows."""
    x, groups = op.operands[0], op.operand_groups()
    for residual in groups.get("residual", []):
        x = ops.binary("add", x, residual)
    shape, rank = _shape(x), len(_shape(x))
    axis = int(scalar(op.prop("cluster_axis")))
    mesh = ttcore.registered_mesh(op) or (1, 1)
    if axis not in (0, 1):
        raise PassFailure(op, f"cluster_axis {axis} is not an axis of the {mesh[0]}x{mesh[1]} mesh")
    squares = ops.reduce("sum", ops.binary("multiply", x, x), [rank - 1])
    total = ops("all_reduce", [squares], _shape(squares), cluster_axis=axis,
                reduce_type=ttcore.ReduceTypeAttr(ttcore.ReduceTypeAttr.enum_type("sum")))
    mean = ops.binary("multiply", total, ops.full(1.0 / (shape[-1] * mesh[axis]), rank, x.type.element_type))
    eps = ops.full(float(scalar(op.prop("epsilon"))), rank, x.type.element_type)
    scale = ops("rsqrt", [ops.binary("add", mean, eps)], _shape(mean))
    return _affine(ops, ops.binary("multiply", x, scale), {"weight": groups.get("weight", [])}, shape[-1:])


def _softmax_op(op: TTOp, ops: _Ops, always_stable: bool = False) -> SSAValue:
    x = op.operands[0]
    dim = int(scalar(op.prop("dimension"))) % len(_shape(x))
    return _softmax(ops, x, dim, always_stable or bool(scalar(op.prop("numericStable"))))


def _attention(op: TTOp, ops: _Ops) -> SSAValue | None:
    groups = op.operand_groups()
    if groups.get("attention_sink") or op.prop("sliding_window_size") is not None:
        return None
    q, k, v = (groups[n][0] for n in ("query", "key", "value"))
    mask = groups.get("attention_mask", [None])[0] if groups.get("attention_mask") else None
    (b, h, sq, d), (_, hkv, sk, _), dv = _shape(q), _shape(k), _shape(v)[3]
    group, element = h // hkv, q.type.element_type
    grouped = ops.reshape(q, [b, hkv, group * sq, d])
    kt = ops("permute", [k], [b, hkv, d, sk], permutation=[0, 1, 3, 2])
    scores = ops.reshape(ops("matmul", [grouped, kt], [b, hkv, group * sq, sk]), [b, h, sq, sk])
    scale = op.prop("scale")
    scale = float(scalar(scale)) if scale is not None else 1.0 / math.sqrt(d)
    scores = ops.binary("multiply", scores, ops.full(scale, 4, element))
    if mask is None and bool(scalar(op.prop("is_causal"))):  # each query sees the keys up to its own position
        f32 = Float32Type()
        rows = ops("arange", [], [sq, sk], f32, start=0, end=sq, step=1, arange_dimension=0)
        columns = ops("arange", [], [sq, sk], f32, start=0, end=sk, step=1, arange_dimension=1)
        seen = ops("ge", [rows, columns], [sq, sk], f32)
        mask = ops("where", [seen, ops.full(0.0, 2, element), ops.full(-math.inf, 2, element)], [sq, sk], element)
    if mask is not None:
        scores = ops.binary("add", scores, mask)
    weights = ops.reshape(_softmax(ops, scores, 3, True), [b, hkv, group * sq, sk])
    return ops.reshape(ops("matmul", [weights, v], [b, hkv, group * sq, dv]), [b, h, sq, dv])


def _batch_norm(op: TTOp, ops: _Ops) -> SSAValue:
    x, scale, offset, mean, variance = op.operands
    rank = len(_shape(x))
    dim = int(scalar(op.prop("dimension"))) % rank
    view = [_shape(x)[dim] if d == dim else 1 for d in range(rank)]
    scale, offset, mean, variance = (ops.reshape(v, view) for v in (scale, offset, mean, variance))
    eps = ops.full(float(scalar(op.prop("epsilon"))), rank, variance.type.element_type)
    alpha = ops.binary("multiply", scale, ops("rsqrt", [ops.binary("add", variance, eps)], view))
    return ops.binary("add", ops.binary("multiply", ops.binary("subtract", x, mean), alpha), offset)


def _repeat(op: TTOp, ops: _Ops) -> SSAValue:
    x = op.operands[0]
    for dim, count in enumerate(int(n) for n in int_values(op.prop("repeat_dimensions"))):
        if count == 1:
            continue
        power, result = x, None  # power: x doubled along dim so far; result: the copies joined for count's bits
        while count:
            if count & 1:
                result = power if result is None else _concat(ops, [result, power], dim)
            count >>= 1
            if count:
                power = _concat(ops, [power, power], dim)
        x = result
    return x


def _concat(ops: _Ops, values: list[SSAValue], dim: int) -> SSAValue:
    shape = _shape(values[0])
    shape[dim] = sum(_shape(v)[dim] for v in values)
    return ops("concat", values, shape, dim=dim)


DECOMPOSITIONS: dict[str, Callable[[TTOp, _Ops], SSAValue | None]] = {
    "rms_norm": _norm, "layer_norm": _norm, "softmax": _softmax_op, "scaled_dot_product_attention": _attention,
    "repeat": _repeat, "batch_norm_inference": _batch_norm,
    "distributed_rms_norm": _distributed_rms_norm}


@dataclass(frozen=True)
class TTIRDecomposeCompositesPass(ModulePass):
    """Write rms_norm, layer_norm, softmax, scaled_dot_product_attention, batch_norm_inference and repeat out in
    primitive TTIR ops."""

    name: ClassVar[str] = "ttir-decompose-composites"
    stable_softmax: bool = False  # subtract the max in every softmax, numericStable or not (the TTMetal pipeline's)

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        decompositions = {**DECOMPOSITIONS, "softmax": lambda op, ops: _softmax_op(op, ops, self.stable_softmax)}
        for op in [op for op in module.walk() if isinstance(op, TTOp) and op.name.startswith("ttir.")
                   and op.ROW.name in decompositions]:
            ops = _Ops(op)
            value = decompositions[op.ROW.name](op, ops)
            if value is None:
                continue
            if value.type != op.results[0].type:
                raise PassFailure(op, f"decomposition made {value.type}, not the op's {op.results[0].type}")
            op.parent.insert_ops_before(ops.ops, op)
            op.results[0].replace_all_uses_with(value)
            Rewriter.erase_op(op)
