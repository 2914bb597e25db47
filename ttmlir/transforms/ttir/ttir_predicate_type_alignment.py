"""`--ttir-predicate-type-alignment`: predicates take the element type of the data they come from.

A comparison, `logical_not` or `reduce_or` yielding `i1` yields its input's element type instead (1 and 0); an
elementwise binary op whose operands and result disagree is computed in one type (an `i1` side follows the other
side; a comparison with a non-`i1` result computes in its result's type), typecasts placed on the operands that
differ; a `where`'s `i1` condition is typecast to its values' type; reshapes, permutes, transposes and broadcasts
keep their input's element type. Element-type normalization then has no mixed-type edges to bridge (it stores `i1`
as bf16), and D2M's compute regions see one type each.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import IntegerType, ModuleOp, TensorType
from xdsl.dialects.func import ReturnOp
from xdsl.ir import Attribute, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from ttmlir.dialects import ttnn
from ttmlir.dialects.ttir import TTIR_OP_CLASSES
from ttmlir.ir.props import KINDS
from ttmlir.ir.tt_op import TTOp

I1 = IntegerType(1)
COMPARISONS = frozenset({"eq", "ne", "gt", "ge", "lt", "le"})
FOLLOW_INPUT = frozenset({"logical_not", "reduce_or"})
MANIPULATIONS = frozenset({"reshape", "transpose", "permute", "broadcast"})


def _element(value: SSAValue) -> Attribute:
    return value.type.element_type


def _with_element(t: TensorType, element: Attribute) -> TensorType:
    """`t` holding `element`s; a TTNN layout follows (its memref holds them too)."""
    layout = t.encoding
    shape = tuple(t.get_shape())
    if isinstance(layout, ttnn.TTNNLayoutAttr):
        layout = ttnn.layout_for(shape, element, layout.buffer_type, layout.is_tiled)
    return TensorType(element, shape, layout)


def _retype(value: SSAValue, element: Attribute) -> bool:
    """Give `value` `element`s, unless a return reads it (the function's signature promises its type)."""
    if _element(value) == element or any(isinstance(use.operation, ReturnOp) for use in value.uses):
        return False
    Rewriter.replace_value_with_new_type(value, _with_element(value.type, element))
    return True


def _cast_operand(op: TTOp, index: int, element: Attribute) -> None:
    value = op.operands[index]
    cast = TTIR_OP_CLASSES["typecast"].create(operands=[value], result_types=[_with_element(value.type, element)],
                                              properties={"conservative_folding": KINDS["bool"].build(False)})
    cast.location = op.location
    op.parent.insert_op_before(cast, op)
    op.operands[index] = cast.results[0]


def _binary_target(op: TTOp) -> Attribute | None:
    """The one element type a binary op computes in: the non-i1 one all sides share (i1 sides follow it), else a
    non-i1 result's; None when there is no such type."""
    elements = [_element(op.operands[0]), _element(op.operands[1]), _element(op.results[0])]
    first = next((e for e in elements if e != I1), None)
    if first is None:
        return None
    if all(e in (I1, first) for e in elements):
        return first
    return elements[2] if elements[2] != I1 else None


def _align_binary(op: TTOp) -> bool:
    target = _binary_target(op)
    if target is None or all(_element(v) == target for v in (*op.operands, op.results[0])):
        if op.ROW.name in COMPARISONS and _element(op.results[0]) == I1:
            return _retype(op.results[0], _element(op.operands[0]))
        return False
    if _element(op.results[0]) != target and not _retype(op.results[0], target):
        return False
    for index, value in enumerate(list(op.operands)):
        if _element(value) != target:
            _cast_operand(op, index, target)
    return True


def _align(op: TTOp) -> bool:
    """Apply the rule for `op`'s kind; whether it changed anything."""
    name, family = op.ROW.name, op.ROW.family
    if family == "binary" and len(op.operands) == 2:
        return _align_binary(op)
    if name in FOLLOW_INPUT and _element(op.results[0]) == I1:
        return _retype(op.results[0], _element(op.operands[0]))
    if name in MANIPULATIONS:
        return _retype(op.results[0], _element(op.operands[0]))
    if name == "where":
        condition, first, second = op.operands
        if _element(condition) == I1 and first.type == second.type and _element(first) != I1:
            _cast_operand(op, 0, _element(first))
            return True
    return False


@dataclass(frozen=True)
class TTIRPredicateTypeAlignmentPass(ModulePass):
    """Predicate results in their data's element type; mixed-type elementwise edges made explicit typecasts."""

    name: ClassVar[str] = "ttir-predicate-type-alignment"

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        changed = True
        while changed:  # a retyped result can make its readers' types disagree in turn
            changed = False
            for op in list(module.walk()):
                if isinstance(op, TTOp) and op.name.startswith("ttir.") and op.results and _align(op):
                    changed = True
