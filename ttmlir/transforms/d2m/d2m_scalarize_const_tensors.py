"""`--d2m-scalarize-const-tensors`: a tensor every element of which is one constant (a fill generic: one
`linalg.generic` of no inputs computing `d2m.tile_fill` of an `arith.constant`) that a tile op reads as its right
operand, where the op takes a scalar there (`d2m.tile_add`, `_sub`, `_mul`, `_div`, `_pow`), is read as that scalar
instead: the constant is made in the op's linalg body, the tile input, its load and the generic's operand go, and
the fill and the layout changes leading from it go once nothing reads them. The tensor is followed from the fill
through `d2m.to_layout`, `d2m.view_layout` and `ttir.ttnn_metal_layout_cast`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects import arith, linalg
from xdsl.dialects.builtin import ArrayAttr, DenseArrayBase, FloatAttr, IntegerAttr, ModuleOp, i32
from xdsl.dialects.tensor import EmptyOp as TensorEmptyOp
from xdsl.ir import Attribute, BlockArgument, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import IsTerminator

from ttmlir.dialects import d2m
from ttmlir.dialects.ttir import TTNNMetalLayoutCastOp

# tile ops whose right operand may be a scalar
SCALAR_RHS = frozenset(f"d2m.tile_{op}" for op in ("add", "sub", "mul", "div", "pow"))
LAYOUT_CHANGES = (d2m.ToLayoutOp, d2m.ViewLayoutOp, TTNNMetalLayoutCastOp)
HELPERS = (arith.ConstantOp, TensorEmptyOp, d2m.BlockIndexOp, *LAYOUT_CHANGES)


def splat_of(generic: d2m.GenericOp) -> Attribute | None:
    """The constant a fill generic fills its output with, or None if `generic` is not one."""
    if not generic.regions or not generic.regions[0].blocks:
        return None
    fills = [op for op in generic.regions[0].block.ops if isinstance(op, linalg.GenericOp)]
    if len(fills) != 1 or fills[0].inputs:
        return None
    body = [op for op in fills[0].body.block.ops if not op.has_trait(IsTerminator)]
    tiles = [op for op in body if isinstance(op, d2m.TileFillOp)]
    if len(tiles) != 1 or any(not isinstance(op, (d2m.TileFillOp, arith.ConstantOp)) for op in body):
        return None
    source = tiles[0].value.owner
    return source.value if isinstance(source, arith.ConstantOp) else None


def _readers(value: SSAValue, seen: set) -> list[tuple[d2m.GenericOp, int]]:
    """The (generic, input index) pairs reading `value`, through layout changes and casts."""
    found = []
    for use in value.uses:
        user = use.operation
        if isinstance(user, LAYOUT_CHANGES) and user.results:
            if user not in seen:
                seen.add(user)
                found += _readers(user.results[0], seen)
        elif isinstance(user, d2m.GenericOp):
            found += [(user, i) for i, v in enumerate(user.inputs) if v == value]
    return found


def _tile_args(generic: d2m.GenericOp, index: int) -> list[BlockArgument]:
    """The linalg block arguments that are blocks loaded from the generic's input `index`."""
    args = []
    for region in generic.regions:
        for inner in region.walk():
            if isinstance(inner, linalg.GenericOp):
                for position, value in enumerate(inner.inputs):
                    load = value.owner
                    if isinstance(load, d2m.RemoteLoadOp) and load.source == generic.operands[index]:
                        args.append(inner.body.block.args[position])
    return args


def _scalar_use(user: Operation, arg: SSAValue) -> bool:
    return user.name in SCALAR_RHS and len(user.operands) >= 2 and user.operands[1] == arg


def _without_inputs(op: linalg.GenericOp) -> None:
    """`op` again without the inputs its body no longer reads (and the loads that only fed them)."""
    block = op.body.block
    dropped = [i for i in range(len(op.inputs)) if not block.args[i].uses]
    if not dropped:
        return
    loads = [op.inputs[i].owner for i in dropped if isinstance(op.inputs[i].owner, d2m.RemoteLoadOp)
             and op.inputs[i].has_one_use()]
    keep = [i for i in range(len(op.operands)) if i not in dropped]
    maps = [op.indexing_maps.data[i] for i in keep]
    for i in reversed(dropped):
        block.erase_arg(block.args[i])
    made = linalg.GenericOp([op.inputs[i] for i in range(len(op.inputs)) if i not in dropped], list(op.outputs),
                            op.detach_region(op.body), maps, op.iterator_types, [r.type for r in op.results],
                            op.doc, op.library_call)
    made.location = op.location
    Rewriter.replace_op(op, made)
    for load in loads:
        if not load.results[0].uses:
            Rewriter.erase_op(load)


def _drop_dead_helpers(generic: d2m.GenericOp) -> None:
    """Erase the constants, empties, block indices and layout changes in `generic` nothing reads any more."""
    pending = True
    while pending:
        pending = False
        for region in generic.regions:
            for inner in list(region.walk()):
                if isinstance(inner, HELPERS) and inner.parent is not None and \
                        all(not r.uses for r in inner.results):
                    Rewriter.erase_op(inner)
                    pending = True


def _without_unread_inputs(generic: d2m.GenericOp) -> None:
    """`generic` again without the inputs no op of its regions reads."""
    read = {v for region in generic.regions for block in region.blocks for op in block.ops for v in op.operands}
    dropped = [i for i, v in enumerate(generic.inputs) if v not in read]
    if not dropped:
        return
    inputs = [v for i, v in enumerate(generic.inputs) if i not in dropped]
    maps = generic.attributes["indexing_maps"].data
    attributes = {**generic.attributes,
                  "indexing_maps": ArrayAttr([m for i, m in enumerate(maps) if i not in dropped])}
    made = d2m.GenericOp.create(
        operands=[*inputs, *generic.outputs, *generic.additional_args], result_types=[r.type for r in generic.results],
        attributes=attributes, regions=[generic.detach_region(r) for r in list(generic.regions)],
        properties={**generic.properties, "operandSegmentSizes": DenseArrayBase.from_list(
            i32, [len(inputs), len(generic.outputs), len(generic.additional_args)])})
    made.location = generic.location
    Rewriter.replace_op(generic, made)


def _drop_unread(op: Operation) -> None:
    """Erase `op` and the layout changes it feeds, readers first, where nothing reads them."""
    for result in op.results:
        for use in list(result.uses):
            if isinstance(use.operation, LAYOUT_CHANGES):
                _drop_unread(use.operation)
    if op.parent is not None and all(not r.uses for r in op.results):
        Rewriter.erase_op(op)


@dataclass(frozen=True)
class D2MScalarizeConstTensorsPass(ModulePass):
    """A filled tensor read as a scalar right operand, read as the constant (see the module doc)."""

    name: ClassVar[str] = "d2m-scalarize-const-tensors"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        plans = []
        for generic in [g for g in op.walk() if isinstance(g, d2m.GenericOp)]:
            splat = splat_of(generic)
            if splat is not None and generic.results:
                readers = _readers(generic.results[0], set())
                if readers:
                    plans.append((generic, splat, readers))
        linalgs: list[linalg.GenericOp] = []
        generics: list[d2m.GenericOp] = []
        for fill, splat, readers in plans:
            for generic, index in readers:
                for arg in _tile_args(generic, index):
                    users = [u.operation for u in arg.uses if _scalar_use(u.operation, arg)]
                    if not users or not isinstance(splat, (FloatAttr, IntegerAttr)):
                        continue
                    constant = arith.ConstantOp(splat)
                    constant.location = fill.location
                    Rewriter.insert_op(constant, InsertPoint.at_start(arg.block))
                    for user in users:
                        user.operands = [user.operands[0], constant.result, *user.operands[2:]]
                    if not arg.uses and arg.block.parent_op() not in linalgs:
                        linalgs.append(arg.block.parent_op())
                if generic not in generics:
                    generics.append(generic)
        for inner in linalgs:
            _without_inputs(inner)
        for generic in generics:
            _drop_dead_helpers(generic)
        for generic in generics:
            _without_unread_inputs(generic)
        for fill, _, _ in plans:
            if fill.parent is not None:
                _drop_unread(fill)
