"""The EmitPy dialect's types and attributes: opaque Python types and values, classes, the Python names of values."""

from __future__ import annotations

from xdsl.dialects.builtin import NoneAttr, StringAttr
from xdsl.ir import Attribute, ParametrizedAttribute, TypeAttribute
from xdsl.irdl import irdl_attr_definition, param_def
from xdsl.parser import AttrParser
from xdsl.printer import Printer


NAME = "emitpy.name"  # the Python name of an argument or of an op's result, where the IR gives one


class _Opaque:
    """`<"text">`: a Python type or value spelled as it is."""

    @classmethod
    def parse_parameters(cls, parser: AttrParser):
        with parser.in_angle_brackets():
            return (StringAttr(parser.parse_str_literal()),)

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<")
        printer.print_string_literal(self.value.data)
        printer.print_string(">")


@irdl_attr_definition
class OpaqueType(_Opaque, ParametrizedAttribute, TypeAttribute):
    """A Python value's type as text: `!emitpy.opaque<"ttnn.Tensor">`."""

    name = "emitpy.opaque"
    value: StringAttr = param_def()


@irdl_attr_definition
class ClassType(_Opaque, ParametrizedAttribute, TypeAttribute):
    """An instance of a class the file defines (`emitpy.class`): `!emitpy.class<"Model">`."""

    name = "emitpy.class"
    value: StringAttr = param_def()


@irdl_attr_definition
class OpaqueAttr(_Opaque, ParametrizedAttribute):
    """A Python expression written as it is: `#emitpy.opaque<"ttnn.DataType.BFLOAT16">`."""

    name = "emitpy.opaque"
    value: StringAttr = param_def()


@irdl_attr_definition
class DictType(ParametrizedAttribute, TypeAttribute):
    """A Python dict: `!emitpy.dict`, or typed `!emitpy.dict<index, !emitpy.opaque<"ttnn.Tensor">>`."""

    name = "emitpy.dict"
    key_type: Attribute = param_def()
    value_type: Attribute = param_def()

    def __init__(self, key_type: Attribute | None = None, value_type: Attribute | None = None):
        super().__init__(key_type or NoneAttr(), value_type or NoneAttr())

    @classmethod
    def parse_parameters(cls, parser: AttrParser):
        if parser.parse_optional_punctuation("<") is None:
            return (NoneAttr(), NoneAttr())
        key = parser.parse_type()
        parser.parse_punctuation(",")
        value = parser.parse_type()
        parser.parse_punctuation(">")
        return (key, value)

    def print_parameters(self, printer: Printer) -> None:
        if not isinstance(self.key_type, NoneAttr):
            printer.print_string("<")
            printer.print_list([self.key_type, self.value_type], printer.print_attribute)
            printer.print_string(">")


KEYWORDS = frozenset(("False None True and as assert async await break class continue def del elif else except "
                      "finally for from global if import in is lambda nonlocal not or pass raise return try while "
                      "with yield").split())


def name_problem(name: str) -> str | None:
    """Why `name` cannot name a Python variable, in upstream's words, or None."""
    if not name:
        return "variable name must not be empty"
    if name in KEYWORDS:
        return "variable name must not be a keyword"
    if not (name[0].isalpha() or name[0] == "_"):
        return "variable name must start with a letter or '_'"
    if not all(c.isalnum() or c == "_" for c in name):
        return "variable name may only contain alphanumeric characters and '_'"
    return None


@irdl_attr_definition
class StrType(ParametrizedAttribute, TypeAttribute):
    """A Python str: `!emitpy.str`."""

    name = "emitpy.str"


def opaque(text: str) -> OpaqueType:
    return OpaqueType(StringAttr(text))
