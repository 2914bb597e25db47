"""`--convert-ttnn-to-ttir`: the TTNN ops marked `ttnn.hoist_generic_via_d2m` back to the TTIR ops they lower from,
on the same TTNN-laid-out tensors, so `--ttir-to-ttmetal-pipeline="ttnn-mode=true"` compiles them into
`ttnn.generic` programs of the compiler's own kernels. Every other TTNN op stays as it is."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from ttmlir.ir.op_table import TTIR_OPS
from ttmlir.dialects.ttir import TTIR_OP_CLASSES
from ttmlir.dialects.ttnn import TTNNOp
from ttmlir.errors import PassFailure

HOIST_ATTR = "ttnn.hoist_generic_via_d2m"
# the TTIR op each TTNN op lowers from (its row's TTNN name), where that is one op
TTIR_OF_TTNN = {row.ttnn: row.name for row in TTIR_OPS if row.ttnn}


@dataclass(frozen=True)
class ConvertTTNNToTTIRPass(ModulePass):
    """Marked TTNN ops to TTIR: same operands, results and the properties the TTIR op has."""

    name: ClassVar[str] = "convert-ttnn-to-ttir"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for ttnn_op in [o for o in op.walk() if isinstance(o, TTNNOp) and HOIST_ATTR in o.attributes]:
            name = TTIR_OF_TTNN.get(ttnn_op.ROW.name)
            if name is None:
                raise PassFailure(ttnn_op, f"failed to legalize operation '{ttnn_op.name}' that was explicitly "
                                           "marked illegal")
            cls = TTIR_OP_CLASSES[name]
            accepted = {p[0] for p in cls.ROW.props} | {"operandSegmentSizes"}
            new = cls.create(operands=list(ttnn_op.operands), result_types=[r.type for r in ttnn_op.results],
                             properties={k: v for k, v in ttnn_op.properties.items() if k in accepted},
                             attributes={k: v for k, v in ttnn_op.attributes.items() if k != HOIST_ATTR})
            new.location = ttnn_op.location
            ttnn_op.parent_block().insert_op_before(new, ttnn_op)
            for old, result in zip(ttnn_op.results, new.results):
                old.replace_all_uses_with(result)
            ttnn_op.detach()
            ttnn_op.erase()
