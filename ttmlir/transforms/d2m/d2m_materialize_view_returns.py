"""`--d2m-materialize-view-returns`: a view (`d2m.view_layout`, `d2m.composite_view`: a view moves no data) that is
returned, or moved to the host by `d2m.to_host` or a device-to-host `d2m.to_layout`, is first read by a generic into
a tensor of its own, which is returned or moved instead: the region loads the view's block and stores it. A view
moved to another device layout stays a view."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import AffineMapAttr, ModuleOp
from xdsl.dialects.func import ReturnOp
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.passes import ModulePass

from ttmlir.dialects import d2m
from ttmlir.dialects.d2m_composite_view import CompositeViewOp
from ttmlir.dialects.ttcore import MetalLayoutAttr
from ttmlir.conversion.ttir_to_d2m.ttir_to_d2m import build_generic


def _materialized(view: SSAValue, before: Operation) -> SSAValue:
    """The view's blocks copied, block for block on its grid, into a new tensor made just before `before`."""
    shape = view.type.get_shape()
    rank = len(shape) // 2
    identity = AffineMapAttr(AffineMap.identity(rank))
    empty = d2m.EmptyOp.create(result_types=[view.type])
    copy = build_generic([view], empty.result, [identity, identity], ["parallel"] * rank,
                         lambda ops, loaded, out, maps: loaded[0], tuple(shape[:rank]))
    for made in (empty, copy):
        made.location = view.owner.location
    before.parent_block().insert_ops_before([empty, copy], before)
    return copy.results[0]


_VIEWS = (d2m.ViewLayoutOp, CompositeViewOp)


def _to_host_layout(op: Operation) -> bool:
    """A `d2m.to_layout` onto the host: its destination has no device layout."""
    return isinstance(op, d2m.ToLayoutOp) and not isinstance(getattr(op.output.type, "encoding", None),
                                                                 MetalLayoutAttr)


@dataclass(frozen=True)
class D2MMaterializeViewReturnsPass(ModulePass):
    name: ClassVar[str] = "d2m-materialize-view-returns"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for user in [o for o in op.walk() if isinstance(o, (ReturnOp, d2m.ToHostOp)) or _to_host_layout(o)]:
            for i, value in enumerate(user.operands):
                if isinstance(value.owner, _VIEWS) and (isinstance(user, ReturnOp) or i == 0):
                    user.operands = [*user.operands[:i], _materialized(value, user), *user.operands[i + 1:]]
