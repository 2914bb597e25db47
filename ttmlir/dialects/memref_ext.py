"""xDSL's `memref` dialect with `memref.copy` in MLIR's syntax: `memref.copy %src, %dst : memref<A> to memref<B>`
(xDSL 0.74 has no format for it; its generic form reads too)."""

from __future__ import annotations

from xdsl.dialects import memref as xmemref
from xdsl.ir import Dialect
from xdsl.parser import Parser
from xdsl.printer import Printer


class CopyOp(xmemref.CopyOp):  # xDSL's definition, inherited as it is; only the text differs
    @classmethod
    def parse(cls, parser: Parser) -> "CopyOp":
        names = [parser.parse_unresolved_operand()]
        parser.parse_punctuation(",")
        names.append(parser.parse_unresolved_operand())
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        position = parser.pos
        source = parser.parse_type()
        parser.parse_keyword("to")
        target = parser.parse_type()
        op = cls(*parser.resolve_operands(names, [source, target], position))
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.source.type)
        printer.print_string(" to ")
        printer.print_attribute(self.destination.type)


MemRef = Dialect("memref", [*(op for op in xmemref.MemRef.operations if op.name != "memref.copy"), CopyOp],
                 list(xmemref.MemRef.attributes))
