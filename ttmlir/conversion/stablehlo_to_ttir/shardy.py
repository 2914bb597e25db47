"""Shardy's ops in TTIR, part of `--convert-stablehlo-to-ttir` (upstream's ShardyToTTIRPatterns).

- `sdy.mesh @m = <["x"=1, "y"=2]>` becomes the module's `ttcore.meshes = #ttcore.meshes<[<"m" = 1x2>]>`.
- `sdy.manual_computation` is inlined: each operand goes through a `ttir.mesh_shard` (full_to_shard) that splits
  it as its in_sharding says, each result through one (shard_to_full) that joins it back. An argument or result
  marked `ttcore.shard_status = #ttcore.shard_status<presharded>` already is (stays) a per-chip piece: it skips
  the mesh_shard and the function's signature takes the local type.
- `sdy.constant` is a `ttir.constant`; `sdy.sharding` annotations are dropped once lowered.
"""

from __future__ import annotations

import math

from xdsl.dialects.builtin import DenseArrayBase, DictionaryAttr, IntegerType, ModuleOp, Signedness, i64
from xdsl.dialects.func import FuncOp, ReturnOp
from xdsl.ir import Operation, SSAValue
from xdsl.rewriter import Rewriter

from ttmlir.dialects import sdy, ttcore
from ttmlir.errors import PassFailure

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
    for arg, value in zip(block.args, locals_):
        arg.replace_all_uses_with(value)
    returned = list(ret.operands)  # read after the arguments' uses moved: a body may return an argument
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
