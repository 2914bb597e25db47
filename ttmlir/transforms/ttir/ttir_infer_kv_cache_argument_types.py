"""`--ttir-infer-kv-cache-argument-types`: function arguments a cache op writes into (fill_cache, update_cache and
their paged forms; through mesh_shard on a mesh) are marked `{ttcore.kv_cache}`, so later passes tell a KV cache
from an ordinary input (its dtype may be lowered, `--ttnn-kv-cache-dtype-conversion`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, UnitAttr
from xdsl.dialects.func import FuncOp
from xdsl.ir import BlockArgument, SSAValue
from xdsl.passes import ModulePass

from ttmlir.ir.tt_op import TTOp
from ttmlir.transforms.shardy.sdy_user_priority_propagate import set_func_attr

KV_CACHE = "ttcore.kv_cache"
CACHE_FAMILY = "cache"
THROUGH = frozenset({"mesh_shard"})  # a cache split over chips is still the argument's cache


def cache_argument(value: SSAValue) -> BlockArgument | None:
    """The function argument a cache operand is (through mesh_shard), if it is one."""
    while not isinstance(value, BlockArgument):
        owner = value.owner
        if not (isinstance(owner, TTOp) and owner.ROW.name in THROUGH):
            return None
        value = owner.operands[0]
    return value if isinstance(value.block.parent_op(), FuncOp) else None


def cache_operands(module: ModuleOp) -> list[tuple[TTOp, SSAValue]]:
    """Every cache op with the cache it writes into."""
    return [(op, op.operand_groups()["cache"][0]) for op in module.walk()
            if isinstance(op, TTOp) and op.ROW.family == CACHE_FAMILY]


@dataclass(frozen=True)
class TTIRInferKVCacheArgumentTypesPass(ModulePass):
    """Mark the function arguments cache ops write into as `ttcore.kv_cache`."""

    name: ClassVar[str] = "ttir-infer-kv-cache-argument-types"

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        for _, cache in cache_operands(module):
            if (arg := cache_argument(cache)) is not None:
                set_func_attr(arg.block.parent_op(), arg.index, "arg_attrs", KV_CACHE, UnitAttr())
