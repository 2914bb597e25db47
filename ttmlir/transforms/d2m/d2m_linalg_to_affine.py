"""`--d2m-linalg-to-affine`: the `linalg.generic` ops in a `d2m.generic`'s compute (or unified) regions become
affine loop nests, one `affine.for` per loop dim, the way MLIR lowers linalg to affine loops: the innermost body
loads every operand's element at its indexing map (`affine.load`), computes the linalg body on them and stores the
yielded values into the outputs (`affine.store`). With `mark-root-loops` the outermost loop of each nest is tagged
`d2m.linalg_root`, which the DST register passes look for."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects import affine
from xdsl.dialects.builtin import AffineMapAttr, IndexType, MemRefType, ModuleOp, UnitAttr
from xdsl.dialects.linalg import GenericOp as LinalgGenericOp, YieldOp as LinalgYieldOp
from xdsl.ir import Block, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr
from xdsl.passes import ModulePass

from ttmlir.dialects import affine_ext, d2m
from ttmlir.errors import PassFailure, derive

COMPUTE_THREADS = ("compute", "unified")


def compute_regions(generic: d2m.GenericOp):
    """The generic's regions that compute on tiles (compute or unified threads)."""
    threads = generic.attributes.get("threads")
    kinds = [t.thread for t in threads.data] if threads is not None else []
    return [r for r, kind in zip(generic.regions, kinds) if kind in COMPUTE_THREADS]


def _loop_extents(op: LinalgGenericOp) -> list[int]:
    """Each loop dim's trip count, from the first operand dim its maps index by it alone."""
    maps = [m.data for m in op.indexing_maps.data]
    extents: list[int | None] = [None] * maps[0].num_dims
    for value, map_ in zip(op.operands, maps):
        if not isinstance(value.type, MemRefType):
            continue
        for expr, size in zip(map_.results, value.type.get_shape()):
            if isinstance(expr, AffineDimExpr) and extents[expr.position] is None and size >= 0:
                extents[expr.position] = size
    if any(e is None for e in extents):
        raise PassFailure(op, "failed to convert linalg.generic to affine loops: a loop dim has no static extent")
    return extents


def to_affine_loops(op: LinalgGenericOp) -> affine.ForOp:
    """Replaces the linalg op by its loop nest (inserted where it was) and returns the outermost loop."""
    if op.results:
        raise PassFailure(op, "failed to convert linalg.generic to affine loops: it computes on tensors, not memrefs")
    extents = _loop_extents(op)
    if not extents:
        raise PassFailure(op, "failed to convert linalg.generic to affine loops: it has no loops")
    bodies = [Block(arg_types=[IndexType()]) for _ in extents]
    loops = [affine_ext.for_loop(0, extent, Region(body)) for extent, body in zip(extents, bodies)]
    for body, inner in zip(bodies, loops[1:]):
        body.add_ops([inner, affine.YieldOp.get()])
    op.parent_block().insert_op_before(loops[0], op)
    ivs = [body.args[0] for body in bodies]
    innermost = bodies[-1]
    maps = [m.data for m in op.indexing_maps.data]
    mapping: dict[SSAValue, SSAValue] = {}
    for value, map_, arg in zip(op.operands, maps, op.body.block.args):
        if isinstance(value.type, MemRefType):
            load = affine_ext.LoadOp(value, ivs, AffineMapAttr(map_))
            innermost.add_op(load)
            mapping[arg] = load.result
        else:  # a scalar operand is used as it is
            mapping[arg] = value
    for inner in op.body.block.ops:
        if isinstance(inner, LinalgYieldOp):
            for yielded, output, map_ in zip(inner.operands, op.outputs, maps[len(op.inputs):]):
                store = affine_ext.StoreOp(mapping.get(yielded, yielded), output, ivs, AffineMapAttr(map_))
                innermost.add_op(store)
        else:
            clone = inner.clone(value_mapper=mapping)
            derive([clone], inner)
            innermost.add_op(clone)
    innermost.add_op(affine.YieldOp.get())
    derive([o for o in loops[0].walk() if not hasattr(o, "derived_from")], op)  # the loops, loads and stores
    op.detach()
    op.erase()
    return loops[0]


@dataclass(frozen=True)
class D2MLinalgToAffinePass(ModulePass):
    name: ClassVar[str] = "d2m-linalg-to-affine"
    mark_root_loops: bool = True

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for generic in [g for g in op.walk() if isinstance(g, d2m.GenericOp)]:
            for region in compute_regions(generic):
                for linalg_op in [o for o in region.walk() if isinstance(o, LinalgGenericOp)]:
                    root = to_affine_loops(linalg_op)
                    if self.mark_root_loops:
                        root.attributes["d2m.linalg_root"] = UnitAttr()
