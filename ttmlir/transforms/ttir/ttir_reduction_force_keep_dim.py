"""`--ttir-reduction-force-keep-dim`: every reduction keeps its reduced dims (as ones) and a reshape after it drops
them, so later passes see one form: TTNN's reductions keep dims, and a reshape can commute or fold where a
rank-changing reduction cannot."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from ttmlir.ir.props import KINDS, int_values, scalar
from ttmlir.ir.tt_op import TTOp
from ttmlir.dialects.ttir import TTIR_OP_CLASSES


@dataclass(frozen=True)
class TTIRReductionForceKeepDimPass(ModulePass):
    """Reductions with keep_dim = false become keep_dim = true followed by a reshape."""

    name: ClassVar[str] = "ttir-reduction-force-keep-dim"

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        for op in [op for op in module.walk() if isinstance(op, TTOp) and op.name.startswith("ttir.")
                   and op.ROW.family == "reduction" and not scalar(op.prop("keep_dim"))]:
            shape = list(op.operands[0].type.get_shape())
            dims = op.prop("dim_arg")
            reduced = {d % len(shape) for d in int_values(dims)} if dims is not None else set(range(len(shape)))
            kept = [1 if i in reduced else n for i, n in enumerate(shape)]
            result = op.results[0].type
            keeping = type(op).create(operands=list(op.operands), result_types=[TensorType(result.element_type, kept)],
                                      properties={**op.properties, "keep_dim": KINDS["bool"].build(True)},
                                      attributes=dict(op.attributes))
            reshape = TTIR_OP_CLASSES["reshape"].create(
                operands=[keeping.results[0]], result_types=[result],
                properties={"shape": KINDS["i32_array"].build(list(result.get_shape()))})
            keeping.location = reshape.location = op.location
            Rewriter.replace_op(op, [keeping, reshape])
