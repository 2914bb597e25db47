"""TTIR-level fusions applied before conversion (`--ttir-fusing`), as upstream's TTIRFusing patterns:

- `reshape(sum(x, dims, keep_dim = false))` that puts the dims back as ones → `sum(x, dims, keep_dim = true)`
  (any reduction);
- `add(matmul(a, b), bias)` → `linear(a, b, bias)`;
- `div(exp(x), sum(exp(x), dim, keep_dim))` → `softmax(x, dim)` (a broadcast of the sum in between is fine);
- `softmax(x - max(x, dim, keep_dim), dim)` → `softmax(x, dim, numericStable = true)`;
- `add(reshape(a), reshape(b))` (any elementwise op, operands reshaped from one shape) → `reshape(add(a, b))`;
- with `enable-permute-matmul-fusion`, `matmul(permute(a), b)` whose permute swaps the last two dims →
  `matmul(a, b)` with `transpose_a` flipped (either operand; linear too).

The fused op keeps the discardable attributes of the op it replaces (a matmul's `ttcore.weight_dtype`).

Each fires only when the ops it swallows have no other users.
"""

from __future__ import annotations

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


FUSIONS: tuple[tuple[str, Callable[[Operation], None]], ...] = (
    ("reshape", _reduction_keeping_dims), ("add", _linear), ("div", _softmax),
    ("softmax", _stable_softmax))  # in this order: softmax fuses first, with its sum keeping its dim


@dataclass(frozen=True)
class TTIRFusingPass(ModulePass):
    """Fuse matmul + bias into linear, exp/sum/div (after an optional max subtraction) into softmax, and the reshapes
    of an elementwise op's operands into one after it."""

    name: ClassVar[str] = "ttir-fusing"
    enable_permute_matmul_fusion: bool = False

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        if self.enable_permute_matmul_fusion:
            for op in [op for op in module.walk() if op.name in ("ttir.matmul", "ttir.linear")]:
                _permute_into_matmul(op)
        for name, fuse in FUSIONS:
            for op in [op for op in module.walk() if isinstance(op, TTOp) and op.name == "ttir." + name]:
                fuse(op)
        for op in [op for op in module.walk() if isinstance(op, TTOp) and op.name.startswith("ttir.")
                   and op.ROW.family in ("binary", "ternary")]:
            _one_reshape_after(op)
