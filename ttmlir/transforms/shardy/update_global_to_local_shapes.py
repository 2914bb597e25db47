"""`--update-global-to-local-shapes`: a manual computation's body from global to per-chip shapes.

Every mesh axis becomes manual; the body's arguments take their in_sharding's local shape and every op the
local shape its `sdy.sharding` gives its results (the annotation is then dropped: the values are per-chip
pieces). Split constants keep their first piece. The shardy collectives, which describe data movement on
global values, become collectives on the local ones: StableHLO's all_gather, all_reduce, reduce_scatter and
all_to_all, one per mesh axis they move data over. StableHLO has no all_slice: one of a value every chip holds
whole becomes a `stablehlo.composite "sdy.all_slice"` (its `out_sharding` kept, for the TTIR lowering's
`ttir.mesh_partition`) whose decomposition `@sdy.all_slice<N>` computes it with all_to_alls; one of a value
already split is a `ttir.mesh_partition`. A custom call whose per-chip piece depends on the chip's place along a
split dim (`PLACED`) is told the mesh axis of that split as its `cluster_axis` frontend attribute.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import (DenseArrayBase, DenseIntOrFPElementsAttr, DictionaryAttr, IntegerAttr, ModuleOp,
                                   StringAttr, SymbolRefAttr, TensorType, i64)
from xdsl.dialects.func import FuncOp, ReturnOp
from xdsl.ir import Block, Operation, Region
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from ttmlir.dialects import sdy
from ttmlir.errors import PassFailure
from ttmlir.conversion.stablehlo_to_ttir.ccl import all_slice_by_all_to_all, axis_numbers, ccl_ops
from ttmlir.transforms.shardy.sdy_user_priority_propagate import value_sharding

COLLECTIVES = (sdy.AllGatherOp, sdy.AllSliceOp, sdy.ReduceScatterOp, sdy.AllReduceOp, sdy.AllToAllOp)


def localize(t, sharding: sdy.Sharding, mesh: sdy.Mesh, where: Operation) -> TensorType:
    if not isinstance(t, TensorType):
        return t
    shape = sdy.local_shape(t.get_shape(), sharding, mesh)
    if shape is None:
        raise PassFailure(where, f"tensor of shape {'x'.join(map(str, t.get_shape()))} does not split evenly as "
                                 f"{sharding} says")
    return TensorType(t.element_type, shape)


def _constant(op: Operation, type_: TensorType) -> None:
    """A split constant's piece: the first one (`--replicate-non-splittable-values` kept only constants whose
    pieces are all alike split)."""
    value = op.properties["value"] if "value" in op.properties else op.attributes.get("value")
    if not isinstance(value, DenseIntOrFPElementsAttr) or value.type == type_:
        return
    values = list(value.get_values())
    if len(values) > 1:
        full, local = value.type.get_shape(), type_.get_shape()
        values = [values[sum(i * math.prod(full[d + 1:]) for d, i in enumerate(index))]
                  for index in itertools.product(*(range(n) for n in local))]
    else:
        values = values[:1]
    new = DenseIntOrFPElementsAttr.from_list(type_, values)
    if "value" in op.properties:
        op.properties["value"] = new
    else:
        op.attributes["value"] = new


def _slice(op: Operation) -> None:
    """A slice taking a split dimension whole (or striding over all of it) ends at the piece's end: the operand
    is already the piece, so a limit past its size is its size."""
    local = op.operands[0].type.get_shape()
    limits = [min(limit, size) for limit, size in zip(op.properties["limit_indices"].get_values(), local)]
    op.properties["limit_indices"] = DenseArrayBase.from_list(i64, limits)


def _gather(op: Operation) -> None:
    """A gather slicing a split operand dim whole slices the piece whole."""
    local = op.operands[0].type.get_shape()
    sizes = [min(size, n) for size, n in zip(op.properties["slice_sizes"].get_values(), local)]
    op.properties["slice_sizes"] = DenseArrayBase.from_list(i64, sizes)


def _feature_groups(op: Operation) -> None:
    """A grouped convolution whose input features are split keeps its group size: fewer groups per chip."""
    from ttmlir.dialects.stablehlo import int_of

    groups = int_of(op.properties.get("feature_group_count"), 1)
    if groups == 1:
        return
    feature = op.properties["dimension_numbers"].data.input_dims[1]
    kernel = op.operands[1].type.get_shape()[op.properties["dimension_numbers"].data.kernel_dims[0]]
    local = op.operands[0].type.get_shape()[feature] // kernel
    op.properties["feature_group_count"] = IntegerAttr(local, i64)


# custom calls computing from their place along a split dim: the (operand, dim) whose split names the mesh axis
PLACED = {"tt.indexer_score_dsa": (0, 2)}  # the query sequence: each chip's rows start at its place's offset


def _name_place(op: Operation, sharding: sdy.Sharding | None, mesh: sdy.Mesh) -> None:
    """`op`'s `cluster_axis` frontend attribute: the mesh axis its PLACED dim is split over, unless its user named
    one; split over several axes it has no one place."""
    operand, dim = PLACED[op.properties["call_target_name"].data]
    axes = axis_numbers(mesh, sharding.dims[dim].axes) if sharding is not None and dim < len(sharding.dims) else []
    given = op.attributes.get("mhlo.frontend_attributes")
    attrs = dict(given.data) if isinstance(given, DictionaryAttr) else {}
    if not axes or "cluster_axis" in attrs:
        return
    if len(axes) > 1:
        raise PassFailure(op, f"dimension {dim} of operand {operand} is split over several mesh axes: the call "
                              "takes its place along one")
    op.attributes["mhlo.frontend_attributes"] = DictionaryAttr({**attrs, "cluster_axis": StringAttr(str(axes[0]))})


def _replicated(sharding: sdy.Sharding | None) -> bool:
    return sharding is None or not any(d.axes for d in sharding.dims)


def _all_slice_composite(op: sdy.AllSliceOp, mesh: sdy.Mesh, module: ModuleOp) -> Operation | None:
    """The composite computing `op` on a value every chip holds whole, its decomposition a new private function."""
    from ttmlir.dialects import stablehlo as shlo

    block = Block(arg_types=[op.operands[0].type])
    steps = all_slice_by_all_to_all(block.args[0], op, mesh)
    if not steps:
        return None
    result = steps[-1].results[0]
    block.add_ops([*steps, ReturnOp(result)])
    taken = {f.sym_name.data for f in module.body.block.ops if isinstance(f, FuncOp)}
    name = next(f"sdy.all_slice{n}" for n in itertools.count(1) if f"sdy.all_slice{n}" not in taken)
    module.body.block.add_op(FuncOp(name, ([op.operands[0].type], [result.type]), Region(block),
                                    visibility="private"))
    return shlo.OPS["composite"].create(
        operands=[op.operands[0]], result_types=[result.type],
        properties={"name": StringAttr(op.name), "decomposition": SymbolRefAttr(name),
                    "composite_attributes": DictionaryAttr({"out_sharding": op.out_sharding})})


def update_manual_computation(op: sdy.ManualComputationOp) -> None:
    mesh = sdy.mesh_of(op, op.in_shardings.data[0] if op.in_shardings.data else op.out_shardings.data[0]) \
        if (op.in_shardings.data or op.out_shardings.data) else None
    if mesh is None:
        return
    manual = set(op.manual_axes.data)
    op.manual_axes = sdy.ManualAxesAttr(tuple(n for n, _ in mesh.axes))
    for arg, sharding in zip(op.body.block.args, op.in_shardings.data):
        if not manual:  # a body still on global shapes
            Rewriter.replace_value_with_new_type(arg, localize(arg.type, sharding, mesh, op))
    module = op.get_toplevel_object()
    whole = {inner for inner in op.body.walk()
             if isinstance(inner, sdy.AllSliceOp) and _replicated(value_sharding(inner.operands[0]))}
    for inner in op.body.walk():
        if inner.name == "stablehlo.custom_call" and inner.properties["call_target_name"].data in PLACED:
            _name_place(inner, value_sharding(inner.operands[PLACED[inner.properties["call_target_name"].data][0]]),
                        mesh)
    for inner in list(op.body.walk()):
        if inner is op:
            continue
        if isinstance(inner, COLLECTIVES) and not inner.results[0].uses:  # moving data nobody reads
            Rewriter.erase_op(inner)
            continue
        if isinstance(inner, COLLECTIVES):
            try:
                composite = _all_slice_composite(inner, mesh, module) if inner in whole else None
                new = [composite] if composite is not None else ccl_ops(inner, mesh)
            except ValueError as error:
                raise PassFailure(inner, str(error)) from None
            for n in new:
                inner.parent_block().insert_op_before(n, inner)
            inner.results[0].replace_all_uses_with(new[-1].results[0] if new else inner.operands[0])
            Rewriter.erase_op(inner)
            continue
        attr = inner.attributes.pop("sdy.sharding", None)
        if attr is None or manual:
            continue
        for result, sharding in zip(list(inner.results), attr.data):
            Rewriter.replace_value_with_new_type(result, localize(result.type, sharding, mesh, inner))
        if inner.results and inner.name.endswith(".constant"):
            _constant(inner, inner.results[0].type)
        elif inner.name == "stablehlo.slice":
            _slice(inner)
        elif inner.name == "stablehlo.gather":
            _gather(inner)
        elif inner.name == "stablehlo.convolution":
            _feature_groups(inner)


@dataclass(frozen=True)
class UpdateGlobalToLocalShapesPass(ModulePass):
    """Split tensor dimensions per their sharding annotations: global shapes to per-chip shapes."""

    name = "update-global-to-local-shapes"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for inner in list(op.walk()):
            if isinstance(inner, sdy.ManualComputationOp):
                update_manual_computation(inner)
