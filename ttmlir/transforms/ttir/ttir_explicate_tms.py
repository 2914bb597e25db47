"""`--ttir-explicate-tms`: the broadcasts an elementwise op does implicitly become explicit ops on its operands.

An operand of lower rank than the result is first reshaped with leading ones, then one of a smaller shape is
broadcast to the result's; afterwards every operand has the result's shape, so TMs can commute through the op
(`--ttir-erase-inverse-ops`). The inverse of `--ttir-implicit-broadcast-fold`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass

from ttmlir.ir.props import KINDS
from ttmlir.ir.tt_op import TTOp
from ttmlir.dialects.ttir import TTIR_OP_CLASSES

EXPLICATED = frozenset({"binary", "ternary"})


def _tm(name: str, value: SSAValue, shape: list[int], props: dict, before: Operation) -> SSAValue:
    op = TTIR_OP_CLASSES[name].create(operands=[value], result_types=[TensorType(value.type.element_type, shape)],
                                      properties=props)
    op.location = before.location
    before.parent.insert_op_before(op, before)
    return op.results[0]


def _ranked(value: SSAValue, rank: int, before: Operation) -> SSAValue:
    """`value` reshaped with leading ones to `rank`."""
    own = list(value.type.get_shape())
    if len(own) >= rank:
        return value
    own = [1] * (rank - len(own)) + own
    return _tm("reshape", value, own, {"shape": KINDS["i32_array"].build(own)}, before)


def _broadcast(value: SSAValue, shape: list[int], before: Operation) -> SSAValue:
    own = list(value.type.get_shape())
    if own == shape:
        return value
    factors = [n // m if m != n else 1 for m, n in zip(own, shape)]
    return _tm("broadcast", value, shape, {"broadcast_dimensions": KINDS["i64_darray"].build(factors)}, before)


@dataclass(frozen=True)
class TTIRExplicateTMsPass(ModulePass):
    """Make the implicit reshapes and broadcasts of elementwise ops' operands explicit."""

    name: ClassVar[str] = "ttir-explicate-tms"

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        for op in list(module.walk()):
            if not (isinstance(op, TTOp) and op.name.startswith("ttir.") and op.ROW.family in EXPLICATED):
                continue
            shape = list(op.results[0].type.get_shape())
            # every operand's reshape first, then the broadcasts (upstream's order)
            for step in (lambda v: _ranked(v, len(shape), op), lambda v: _broadcast(v, shape, op)):
                for i, value in enumerate(list(op.operands)):
                    if isinstance(value.type, TensorType):
                        op.operands[i] = step(value)
