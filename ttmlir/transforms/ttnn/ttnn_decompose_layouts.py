"""`--ttnn-decompose-layouts`: break each `ttnn.to_tensor_spec` into the primitive moves the runtime runs.

A to_tensor_spec says what its result must be (page layout, data type, memory); this pass emits
`to_device`/`from_device`, `to_layout` (tilize/untilize, fused with a cast for floats on device),
`typecast` and `to_memory_config` in the order upstream's pass chooses:
- the page layout and data type change first, the memory move after, unless the tensor comes from the
  host (move it on first) or an untilize must leave L1 or a sharded layout first;
- a tilize/untilize runs where its data type allows it on device; if neither side's type does, it runs
  on the host, the typecast staying on the device where the tiled side is;
- at a CPU-hoisted call's boundary all work happens on the host;
- tt-metal cannot tilize a row-major sharded tensor whose shards are no whole tiles (tt-metal#30541): it leaves
  its shards for DRAM, is padded to whole tiles, tilized, sliced back and resharded.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import MemRefType, ModuleOp, NoneAttr, TensorType
from xdsl.dialects.func import CallOp, FuncOp
from xdsl.ir import SSAValue
from xdsl.passes import ModulePass

from ttmlir.dialects import ttnn
from ttmlir.ir.props import KINDS
from ttmlir.dialects.ttnn import TTNNLayoutAttr, TTNNOp
from ttmlir.errors import PassFailure
from ttmlir.transforms.ttir.cpu_hoist_manually_tagged import HOISTED_CALL
from ttmlir.transforms.ttnn.ttnn_utils import HOST, device_of, ttnn_op

# data types the device tilizes and untilizes
DEVICE_RELAYOUT = frozenset({"bf16", "f32", "u32", "u16", "si32"})
NOT_FLOAT = frozenset({"u32", "u16", "u8", "si32", "bool"})


@dataclass(frozen=True)
class Spec:
    """Where a value stands on the way: in whose memory ("source", "target" or "host"), tiled, data type."""

    memory: str
    tiled: bool
    dtype: str


def _sharded(layout: TTNNLayoutAttr) -> bool:
    return not isinstance(layout.memory_layout, NoneAttr) and layout.memory_layout.data.value in ttnn.SHARDED


def _memory_changes(a: TTNNLayoutAttr, b: TTNNLayoutAttr) -> bool:
    if a.buffer_type != b.buffer_type:
        return True
    if a.buffer_type == HOST:
        return False
    if a.memory_layout != b.memory_layout:
        return True
    return _sharded(a) and _sharded(b) and (a.grid != b.grid or a.extras != b.extras)


class _Chain:
    """The ops taking one to_tensor_spec's input to its result, built step by step."""

    def __init__(self, op: TTNNOp):
        self.op, self.value = op, op.operands[0]
        self.source, self.target = (v.type for v in (op.operands[0], op.results[0]))
        self.src, self.dst = self.source.encoding, self.target.encoding
        self.at = Spec("source", self.src.is_tiled, self.src.data_type)

    def _memory(self, memory: str) -> TTNNLayoutAttr:
        if memory == "host":
            host = next((m for m in (self.src, self.dst) if m.buffer_type == HOST), None)
            return host or ttnn.layout_for(tuple(self.source.get_shape()), self.source.element_type, HOST, False)
        return self.dst if memory == "target" else self.src

    def _type(self, spec: Spec) -> TensorType:
        """The tensor type of a value at `spec`: the input's or result's own type where it is that."""
        memory = self._memory(spec.memory)
        for t in (self.target, self.source):
            if (t.encoding.is_tiled, t.encoding.data_type) == (spec.tiled, spec.dtype) and \
                    not _memory_changes(memory, t.encoding):
                return t
        shape = tuple(self.source.get_shape())
        element = next((t.element_type for t in (self.target, self.source) if t.encoding.data_type == spec.dtype),
                       ttnn.DATA_TYPE_TO_MLIR.get(spec.dtype))
        fresh = ttnn.layout_for(shape, element, memory.buffer_type, spec.tiled, spec.dtype)
        linear = next((x.linear for x in (memory, self.dst, self.src) if x.is_tiled == spec.tiled), fresh.linear)
        rows_cols = tuple(fresh.memref.get_shape())
        if _sharded(memory):  # a shard keeps its size in elements
            scale = 1 if memory.is_tiled == spec.tiled else ttnn.TILE if memory.is_tiled else 1 / ttnn.TILE
            rows_cols = tuple(math.ceil(d * scale) for d in memory.memref.get_shape())
        memref = MemRefType(fresh.memref.element_type, rows_cols, NoneAttr(), memory.memref.memory_space)
        return TensorType(element, shape, TTNNLayoutAttr(linear, memory.grid, memref, memory.memory_layout,
                                                         memory.extras))

    def step(self, name: str, **change) -> None:
        spec = replace(self.at, **change)
        operands = [self.value, device_of(self.op.parent)] if name == "to_device" else [self.value]
        new = ttnn_op(name, operands, {}, [self._type(spec)], self.op)
        self.op.parent.insert_op_before(new, self.op)
        self.value, self.at = new.results[0], spec

    def to_host(self) -> None:
        self.step("from_device", memory="host")

    def move(self) -> None:
        """Into the result's memory: to or from the host, or between device memories."""
        on_host, to_host = (m.buffer_type == HOST for m in (self._memory(self.at.memory), self.dst))
        if on_host and to_host:
            self.at = replace(self.at, memory="target")
        else:
            self.step("to_device" if on_host else "from_device" if to_host else "to_memory_config", memory="target")

    def relayout(self) -> None:
        self.step("to_layout", tiled=self.dst.is_tiled)

    def cast(self) -> None:
        self.step("typecast", dtype=self.dst.data_type)

    def layout_and_dtype(self, on_device: bool) -> None:
        relayout, cast = self.src.is_tiled != self.dst.is_tiled, self.src.data_type != self.dst.data_type
        if relayout and cast and on_device and self.dst.is_tiled and \
                not ({self.src.data_type, self.dst.data_type} & NOT_FLOAT):
            self.step("to_layout", tiled=True, dtype=self.dst.data_type)  # tilize and cast at once
        elif relayout and cast:
            # on device the tilize/untilize runs on whichever data type it can
            relayout_first = on_device and (self.dst.data_type not in DEVICE_RELAYOUT if self.src.is_tiled
                                            else self.src.data_type in DEVICE_RELAYOUT)
            for make in (self.relayout, self.cast) if relayout_first else (self.cast, self.relayout):
                make()
        elif relayout:
            self.relayout()
        elif cast:
            self.cast()


def _at_hoisted_boundary(op: TTNNOp) -> bool:
    source = op.operands[0].owner
    users = [use.operation for use in op.results[0].uses]
    return (isinstance(source, CallOp) and HOISTED_CALL in source.attributes) or \
        (len(users) == 1 and isinstance(users[0], CallOp) and HOISTED_CALL in users[0].attributes)


def _ragged_shards(layout: TTNNLayoutAttr) -> bool:
    return _sharded(layout) and not layout.is_tiled and any(d % ttnn.TILE for d in layout.memref.get_shape())


def _tilize_through_dram(op: TTNNOp) -> SSAValue:
    """Unshard to DRAM, pad to whole tiles, tilize, slice back, reshard."""
    value, target = op.operands[0], op.results[0].type
    shape, element, dtype = tuple(target.get_shape()), target.element_type, target.encoding.data_type
    padded = (*shape[:-2], *(math.ceil(d / ttnn.TILE) * ttnn.TILE for d in shape[-2:]))
    padding = [0] * (2 * len(shape))
    for dim in (len(shape) - 2, len(shape) - 1):
        padding[2 * dim + 1] = padded[dim] - shape[dim]
    steps = [("to_memory_config", {}, shape, False),
             ("pad", {"padding": KINDS["i32_darray"].build(padding), "value": KINDS["f32"].build(0.0)}, padded, False),
             ("to_layout", {}, padded, True),
             ("slice_static", {"begins": KINDS["i32_array"].build([0] * len(shape)),
                               "ends": KINDS["i32_array"].build(list(shape)),
                               "step": KINDS["i32_array"].build([1] * len(shape))}, shape, True)]
    for name, props, result, tiled in steps:
        new = ttnn_op(name, [value], props, [TensorType(element, result, ttnn.layout_for(result, element, "dram",
                                                                                           tiled, dtype))], op)
        op.parent.insert_op_before(new, op)
        value = new.results[0]
    reshard = ttnn_op("to_memory_config", [value], {}, [target], op)
    op.parent.insert_op_before(reshard, op)
    return reshard.results[0]


def decompose(op: TTNNOp) -> SSAValue:
    chain = _Chain(op)
    src, dst = chain.src, chain.dst
    if _ragged_shards(src) and dst.is_tiled and dst.buffer_type != HOST and src.data_type == dst.data_type \
            and len(chain.source.get_shape()) >= 2:
        return _tilize_through_dram(op)
    relayout, cast = src.is_tiled != dst.is_tiled, src.data_type != dst.data_type
    if not relayout and not cast and not _memory_changes(src, dst):
        raise PassFailure(op, "Redundant ttnn::ToLayoutOp - no ttnn layout ops needed, this may be due to the "
                              "forcing of tile/row major layouts.")
    host_relayout = relayout and src.data_type not in DEVICE_RELAYOUT and dst.data_type not in DEVICE_RELAYOUT
    tiled_side_on_device = (src if src.is_tiled else dst).buffer_type != HOST
    if src.buffer_type == dst.buffer_type == HOST or _at_hoisted_boundary(op) or \
            (host_relayout and not tiled_side_on_device):
        if src.buffer_type != HOST:
            chain.to_host()
        chain.layout_and_dtype(on_device=False)
        if dst.buffer_type != HOST:
            chain.move()
    elif host_relayout:  # untilize/tilize on the host; the cast on the device, on tiles
        if src.is_tiled and cast:
            chain.cast()
        if src.buffer_type != HOST:
            chain.to_host()
        chain.relayout()
        if dst.buffer_type != HOST:
            chain.move()
        if not src.is_tiled and cast:
            chain.cast()
    elif _layout_before_move(src, dst):
        chain.layout_and_dtype(on_device=True)
        if _memory_changes(chain._memory(chain.at.memory), dst):
            chain.move()
    else:
        chain.move()
        chain.layout_and_dtype(on_device=True)
    return chain.value


def _layout_before_move(src: TTNNLayoutAttr, dst: TTNNLayoutAttr) -> bool:
    """Whether the layout and data type change where the tensor is, before it moves."""
    if HOST in (src.buffer_type, dst.buffer_type):
        return src.buffer_type != HOST
    if src.is_tiled and not dst.is_tiled:  # untilize in place, unless it must leave L1 or its shards first
        return not ((src.buffer_type == "l1" and _sharded(src)) or (src.buffer_type, dst.buffer_type) == ("l1", "dram"))
    return True


@dataclass(frozen=True)
class TTNNDecomposeLayoutsPass(ModulePass):
    """Replace every ttnn.to_tensor_spec by the to_device/from_device/to_layout/typecast/to_memory_config ops it
    stands for."""

    name: ClassVar[str] = "ttnn-decompose-layouts"

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        specs = [op for func in module.walk() if isinstance(func, FuncOp) and not func.is_declaration
                 for op in func.walk() if isinstance(op, TTNNOp) and op.ROW.name == "to_tensor_spec"]
        for op in specs:
            op.results[0].replace_all_uses_with(decompose(op))
            op.detach()
            op.erase()
