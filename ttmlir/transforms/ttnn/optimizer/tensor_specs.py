"""What the optimizer's passes share about layouts: a value's `TensorSpec` (the op model's view of its
`#ttnn.ttnn_layout`), the layout a spec makes, and a spec's short description for decision traces."""

from __future__ import annotations

from xdsl.dialects.builtin import NoneAttr, TensorType
from xdsl.ir import Operation

from ttmlir.dialects import ttcore, ttnn
from ttmlir.dialects.ttnn import TTNNLayoutAttr
from ttmlir.ir.syntax import enum
from ttmlir.runtime import op_model
from ttmlir.runtime.op_model import TensorSpec


def spec_of(t: TensorType) -> TensorSpec | None:
    layout = t.encoding
    if not isinstance(layout, TTNNLayoutAttr):
        return None
    memory = None if isinstance(layout.memory_layout, NoneAttr) else layout.memory_layout.data.value
    tiled = isinstance(layout.memref.element_type, ttcore.TileType)
    return TensorSpec(tuple(t.get_shape()), ttnn.data_type_of(t.element_type) if not tiled
                      else layout.memref.element_type.dtype, layout.buffer_type, memory,
                      tuple(layout.grid.data.shape) if memory in op_model.SHARDED else (1, 1), tiled)


def layout_of(t: TensorType, spec: TensorSpec) -> TTNNLayoutAttr:
    """The `#ttnn.ttnn_layout` of `t` placed as `spec` says."""
    base = ttnn.layout_for(tuple(t.get_shape()), t.element_type, spec.buffer_type, spec.tiled, spec.dtype)
    if not spec.sharded:
        return base
    gy, gx = spec.grid
    ranges = ttnn.CoreRangeSetAttr((ttnn.CoreRangeAttr(((0, 0), (gx - 1, gy - 1))),))
    memref = type(base.memref)(base.memref.element_type, spec.shard_shape(), base.memref.layout,
                               base.memref.memory_space)
    extras = ttcore.StringAttr(f"core_ranges = {str(ranges).removeprefix('#' + ranges.name)}")
    return TTNNLayoutAttr(base.linear, ttcore.GridAttr(ttcore.Grid((gy, gx))), memref,
                          enum(ttnn.TensorMemoryLayoutAttr, spec.memory_layout), extras)


def operand_specs(op: Operation) -> list[TensorSpec]:
    return [s for v in op.operands if isinstance(v.type, TensorType) and (s := spec_of(v.type)) is not None]


def describe(spec: TensorSpec) -> str:
    grid = f":{spec.grid[0]}x{spec.grid[1]}" if spec.sharded else ""
    return f"{spec.buffer_type}:{spec.memory_layout}{grid}"


def move_operand(op: Operation, index: int, spec: TensorSpec, why: str) -> Operation:
    """A `ttnn.to_memory_config` before `op` placing its operand `index` as `spec` says, which `op` then reads; its
    location is `op`'s with `why` (`weight_dram_sharded`, `input_reshard`)."""
    from ttmlir.transforms.ttnn.ttnn_utils import helper_location, ttnn_op

    value = op.operands[index]
    t = value.type
    move = ttnn_op("to_memory_config", [value], {}, [TensorType(t.element_type, t.get_shape(), layout_of(t, spec))], op)
    move.location = helper_location(op.location, why)
    op.parent.insert_op_before(move, op)
    op.operands[index] = move.results[0]
    return move
