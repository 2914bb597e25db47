"""`--d2m-generate-outer-loops`: a blocked generic's single region (block factors, indexing maps and iterator types
set) runs once per block of its iteration space, made explicit: the region's body goes inside one `affine.for` per
loop dim, from 0 to `d2m.get_block_factor(i)` (all read at the region's top), each loop marked `d2m.blocking_loop = i`
(and `d2m.reduction_loop` when dim i is a reduction), and each `d2m.block_index(i)` becomes the loop's index plus the
core's first block, `d2m.block_offset(i)`. A region already in loops (a top-level blocking loop) or of explicit data
movement (no blocking attributes) is left as it is."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects import affine, arith
from xdsl.dialects.builtin import AffineMapAttr, ArrayAttr, IndexType, IntegerAttr, ModuleOp, UnitAttr, i64
from xdsl.ir import Block, Region
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ttmlir.dialects import d2m, ttcore
from ttmlir.dialects.d2m_index import BlockOffsetOp, GetBlockFactorOp
from ttmlir.errors import PassFailure, derive

BLOCKING_LOOP, REDUCTION_LOOP = "d2m.blocking_loop", "d2m.reduction_loop"
_UPPER = AffineMapAttr(AffineMap(0, 1, (AffineExpr.symbol(0),)))  # ()[s0] -> (s0)


def _list(generic: d2m.GenericOp, name: str) -> list:
    value = generic.attributes.get(name)
    return list(value.data) if isinstance(value, ArrayAttr) else []


def _index(dim: int, kind) -> object:
    return kind.create(properties={"dim": IntegerAttr(dim, i64)}, result_types=[IndexType()])


def generate(generic: d2m.GenericOp) -> None:
    factors = _list(generic, "block_factors")
    if not factors or not _list(generic, "indexing_maps") or not _list(generic, "iterator_types"):
        return  # explicit data movement: the region manages its own loops
    if len(generic.regions) != 1 or not generic.regions[0].blocks:
        return
    body = generic.regions[0].blocks[0]
    if any(isinstance(op, affine.ForOp) and BLOCKING_LOOP in op.attributes for op in body.ops):
        return
    iterators = _list(generic, "iterator_types")
    bounds = [_index(i, GetBlockFactorOp) for i in range(len(factors))]
    inner = Block(arg_types=[IndexType()])
    loops = []
    for i in reversed(range(len(factors))):
        block = inner if not loops else Block([loops[-1], affine.YieldOp.get()], arg_types=[IndexType()])
        loop = affine.ForOp.from_region([], [bounds[i].result], [], [], 0, _UPPER, Region(block))
        loop.attributes[BLOCKING_LOOP] = IntegerAttr(i, i64)
        if i < len(iterators) and isinstance(iterators[i], ttcore.IteratorTypeAttr) and \
                iterators[i].data.value == "reduction":
            loop.attributes[REDUCTION_LOOP] = UnitAttr()
        loops.append(loop)
    loops.reverse()  # outermost first
    for op in list(body.ops):
        op.detach()
        inner.add_op(op)
    inner.add_op(affine.YieldOp.get())
    for op in [o for o in inner.walk() if isinstance(o, d2m.BlockIndexOp)]:
        dim = op.dim.value.data
        if not 0 <= dim < len(loops):
            raise PassFailure(op, f"'d2m.block_index' op dim {dim} is out of range for the generic's "
                                  f"{len(loops)} loop dims")
        offset = _index(dim, BlockOffsetOp)
        index = arith.AddiOp(loops[dim].body.block.args[0], offset.result)
        derive([offset, index], op)
        Rewriter.replace_op(op, [offset, index])
    derive([*bounds, *loops], generic)
    Rewriter.insert_op([*bounds, loops[0]], InsertPoint.at_end(body))


@dataclass(frozen=True)
class D2MGenerateOuterLoopsPass(ModulePass):
    name: ClassVar[str] = "d2m-generate-outer-loops"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for generic in [o for o in op.walk() if isinstance(o, d2m.GenericOp)]:
            generate(generic)
