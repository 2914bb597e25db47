"""The syntax kernel print ops share (`d2m.print`, `ttkernel.dprint`): a format string whose `{}`s take the operands
in order, `("x={} y={}\\n", %x, %y) : (i32, i32) -> ()`."""

from __future__ import annotations

from xdsl.dialects.builtin import StringAttr
from xdsl.irdl import IRDLOperation, prop_def, var_operand_def
from xdsl.parser import Parser
from xdsl.printer import Printer


class FormatPrintOp(IRDLOperation):
    """A print of `fmt` with the operands `argv` in its `{}`s."""

    fmt = prop_def(StringAttr)
    argv = var_operand_def()

    @classmethod
    def parse(cls, parser: Parser):
        with parser.in_parens():
            fmt = parser.parse_str_literal()
            names = []
            while parser.parse_optional_punctuation(",") is not None:
                names.append(parser.parse_unresolved_operand())
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        position = parser.pos
        fn = parser.parse_function_type()
        return cls.create(operands=parser.resolve_operands(names, fn.inputs.data, position),
                          properties={"fmt": StringAttr(fmt)}, attributes=attributes)

    def print(self, printer: Printer) -> None:
        printer.print_string("(")
        printer.print_string_literal(self.fmt.data)
        for value in self.argv:
            printer.print_string(", ")
            printer.print_operand(value)
        printer.print_string(")")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_function_type(self.operand_types, [])
