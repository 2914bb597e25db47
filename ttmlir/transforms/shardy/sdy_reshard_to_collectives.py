"""`--sdy-reshard-to-collectives`: each `sdy.reshard` becomes the collectives that move the pieces.

An axis moving from one dimension to another is an `sdy.all_to_all` (`[{"y"}, {}]` to `[{}, {"y"}]`); other
axes a dimension loses are gathered (`sdy.all_gather`), axes it gains are sliced (`sdy.all_slice`).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from ttmlir.dialects import sdy
from ttmlir.transforms.shardy.sdy_user_priority_propagate import value_sharding


def lower_reshard(op: sdy.ReshardOp) -> None:
    dst = op.sharding.data
    rank = len(dst.dims)
    src = value_sharding(op.input) or sdy.replicated_sharding(dst.mesh, rank)
    have = [d.axes for d in src.dims]
    want = [d.axes for d in dst.dims]
    gather = [tuple(a for a in h if a not in w) for h, w in zip(have, want)]
    kept = [tuple(a for a in h if a in w) for h, w in zip(have, want)]
    slice_ = [tuple(a for a in w if a not in k) for w, k in zip(want, kept)]
    # an axis leaving one dimension for another moves with one all_to_all instead of a gather and a slice
    moves = [sdy.AllToAllParam((a,), src, tgt) for src in range(rank) for a in gather[src]
             for tgt in range(rank) if a in slice_[tgt]]
    value = op.input

    def emit(cls, key, attr, dims):
        nonlocal value
        new = cls(operands=[value], result_types=[value.type], properties={
            key: attr,
            "out_sharding": sdy.ShardingAttr(sdy.Sharding(dst.mesh, tuple(sdy.DimSharding(d) for d in dims)))})
        op.parent_block().insert_op_before(new, op)
        value = new.results[0]

    if moves:
        moved = {m.axes[0] for m in moves}
        have = [tuple(a for a in h if a not in moved) + tuple(m.axes[0] for m in moves if m.tgt_dim == d)
                for d, h in enumerate(have)]
        emit(sdy.AllToAllOp, "params", sdy.AllToAllParamListAttr(tuple(moves)), have)
        gather = [tuple(a for a in g if a not in moved) for g in gather]
        slice_ = [tuple(a for a in s if a not in moved) for s in slice_]
        kept = [tuple(a for a in h if a in w) for h, w in zip(have, want)]
    if any(gather):
        emit(sdy.AllGatherOp, "gathering_axes", sdy.ListOfAxisRefListsAttr(tuple(gather)), kept)
    if any(slice_):
        emit(sdy.AllSliceOp, "slicing_axes", sdy.ListOfAxisRefListsAttr(tuple(slice_)), want)
    op.results[0].replace_all_uses_with(value)
    Rewriter.erase_op(op)


@dataclass(frozen=True)
class ReshardToCollectivesPass(ModulePass):
    """Convert reshards to gathers and slices."""

    name = "sdy-reshard-to-collectives"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for inner in list(op.walk()):
            if isinstance(inner, sdy.ReshardOp):
                lower_reshard(inner)
