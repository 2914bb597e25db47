"""`--partially-convert-sdy-to-stablehlo`: `sdy.constant` becomes `stablehlo.constant`.

Shardy keeps its constants apart so propagation never folds them; once they are ordinary StableHLO, the
StableHLO passes and the conversion to TTIR treat them as any other constant.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from ttmlir.dialects import sdy
from ttmlir.dialects import stablehlo as shlo


@dataclass(frozen=True)
class PartiallyConvertSdyToStableHLOPass(ModulePass):
    """Convert sdy.constant ops to stablehlo.constant."""

    name: ClassVar[str] = "partially-convert-sdy-to-stablehlo"

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        for op in [op for op in module.walk() if isinstance(op, sdy.ConstantOp)]:
            new = shlo.OPS["constant"].create(result_types=[op.output.type], properties={"value": op.value},
                                              attributes=dict(op.attributes))
            Rewriter.replace_op(op, new)
