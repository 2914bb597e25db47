"""`--d2m-lower-multicast-loads`: a `d2m.remote_load` in high-level multicast form (`mcast[%d]`: the operand's
indexing-map results whose cores share the block) rewritten in low-level form, `mcore[...] mshape[...]`: the
rectangle of cores the block goes to, in the generic's grid coordinates.

Along an output grid dim the load multicasts over, the rectangle starts at this core (`d2m.core_index(dim)`) and is
one core wide; along the other dim it spans the whole grid from 0. On a virtual grid the extents are those of the
physical rectangle (through the output buffer's `d2m.virtualGridForwardMapping`),
while the start stays virtual. The load stays a plain unicast load (its `mcast[...]` dropped) when the grid is not
2-d, when some parallel dim of the operand's map is not multicast or a map result is not a plain dim, or when the
cores sharing the block are a single core."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType, IntegerAttr, ModuleOp, i64
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, PatternRewriteWalker, RewritePattern, op_type_rewrite_pattern

from ttmlir.dialects import d2m
from ttmlir.dialects.d2m_index import CoreIndexOp
from ttmlir.errors import derive
from ttmlir.transforms.d2m.memory_maps import forward_mapping

def _dim(amap: AffineMap, result: int) -> int | None:
    expr = amap.results[result]
    return expr.position if isinstance(expr, AffineDimExpr) else None


def _inverse_dims(amap: AffineMap) -> list[int | None]:
    """MLIR's inverseAndBroadcastProjectedPermutation, as the result each of `amap`'s dims comes from (None: a
    broadcast dim, mapped to 0)."""
    inverse: list[int | None] = [None] * amap.num_dims
    for i in range(len(amap.results)):
        if (d := _dim(amap, i)) is not None:
            inverse[d] = i
    return inverse


def _constant_index(value: SSAValue) -> int | None:
    owner = value.owner
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    return None


def _physical_extents(generic: d2m.GenericOp, extents: list[int]) -> list[int]:
    """`extents` (a rectangle of the generic's virtual grid) as the physical rectangle it covers, when the grid is
    virtual: through the output buffer's forward map (shard coordinates at 0; the generic's verifier asks a
    virtual grid's output for one)."""
    forward = forward_mapping(generic.outputs[0]) if generic.outputs else None
    if forward is None:
        return extents
    pad = [0] * (forward.num_dims - len(extents))
    end = forward.eval([e - 1 for e in extents] + pad, [])[:len(extents)]
    start = forward.eval([0] * forward.num_dims, [])[:len(extents)]
    return [b - a + 1 for a, b in zip(start, end)]


class LowerMulticastLoad(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: d2m.RemoteLoadOp, rewriter: PatternRewriter, /):
        if not op.mcast or op.mcast_start:
            return
        generic = op.parent_op()
        while generic is not None and not isinstance(generic, d2m.GenericOp):
            generic = generic.parent_op()
        maps = generic.attributes.get("indexing_maps").data if generic is not None else ()
        if not maps:  # explicit data-movement form: no indexing maps to read the multicast dims off
            return
        grid = generic.attributes["grid"]
        shape = list(grid.data.shape)
        operand_map = maps[list(generic.operands).index(op.source)].data
        output_map = maps[len(generic.inputs)].data
        iterators = [it.data.value for it in generic.attributes["iterator_types"].data]
        mcast_dims = {d for v in op.mcast if (i := _constant_index(v)) is not None
                      and (d := _dim(operand_map, i)) is not None}
        unicast = len(shape) != 2
        for i in range(len(operand_map.results)):
            d = _dim(operand_map, i)
            if d is None or (iterators[d] == "parallel" and d not in mcast_dims):
                unicast = True
        if not unicast:
            # a dim the operand and the output share is orthogonal to the multicast: the cores along the other
            # grid dim share the block, and one core alone is no multicast
            for d, (a, b) in enumerate(zip(_inverse_dims(operand_map), _inverse_dims(output_map))):
                if a is not None and a == b and shape[1 - a] < 2:
                    unicast = True
        if unicast:
            load = d2m.RemoteLoadOp.create(
                operands=[op.local, op.source, *op.indices], result_types=[r.type for r in op.results],
                attributes=dict(op.attributes),
                properties={"operandSegmentSizes": d2m._segments([op.local], [op.source], op.indices,
                                                                 [], [], [], [])})
            derive([load], op)
            rewriter.replace_op(op, load)
            return
        zero = arith.ConstantOp(IntegerAttr(0, IndexType()))
        new: list[Operation] = [zero]
        start: list[SSAValue] = []
        extents: list[int] = []
        for dim in range(len(shape)):
            if (d := _dim(output_map, dim)) is None:
                continue
            if d in mcast_dims:
                core = CoreIndexOp.create(properties={"dim": IntegerAttr(dim, i64)}, result_types=[IndexType()])
                new.append(core)
                start.append(core.result)
                extents.append(1)
            else:
                start.append(zero.result)
                extents.append(shape[dim])
        extents = _physical_extents(generic, extents)
        sizes = [arith.ConstantOp(IntegerAttr(e, IndexType())) for e in extents]
        new += sizes
        load = d2m.RemoteLoadOp.create(
            operands=[op.local, op.source, *op.indices, *start, *(s.result for s in sizes)],
            result_types=[r.type for r in op.results], attributes=dict(op.attributes),
            properties={"operandSegmentSizes": d2m._segments([op.local], [op.source], op.indices, [], start,
                                                             sizes, [])})
        derive([*new, load], op)
        rewriter.insert_op(new)
        rewriter.replace_op(op, load)


@dataclass(frozen=True)
class D2MLowerMulticastLoadsPass(ModulePass):
    """High-level multicast loads to core rectangles (see the module doc)."""

    name: ClassVar[str] = "d2m-lower-multicast-loads"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(LowerMulticastLoad(), apply_recursively=False).rewrite_module(op)
