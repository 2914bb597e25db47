"""The emitpy dialect: Python source as IR, in upstream's syntax (`emitpy.call_opaque "ttnn.add"(...)`,
`!emitpy.opaque<"ttnn.Tensor">`, `#emitpy.opaque<"None">`, `emitpy.import import "ttnn"`, globals, files).
`--convert-ttnn-to-emitpy` makes it, `ttmlir-translate --mlir-to-python` prints it (`ttmlir/target/python.py`)."""

from __future__ import annotations

from xdsl.dialects.builtin import (ArrayAttr, FlatSymbolRefAttr, IndexType, IntegerAttr, StringAttr, SymbolNameConstraint,
                                   UnitAttr)
from xdsl.ir import Attribute, Block, Dialect, ParametrizedAttribute, Region, TypeAttribute
from xdsl.irdl import (IRDLOperation, ParsePropInAttrDict, irdl_attr_definition, irdl_op_definition, operand_def, opt_prop_def, param_def,
                       prop_def, region_def, result_def, traits_def, var_operand_def, var_result_def)
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.traits import NoTerminator, Pure, SymbolOpInterface, SymbolTable
from xdsl.utils.exceptions import VerifyException


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
class OpaqueAttr(_Opaque, ParametrizedAttribute):
    """A Python expression written as it is: `#emitpy.opaque<"ttnn.DataType.BFLOAT16">`."""

    name = "emitpy.opaque"
    value: StringAttr = param_def()


@irdl_attr_definition
class DictType(ParametrizedAttribute, TypeAttribute):
    """A Python dict: `!emitpy.dict`."""

    name = "emitpy.dict"


@irdl_attr_definition
class StrType(ParametrizedAttribute, TypeAttribute):
    """A Python str: `!emitpy.str`."""

    name = "emitpy.str"


def opaque(text: str) -> OpaqueType:
    return OpaqueType(StringAttr(text))


@irdl_op_definition
class CallOpaqueOp(IRDLOperation):
    """A call of a Python callable by name: `args` orders operands (index attributes) and further values
    (`#emitpy.opaque`), `keyword_args` names them ("" for a positional one)."""

    name = "emitpy.call_opaque"
    callee = prop_def(StringAttr)
    args = opt_prop_def(ArrayAttr)
    keyword_args = opt_prop_def(ArrayAttr)
    operands_ = var_operand_def()
    results_ = var_result_def()
    assembly_format = "$callee `(` $operands_ `)` attr-dict `:` functional-type($operands_, $results_)"
    irdl_options = (ParsePropInAttrDict(),)

    def verify_(self) -> None:
        if not self.callee.data:
            raise VerifyException("'emitpy.call_opaque' op callee must not be empty")
        args = self.args.data if self.args is not None else ()
        for arg in args:
            if isinstance(arg, IntegerAttr) and isinstance(arg.type, IndexType) and \
                    not 0 <= arg.value.data < len(self.operands_):
                raise VerifyException("'emitpy.call_opaque' op index argument is out of range")
        if self.keyword_args is not None:
            expected = len(args) if self.args is not None else len(self.operands_)
            if len(self.keyword_args.data) != expected:
                raise VerifyException("'emitpy.call_opaque' op number of keyword arguments must match the number of "
                                      "arguments")


@irdl_op_definition
class ImportOp(IRDLOperation):
    """`emitpy.import import "ttnn"`, `emitpy.import import "numpy" as "np"`,
    `emitpy.import from "os" import "path", "sep" as "s"`, `emitpy.import from "m" import *`."""

    name = "emitpy.import"
    module_name = prop_def(StringAttr)
    module_alias = opt_prop_def(StringAttr)
    members_to_import = opt_prop_def(ArrayAttr)
    member_aliases = opt_prop_def(ArrayAttr)
    import_all = opt_prop_def(UnitAttr)

    @classmethod
    def parse(cls, parser: Parser) -> "ImportOp":
        props: dict[str, Attribute] = {}
        if parser.parse_optional_keyword("from") is not None:
            props["module_name"] = StringAttr(parser.parse_str_literal())
            parser.parse_keyword("import")
            if parser.parse_optional_punctuation("*") is not None:
                props["import_all"] = UnitAttr()
            else:
                members, aliases = [], []

                def member():
                    members.append(StringAttr(parser.parse_str_literal()))
                    alias = parser.parse_str_literal() if parser.parse_optional_keyword("as") is not None else ""
                    aliases.append(StringAttr(alias))

                parser.parse_comma_separated_list(parser.Delimiter.NONE, member)
                props["members_to_import"] = ArrayAttr(members)
                if any(a.data for a in aliases):
                    props["member_aliases"] = ArrayAttr(aliases)
        else:
            parser.parse_keyword("import")
            props["module_name"] = StringAttr(parser.parse_str_literal())
            if parser.parse_optional_keyword("as") is not None:
                props["module_alias"] = StringAttr(parser.parse_str_literal())
        return cls.create(properties=props, attributes=parser.parse_optional_attr_dict())

    def print(self, printer: Printer) -> None:
        if self.members_to_import is None and self.import_all is None:
            printer.print_string(f' import "{self.module_name.data}"')
            if self.module_alias is not None:
                printer.print_string(f' as "{self.module_alias.data}"')
        else:
            printer.print_string(f' from "{self.module_name.data}" import ')
            if self.import_all is not None:
                printer.print_string("*")
            else:
                aliases = [a.data for a in self.member_aliases.data] if self.member_aliases is not None else []
                parts = []
                for i, member in enumerate(self.members_to_import.data):
                    alias = aliases[i] if i < len(aliases) else ""
                    parts.append(f'"{member.data}"' + (f' as "{alias}"' if alias else ""))
                printer.print_string(", ".join(parts))
        printer.print_op_attributes(self.attributes)

    def python(self) -> str:
        if self.import_all is not None:
            return f"from {self.module_name.data} import *"
        if self.members_to_import is None:
            alias = f" as {self.module_alias.data}" if self.module_alias is not None else ""
            return f"import {self.module_name.data}{alias}"
        aliases = [a.data for a in self.member_aliases.data] if self.member_aliases is not None else []
        parts = [m.data + (f" as {aliases[i]}" if i < len(aliases) and aliases[i] else "")
                 for i, m in enumerate(self.members_to_import.data)]
        return f"from {self.module_name.data} import {', '.join(parts)}"


@irdl_op_definition
class LiteralOp(IRDLOperation):
    """A Python expression used as a value: `%0 = emitpy.literal "0" : index`."""

    name = "emitpy.literal"
    value = prop_def(StringAttr)
    result = result_def()
    traits = traits_def(Pure())
    assembly_format = "$value attr-dict `:` type($result)"

    def verify_(self) -> None:
        if not self.value.data:
            raise VerifyException("'emitpy.literal' op value must not be empty")


@irdl_op_definition
class SubscriptOp(IRDLOperation):
    """`%e = emitpy.subscript %list[%i] : (!emitpy.opaque<"[ttnn.Tensor]">, index) -> !emitpy.opaque<"ttnn.Tensor">`."""

    name = "emitpy.subscript"
    container = operand_def()
    index = operand_def()
    result = result_def()
    traits = traits_def(Pure())
    assembly_format = "$container `[` $index `]` attr-dict `:` functional-type(operands, results)"


@irdl_op_definition
class AssignOp(IRDLOperation):
    """`%t = emitpy.assign %a = %b : (A, B)`... here the form `emitpy.assign %target = %value : (T, V)`."""

    name = "emitpy.assign"
    target = operand_def()
    value = operand_def()

    @classmethod
    def parse(cls, parser: Parser) -> "AssignOp":
        target = parser.parse_unresolved_operand()
        parser.parse_punctuation("=")
        value = parser.parse_unresolved_operand()
        parser.parse_punctuation(":")
        types = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_type)
        operands = parser.resolve_operands([target, value], types, parser.pos)
        return cls.create(operands=operands, attributes=parser.parse_optional_attr_dict())

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.target)
        printer.print_string(" = ")
        printer.print_operand(self.value)
        printer.print_string(" : (")
        printer.print_list([self.target.type, self.value.type], printer.print_attribute)
        printer.print_string(")")
        printer.print_op_attributes(self.attributes)

    def verify_(self) -> None:
        if self.target.type != self.value.type:
            raise VerifyException(f"'emitpy.assign' op target type ('{self.target.type}') does not match value type "
                                  f"('{self.value.type}')")


@irdl_op_definition
class VerbatimOp(IRDLOperation):
    """A line of Python as it is, `{}` standing for each operand: `emitpy.verbatim "print({})" args %a : T`."""

    name = "emitpy.verbatim"
    value = prop_def(StringAttr)
    fmt_args = var_operand_def()

    @classmethod
    def parse(cls, parser: Parser) -> "VerbatimOp":
        value, operands = parser.parse_str_literal(), []
        if parser.parse_optional_keyword("args") is not None:
            names = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_unresolved_operand)
            parser.parse_punctuation(":")
            types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
            operands = parser.resolve_operands(names, types, parser.pos)
        return cls.create(operands=operands, properties={"value": StringAttr(value)},
                          attributes=parser.parse_optional_attr_dict())

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_string_literal(self.value.data)
        if self.fmt_args:
            printer.print_string(" args ")
            printer.print_list(self.fmt_args, printer.print_operand)
            printer.print_string(" : ")
            printer.print_list(self.fmt_args.types, printer.print_attribute)
        printer.print_op_attributes(self.attributes)


def placeholder_count(op: IRDLOperation, text: str) -> int:
    """The `{}` placeholders of a format string (`{{`/`}}` are braces); a lone `{` is an error."""
    count, i = 0, 0
    while i < len(text):
        if text.startswith(("{{", "}}"), i):
            i += 2
        elif text[i] == "{":
            if not text.startswith("{}", i):
                raise VerifyException(f"'{op.name}' op expected '}}' after unescaped '{{'")
            count, i = count + 1, i + 2
        else:
            i += 1
    return count


@irdl_op_definition
class IfOp(IRDLOperation):
    """`emitpy.if "not {}" args %d : (T) { ... } else { ... }`: a Python `if`, its condition a format string over
    its operands; an else region holding only another if (without an else of its own) is printed as `elif`."""

    name = "emitpy.if"
    condition = prop_def(StringAttr)
    cond_args = var_operand_def()
    then_region = region_def("single_block")
    else_region = region_def()
    traits = traits_def(NoTerminator())

    @classmethod
    def parse(cls, parser: Parser) -> "IfOp":
        condition, operands = parser.parse_str_literal(), []
        if parser.parse_optional_keyword("args") is not None:
            names = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_unresolved_operand)
            parser.parse_punctuation(":")
            types = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_type)
            operands = parser.resolve_operands(names, types, parser.pos)
        regions = [parser.parse_region()]
        regions.append(parser.parse_region() if parser.parse_optional_keyword("else") is not None else Region())
        for region in regions[:1]:
            if not region.blocks:
                region.add_block(Block())
        return cls.create(operands=operands, properties={"condition": StringAttr(condition)}, regions=regions,
                          attributes=parser.parse_optional_attr_dict())

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_string_literal(self.condition.data)
        if self.cond_args:
            printer.print_string(" args ")
            printer.print_list(self.cond_args, printer.print_operand)
            printer.print_string(" : (")
            printer.print_list(self.cond_args.types, printer.print_attribute)
            printer.print_string(")")
        printer.print_string(" ")
        printer.print_region(self.then_region, print_entry_block_args=False, print_empty_block=False)
        if self.else_region.blocks:
            printer.print_string(" else ")
            printer.print_region(self.else_region, print_entry_block_args=False, print_empty_block=False)
        printer.print_op_attributes(self.attributes)

    def verify_(self) -> None:
        if not self.condition.data:
            raise VerifyException("'emitpy.if' op condition string must not be empty")
        if placeholder_count(self, self.condition.data) != len(self.cond_args):
            raise VerifyException("'emitpy.if' op requires operands for each placeholder in the condition string")
        if len(self.else_region.blocks) > 1:
            raise VerifyException("'emitpy.if' op region #1 ('elseRegion') failed to verify constraint: region with "
                                  "at most 1 blocks")


@irdl_op_definition
class ConstantOp(IRDLOperation):
    """A constant: `%0 = "emitpy.constant"() <{value = #emitpy.opaque<"None">}> : () -> !emitpy.opaque<"None">`."""

    name = "emitpy.constant"
    value = prop_def(Attribute)
    result = result_def()

    def verify_(self) -> None:
        if isinstance(self.value, OpaqueAttr) and not self.value.value.data:
            raise VerifyException("'emitpy.constant' op value must not be empty")


def _parse_initial_value(parser: Parser) -> Attribute:
    parser.parse_punctuation("=")
    return parser.parse_attribute()


@irdl_op_definition
class GlobalOp(IRDLOperation):
    """A module-level variable: `emitpy.global @x = #emitpy.opaque<"None">`."""

    name = "emitpy.global"
    sym_name = prop_def(StringAttr)
    initial_value = prop_def(Attribute)
    traits = traits_def(SymbolOpInterface())

    @classmethod
    def parse(cls, parser: Parser) -> "GlobalOp":
        name = parser.parse_symbol_name()
        value = _parse_initial_value(parser)
        return cls.create(properties={"sym_name": name, "initial_value": value},
                          attributes=parser.parse_optional_attr_dict())

    def print(self, printer: Printer) -> None:
        printer.print_string(f" @{self.sym_name.data} = ")
        printer.print_attribute(self.initial_value)
        printer.print_op_attributes(self.attributes)

    def verify_(self) -> None:
        if isinstance(self.initial_value, OpaqueAttr) and not self.initial_value.value.data:
            raise VerifyException("'emitpy.global' op initial value must not be empty")


def _global_named(op: IRDLOperation, name: str) -> GlobalOp:
    top = op
    while top.parent_op() is not None:
        top = top.parent_op()
    found = next((g for g in top.walk() if isinstance(g, GlobalOp) and g.sym_name.data == name), None)
    if found is None:
        raise VerifyException(f"'{op.name}' op '{name}' does not reference a valid emitpy.global")
    return found


@irdl_op_definition
class GlobalStatementOp(IRDLOperation):
    """`global x` in a function: `%0 = emitpy.global_statement @x : !emitpy.opaque<"...">`."""

    name = "emitpy.global_statement"
    global_name = prop_def(FlatSymbolRefAttr, prop_name="name")
    result = result_def()
    traits = traits_def(Pure())
    assembly_format = "$name `:` type($result) attr-dict"

    def verify_(self) -> None:
        _global_named(self, self.global_name.root_reference.data)


@irdl_op_definition
class AssignGlobalOp(IRDLOperation):
    """`emitpy.assign_global @x = %v : T`."""

    name = "emitpy.assign_global"
    global_name = prop_def(FlatSymbolRefAttr, prop_name="name")
    value = operand_def()

    @classmethod
    def parse(cls, parser: Parser) -> "AssignGlobalOp":
        name = parser.parse_symbol_name()
        parser.parse_punctuation("=")
        value = parser.parse_unresolved_operand()
        parser.parse_punctuation(":")
        (operand,) = parser.resolve_operands([value], [parser.parse_type()], parser.pos)
        return cls.create(operands=[operand], properties={"name": FlatSymbolRefAttr(name)},
                          attributes=parser.parse_optional_attr_dict())

    def print(self, printer: Printer) -> None:
        printer.print_string(f" @{self.global_name.root_reference.data} = ")
        printer.print_operand(self.value)
        printer.print_string(" : ")
        printer.print_attribute(self.value.type)
        printer.print_op_attributes(self.attributes)

    def verify_(self) -> None:
        _global_named(self, self.global_name.root_reference.data)


@irdl_op_definition
class FileOp(IRDLOperation):
    """One generated Python file: `emitpy.file "main" { ... }`."""

    name = "emitpy.file"
    id = prop_def(StringAttr)
    body = region_def("single_block")
    traits = traits_def(NoTerminator(), SymbolTable())  # a file's functions call each other

    @classmethod
    def parse(cls, parser: Parser) -> "FileOp":
        file_id = parser.parse_str_literal()
        attributes = parser.parse_optional_attr_dict_with_keyword()
        region = parser.parse_region()
        if not region.blocks:
            from xdsl.ir import Block
            region.add_block(Block())
        return cls.create(properties={"id": StringAttr(file_id)}, regions=[region],
                          attributes=attributes.data if attributes is not None else {})

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_string_literal(self.id.data)
        printer.print_op_attributes(self.attributes, print_keyword=True)
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=False, print_empty_block=False)

    def verify_(self) -> None:
        if not self.id.data:
            raise VerifyException("'emitpy.file' op id must not be empty")


EmitPy = Dialect("emitpy", [CallOpaqueOp, ImportOp, LiteralOp, SubscriptOp, AssignOp, VerbatimOp, ConstantOp, GlobalOp,
                            GlobalStatementOp, AssignGlobalOp, FileOp, IfOp],
                 [OpaqueType, OpaqueAttr, DictType, StrType])
