"""`--ttir-cpu-boolean-narrowing`: boolean results back to `i1` on the host path.

Element-type normalization stores booleans as bf16 because the device has no boolean tensors; the CPU has them,
and a boolean mask in f32 takes 32 times the memory it needs (a 32768x32768 causal mask: 4 GiB instead of
128 MiB). Comparisons become `i1`-valued, and so do logical ops of `i1` values and data movement of them
(reshape, slice, permute, broadcast, ...); where an `i1` value reaches any other consumer (arithmetic, a return),
one typecast back to the type it had is placed after its producer.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import IntegerType, ModuleOp, TensorType
from xdsl.dialects.func import FuncOp
from xdsl.ir import SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from ttmlir.ir.props import KINDS
from ttmlir.ir.tt_op import TTOp
from ttmlir.dialects.ttir import TTIR_OP_CLASSES

I1 = IntegerType(1)
COMPARISONS = frozenset({"eq", "ne", "gt", "ge", "lt", "le"})
LOGICAL = frozenset({"logical_and", "logical_or", "logical_xor", "logical_not"})
MOVES = frozenset({"reshape", "slice_static", "permute", "broadcast", "repeat", "squeeze", "unsqueeze", "transpose"})


def _boolean(value: SSAValue) -> bool:
    return isinstance(value.type, TensorType) and value.type.element_type == I1


def _narrow(func: FuncOp) -> None:
    widened: dict[SSAValue, SSAValue] = {}  # the cast back of each narrowed value -> the i1 value
    for op in list(func.body.block.ops):
        if not (isinstance(op, TTOp) and op.name.startswith("ttir.")) or len(op.results) != 1:
            continue
        operands = [widened.get(v, v) for v in op.operands]
        name = op.ROW.name
        if not (name in COMPARISONS or (name in LOGICAL and all(_boolean(v) for v in operands)) or
                (name in MOVES and _boolean(operands[0]))):
            continue
        result = op.results[0]
        if _boolean(result) and operands == list(op.operands):
            continue
        narrowed = type(op).create(
            operands=operands if name not in COMPARISONS else list(op.operands), properties=dict(op.properties),
            attributes=dict(op.attributes), result_types=[TensorType(I1, result.type.get_shape())])
        narrowed.location = op.location
        cast = TTIR_OP_CLASSES["typecast"].create(
            operands=[narrowed.results[0]], result_types=[result.type],
            properties={"conservative_folding": KINDS["bool"].build(False)})
        cast.location = op.location
        Rewriter.replace_op(op, [narrowed, cast])
        widened[cast.results[0]] = narrowed.results[0]
    for cast, _ in widened.items():
        if not cast.uses:
            Rewriter.erase_op(cast.owner)


@dataclass(frozen=True)
class TTIRCPUBooleanNarrowingPass(ModulePass):
    """Narrow boolean-producing ops to i1 (typecasts where i1 values meet other consumers)."""

    name: ClassVar[str] = "ttir-cpu-boolean-narrowing"

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        for func in [op for op in module.walk() if isinstance(op, FuncOp) and op.body.blocks]:
            _narrow(func)
