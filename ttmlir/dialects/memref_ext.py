"""xDSL's `memref` dialect, with `memref.global` read and printed in MLIR's custom form (xDSL has only the generic
one): `memref.global "private" constant @name : memref<32x32xf32> = dense<1.0> {alignment = 64 : i64}` (the
initializer's type is the memref's as a tensor; `= uninitialized` for none)."""

from __future__ import annotations

import io

from xdsl.dialects import memref as xmemref
from xdsl.dialects.builtin import StringAttr, SymbolNameConstraint, TensorType, UnitAttr
from xdsl.ir import Dialect
from xdsl.parser import Parser
from xdsl.printer import Printer

_INHERENT = ("sym_name", "sym_visibility", "type", "initial_value", "constant", "alignment")


class GlobalOp(xmemref.GlobalOp):  # xDSL's definition, inherited as it is; only the syntax differs
    @classmethod
    def parse(cls, parser: Parser) -> "GlobalOp":
        properties = {}
        if (visibility := parser.parse_optional_str_literal()) is not None:
            properties["sym_visibility"] = StringAttr(visibility)
        if parser.parse_optional_keyword("constant") is not None:
            properties["constant"] = UnitAttr()
        properties["sym_name"] = parser.parse_symbol_name()
        parser.parse_punctuation(":")
        position = parser.pos
        memref_type = parser.parse_type()
        properties["type"] = memref_type
        if parser.parse_optional_punctuation("=") is not None:
            if parser.parse_optional_keyword("uninitialized") is not None:
                properties["initial_value"] = UnitAttr()
            else:
                parser.parse_keyword("dense")
                tensor = TensorType(memref_type.element_type, memref_type.get_shape())
                properties["initial_value"] = parser.parse_dense_int_or_fp_elements_attr(tensor)
        else:
            parser.raise_error("a memref.global without an initializer (an external declaration) is not supported",
                               position)
        attributes = parser.parse_optional_attr_dict()
        for name in [n for n in attributes if n in _INHERENT]:
            properties[name] = attributes.pop(name)
        properties.setdefault("sym_visibility", StringAttr("public"))
        return cls.create(properties=properties, attributes=attributes)

    def print(self, printer: Printer) -> None:
        if self.sym_visibility.data != "public":
            printer.print_string(" ")
            printer.print_string_literal(self.sym_visibility.data)
        if self.constant is not None:
            printer.print_string(" constant")
        printer.print_string(" ")
        printer.print_symbol_name(self.sym_name.data)
        printer.print_string(" : ")
        printer.print_attribute(self.type)
        printer.print_string(" = ")
        if isinstance(self.initial_value, UnitAttr):
            printer.print_string("uninitialized")
        else:
            printer.print_string(_literal(printer, self.initial_value))
        extra = {"alignment": self.alignment} if self.alignment is not None else {}
        printer.print_op_attributes({**extra, **self.attributes})


def _literal(printer: Printer, attribute) -> str:
    """The dense literal without its type (`dense<1.0>`), as MLIR prints the initializer."""
    stream, printer.stream = printer.stream, io.StringIO()
    try:
        printer.print_attribute(attribute)
        full = printer.stream.getvalue()
        printer.stream = io.StringIO()
        printer.print_attribute(attribute.type)
        suffix = " : " + printer.stream.getvalue()
    finally:
        printer.stream = stream
    return full[:-len(suffix)] if full.endswith(suffix) else full


MemRef = Dialect("memref", [*(op for op in xmemref.MemRef.operations if op.name != "memref.global"), GlobalOp],
                 list(xmemref.MemRef.attributes))
