"""TTIR-level fusions applied before conversion (`--ttir-fusing`), as upstream's TTIRFusing patterns:

- `add(matmul(a, b), bias)` → `linear(a, b, bias)`;
- `div(exp(x), sum(exp(x), dim, keep_dim))` → `softmax(x, dim)` (a broadcast of the sum in between is fine);
- `softmax(x - max(x, dim, keep_dim), dim)` → `softmax(x, dim, numericStable = true)`.

Each fires only when the ops it swallows have no other users.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
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


def _replace(old: Operation, name: str, operands, props: dict, swallowed: list[Operation]) -> None:
    """`old` becomes one new op; the ops it swallowed (users before producers) go with it."""
    new = TTIR_OP_CLASSES[name].create(operands=list(operands), result_types=[old.results[0].type], properties=props)
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
            _replace(add, "linear", [*matmul.operands, bias], dict(matmul.properties), [matmul])
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


FUSIONS: tuple[tuple[str, Callable[[Operation], None]], ...] = (
    ("add", _linear), ("div", _softmax), ("softmax", _stable_softmax))  # in this order: softmax fuses first


@dataclass(frozen=True)
class TTIRFusingPass(ModulePass):
    """Fuse matmul + bias into linear, and exp/sum/div (after an optional max subtraction) into softmax."""

    name: ClassVar[str] = "ttir-fusing"

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        for name, fuse in FUSIONS:
            for op in [op for op in module.walk() if isinstance(op, TTOp) and op.name == "ttir." + name]:
                fuse(op)
