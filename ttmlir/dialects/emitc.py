"""The emitc ops kernels are written in, beside those xDSL 0.74 has (call_opaque, add, apply and the types):
include, literal, verbatim (with format arguments), constant, the arithmetic and comparison ops, conditional,
cast, for, with
MLIR's custom syntax."""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.emitc import EmitC as XdslEmitC, EmitC_LValueType, EmitC_OpaqueAttr
from xdsl.dialects.builtin import IndexType, IntegerType, StringAttr, UnitAttr
from xdsl.ir import Attribute, Dialect, Operation
from xdsl.irdl import (IRDLOperation, irdl_op_definition, operand_def, opt_prop_def, prop_def, region_def, result_def,
                       traits_def, var_operand_def)
from xdsl.traits import HasParent, IsTerminator
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

CMP_PREDICATES = {"eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">=", "three_way": "<=>"}


@irdl_op_definition
class IncludeOp(IRDLOperation):
    """`emitc.include "api/dataflow/dataflow_api.h"` or, for a standard header, `emitc.include <"cstdint">`."""

    name = "emitc.include"
    include = prop_def(StringAttr)
    is_standard_include = opt_prop_def(UnitAttr)

    @classmethod
    def parse(cls, parser: Parser) -> "IncludeOp":
        standard = parser.parse_optional_punctuation("<") is not None
        header = parser.parse_str_literal()
        if standard:
            parser.parse_punctuation(">")
        props: dict[str, Attribute] = {"include": StringAttr(header)}
        if standard:
            props["is_standard_include"] = UnitAttr()
        return cls.create(properties=props)

    def print(self, printer: Printer) -> None:
        text = f'"{self.include.data}"'
        printer.print_string(f" <{text}>" if self.is_standard_include is not None else f" {text}")


@irdl_op_definition
class VerbatimOp(IRDLOperation):
    """A line of C++ written as it is, `{}` standing for each of its operands in turn and `{{` for a brace:
    `emitc.verbatim "// note"`, `emitc.verbatim "noc0.async_read_barrier({});" args %a : i32`."""

    name = "emitc.verbatim"
    value = prop_def(StringAttr)
    fmt_args = var_operand_def()

    def verify_(self) -> None:
        if len(self.fmt_args) != len(format_pieces(self.value.data)) - 1:
            raise VerifyException(f"'emitc.verbatim' op has {len(format_pieces(self.value.data)) - 1} placeholder(s) "
                                  f"and {len(self.fmt_args)} argument(s)")

    @classmethod
    def parse(cls, parser: Parser) -> "VerbatimOp":
        value, operands = parser.parse_str_literal(), []
        if parser.parse_optional_keyword("args") is not None:
            names = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_unresolved_operand)
            parser.parse_punctuation(":")
            position = parser.pos
            types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
            operands = parser.resolve_operands(names, types, position)
        attributes = parser.parse_optional_attr_dict()
        return cls.create(operands=operands, properties={"value": StringAttr(value)}, attributes=attributes)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_string_literal(self.value.data)
        if self.fmt_args:
            printer.print_string(" args ")
            printer.print_list(self.fmt_args, printer.print_operand)
            printer.print_string(" : ")
            printer.print_list(self.fmt_args.types, printer.print_attribute)
        printer.print_op_attributes(self.attributes)


def format_pieces(text: str) -> list[str]:
    """A verbatim's text split at its `{}` placeholders, `{{` read as one brace."""
    pieces, current, i = [], [], 0
    while i < len(text):
        if text.startswith("{{", i):
            current.append("{")
            i += 2
        elif text.startswith("{}", i):
            pieces.append("".join(current))
            current, i = [], i + 2
        else:
            current.append(text[i])
            i += 1
    return [*pieces, "".join(current)]


@irdl_op_definition
class ConstantOp(IRDLOperation):
    """A C++ constant, in MLIR's generic form: `%0 = "emitc.constant"() <{value = 1 : i32}> : () -> i32`."""

    name = "emitc.constant"
    value = prop_def(Attribute)
    result = result_def()


@irdl_op_definition
class LiteralOp(IRDLOperation):
    """A C++ expression used as a value: `%0 = emitc.literal "get_compile_time_arg_val(0)" {attrs}? : i32`."""

    name = "emitc.literal"
    value = prop_def(StringAttr)
    result = result_def()

    def verify_(self) -> None:
        if not self.value.data:
            raise VerifyException("'emitc.literal' op value must not be empty")

    @classmethod
    def parse(cls, parser: Parser) -> "LiteralOp":
        value = parser.parse_str_literal()
        attributes = parser.parse_optional_attr_dict()  # e.g. the CB index a kernel reads the literal as
        parser.parse_punctuation(":")
        return cls.create(properties={"value": StringAttr(value)}, attributes=attributes,
                          result_types=[parser.parse_type()])

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_string_literal(self.value.data)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.result.type)


class _BinaryOp(IRDLOperation):
    """`%r = emitc.<op> %a, %b : (A, B) -> R`, the C operator `OPERATOR`."""

    OPERATOR: ClassVar[str] = ""
    lhs = operand_def()
    rhs = operand_def()
    result = result_def()
    assembly_format = "operands attr-dict `:` functional-type(operands, results)"


@irdl_op_definition
class SubOp(_BinaryOp):
    name = "emitc.sub"
    OPERATOR: ClassVar[str] = "-"


@irdl_op_definition
class MulOp(_BinaryOp):
    name = "emitc.mul"
    OPERATOR: ClassVar[str] = "*"


@irdl_op_definition
class DivOp(_BinaryOp):
    name = "emitc.div"
    OPERATOR: ClassVar[str] = "/"


@irdl_op_definition
class RemOp(_BinaryOp):
    name = "emitc.rem"
    OPERATOR: ClassVar[str] = "%"


@irdl_op_definition
class CmpOp(IRDLOperation):
    """`%r = emitc.cmp lt, %a, %b : (i32, i32) -> i1`."""

    name = "emitc.cmp"
    predicate = prop_def(StringAttr)
    lhs = operand_def()
    rhs = operand_def()
    result = result_def()

    def verify_(self) -> None:
        if self.predicate.data not in CMP_PREDICATES:
            raise VerifyException(f"'emitc.cmp' op unknown predicate '{self.predicate.data}' "
                                  f"(one of {', '.join(CMP_PREDICATES)})")

    @classmethod
    def parse(cls, parser: Parser) -> "CmpOp":
        predicate = parser.parse_identifier()
        if predicate not in CMP_PREDICATES:
            parser.raise_error(f"unknown comparison predicate '{predicate}' (one of {', '.join(CMP_PREDICATES)})")
        parser.parse_punctuation(",")
        lhs = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        rhs = parser.parse_unresolved_operand()
        parser.parse_punctuation(":")
        fn = parser.parse_function_type()
        operands = parser.resolve_operands([lhs, rhs], fn.inputs.data, parser.pos)
        return cls.create(operands=operands, result_types=list(fn.outputs.data),
                          properties={"predicate": StringAttr(predicate)})

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {self.predicate.data}, ")
        printer.print_list(self.operands, printer.print_operand)
        printer.print_string(" : ")
        printer.print_function_type(self.operand_types, self.result_types)


@irdl_op_definition
class ConditionalOp(IRDLOperation):
    """C's `c ? a : b`: `%r = emitc.conditional %c, %a, %b : !emitc.size_t`."""

    name = "emitc.conditional"
    condition = operand_def(IntegerType)
    true_value = operand_def()
    false_value = operand_def()
    result = result_def()

    def verify_(self) -> None:
        if self.condition.type != IntegerType(1):
            raise VerifyException("'emitc.conditional' op condition must be an i1")
        if not self.true_value.type == self.false_value.type == self.result.type:
            raise VerifyException("'emitc.conditional' op requires both values and the result of one type")

    @classmethod
    def parse(cls, parser: Parser) -> "ConditionalOp":
        names = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_unresolved_operand)
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        kind = parser.parse_type()
        operands = parser.resolve_operands(names, [IntegerType(1), kind, kind], parser.pos)
        return cls.create(operands=operands, result_types=[kind], attributes=attributes)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.result.type)


@irdl_op_definition
class CastOp(IRDLOperation):
    """`%r = emitc.cast %a : i32 to f32`."""

    name = "emitc.cast"
    source = operand_def()
    dest = result_def()
    assembly_format = "$source attr-dict `:` type($source) `to` type($dest)"


@irdl_op_definition
class SubscriptOp(IRDLOperation):
    """An element of a container, as an lvalue: `%e = emitc.subscript %v[%i] : (!emitc.opaque<"...">, index) ->
    !emitc.lvalue<!emitc.opaque<"...">>` (the host code's tuple members)."""

    name = "emitc.subscript"
    value = operand_def()
    indices = var_operand_def()
    result = result_def(EmitC_LValueType)

    @classmethod
    def parse(cls, parser: Parser) -> "SubscriptOp":
        value = parser.parse_unresolved_operand()
        indices = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parser.parse_unresolved_operand)
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        fn = parser.parse_function_type()
        operands = parser.resolve_operands([value, *indices], fn.inputs.data, parser.pos)
        return cls.create(operands=operands, result_types=list(fn.outputs.data), attributes=attributes)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.value)
        printer.print_string("[")
        printer.print_list(self.indices, printer.print_operand)
        printer.print_string("]")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_function_type(self.operand_types, self.result_types)


@irdl_op_definition
class LoadOp(IRDLOperation):
    """The value an lvalue holds: `%v = emitc.load %e : !emitc.lvalue<T>`."""

    name = "emitc.load"
    operand = operand_def(EmitC_LValueType)
    result = result_def()

    def verify_(self) -> None:
        if self.operand.type.value_type != self.result.type:
            raise VerifyException("'emitc.load' op result type must be the lvalue's value type")

    @classmethod
    def parse(cls, parser: Parser) -> "LoadOp":
        operand = parser.parse_unresolved_operand()
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        lvalue = parser.parse_type()
        if not isinstance(lvalue, EmitC_LValueType):
            parser.raise_error("expected an !emitc.lvalue type")
        (value,) = parser.resolve_operands([operand], [lvalue], parser.pos)
        return cls.create(operands=[value], result_types=[lvalue.value_type], attributes=attributes)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.operand)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.operand.type)


@irdl_op_definition
class AssignOp(IRDLOperation):
    """A value stored into an lvalue: `emitc.assign %v : i32 to %e : !emitc.lvalue<i32>` (C++ `e = v;`)."""

    name = "emitc.assign"
    var = operand_def(EmitC_LValueType)
    value = operand_def()

    def verify_(self) -> None:
        if self.var.type.value_type != self.value.type:
            raise VerifyException("'emitc.assign' op requires value's type to match the lvalue's value type")

    @classmethod
    def parse(cls, parser: Parser) -> "AssignOp":
        value = parser.parse_unresolved_operand()
        parser.parse_punctuation(":")
        value_type = parser.parse_type()
        parser.parse_keyword("to")
        var = parser.parse_unresolved_operand()
        parser.parse_punctuation(":")
        var_type = parser.parse_type()
        attributes = parser.parse_optional_attr_dict()
        operands = parser.resolve_operands([var, value], [var_type, value_type], parser.pos)
        return cls.create(operands=operands, attributes=attributes)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.value)
        printer.print_string(" : ")
        printer.print_attribute(self.value.type)
        printer.print_string(" to ")
        printer.print_operand(self.var)
        printer.print_string(" : ")
        printer.print_attribute(self.var.type)
        printer.print_op_attributes(self.attributes)



@irdl_op_definition
class YieldOp(IRDLOperation):
    """The value of an `emitc.expression`: `yield %v : i32` (written without the dialect inside one)."""

    name = "emitc.yield"
    result = var_operand_def()
    traits = traits_def(IsTerminator())

    @classmethod
    def parse(cls, parser: Parser) -> "YieldOp":
        operand = parser.parse_optional_unresolved_operand()
        if operand is None:
            return cls.create()
        parser.parse_punctuation(":")
        (value,) = parser.resolve_operands([operand], [parser.parse_type()], parser.pos)
        return cls.create(operands=[value])

    def print(self, printer: Printer) -> None:
        if self.result:
            printer.print_string(" ")
            printer.print_operand(self.result[0])
            printer.print_string(" : ")
            printer.print_attribute(self.result[0].type)


@irdl_op_definition
class ExpressionOp(IRDLOperation):
    """A value computed by the C++ expression its region's ops make, yielded by its `yield`:
    `%0 = emitc.expression : () -> i32 { %1 = "emitc.constant"() <{value = 1 : i32}> : () -> i32  yield %1 : i32 }`
    (`noinline` keeps it a statement of its own)."""

    name = "emitc.expression"
    defs = var_operand_def()
    do_not_inline = opt_prop_def(UnitAttr)
    result = result_def()
    region = region_def("single_block")

    def verify_(self) -> None:
        last = self.region.block.last_op
        if not isinstance(last, YieldOp) or len(last.result) != 1:
            raise VerifyException("'emitc.expression' op requires its region to end in a yield of one value")
        if last.result[0].type != self.result.type:
            raise VerifyException("'emitc.expression' op yields a value of another type than its result")

    @classmethod
    def parse(cls, parser: Parser) -> "ExpressionOp":
        names = parser.parse_optional_undelimited_comma_separated_list(parser.parse_optional_unresolved_operand,
                                                                        parser.parse_unresolved_operand) or []
        props: dict[str, Attribute] = {}
        if parser.parse_optional_keyword("noinline") is not None:
            props["do_not_inline"] = UnitAttr()
        parser.parse_punctuation(":")
        position = parser.pos
        function = parser.parse_function_type()
        operands = parser.resolve_operands(names, list(function.inputs.data), position)
        region = parser.parse_region()
        return cls.create(operands=operands, properties=props, result_types=list(function.outputs.data),
                          regions=[region])

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.defs, printer.print_operand)
        if self.do_not_inline is not None:
            printer.print_string(" noinline")
        printer.print_string(" : ")
        printer.print_function_type(self.defs.types, [self.result.type])
        printer.print_string(" ")
        printer.print_region(self.region)


@irdl_op_definition
class ForOp(IRDLOperation):
    """A C++ counted loop, as MLIR's scf-to-emitc writes an `scf.for`: `emitc.for %i = %lb to %ub step %s  :
    !emitc.size_t { ... }` (the type printed when it is not `index`; the body's `emitc.yield` implicit)."""

    name = "emitc.for"
    lower_bound = operand_def()
    upper_bound = operand_def()
    step = operand_def()
    region = region_def("single_block")

    def verify_(self) -> None:
        block = self.region.block
        if len(block.args) != 1 or block.args[0].type != self.lower_bound.type or \
                {self.upper_bound.type, self.step.type} != {self.lower_bound.type}:
            raise VerifyException("'emitc.for' op expects its induction variable, bounds and step of one type")

    @classmethod
    def parse(cls, parser: Parser) -> "ForOp":
        induction = parser.parse_argument(expect_type=False)
        parser.parse_punctuation("=")
        lower = parser.parse_unresolved_operand()
        parser.parse_keyword("to")
        upper = parser.parse_unresolved_operand()
        parser.parse_keyword("step")
        step = parser.parse_unresolved_operand()
        kind = parser.parse_type() if parser.parse_optional_punctuation(":") is not None else IndexType()
        operands = [parser.resolve_operand(v, kind) for v in (lower, upper, step)]
        region = parser.parse_region([induction.resolve(kind)])
        attributes = parser.parse_optional_attr_dict()
        if not region.block.ops or not isinstance(region.block.last_op, YieldOp):
            region.block.add_op(YieldOp.create())
        return cls.create(operands=operands, regions=[region], attributes=attributes)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.region.block.args[0])
        printer.print_string(" = ")
        printer.print_ssa_value(self.lower_bound)
        printer.print_string(" to ")
        printer.print_ssa_value(self.upper_bound)
        printer.print_string(" step ")
        printer.print_ssa_value(self.step)
        printer.print_string(" ")
        if not isinstance(self.lower_bound.type, IndexType):
            printer.print_string(" : ")
            printer.print_attribute(self.lower_bound.type)
            printer.print_string(" ")
        printer.print_region(self.region, print_entry_block_args=False, print_block_terminators=False)
        printer.print_op_attributes(self.attributes)


YieldOp.traits.add_trait(HasParent(ExpressionOp, ForOp))


@irdl_op_definition
class VariableOp(IRDLOperation):
    """A C++ local, an lvalue read with `emitc.load` and written with `emitc.assign`, in MLIR's generic form:
    `%0 = "emitc.variable"() <{value = 1 : i32}> : () -> !emitc.lvalue<i32>` (`#emitc.opaque<"">`: no
    initializer)."""

    name = "emitc.variable"
    value = prop_def(Attribute)
    result = result_def(EmitC_LValueType)


# emitc's C expressions (MLIR's CExpressionInterface) and whether evaluating one may have an effect: an opaque call
# may; an opaque constant's text may be any C, a call among them
C_EXPRESSIONS = {"emitc.add": False, "emitc.sub": False, "emitc.mul": False, "emitc.div": False, "emitc.rem": False,
                 "emitc.cmp": False, "emitc.conditional": False, "emitc.cast": False, "emitc.constant": False,
                 "emitc.call_opaque": True}


def effect_free(op: Operation) -> bool:
    """Whether `op` is a C expression (or an `emitc.expression` of them) whose evaluation changes nothing."""
    if op.name == "emitc.expression":
        return all(effect_free(inner) for inner in op.regions[0].block.ops if inner.name != "emitc.yield")
    if op.name == "emitc.constant" and isinstance(op.properties["value"], EmitC_OpaqueAttr):
        return False
    return C_EXPRESSIONS.get(op.name) is False


EmitC = Dialect("emitc", [*XdslEmitC.operations, IncludeOp, VerbatimOp, ConstantOp, LiteralOp, SubOp, MulOp, DivOp,
                          RemOp, CmpOp, CastOp, SubscriptOp, LoadOp, AssignOp, ExpressionOp, YieldOp,
                          VariableOp, ForOp, ConditionalOp],
                list(XdslEmitC.attributes))
