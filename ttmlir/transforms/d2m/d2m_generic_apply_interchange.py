"""`--d2m-generic-apply-interchange`: reorders the loop dims of matmul-shaped `d2m.generic` ops.

A generic whose iterators end in `parallel..., reduction` and whose three maps read `(.., m, k)`, `(.., k, n)` and
write `(.., m, n)` gets its innermost three dims permuted by `matmul-interchange` (e.g. `2,0,1` makes k the
outermost of them): the indexing maps are rewritten over the new dim order, the iterator types and block factors
are permuted with them, and `d2m.block_index` ops in its regions are renumbered to the dims' new positions."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import AffineMapAttr, ArrayAttr, IntegerAttr, ModuleOp, i64
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.passes import ModulePass

from ttmlir.dialects import d2m
from ttmlir.errors import PassFailure


def matmul_interchange(generic: d2m.GenericOp, desired: tuple[int, ...]) -> list[int] | None:
    """The full permutation of the generic's loop dims for a desired order of its innermost three, or None when
    the generic is not a matmul (upstream's interchange analysis)."""
    iterators = [t.data.value for t in generic.attributes["iterator_types"].data]
    maps = [m.data for m in generic.attributes["indexing_maps"].data]
    if len(iterators) < 3 or iterators[-1] != "reduction" or set(iterators[:-1]) != {"parallel"} or len(maps) != 3:
        return None
    lhs, rhs, out = (m.results for m in maps)
    if not len(lhs) == len(rhs) == len(out) >= 2:
        return None
    if lhs[-2] != out[-2] or lhs[-1] != rhs[-2] or rhs[-1] != out[-1]:
        return None
    offset = len(iterators) - 3
    return [*range(offset), *(offset + d for d in desired)]


def apply_interchange(generic: d2m.GenericOp, interchange: list[int]) -> None:
    """Rewrites the generic's maps, iterators and block factors in the new dim order `interchange` (new position
    -> old dim), and its block indices with them."""
    rank = len(interchange)
    # new dim i is old dim interchange[i]: an old map reads old dims, so it is composed with old <- new
    old_from_new = AffineMap(rank, 0, tuple(AffineExpr.dimension(interchange.index(d)) for d in range(rank)))
    attrs = generic.attributes
    attrs["indexing_maps"] = ArrayAttr([AffineMapAttr(m.data.compose(old_from_new))
                                       for m in attrs["indexing_maps"].data])
    attrs["iterator_types"] = ArrayAttr([attrs["iterator_types"].data[d] for d in interchange])
    attrs["block_factors"] = ArrayAttr([attrs["block_factors"].data[d] for d in interchange])
    for region in generic.regions:
        for op in region.walk():
            if isinstance(op, d2m.BlockIndexOp) and op.dim.value.data < rank:
                op.dim = IntegerAttr(interchange.index(op.dim.value.data), i64)


@dataclass(frozen=True)
class D2MGenericApplyInterchangePass(ModulePass):
    name: ClassVar[str] = "d2m-generic-apply-interchange"
    matmul_interchange: tuple[int, ...] = ()

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if not self.matmul_interchange:
            return
        if sorted(self.matmul_interchange) != [0, 1, 2]:
            raise PassFailure(op, "matmul-interchange must be a permutation of 0,1,2")
        for generic in [g for g in op.walk() if isinstance(g, d2m.GenericOp)]:
            interchange = matmul_interchange(generic, self.matmul_interchange)
            if interchange is not None:
                apply_interchange(generic, interchange)
