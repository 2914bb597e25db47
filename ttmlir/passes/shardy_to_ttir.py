"""Shardy's ops in TTIR, part of `--convert-stablehlo-to-ttir` (upstream's ShardyToTTIRPatterns).

- `sdy.mesh @m = <["x"=1, "y"=2]>` becomes the module's `ttcore.meshes = #ttcore.meshes<[<"m" = 1x2>]>`.
- `sdy.manual_computation` is inlined: each operand goes through a `ttir.mesh_shard` (full_to_shard) that splits
  it as its in_sharding says, each result through one (shard_to_full) that joins it back. An argument or result
  marked `ttcore.shard_status = #ttcore.shard_status<presharded>` already is (stays) a per-chip piece: it skips
  the mesh_shard and the function's signature takes the local type.
- `collective_to_ttir` (used by `--update-global-to-local-shapes`) computes a shardy collective on per-chip
  values with TTIR's: all_gather, all_reduce (sum), reduce_scatter, all_to_all and all_slice
  (`ttir.mesh_partition`), one per mesh axis it moves data over.
- `sdy.constant` is a `ttir.constant`; `sdy.sharding` annotations are dropped once lowered.
"""

from __future__ import annotations

import math

from xdsl.dialects.builtin import (DenseArrayBase, DictionaryAttr, IntegerAttr, IntegerType, ModuleOp, Signedness,
                                   TensorType, i64)
from xdsl.dialects.func import FuncOp, ReturnOp
from xdsl.ir import Operation, SSAValue
from xdsl.rewriter import Rewriter

from ttmlir.dialects import sdy, ttcore
from ttmlir.passes import PassFailure

SHARDING = "sdy.sharding"
SHARD_STATUS = "ttcore.shard_status"
_UI32 = IntegerType(32, Signedness.UNSIGNED)
_SI32 = IntegerType(32, Signedness.SIGNED)


def _ttir(name: str, operands, result_type, **props) -> Operation:
    from ttmlir.dialects.ttir import TTIR_OP_CLASSES

    return TTIR_OP_CLASSES[name].create(operands=list(operands), result_types=[result_type], properties=props)


def _enum(cls, value: str):
    return cls(cls.enum_type(value))


def mesh_shard_props(sharding: sdy.Sharding, mesh: sdy.Mesh, direction: str) -> dict:
    """Upstream's reading of a sharding as a mesh_shard: per tensor dim how many pieces (shard_shape), per mesh
    axis which tensor dim it splits (shard_dims, -1 none); no split at all is a replicate."""
    if sharding.axes() and any(a.sub for a in sharding.axes()):
        raise ValueError("sharding with sub-axis partitioning is not supported")
    order = [name for name, _ in mesh.axes]
    shape, dims = [1] * len(sharding.dims), [-1] * len(order)
    for d, dim in enumerate(sharding.dims):
        for axis in dim.axes:
            shape[d] *= mesh.size(axis)
            if mesh.size(axis) > 1:
                dims[order.index(axis.name)] = d
    kind = "devices"
    if not mesh.axes or math.prod(shape) == 1:
        kind, shape, dims = ("maximal" if mesh.device_ids and not mesh.axes else "replicate"), [1], [-1]
    return {"shard_type": _enum(ttcore.ShardTypeAttr, kind),
            "shard_direction": _enum(ttcore.ShardDirectionAttr, direction),
            "shard_shape": DenseArrayBase.from_list(i64, shape), "shard_dims": DenseArrayBase.from_list(i64, dims)}


def _status(attrs, index: int) -> str | None:
    if attrs is None or index >= len(attrs.data):
        return None
    value = attrs.data[index].data.get(SHARD_STATUS)
    return value.data.value if value is not None else None


def _set_func_type(func: FuncOp) -> None:
    from xdsl.dialects.builtin import FunctionType

    ret = func.body.block.last_op
    outputs = [v.type for v in ret.operands] if isinstance(ret, ReturnOp) else func.function_type.outputs.data
    func.function_type = FunctionType.from_lists([a.type for a in func.body.block.args], outputs)


def _manual_computation(op: sdy.ManualComputationOp, mesh: sdy.Mesh) -> None:
    func = op.parent_op()
    while func is not None and not isinstance(func, FuncOp):
        func = func.parent_op()
    block = op.body.block
    locals_: list[SSAValue] = []
    for value, sharding, arg in zip(op.tensors, op.in_shardings.data, block.args):
        if (isinstance(value, SSAValue) and func is not None and getattr(value, "block", None) is func.body.block
                and hasattr(value, "index") and _status(func.arg_attrs, value.index) == "presharded"):
            # the argument arrives as this chip's piece
            locals_.append(Rewriter.replace_value_with_new_type(value, arg.type))
            continue
        shard = _ttir("mesh_shard", [value], arg.type, **mesh_shard_props(sharding, mesh, "full_to_shard"))
        op.parent_block().insert_op_before(shard, op)
        locals_.append(shard.results[0])
    ret = block.last_op
    returned = list(ret.operands)
    for arg, value in zip(block.args, locals_):
        arg.replace_all_uses_with(value)
    for inner in list(block.ops):
        inner.detach()
        if inner is not ret:
            op.parent_block().insert_op_before(inner, op)
    ret.erase(safe_erase=False)
    outs: list[SSAValue] = []
    returns = func.body.block.last_op if func is not None else None
    for result, sharding, value in zip(op.results, op.out_shardings.data, returned):
        uses = [u for u in result.uses if u.operation is returns]
        if uses and all(_status(func.res_attrs, u.index) == "presharded" for u in uses):
            outs.append(value)  # the result leaves as this chip's piece
            continue
        join = _ttir("mesh_shard", [value], result.type, **mesh_shard_props(sharding, mesh, "shard_to_full"))
        op.parent_block().insert_op_before(join, op)
        outs.append(join.results[0])
    for result, value in zip(op.results, outs):
        result.replace_all_uses_with(value)
    Rewriter.erase_op(op)
    if func is not None:
        _set_func_type(func)


def _axes_index(mesh: sdy.Mesh, axes) -> list[int]:
    """The mesh axes (as cluster_axis numbers) a collective runs over; size-1 axes move nothing."""
    order = [name for name, _ in mesh.axes]
    return [order.index(a.name) for a in axes if mesh.size(a) > 1]


def collective_to_ttir(op: Operation, mesh: sdy.Mesh) -> list[Operation]:
    """TTIR ops computing an sdy collective on per-chip values (`op`'s operand already has its local type); the
    last one's result replaces `op`'s."""
    value, ops = op.operands[0], []

    def step(name: str, type_, **props):
        nonlocal value
        ops.append(new := _ttir(name, [value], type_, **props))
        value = new.results[0]

    def local(t) -> TensorType:
        return t if isinstance(t, TensorType) else value.type

    elem = value.type.element_type
    if isinstance(op, (sdy.AllGatherOp, sdy.AllSliceOp, sdy.ReduceScatterOp)):
        per_dim = op.properties[op.AXES[0]].data
        for d, axes in enumerate(per_dim):
            for axis in _axes_index(mesh, axes):
                shape = list(value.type.get_shape())
                n = mesh.axes[axis][1]
                if isinstance(op, sdy.AllGatherOp):
                    shape[d] *= n
                    step("all_gather", TensorType(elem, shape), all_gather_dim=IntegerAttr(d, _SI32),
                         cluster_axis=IntegerAttr(axis, _UI32))
                elif isinstance(op, sdy.AllSliceOp):
                    shape[d] //= n
                    step("mesh_partition", TensorType(elem, shape), dim=IntegerAttr(d, _SI32),
                         cluster_axis=IntegerAttr(axis, _UI32))
                else:
                    shape[d] //= n
                    step("reduce_scatter", TensorType(elem, shape),
                         reduce_type=_enum(ttcore.ReduceTypeAttr, "sum"), scatter_dim=IntegerAttr(d, _SI32),
                         cluster_axis=IntegerAttr(axis, _UI32))
    elif isinstance(op, sdy.AllReduceOp):
        for axis in _axes_index(mesh, op.reduction_axes.data):
            step("all_reduce", value.type, reduce_type=_enum(ttcore.ReduceTypeAttr, "sum"),
                 cluster_axis=IntegerAttr(axis, _UI32))
    elif isinstance(op, sdy.AllToAllOp):
        for param in op.params.data:
            for axis in _axes_index(mesh, param.axes):
                shape = list(value.type.get_shape())
                n = mesh.axes[axis][1]
                shape[param.src_dim] *= n
                shape[param.tgt_dim] //= n
                order = [list(g) for g in _groups(axis, mesh)]
                step("all_to_all", TensorType(elem, shape), split_dim=IntegerAttr(param.tgt_dim, _SI32),
                     concat_dim=IntegerAttr(param.src_dim, _SI32), split_count=IntegerAttr(n, _SI32),
                     replica_groups=_pairs(order))
    else:
        raise ValueError(f"'{op.name}' has no TTIR lowering")
    return ops


def _groups(axis: int, mesh: sdy.Mesh) -> list[list[int]]:
    rows, cols = mesh.axes[0][1], mesh.axes[1][1] if len(mesh.axes) > 1 else 1
    if axis == len(mesh.axes) - 1:
        return [[r * cols + c for c in range(cols)] for r in range(rows)]
    return [[r * cols + c for r in range(rows)] for c in range(cols)]


def _pairs(groups: list[list[int]]):
    from xdsl.dialects.builtin import DenseIntOrFPElementsAttr

    return DenseIntOrFPElementsAttr.from_list(TensorType(i64, [len(groups), len(groups[0])]),
                                                     [v for g in groups for v in g])


def _strip(attrs, key: str):
    if attrs is None:
        return None
    return type(attrs)([DictionaryAttr({k: v for k, v in d.data.items() if k != key}) for d in attrs.data])


def convert_shardy_to_ttir(module: ModuleOp) -> None:
    """Lower every sdy op of `module` to TTIR (in place); a sharding TTIR cannot express is a PassFailure."""
    found = sdy.meshes(module)
    if len(found) > 1:
        raise PassFailure(module, "TTMLIR compiler only supports single mesh.")
    mesh = next(iter(found.values()), None)
    if found:
        name, m = next(iter(found.items()))
        shape = tuple(s for _, s in m.axes) or (1,)
        module.attributes[ttcore.MeshesAttr.name] = ttcore.MeshesAttr(((name, shape if len(shape) > 1
                                                                         else (1, *shape)),))
    for op in list(module.walk()):
        if isinstance(op, sdy.ManualComputationOp):
            try:
                _manual_computation(op, mesh)
            except ValueError as error:
                raise PassFailure(op, f"error trying to parse shardy annotation: {error}") from None
    for op in list(module.walk()):
        if isinstance(op, sdy.ConstantOp):
            new = _ttir("constant", [], op.output.type, value=op.value)
            Rewriter.replace_op(op, new)
        elif isinstance(op, sdy.MeshOp):
            Rewriter.erase_op(op)
        elif isinstance(op, FuncOp):
            op.arg_attrs, op.res_attrs = _strip(op.arg_attrs, SHARDING), _strip(op.res_attrs, SHARDING)
        elif op.name.startswith("sdy."):  # reshards and collectives on global values
            raise PassFailure(op, f"'{op.name}' must be lowered by --stablehlo-pipeline before conversion to TTIR")
        if SHARDING in op.attributes:
            del op.attributes[SHARDING]
