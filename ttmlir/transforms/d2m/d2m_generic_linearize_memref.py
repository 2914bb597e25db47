"""`--d2m-generic-linearize-memref`: loads and stores of multi-dimensional L1 memrefs become accesses of the memref
collapsed to one dimension (circular buffers in metal are one-dimensional): `memref.collapse_shape %m [[0, 1]]`,
made once per memref, and the index `affine.apply affine_map<(d0, d1) -> (d0 * 4 + d1)>(%i, %j)` (row-major; only row-major memrefs
collapse, an access to another layout is refused). The collapse goes after the implicit `d2m.remote_load` that fills the buffer, else at the top
of the generic region of a generic the memref is an operand of, else right after the memref is made. Memrefs of
rank 0 or 1, or outside L1, are left as they are."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import AffineMapAttr, ArrayAttr, IntegerAttr, MemRefType, ModuleOp, NoneAttr, i64
from xdsl.dialects.memref import CollapseShapeOp, LoadOp, StoreOp
from xdsl.ir import Block, Operation, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ttmlir.dialects import d2m
from ttmlir.dialects.affine_ext import ApplyOp
from ttmlir.errors import PassFailure, derive
from ttmlir.transforms.d2m.d2m_allocate import memory_space


def _check_contiguous(access: Operation, t: MemRefType) -> None:
    """Only a row-major memref collapses to one dimension without moving data."""
    layout = t.layout
    if isinstance(layout, NoneAttr) or (isinstance(layout, AffineMapAttr) and
                                        layout.data == AffineMap.identity(len(t.get_shape()))):
        return
    raise PassFailure(access, f"'{access.name}' op cannot linearize an access to a memref of layout {layout}: only "
                              f"row-major memrefs collapse to one dimension")


def linear_map(shape) -> AffineMap:
    """The row-major offset of an index into `shape`: `(d0, d1) -> (d0 * 4 + d1)`."""
    expr = None
    for i in range(len(shape)):
        stride = math.prod(shape[i + 1:])
        term = AffineDimExpr(i) if stride == 1 else AffineDimExpr(i) * AffineConstantExpr(stride)
        expr = term if expr is None else expr + term
    return AffineMap(len(shape), 0, (expr,))


def _collapse_point(memref: SSAValue) -> InsertPoint:
    """Where the collapsed memref goes: after the implicit load filling it, at the top of a generic it is an
    operand of, or where it is made."""
    loads = [u.operation for u in memref.uses
             if isinstance(u.operation, d2m.RemoteLoadOp) and u.operation.local is memref]
    if loads:
        return InsertPoint.after(loads[0])
    for use in memref.uses:
        if isinstance(use.operation, d2m.GenericOp) and use.operation.regions:
            return InsertPoint.at_start(use.operation.regions[0].blocks[0])
    if isinstance(memref.owner, Block):
        return InsertPoint.at_start(memref.owner)
    return InsertPoint.after(memref.owner)


@dataclass(frozen=True)
class D2MGenericLinearizeMemrefPass(ModulePass):
    name: ClassVar[str] = "d2m-generic-linearize-memref"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        collapsed: dict[SSAValue, CollapseShapeOp] = {}
        # last access first, as a greedy rewrite visits them: the collapses put at the top of one region come out in
        # the order of the memrefs' first accesses
        for access in reversed([o for o in op.walk() if isinstance(o, (LoadOp, StoreOp))]):
            memref = access.memref
            t = memref.type
            shape = t.get_shape()
            if len(shape) <= 1 or memory_space(t) != "l1":
                continue
            _check_contiguous(access, t)
            if memref not in collapsed:
                flat = MemRefType(t.element_type, [math.prod(shape)], NoneAttr(), t.memory_space)
                collapse = CollapseShapeOp.create(operands=[memref], result_types=[flat], properties={
                    "reassociation": ArrayAttr([ArrayAttr([IntegerAttr(i, i64) for i in range(len(shape))])])})
                derive([collapse], access)
                Rewriter.insert_op(collapse, _collapse_point(memref))
                collapsed[memref] = collapse
            index = ApplyOp(list(access.indices), AffineMapAttr(linear_map(shape)))
            flat_memref = collapsed[memref].result
            if isinstance(access, LoadOp):
                new = LoadOp.get(flat_memref, [index.result])
            else:
                new = StoreOp.get(access.value, flat_memref, [index.result])
            derive([index, new], access)
            Rewriter.replace_op(access, [index, new])
