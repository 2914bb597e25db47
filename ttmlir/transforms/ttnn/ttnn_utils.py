"""Helpers the TTNN passes share: building a TTNN op, naming the ops a rewrite adds, the device handle."""

from __future__ import annotations

from xdsl.dialects.builtin import DenseArrayBase, ModuleOp, NameLoc, StringAttr, TensorType, UnknownLoc, i32
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.rewriter import Rewriter

from ttmlir.dialects import ttcore, ttnn
from ttmlir.ir.props import KINDS
from ttmlir.ir.syntax import enum
from ttmlir.ir.tt_op import TTOp
from ttmlir.dialects.ttnn import TTNN_OP_CLASSES, TTNNOp
from ttmlir.transforms.ttcore.register_device import device_module_of

NOT_FORCED = KINDS["bool"].build(False)
HOST = "system_memory"  # the buffer type of a host tensor


def data_type(value: SSAValue) -> str:
    """The TTNN data type of a laid-out tensor value."""
    return value.type.encoding.data_type


def ttnn_op(name: str, operands, props: dict[str, Attribute], result_types, source: Operation) -> Operation:
    cls = TTNN_OP_CLASSES[name]
    accepted = {p[0] for p in cls.ROW.props} | {"operandSegmentSizes"}
    new = cls.create(operands=list(operands), result_types=list(result_types),
                     properties={k: v for k, v in props.items() if k in accepted})
    new.location = source.location
    if isinstance(source, TTOp):  # an op's discardable attributes carry over to what it becomes
        new.attributes.update(source.attributes)
    return new


def helper_location(loc: Attribute, suffix: str) -> Attribute:
    if isinstance(loc, NameLoc):
        return NameLoc(StringAttr(f"{loc.desc.data}_{suffix}"), loc.location)
    return loc if isinstance(loc, UnknownLoc) else NameLoc(StringAttr(suffix), loc)


def interleaved_memory_config(buffer: str = "dram") -> ttnn.MemoryConfigAttr:
    return ttnn.MemoryConfigAttr(ttnn.MemoryConfig(enum(ttnn.BufferTypeAttr, buffer),
                                                  enum(ttnn.TensorMemoryLayoutAttr, "interleaved")))


def device_functions(module: ModuleOp) -> list[FuncOp]:
    return [op for op in device_module_of(module).ops if isinstance(op, FuncOp)]


def mesh_shape_of(at: Operation) -> tuple[int, int]:
    """The mesh of the `ttcore.device` registered on the module holding `at` (one chip if none is)."""
    return ttcore.registered_mesh(at) or (1, 1)


def get_device_op(at: Operation) -> Operation:
    """`ttnn.get_device` for the mesh `ttcore.device` registered on the module holding `at`."""
    return TTNN_OP_CLASSES["get_device"].create(
        result_types=[ttnn.DeviceType()],
        properties={"mesh_offset": ttnn.MeshOffsetAttr((0, 0)), "mesh_shape": ttnn.MeshShapeAttr(mesh_shape_of(at))})


def device_of(block: Block) -> SSAValue:
    """The function's `ttnn.get_device` result, created at its entry on first need."""
    first = block.first_op
    if isinstance(first, TTNNOp) and first.ROW.name == "get_device":
        return first.results[0]
    device = get_device_op(first)
    block.insert_op_before(device, first)
    return device.results[0]


def with_fields(cls: type, config: Attribute | None, **fields) -> Attribute:
    """A struct attribute of `cls`: `config`'s fields (if any) with `fields` set, in the attribute's field order."""
    values = {**(dict(config.data) if config is not None else {}), **fields}
    order = [key for key, *_ in cls.FIELDS]
    return cls(tuple(sorted(values.items(), key=lambda kv: order.index(kv[0]))))


def with_conv2d_config(op: TTNNOp, **fields) -> ttnn.Conv2dConfigAttr:
    """The op's `conv2d_config` with `fields` set."""
    return with_fields(ttnn.Conv2dConfigAttr, op.properties.get("conv2d_config"), **fields)


def on_host(t: Attribute) -> bool:
    """Whether a tensor type's layout puts it in host memory."""
    layout = getattr(t, "encoding", None)
    return isinstance(layout, ttnn.TTNNLayoutAttr) and layout.buffer_type == HOST


def frees_its_activation(op: TTNNOp, value: SSAValue) -> bool:
    """Whether `op` is a convolution that frees `value`, its L1 input, itself (`deallocate_activation`)."""
    if op.ROW.name not in ("conv2d", "conv_transpose2d") or op.operand_groups()["input"][0] is not value:
        return False
    config = op.prop("conv2d_config")
    return config is not None and dict(config.data).get("deallocate_activation") is True and \
        value.type.encoding.buffer_type == "l1"


def erase_unread(ops: list[Operation]) -> None:
    """Erase those of `ops` nothing reads any more, again until none is left unread (readers before what they read)."""
    pending = True
    while pending:
        pending = False
        for op in ops:
            if isinstance(op, Operation) and op.parent is not None and all(not r.uses for r in op.results):
                Rewriter.erase_op(op)
                pending = True


def ttnn_empty(t: TensorType, device: SSAValue, at: Operation) -> Operation:
    """`ttnn.empty` of a TTNN tensor type: its shape, data type, page layout and memory as its layout says."""
    layout: ttnn.TTNNLayoutAttr = t.encoding
    config = ttnn.MemoryConfig(layout.memref.memory_space, None if not isinstance(
        layout.memory_layout, ttnn.TensorMemoryLayoutAttr) else layout.memory_layout)
    empty = ttnn.TTNN_OP_CLASSES["empty"].create(
        operands=[device], result_types=[t],
        properties={"shape": ttnn.ShapeAttr(tuple(t.get_shape())),
                    "dtype": enum(ttcore.DataTypeAttr, layout.data_type),
                    "layout": enum(ttnn.LayoutAttr, "tile" if layout.is_tiled else "row_major"),
                    "memory_config": ttnn.MemoryConfigAttr(config)})
    empty.location = at.location
    return empty


def bind_operand(op: TTNNOp, name: str, value: SSAValue) -> TTNNOp:
    """`op` again with its optional operand `name` bound to `value` (its operand segments counted anew)."""
    groups = {**op.operand_groups(), name: [value]}
    values = [groups[n.rstrip("?*")] for n in op.ROW.operands]
    props = {**op.properties, "operandSegmentSizes": DenseArrayBase.from_list(i32, [len(v) for v in values])}
    new = type(op).create(operands=[v for vs in values for v in vs], result_types=[r.type for r in op.results],
                          properties=props, attributes=dict(op.attributes))
    new.location = op.location
    Rewriter.replace_op(op, new)
    return new


def device_before(op: Operation) -> SSAValue:
    """A `ttnn.get_device` result of `op`'s block standing before it, else the function's (see `device_of`)."""
    for other in op.parent_block().ops:
        if other is op:
            break
        if isinstance(other, TTNNOp) and other.ROW.name == "get_device":
            return other.results[0]
    return device_of(op.parent_block())
