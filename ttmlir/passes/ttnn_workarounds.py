"""`--ttnn-workaround`: give TTNN ops the operand layouts and data types their kernels accept.

Some TTNN kernels only take row-major operands or particular data types (upstream's operand
workarounds). For each such op the table below names what each operand and the result must be; the
pass converts an operand with `ttnn.typecast`/`ttnn.to_layout` before the op, and converts a changed
result back afterwards, so the function computes what it did, with the precision the hardware gives.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from ttmlir.dialects import ttcore, ttnn
from ttmlir.dialects.props import int_values
from ttmlir.dialects.syntax import enum
from ttmlir.dialects.ttnn import TTNNOp
from ttmlir.passes.ttir_to_ttnn import device_of, erase_unused, host_origin, interleaved_memory_config, ttnn_op


@dataclass(frozen=True)
class Want:
    """What a tensor must be for the kernel: a layout ("tile"/"row_major"), a data type, a buffer."""

    layout: str | None = None
    dtype: str | None = None
    buffer: str | None = None


Workaround = Callable[[TTNNOp], dict[str, Want]]  # operand name or "result" -> what it must be


def _dtype(value: SSAValue) -> str:
    return value.type.encoding.data_type


def _embedding(op: TTNNOp) -> dict[str, Want]:
    return {"input": Want("row_major", "u32"), "weight": Want(dtype="bf16"), "result": Want(dtype="bf16")}


def _integer_to_f32(op: TTNNOp) -> dict[str, Want]:
    """cumsum computes integers wrongly: accumulate in f32."""
    if _dtype(op.operands[0]) in ("f32", "bf16", "f16"):
        return {}
    return {"input": Want(dtype="f32"), "result": Want(dtype="f32")}


def _full(op: TTNNOp) -> dict[str, Want]:
    """ttnn.full makes no rank-1 tiles: fill row-major and tilize."""
    result = op.results[0]
    rank1 = len(result.type.get_shape()) == 1 and result.type.encoding.is_tiled
    return {"result": Want("row_major")} if rank1 else {}


def _slice(op: TTNNOp) -> dict[str, Want]:
    """A strided slice runs in bf16; begins off the tile grid need row-major data."""
    if any(s > 1 for s in int_values(op.prop("step"))):
        return {"input": Want(dtype="bf16"), "result": Want(dtype="bf16")}
    begins = int_values(op.prop("begins"))
    if op.operands[0].type.encoding.is_tiled and any(b % ttnn.TILE for b in begins[-2:]):
        return {"input": Want("row_major"), "result": Want("row_major")}
    return {}


def _concat(op: TTNNOp) -> dict[str, Want]:
    """Tiled concat pads inputs along an unaligned dim, which only float data can be."""
    dim, first = op.prop("dim").value.data, op.operands[0]
    if not first.type.encoding.is_tiled or _dtype(first) in ("f32", "bf16") or \
            all(v.type.get_shape()[dim] % ttnn.TILE == 0 for v in op.operands):
        return {}
    return {"inputs": Want(dtype="bf16"), "result": Want(dtype="bf16")}


def _mesh_shard(op: TTNNOp) -> dict[str, Want]:
    """Splitting or joining a tensor over the mesh happens on the host (identity moves nothing)."""
    host = Want("row_major", buffer="system_memory")
    return {} if op.prop("shard_type").data.value == "identity" else {"input": host, "result": host}


def _row_major_bf16(op: TTNNOp) -> dict[str, Want]:
    """Pooling and upsampling read and write row-major bf16."""
    return {"input": Want("row_major", "bf16"), "result": Want("row_major", "bf16")}


def _where(op: TTNNOp) -> dict[str, Want]:
    """The predicate must have the data type of the values it selects."""
    wanted = _dtype(op.operands[1])
    return {"first": Want(dtype=wanted)} if _dtype(op.operands[0]) != wanted else {}


WORKAROUNDS: dict[str, Workaround] = {
    "embedding": _embedding, "max_pool2d": _row_major_bf16, "upsample": _row_major_bf16,
    "cumsum": _integer_to_f32, "full": _full, "slice_static": _slice, "concat": _concat, "where": _where,
    "mesh_shard": _mesh_shard,
}


def retyped(t: TensorType, want: Want) -> TensorType:
    """`t` in the wanted layout, data type and buffer (same shape)."""
    layout = t.encoding
    tiled = layout.is_tiled if want.layout is None else want.layout == "tile"
    dtype = want.dtype or layout.data_type
    element = ttnn.DATA_TYPE_TO_MLIR.get(dtype, t.element_type) if want.dtype else t.element_type
    shape = tuple(t.get_shape())
    return TensorType(element, shape, ttnn.layout_for(shape, element, want.buffer or layout.buffer_type, tiled, dtype))


def _conversions(value: SSAValue, target: TensorType, at: Operation) -> list[Operation]:
    """Ops taking `value` to the `target` type: off the device first, typecast before an untilize (after a
    tilize), onto the device last."""
    source, goal = value.type.encoding, target.encoding
    host = "system_memory"
    cast = Want(dtype=goal.data_type) if goal.data_type != source.data_type else None
    relayout = Want("tile" if goal.is_tiled else "row_major") if goal.is_tiled != source.is_tiled else None
    plan = [Want(buffer=host)] if goal.buffer_type == host != source.buffer_type else []
    plan += [cast, relayout] if not goal.is_tiled else [relayout, cast]
    plan += [Want(buffer=goal.buffer_type)] if source.buffer_type == host != goal.buffer_type else []
    steps = []
    for want in filter(None, plan):
        to = retyped(value.type, want)
        if want.buffer == host:
            step = ttnn_op("from_device", [value], {}, [to], at)
        elif want.buffer:
            step = ttnn_op("to_device", [value, device_of(at.parent)], {"memory_config": interleaved_memory_config()},
                           [to], at)
        elif want.dtype:
            step = ttnn_op("typecast", [value], {"dtype": enum(ttcore.DataTypeAttr, want.dtype)}, [to], at)
        else:
            step = ttnn_op("to_layout", [value], {"layout": enum(ttnn.LayoutAttr, want.layout)}, [to], at)
        steps.append(step)
        value = step.results[0]
    return steps


def _closest_source(value: SSAValue, target: TensorType) -> SSAValue:
    """What `value` was made from, when that is closer to `target` (no round trip): the host tensor behind
    a to_device and tilize for a host target, the row-major tensor behind a tilize for a row-major one."""
    host = host_origin(value) if target.encoding.buffer_type == "system_memory" else None
    if host is not None:
        return host
    producer = value.owner
    if not target.encoding.is_tiled and isinstance(producer, TTNNOp) and producer.ROW.name == "to_layout" and \
            not producer.operands[0].type.encoding.is_tiled:
        return producer.operands[0]
    return value


def apply_workaround(op: TTNNOp, wants: dict[str, Want]) -> None:
    groups = op.operand_groups()
    for name, want in wants.items():
        for value in groups.get(name) or [] if name != "result" else []:
            target = retyped(value.type, want)
            if target == value.type:
                continue
            index = next(i for i, v in enumerate(op.operands) if v is value)
            source = _closest_source(value, target)
            steps = _conversions(source, target, op)
            op.parent.insert_ops_before(steps, op)
            op.operands[index] = steps[-1].results[0] if steps else source
            if source is not value:  # the moves that made `value` may no longer be needed
                erase_unused(value.owner)
    want = wants.get("result")
    original = op.results[0].type if op.results else None
    if want is None or original is None or retyped(original, want) == original:
        return
    if want.dtype and op.prop("dtype") is not None:
        op.properties["dtype"] = enum(ttcore.DataTypeAttr, want.dtype)
    if want.layout and op.prop("layout") is not None:
        op.properties["layout"] = enum(ttnn.LayoutAttr, want.layout)
    result = Rewriter.replace_value_with_new_type(op.results[0], retyped(original, want))
    uses = [(use.operation, use.index) for use in result.uses]
    steps = _conversions(result, original, op)
    op.parent.insert_ops_after(steps, op)
    for user, index in uses:
        user.operands[index] = steps[-1].results[0]
    _fold_round_trips(steps[-1].results[0])


@dataclass(frozen=True)
class TTNNWorkaroundPass(ModulePass):
    """Convert operands and results of TTNN ops whose kernels need particular layouts or data types."""

    name: ClassVar[str] = "ttnn-workaround"

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        for op in list(module.walk()):
            if isinstance(op, TTNNOp) and op.ROW.name in WORKAROUNDS and _laid_out(op):
                apply_workaround(op, WORKAROUNDS[op.ROW.name](op))


UNDOES = {"from_device": "to_device", "to_layout": "to_layout"}


def _fold_round_trips(value: SSAValue) -> None:
    """A move of `value` that undoes the one that made it (from_device of a to_device, a layout change back)
    gives back what the first one started from; and so on down the chain of moves."""
    first = value.owner
    for use in list(value.uses):
        op = use.operation
        if isinstance(op, TTNNOp) and op.ROW.name in UNDOES and isinstance(first, TTNNOp) and \
                first.ROW.name == UNDOES[op.ROW.name] and first.operands[0].type == op.results[0].type:
            op.results[0].replace_all_uses_with(first.operands[0])
            erase_unused(op)
            _fold_round_trips(first.operands[0])


def _laid_out(op: TTNNOp) -> bool:
    """Workarounds apply to device tensors after --ttnn-layout."""
    values = [v for v in (*op.operands, *op.results) if isinstance(v.type, TensorType)]
    return bool(values) and all(isinstance(v.type.encoding, ttnn.TTNNLayoutAttr) and
                                v.type.encoding.buffer_type != "system_memory" for v in values)
