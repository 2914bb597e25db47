"""`--ttir-consolidate-static-cache-updates`: one cumulative length for a decode step's per-layer caches.

A static KV cache keeps a cumulative length per layer; every layer's starts equal and each step adds the same
constant to each, returning N equal counters computed N times. Arguments that provably position a cache
update (`update_cache`/`paged_update_cache` `update_index`, traced through data movement and adds) and come
back as `add(arg, full(c))` with the same `c` and type are one value at entry, so their uses all go to the
last of them; `--cse` then leaves one add (upstream's pass relies on that lockstep invariant too).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import IntegerAttr, ModuleOp
from xdsl.dialects.func import FuncOp, ReturnOp
from xdsl.ir import BlockArgument, SSAValue
from xdsl.passes import ModulePass

CACHE_UPDATES = ("ttir.update_cache", "ttir.paged_update_cache")
SEE_THROUGH = ("ttir.mesh_shard", "ttir.broadcast", "ttir.repeat", "ttir.reshape", "ttir.typecast")


def _cumulative_lengths(func: FuncOp) -> set[BlockArgument]:
    """Entry arguments some cache update's `update_index` is computed from."""
    entry, found, seen = func.body.blocks.first, set(), set()
    work = [op.operand_groups()["update_index"][0] for op in func.walk() if op.name in CACHE_UPDATES]
    while work:
        value = work.pop()
        if value in seen:
            continue
        seen.add(value)
        if isinstance(value, BlockArgument):
            if value.block is entry:
                found.add(value)
        elif value.owner.name in SEE_THROUGH:
            work.append(value.owner.operands[0])
        elif value.owner.name == "ttir.add":
            work.extend(value.owner.operands)
    return found


def _unsharded(value: SSAValue) -> SSAValue:
    return value.owner.operands[0] if getattr(value.owner, "name", None) == "ttir.mesh_shard" else value


def _int_fill(value: SSAValue) -> int | None:
    fill = value.owner.prop("fill_value") if getattr(value.owner, "name", None) == "ttir.full" else None
    return fill.value.data if isinstance(fill, IntegerAttr) else None


def _writeback(value: SSAValue, lengths: set[BlockArgument]) -> tuple[BlockArgument, tuple] | None:
    """`[mesh_shard(] add(length arg, full(c)) [)]` returned and read by nothing else: (arg, group key)."""
    if getattr(value.owner, "name", None) == "ttir.mesh_shard":
        if not value.has_one_use():
            return None
        value = value.owner.operands[0]
    add = value.owner
    if getattr(add, "name", None) != "ttir.add" or not value.has_one_use():
        return None
    for arg, delta in (add.operands, add.operands[::-1]):
        arg = _unsharded(arg)
        if arg in lengths and (c := _int_fill(delta)) is not None and arg.type == value.type:
            return arg, (c, arg.type)
    return None


@dataclass(frozen=True)
class TTIRConsolidateStaticCacheUpdatesPass(ModulePass):
    """Per-layer cumulative-length arguments advanced by the same constant become one."""

    name: ClassVar[str] = "ttir-consolidate-static-cache-updates"

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        for func in [op for op in module.walk() if isinstance(op, FuncOp) and op.body.blocks]:
            ret = func.body.blocks.last.last_op
            if not isinstance(ret, ReturnOp) or not (lengths := _cumulative_lengths(func)):
                continue
            groups: dict[tuple, list[BlockArgument]] = {}
            for value in ret.operands:
                if (match := _writeback(value, lengths)) is not None:
                    groups.setdefault(match[1], []).append(match[0])
            for args in groups.values():
                for arg in args[:-1]:
                    if arg is not args[-1]:
                        arg.replace_all_uses_with(args[-1])
