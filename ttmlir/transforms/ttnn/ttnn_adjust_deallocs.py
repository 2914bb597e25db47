"""`--ttnn-adjust-deallocs`: generated code keeps what it does not own: deallocations of parameters, constants and
`ttcore.load_cached` results (held by the const-eval cache for the next call) are dropped."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.func import FuncOp
from xdsl.ir import BlockArgument
from xdsl.passes import ModulePass

from ttmlir.dialects import ttcore, ttnn
from ttmlir.transforms.ttir.const_eval_hoist_transform import const_args


@dataclass(frozen=True)
class TTNNAdjustDeallocsPass(ModulePass):
    """Drop the deallocation of parameters, constants and const-eval results."""

    name: ClassVar[str] = "ttnn-adjust-deallocs"

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        for func in [f for f in module.walk() if isinstance(f, FuncOp) and f.body.blocks]:
            kept = const_args(func)
            for op in list(func.body.block.ops):
                if not (isinstance(op, ttnn.TTNNOp) and op.ROW.name == "deallocate"):
                    continue
                value = op.operands[0]
                if value in kept if isinstance(value, BlockArgument) else isinstance(value.owner, ttcore.LoadCachedOp):
                    func.body.block.erase_op(op)
