"""TOSA written before TOSA 1.0 (the 0.80 form TensorFlow's TFLite legalization still emits), upgraded on read.

MLIR upgrades a dialect's older IR when it reads it; this does that for TOSA: sizes given as attributes become
`tosa.const_shape` operands, the zero points and `mul`'s shift that 1.0 takes as operands are made (zero, or the
old attribute's value), and renamed attributes get their new names. Each rule fires only on the old form, so 1.0
IR passes through untouched; what has no 1.0 form (quantization info) is left for the verifier to refuse.
"""

from __future__ import annotations

from xdsl.dialects.builtin import (DenseArrayBase, DenseIntOrFPElementsAttr, FloatAttr, IndexType, IntegerAttr,
                                   IntegerType, ModuleOp, TensorType, f16, f32, i8, i32)
from xdsl.ir import Attribute, Operation, SSAValue

from ttmlir.dialects.tosa.ops import TOSA_OP_CLASSES
from ttmlir.dialects.tosa.types import ShapeType

# op -> (attribute holding a size, the operand slot 1.0 takes it in)
SHAPE_ATTRS = {"reshape": ("new_shape", 1), "tile": ("multiples", 1), "slice": ("start", 1)}
# op -> the zero-point operands 1.0 appends, each of the element type of the operand it belongs to
ZERO_POINTS = {"conv2d": (0, 1), "matmul": (0, 1), "negate": (0, 0), "avg_pool2d": (0, 0)}


def _const(op: Operation, name: str, values: Attribute, result: Attribute) -> SSAValue:
    made = TOSA_OP_CLASSES[name].create(properties={"values": values}, result_types=[result])
    op.parent_block().insert_op_before(made, op)
    return made.results[0]


def _shape(op: Operation, sizes: list[int]) -> SSAValue:
    values = DenseIntOrFPElementsAttr.from_list(TensorType(IndexType(), [len(sizes)]), sizes)
    return _const(op, "const_shape", values, ShapeType(len(sizes)))


def _zero(op: Operation, element: Attribute) -> SSAValue:
    kind = TensorType(element, [1])
    return _const(op, "const", DenseIntOrFPElementsAttr.from_list(kind, [0 if isinstance(element, IntegerType)
                                                                        else 0.0]), kind)


def _sizes(attr: Attribute) -> list[int]:
    return list(attr.get_values()) if isinstance(attr, DenseArrayBase) else [v for v in attr.get_values()]


def _upgrade(op: Operation) -> None:
    name, attrs = op.name.removeprefix("tosa."), op.attributes
    if name == "const" and "value" in attrs:
        op.properties["values"] = attrs.pop("value")
    if name in SHAPE_ATTRS and SHAPE_ATTRS[name][0] in attrs:
        shapes = [_shape(op, _sizes(attrs.pop(SHAPE_ATTRS[name][0])))]
        if name == "slice":
            shapes.append(_shape(op, _sizes(attrs.pop("size"))))
        op.operands = [op.operands[0], *shapes]
    if name == "clamp" and "min_fp" in attrs:
        element = op.operands[0].type.element_type
        kind, dropped = ("int", "fp") if isinstance(element, IntegerType) else ("fp", "int")
        for end in ("min", "max"):
            value = attrs.pop(f"{end}_{kind}").value.data
            attrs.pop(f"{end}_{dropped}", None)
            op.properties[f"{end}_val"] = IntegerAttr(value, element) if kind == "int" else FloatAttr(value, element)
    if name == "mul" and "shift" in attrs:
        shift = attrs.pop("shift").value.data
        op.operands = [*op.operands, _const(op, "const", DenseIntOrFPElementsAttr.from_list(TensorType(i8, [1]),
                                                                                         [shift]), TensorType(i8, [1]))]
    if name == "transpose" and len(op.operands) == 2:  # perms were a constant operand
        perms = [int(v) for v in op.operands[1].owner.properties["values"].get_values()]
        op.properties["perms"] = DenseArrayBase.from_list(i32, perms)
        op.operands = [op.operands[0]]
    if name in ZERO_POINTS and len(op.operands) < len(TOSA_OP_CLASSES[name].ROW.operands):
        zps = [_zero(op, op.operands[i].type.element_type) for i in ZERO_POINTS[name]]
        op.operands = [*op.operands, *zps]
        if "acc_type" not in op.properties and "acc_type" not in attrs and name in ("conv2d", "avg_pool2d"):
            element = op.operands[0].type.element_type  # what 0.80 accumulated in for this input
            op.properties["acc_type"] = i32 if isinstance(element, IntegerType) else f16 if element == f16 else f32
    for key in [k for k in attrs if k in {a for a, _, _ in TOSA_OP_CLASSES[name].ROW.attrs}]:
        op.properties[key] = attrs.pop(key)


def upgrade(module: ModuleOp) -> None:
    """Every pre-1.0 TOSA op of `module` rewritten in its 1.0 form (1.0 ops are left as they are)."""
    for op in [o for o in module.walk() if o.name.startswith("tosa.") and o.name.removeprefix("tosa.")
               in TOSA_OP_CLASSES]:
        _upgrade(op)
