"""`--apply-argument-shard-status`: mark each argument and result `ttcore.shard_status`.

An argument with an `sdy.sharding` (in a GSPMD module, an `mhlo.sharding`) arrives from the framework as per-chip pieces (`presharded`), any other as
one tensor (`unsharded`). Results cannot be told from the graph: `result-presharded=1,0,...` says, one flag
per result of each public function (none given: all unsharded).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.func import FuncOp
from xdsl.passes import ModulePass

from ttmlir.dialects import sdy, ttcore
from ttmlir.errors import PassFailure
from ttmlir.transforms.shardy.sdy_user_priority_propagate import SHARDING, set_func_attr

STATUS = "ttcore.shard_status"
GSPMD = "mhlo.sharding"


def status(value: str):
    return ttcore.ShardStatusAttr(ttcore.ShardStatusAttr.enum_type(value))


@dataclass(frozen=True)
class ApplyArgumentShardStatusPass(ModulePass):
    """Annotate arguments and results with their shard status."""

    name = "apply-argument-shard-status"
    result_presharded: tuple[int, ...] = field(default=())

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        # JAX's GSPMD form marks what it shards with `mhlo.sharding` strings instead of shardy's attribute
        key = SHARDING if sdy.meshes(op) else GSPMD
        for func in [f for f in op.ops if isinstance(f, FuncOp)]:
            attrs = func.arg_attrs.data if func.arg_attrs is not None else ()
            for i in range(len(func.function_type.inputs.data)):
                sharded = i < len(attrs) and key in attrs[i].data
                set_func_attr(func, i, "arg_attrs", STATUS, status("presharded" if sharded else "unsharded"))
            if func.sym_visibility is not None and func.sym_visibility.data != "public":
                continue
            count = len(func.function_type.outputs.data)
            flags = self.result_presharded or (0,) * count
            if len(flags) != count:
                raise PassFailure(op, "The size of the result shard status does not match the number of results "
                                      "in the function.")
            for i, flag in enumerate(flags):
                set_func_attr(func, i, "res_attrs", STATUS, status("presharded" if flag else "unsharded"))
