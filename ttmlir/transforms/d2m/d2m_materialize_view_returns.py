"""`--d2m-materialize-view-returns`: a returned `d2m.view_layout` (a view moves no data) is read by a generic into a
tensor of its own, which is returned instead: the region loads the view's block and stores it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import AffineMapAttr, ModuleOp
from xdsl.dialects.func import ReturnOp
from xdsl.ir.affine import AffineMap
from xdsl.passes import ModulePass

from ttmlir.dialects import d2m
from ttmlir.conversion.ttir_to_d2m.ttir_to_d2m import build_generic


@dataclass(frozen=True)
class D2MMaterializeViewReturnsPass(ModulePass):
    name: ClassVar[str] = "d2m-materialize-view-returns"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for ret in [r for r in op.walk() if isinstance(r, ReturnOp)]:
            for i, value in enumerate(ret.operands):
                if not isinstance(value.owner, d2m.ViewLayoutOp):
                    continue
                identity = AffineMapAttr(AffineMap.identity(2))
                empty = d2m.EmptyOp.create(result_types=[value.type])
                shape = value.type.get_shape()
                copy = build_generic([value], empty.result, [identity, identity], ["parallel"] * 2,
                                     lambda ops, loaded, out: loaded[0], tuple(shape[:len(shape) // 2]))
                for made in (empty, copy):
                    made.location = value.owner.location
                ret.parent_block().insert_ops_before([empty, copy], ret)
                ret.operands = [*ret.operands[:i], copy.results[0], *ret.operands[i + 1:]]
