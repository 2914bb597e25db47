"""`--ttir-decompose-complex-permute`: a permute that moves the last dimension and others besides becomes up to three
simple ones, each marked `{decomposed}`.

A simple permute either keeps the last dimension in place (an "outer" permute: whole rows move) or only swaps the
last two dimensions (an "inner" transpose of each matrix). Any other permute P of rank r (last dim L = r - 1) is:
- inner then outer, when the dimension that ends last already sits at L - 1;
- outer then inner, when the input's last dimension ends at L - 1;
- otherwise outer (swapping P[L] into position L - 1), inner, outer.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, TensorType, UnitAttr
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from ttmlir.ir.props import KINDS, int_values
from ttmlir.ir.tt_op import TTOp
from ttmlir.dialects.ttir import TTIR_OP_CLASSES

DECOMPOSED = "decomposed"


def _simple(perm: list[int]) -> bool:
    last = len(perm) - 1
    return last < 1 or perm[last] == last or perm == [*range(last - 1), last, last - 1]


def steps(perm: list[int]) -> list[list[int]]:
    """The simple permutes, applied in order, that make `perm`."""
    last = len(perm) - 1
    inner = [*range(last - 1), last, last - 1]
    if perm[last] == last - 1:
        first = list(range(len(perm)))
    elif perm[last - 1] == last:
        first = [*perm[:last - 1], perm[last], last]
    else:
        first = list(range(len(perm)))
        first[perm[last]], first[last - 1] = last - 1, perm[last]
    order = [first[i] for i in inner]  # which input dim sits where after the first two steps
    return [p for p in (first, inner, [order.index(d) for d in perm]) if p != sorted(p)]


def decompose(op: TTOp) -> None:
    value = op.operands[0]
    for perm in steps(int_values(op.prop("permutation"))):
        shape = value.type.get_shape()
        new = TTIR_OP_CLASSES["permute"].create(
            operands=[value], properties={"permutation": KINDS["i64_darray"].build(perm)},
            attributes={DECOMPOSED: UnitAttr()},
            result_types=[TensorType(value.type.element_type, [shape[p] for p in perm])])
        new.location = op.location
        op.parent.insert_op_before(new, op)
        value = new.results[0]
    Rewriter.replace_op(op, [], [value])


@dataclass(frozen=True)
class TTIRDecomposeComplexPermutePass(ModulePass):
    """Split permutes that move the last dimension along with others into outer permutes and an inner transpose."""

    name: ClassVar[str] = "ttir-decompose-complex-permute"

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        for op in [op for op in module.walk() if op.name == "ttir.permute"]:
            if DECOMPOSED not in op.attributes and not _simple(int_values(op.prop("permutation"))):
                decompose(op)
