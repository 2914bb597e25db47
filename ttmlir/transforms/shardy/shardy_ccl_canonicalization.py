"""`--shardy-ccl-canonicalization`: fewer, cheaper shardy collectives.

- An all_reduce whose only user (identical all_slice users merged into one) slices along the reduced axes is a
  reduce_scatter on those axes (what is left of the slice stays an all_slice): each chip receives only the part it
  keeps.
- A slice undoing a gather (same axes, same dims) gives back the gather's operand: nothing moves.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from ttmlir.dialects import sdy


def _sole_user_merging_twin_slices(op) -> object | None:
    """The one op using `op`'s result; users that are the same all_slice (same axes, same sharding) count as one,
    the later ones replaced by the first, as they compute the same value."""
    users = list(dict.fromkeys(use.operation for use in op.results[0].uses))
    first = users[0] if users else None
    if not isinstance(first, sdy.AllSliceOp) or \
            any(not isinstance(u, sdy.AllSliceOp) or u.properties != first.properties for u in users):
        return first if len(users) == 1 else None
    for twin in users[1:]:
        twin.results[0].replace_all_uses_with(first.results[0])
        Rewriter.erase_op(twin)
    return first


def _sharding(base: sdy.Sharding, dims) -> sdy.ShardingAttr:
    return sdy.ShardingAttr(base._replace(dims=tuple(sdy.DimSharding(tuple(d)) for d in dims)))


def fuse_reduce_scatter(reduce: sdy.AllReduceOp) -> None:
    slice_ = _sole_user_merging_twin_slices(reduce)
    if not isinstance(slice_, sdy.AllSliceOp):
        return
    reduced = set(reduce.reduction_axes.data)
    per_dim = slice_.slicing_axes.data
    if not reduced <= {a for axes in per_dim for a in axes}:
        return
    scatter = [tuple(a for a in axes if a in reduced) for axes in per_dim]
    rest = [tuple(a for a in axes if a not in reduced) for axes in per_dim]
    out = slice_.out_sharding.data
    have = [d.axes for d in reduce.out_sharding.data.dims]
    middle = [h + s for h, s in zip(have, scatter)]
    new = [sdy.ReduceScatterOp(operands=[reduce.tensor], result_types=[reduce.result.type], properties={
        "reduce_scatter_axes": sdy.ListOfAxisRefListsAttr(tuple(scatter)),
        "out_sharding": _sharding(out, middle) if any(rest) else slice_.out_sharding})]
    if any(rest):
        new.append(sdy.AllSliceOp(operands=[new[0].results[0]], result_types=[reduce.result.type], properties={
            "slicing_axes": sdy.ListOfAxisRefListsAttr(tuple(rest)), "out_sharding": slice_.out_sharding}))
    for op in new:
        slice_.parent_block().insert_op_before(op, slice_)
    slice_.results[0].replace_all_uses_with(new[-1].results[0])
    Rewriter.erase_op(slice_)
    Rewriter.erase_op(reduce)


def cancel_gather_slice(gather: sdy.AllGatherOp) -> None:
    slice_ = _sole_user_merging_twin_slices(gather)
    if isinstance(slice_, sdy.AllSliceOp) and slice_.slicing_axes.data == gather.gathering_axes.data:
        slice_.results[0].replace_all_uses_with(gather.tensor)
        Rewriter.erase_op(slice_)
        Rewriter.erase_op(gather)


@dataclass(frozen=True)
class ShardyCCLCanonicalizationPass(ModulePass):
    """Canonicalize Shardy CCL operations."""

    name = "shardy-ccl-canonicalization"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for inner in list(op.walk()):
            if inner.parent is None:  # erased by an earlier rewrite
                continue
            if isinstance(inner, sdy.AllReduceOp):
                fuse_reduce_scatter(inner)
            elif isinstance(inner, sdy.AllGatherOp):
                cancel_gather_slice(inner)
