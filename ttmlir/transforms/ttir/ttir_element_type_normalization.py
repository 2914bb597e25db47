"""`--ttir-element-type-normalization`: element types the device stores, everywhere in the device module.

The hardware has no f64, f16, i64, i16 or bool tensors: f64 computes as f32, f16 and i1 as bf16,
64- and 32-bit integers as si32 (unsigned ones as ui32), 16- and 8-bit integers as ui16/ui8.
Values, block arguments, function signatures, type attributes and constant data all change together,
so the IR stays consistent; constants keep their values, and a 64-bit integer constant whose value the 32-bit type
cannot hold is a located error (saturating it would give a silently wrong answer) unless it only bounds values
from the side it lies on (a clamp's INT64_MAX), where saturating is exact.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import (BytesAttr, DenseIntOrFPElementsAttr, FunctionType, IntegerType, ModuleOp, Signedness,
                                   TensorType, TypeAttribute, UnitAttr)
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute, Operation
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from ttmlir.dialects import ttcore
from ttmlir.dialects.ttcore import TO_DEVICE_TYPE
from ttmlir.dialects.ttnn import DATA_TYPE_TO_MLIR, MLIR_TO_DATA_TYPE
from ttmlir.errors import PassFailure
from ttmlir.transforms.ttcore.register_device import cpu_module_of, device_module_of



def normalized_element(element: Attribute) -> Attribute:
    if isinstance(element, ttcore.TileType) or str(element) not in MLIR_TO_DATA_TYPE:
        return element
    return DATA_TYPE_TO_MLIR["bf16" if str(element) == "f16" else MLIR_TO_DATA_TYPE[str(element)]]


def normalized_type(t: Attribute) -> Attribute:
    if isinstance(t, TensorType):
        element = normalized_element(t.element_type)
        return t if element == t.element_type else TensorType(element, t.get_shape(), t.encoding)
    if isinstance(t, FunctionType):
        return FunctionType.from_lists([normalized_type(i) for i in t.inputs], [normalized_type(o) for o in t.outputs])
    return t


def normalized_attr(attr: Attribute, bound: str | None = None) -> Attribute:
    """`attr` in the device's types. `bound` ("upper" or "lower") says the value only ever bounds others from
    that side, where a 64-bit value past si32 saturates exactly (no stored value lies beyond it)."""
    if isinstance(attr, DenseIntOrFPElementsAttr):
        new_type = normalized_type(attr.type)
        if new_type == attr.type:
            return attr
        values = attr.get_values()
        if attr.type.element_type == IntegerType(1):  # true is 1 (xDSL reads a signless i1 as signed: -1)
            values = [int(v) & 1 for v in values]
        element = new_type.element_type
        if isinstance(element, IntegerType) and element.width.data < 32:
            # 8- and 16-bit integers are stored unsigned: a negative value is its two's complement bit pattern,
            # which the modular ops (add, multiply, bitwise) keep right
            values = [int(v) & ((1 << element.width.data) - 1) for v in values]
        elif isinstance(element, IntegerType):
            values = [int(v) for v in values]
            low, high = (0, (1 << 32) - 1) if element.signedness.data == Signedness.UNSIGNED else (-(1 << 31), (1 << 31) - 1)
            if bound == "upper":
                values = [min(v, high) for v in values]
            elif bound == "lower":
                values = [max(v, low) for v in values]
            if (bad := next((v for v in values if not low <= v <= high), None)) is not None:
                raise ValueError(f"{attr.type.element_type} value {bad} does not fit {element}, the type the device "
                                 f"stores it in ({low}..{high})")
        else:
            values = [float(v) for v in values]
        # packed directly, so a one-element splat stays one element
        return DenseIntOrFPElementsAttr(new_type, BytesAttr(new_type.element_type.pack(values)))
    if isinstance(attr, (TensorType, FunctionType)):
        return normalized_type(attr)
    return normalized_element(attr) if isinstance(attr, TypeAttribute) else attr


def normalize(op: Operation) -> None:
    for inner in list(op.walk()):
        values = [*inner.results, *(arg for region in inner.regions for block in region.blocks for arg in block.args)]
        for value in values:
            if value.type != normalized_type(value.type):
                Rewriter.replace_value_with_new_type(value, normalized_type(value.type))
        bound = _bound_only(inner)
        for table in (inner.properties, inner.attributes):
            for key, value in table.items():
                try:
                    table[key] = normalized_attr(value, bound)
                except ValueError as error:
                    raise PassFailure(inner, str(error)) from None


# op -> the operand indices that bound the result from above, and from below
BOUNDING_OPERANDS = {"ttir.clamp_tensor": ({2}, {1}), "ttir.minimum": ({0, 1}, set()),
                     "ttir.maximum": (set(), {0, 1})}


def _bound_only(op: Operation) -> str | None:
    """"upper" (or "lower") when `op` is a constant every use of which bounds a value from above (or below): a
    clamp's max, a minimum's operand; as torch's clamp(min=...) passes INT64_MAX for the missing bound."""
    if op.name != "ttir.constant" or not op.results or not op.results[0].uses:
        return None
    for side, index in (("upper", 0), ("lower", 1)):
        if all(use.index in BOUNDING_OPERANDS.get(use.operation.name, (set(), set()))[index]
               for use in op.results[0].uses):
            return side
    return None


@dataclass(frozen=True)
class ElementTypeNormalizationPass(ModulePass):
    """Normalize element types into the list of types the device supports."""

    name: ClassVar[str] = "ttir-element-type-normalization"

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        normalize(device_module_of(module) or module)
        if (cpu := cpu_module_of(module)) is None:
            return
        for func in list(cpu.ops):  # their signatures are the calls' on the device
            if isinstance(func, FuncOp) and any(o.name.startswith(("stablehlo.", "chlo.")) for o in func.walk()):
                _normalize_signature(func)
            else:
                normalize(func)


def _normalize_signature(func: FuncOp) -> None:
    """A host StableHLO function takes and returns the device's types; inside, a `stablehlo.convert` of each
    argument and of each returned value gives its ops the types they were written in (the host computes them
    exactly), and later passes retype only the function's boundary."""
    from ttmlir.dialects.stablehlo import OPS  # loaded already by such a function; a TTIR-only run never builds it

    block = func.body.block
    first = block.first_op
    for arg in list(block.args):
        convert = OPS["convert"].create(operands=[arg], result_types=[arg.type])
        block.insert_op_before(convert, first)
        arg.replace_uses_with_if(convert.results[0], lambda use, c=convert: use.operation is not c)
        Rewriter.replace_value_with_new_type(arg, normalized_type(arg.type))
    ret = block.last_op
    for i, value in enumerate(list(ret.operands)):
        # marked: a value the device's type cannot hold stops the run instead of wrapping silently
        convert = OPS["convert"].create(operands=[value], result_types=[normalized_type(value.type)],
                                        attributes={TO_DEVICE_TYPE: UnitAttr()})
        block.insert_op_before(convert, ret)
        ret.operands[i] = convert.results[0]
    func.function_type = normalized_type(func.function_type)
