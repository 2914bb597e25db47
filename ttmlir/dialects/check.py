"""StableHLO's `check` dialect: the assertions its reference interpreter's tests state about values.

`check.expect_eq_const %v, dense<...> : tensor<...>` says what `%v` must hold. The ops have no effect on a
compiled program; `benchmarks/stablehlo_interpret_suite.py` turns them into the program's results and compares
what the simulated device computed with the stated values, as `stablehlo-translate --interpret` does with its own.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, FloatAttr, IntegerAttr, StringAttr, TensorType
from xdsl.ir import Dialect
from xdsl.irdl import IRDLOperation, VarConstraint, attr_def, base, irdl_op_definition, operand_def, opt_attr_def
from xdsl.parser import Parser
from xdsl.printer import Printer


def _parse_numbers(parser: Parser, kinds: dict[str, type]) -> dict:
    """`, name = number` clauses in the order of `kinds` (name -> FloatAttr or IntegerAttr), each optional."""
    found = {}
    for name, kind in kinds.items():
        if parser.parse_optional_punctuation(","):
            parser.parse_keyword(name)
            parser.parse_punctuation("=")
            found[name] = FloatAttr(parser.parse_float(), 64) if kind is FloatAttr else \
                IntegerAttr(parser.parse_integer(), 64)
    return found


def _print_numbers(printer: Printer, op: IRDLOperation, names) -> None:
    for name in names:
        if name in op.attributes:
            value = op.attributes[name].value.data
            printer.print_string(f", {name} = {value:e}" if isinstance(value, float) else f", {name} = {value}")


class ConstantCheck(IRDLOperation):
    """`check.<op> %lhs, dense<...> : tensor<...> [, tolerance = t] {attrs}`: the operand takes the constant's type."""

    @classmethod
    def parse(cls, parser: Parser) -> ConstantCheck:
        lhs = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        value = parser.parse_attribute()
        attributes = {"value": value, **_parse_numbers(parser, {"tolerance": FloatAttr})}
        extra = parser.parse_optional_attr_dict()
        return cls.create(operands=[parser.resolve_operand(lhs, value.type)], attributes={**extra, **attributes})

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.operands[0])
        printer.print_string(", ")
        printer.print_attribute(self.attributes["value"])
        _print_numbers(printer, self, ["tolerance"])
        printer.print_op_attributes({k: v for k, v in self.attributes.items() if k not in ("value", "tolerance")})


@irdl_op_definition
class ExpectEqConstOp(ConstantCheck):
    """The operand equals the constant exactly."""
    name = "check.expect_eq_const"
    lhs = operand_def(TensorType)
    value = attr_def(DenseIntOrFPElementsAttr)


class PairCheck(IRDLOperation):
    """`check.<op> %a, %b [, name = number]... : {attrs} type[, type]`: two operands of one type (expect_close
    names both types)."""

    NUMBERS: ClassVar[dict[str, type]] = {}
    BOTH_TYPES: ClassVar[bool] = False

    @classmethod
    def parse(cls, parser: Parser) -> PairCheck:
        operands = [parser.parse_unresolved_operand()]
        parser.parse_punctuation(",")
        operands.append(parser.parse_unresolved_operand())
        numbers = _parse_numbers(parser, cls.NUMBERS)
        extra = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        extra = {**extra, **parser.parse_optional_attr_dict()}
        types = [parser.parse_type()]
        if cls.BOTH_TYPES:
            parser.parse_punctuation(",")
            types.append(parser.parse_type())
        types = types if cls.BOTH_TYPES else types * 2
        return cls.create(operands=parser.resolve_operands(operands, types, parser.pos),
                          attributes={**extra, **numbers})

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        _print_numbers(printer, self, self.NUMBERS)
        printer.print_op_attributes({k: v for k, v in self.attributes.items() if k not in self.NUMBERS})
        printer.print_string(" : ")
        printer.print_list([v.type for v in self.operands[:2 if self.BOTH_TYPES else 1]], printer.print_attribute)


@irdl_op_definition
class ExpectEqOp(PairCheck):
    """The two operands are equal exactly."""
    name = "check.expect_eq"
    T: ClassVar = VarConstraint("T", base(TensorType))
    lhs = operand_def(T)
    rhs = operand_def(T)


@irdl_op_definition
class ExpectAlmostEqConstOp(ConstantCheck):
    """Each element is within `tolerance` (default 1e-4) of the constant's."""
    name = "check.expect_almost_eq_const"
    lhs = operand_def(TensorType)
    value = attr_def(DenseIntOrFPElementsAttr)
    tolerance = opt_attr_def(FloatAttr)


@irdl_op_definition
class ExpectAlmostEqOp(PairCheck):
    """Each element of the first operand is within `tolerance` (default 1e-4) of the second's."""
    name = "check.expect_almost_eq"
    T: ClassVar = VarConstraint("T", base(TensorType))
    lhs = operand_def(T)
    rhs = operand_def(T)
    tolerance = opt_attr_def(FloatAttr)
    NUMBERS: ClassVar = {"tolerance": FloatAttr}


@irdl_op_definition
class ExpectCloseOp(PairCheck):
    """Each element of `actual` is within `max_ulp_difference` units in the last place of `expected`'s."""
    name = "check.expect_close"
    actual = operand_def(TensorType)
    expected = operand_def(TensorType)
    max_ulp_difference = attr_def(IntegerAttr)
    min_ulp_difference = opt_attr_def(IntegerAttr)
    NUMBERS: ClassVar = {"max_ulp_difference": IntegerAttr, "min_ulp_difference": IntegerAttr}
    BOTH_TYPES: ClassVar = True


@irdl_op_definition
class ExpectSerializedEqOp(IRDLOperation):
    """The operand equals a tensor the interpreter's instrumentation saved under `probe_id`:
    `check.expect_serialized_eq %v, probe_id = "id" [, iter = N] {attrs} : type`."""
    name = "check.expect_serialized_eq"
    expected = operand_def(TensorType)
    probe_id = attr_def(StringAttr)
    iteration = opt_attr_def(IntegerAttr)

    @classmethod
    def parse(cls, parser: Parser) -> ExpectSerializedEqOp:
        operand = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        parser.parse_keyword("probe_id")
        parser.parse_punctuation("=")
        attributes = {"probe_id": StringAttr(parser.parse_str_literal())}
        if parser.parse_optional_punctuation(","):
            parser.parse_keyword("iter")
            parser.parse_punctuation("=")
            attributes["iteration"] = IntegerAttr(parser.parse_integer(), 32)
        attributes = {**parser.parse_optional_attr_dict(), **attributes}
        parser.parse_punctuation(":")
        return cls.create(operands=[parser.resolve_operand(operand, parser.parse_type())], attributes=attributes)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.expected)
        printer.print_string(f', probe_id = "{self.probe_id.data}"')
        if self.iteration is not None:
            printer.print_string(f", iter = {self.iteration.value.data}")
        printer.print_op_attributes({k: v for k, v in self.attributes.items() if k not in ("probe_id", "iteration")})
        printer.print_string(" : ")
        printer.print_attribute(self.expected.type)


Check = Dialect("check", [ExpectEqConstOp, ExpectEqOp, ExpectAlmostEqConstOp, ExpectAlmostEqOp, ExpectCloseOp,
                          ExpectSerializedEqOp], [])
