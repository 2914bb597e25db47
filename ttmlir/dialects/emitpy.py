"""The emitpy dialect: Python source as IR, in upstream's syntax (`emitpy.call_opaque "ttnn.add"(...)`,
`!emitpy.opaque<"ttnn.Tensor">`, `#emitpy.opaque<"None">`, `emitpy.import import "ttnn"`, globals, files).
`--convert-ttnn-to-emitpy` makes it, `ttmlir-translate --mlir-to-python` prints it (`ttmlir/target/python.py`)."""

from __future__ import annotations

from xdsl.dialects.builtin import ArrayAttr, FlatSymbolRefAttr, IndexType, IntegerAttr, StringAttr, SymbolRefAttr, UnitAttr
from xdsl.ir import Attribute, Block, Dialect, Operation, Region
from xdsl.irdl import IRDLOperation, ParsePropInAttrDict, irdl_op_definition, operand_def, opt_prop_def, prop_def, region_def, result_def, traits_def, var_operand_def, var_result_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import IsTerminator, NoTerminator, Pure, SymbolOpInterface, SymbolTable
from xdsl.utils.exceptions import VerifyException
from ttmlir.dialects.emitpy_types import *  # noqa: F401,F403 - the dialect's attributes and types are emitpy.<Name> too



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

    def verify_(self) -> None:
        if isinstance(self.index.type, StrType) and not isinstance(self.container.type, DictType):
            raise VerifyException(f"'emitpy.subscript' op cannot use string index on non-dict type "
                                  f"'{self.container.type}'")


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


def _parse_format_args(parser: Parser, types_delimiter) -> list:
    """` args %a, %b : A, B` (or `: (A, B)`): the operands a format string's `{}` stand for; none when absent."""
    if parser.parse_optional_keyword("args") is None:
        return []
    names = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_unresolved_operand)
    parser.parse_punctuation(":")
    types = parser.parse_comma_separated_list(types_delimiter, parser.parse_type)
    return parser.resolve_operands(names, types, parser.pos)


def _print_format_args(printer: Printer, values, brackets: tuple[str, str]) -> None:
    if values:
        printer.print_string(" args ")
        printer.print_list(values, printer.print_operand)
        printer.print_string(f" : {brackets[0]}")
        printer.print_list(values.types, printer.print_attribute)
        printer.print_string(brackets[1])


@irdl_op_definition
class VerbatimOp(IRDLOperation):
    """A line of Python as it is, `{}` standing for each operand: `emitpy.verbatim "print({})" args %a : T`."""

    name = "emitpy.verbatim"
    value = prop_def(StringAttr)
    fmt_args = var_operand_def()

    @classmethod
    def parse(cls, parser: Parser) -> "VerbatimOp":
        value = parser.parse_str_literal()
        operands = _parse_format_args(parser, parser.Delimiter.NONE)
        return cls.create(operands=operands, properties={"value": StringAttr(value)},
                          attributes=parser.parse_optional_attr_dict())

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_string_literal(self.value.data)
        _print_format_args(printer, self.fmt_args, ("", ""))
        printer.print_op_attributes(self.attributes)


@irdl_op_definition
class CreateDictOp(IRDLOperation):
    """`%d = emitpy.create_dict "name" (%k0, %v0, ...) : (...) -> !emitpy.dict`, or from a Python expression:
    `emitpy.create_dict "name" {literal_expr = "{}"} : () -> !emitpy.dict`; printed `name = {k0: v0, ...}`."""

    name = "emitpy.create_dict"
    dict_name = prop_def(StringAttr)
    literal_expr = opt_prop_def(StringAttr)
    items = var_operand_def()
    result = result_def()
    irdl_options = (ParsePropInAttrDict(),)

    @classmethod
    def parse(cls, parser: Parser) -> "CreateDictOp":
        props = {"dict_name": StringAttr(parser.parse_str_literal())}
        names = parser.parse_optional_comma_separated_list(parser.Delimiter.PAREN, parser.parse_unresolved_operand)
        attrs = parser.parse_optional_attr_dict()
        if "literal_expr" in attrs:
            props["literal_expr"] = attrs.pop("literal_expr")
        parser.parse_punctuation(":")
        fn_type = parser.parse_function_type()
        operands = parser.resolve_operands(names or [], fn_type.inputs.data, parser.pos)
        return cls.create(operands=operands, result_types=list(fn_type.outputs.data), properties=props,
                          attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_string_literal(self.dict_name.data)
        if self.items:
            printer.print_string("(")
            printer.print_list(self.items, printer.print_operand)
            printer.print_string(")")
        extra = {"literal_expr": self.literal_expr} if self.literal_expr is not None else {}
        printer.print_op_attributes({**extra, **self.attributes})
        printer.print_string(" : ")
        printer.print_function_type(self.items.types, [self.result.type])

    def verify_(self) -> None:
        def fail(message: str):
            raise VerifyException(f"'emitpy.create_dict' op {message}")

        if (problem := name_problem(self.dict_name.data)) is not None:
            fail(problem)
        if self.literal_expr is not None:
            if self.items:
                fail("cannot have both literal_expr and items operands")
            if not self.literal_expr.data:
                fail("literal_expr must not be empty")
            return
        if not self.items:
            fail("cannot have both literal_expr and items empty")
        if len(self.items) % 2:
            fail("items must be alternating key-value pairs (even count required)")
        for i, key in enumerate(self.items[::2]):
            if not isinstance(key.type, (IndexType, StrType)):
                fail(f"dictionary keys must be index or string type, but got '{key.type}' at position {2 * i}")


@irdl_op_definition
class YieldOp(IRDLOperation):
    """The value of an `emitpy.expression`: `emitpy.yield %v : T`."""

    name = "emitpy.yield"
    result = var_operand_def()
    traits = traits_def(IsTerminator(), Pure())

    @classmethod
    def parse(cls, parser: Parser) -> "YieldOp":
        value = parser.parse_optional_unresolved_operand()
        operands = []
        if value is not None:
            parser.parse_punctuation(":")
            operands = [parser.resolve_operand(value, parser.parse_type())]
        return cls.create(operands=operands, attributes=parser.parse_optional_attr_dict())

    def print(self, printer: Printer) -> None:
        if self.result:
            printer.print_string(" ")
            printer.print_operand(self.result[0])
            printer.print_string(" : ")
            printer.print_attribute(self.result[0].type)
        printer.print_op_attributes(self.attributes)


EXPRESSION_OPS = ("emitpy.call_opaque", "emitpy.literal", "emitpy.subscript", "emitpy.constant", "emitpy.get_attr")
SIDE_EFFECT_FREE = ("emitpy.literal", "emitpy.subscript", "emitpy.constant", "emitpy.get_attr")


@irdl_op_definition
class ExpressionOp(IRDLOperation):
    """A Python expression built from the ops of its region, written inline where its value is used (unless
    `do_not_inline`): `%r = emitpy.expression(%a) : (A) -> R { ^bb0(%x: A): ...  emitpy.yield %v : R }`."""

    name = "emitpy.expression"
    inputs = var_operand_def()
    result = result_def()
    do_not_inline = opt_prop_def(UnitAttr)
    body = region_def("single_block")
    irdl_options = (ParsePropInAttrDict(),)

    @classmethod
    def parse(cls, parser: Parser) -> "ExpressionOp":
        names = parser.parse_optional_comma_separated_list(parser.Delimiter.PAREN, parser.parse_unresolved_operand)
        attrs = parser.parse_optional_attr_dict()
        props = {"do_not_inline": attrs.pop("do_not_inline")} if "do_not_inline" in attrs else {}
        parser.parse_punctuation(":")
        if parser.parse_optional_punctuation("->") is not None:  # `: -> T`, no operands
            inputs, outputs = [], [parser.parse_type()]
        else:
            fn_type = parser.parse_function_type()
            inputs, outputs = fn_type.inputs.data, list(fn_type.outputs.data)
        operands = parser.resolve_operands(names or [], inputs, parser.pos)
        return cls.create(operands=operands, result_types=outputs, properties=props,
                          attributes=attrs, regions=[parser.parse_region()])

    def print(self, printer: Printer) -> None:
        if self.inputs:
            printer.print_string("(")
            printer.print_list(self.inputs, printer.print_operand)
            printer.print_string(")")
        extra = {"do_not_inline": self.do_not_inline} if self.do_not_inline is not None else {}
        printer.print_op_attributes({**extra, **self.attributes})
        printer.print_string(" : ")
        printer.print_function_type(self.inputs.types, [self.result.type])
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=True)

    def verify_(self) -> None:
        def fail(message: str):
            raise VerifyException(f"'emitpy.expression' op {message}")

        ops = list(self.body.block.ops)
        last = ops[-1] if ops else None
        if not isinstance(last, YieldOp) or not last.result:
            fail("must yield a value at termination")
        value = last.result[0]
        if not isinstance(value.owner, Operation):
            fail("yielded value has no defining op")
        if value.owner.parent_block() is not self.body.block:
            fail("yielded value not defined within expression")
        if value.type != self.result.type:
            fail("requires yielded type to match return type")
        if any(op.name not in EXPRESSION_OPS for op in ops[:-1]):
            fail("contains an unsupported operation")
        for op in ops[:-1]:
            if len(op.results) != 1:
                fail("requires exactly one result for each operation")
            uses = sum(1 for _ in op.results[0].uses)
            if not uses:
                fail("contains an unused operation")
            if uses > 1 and op.name not in SIDE_EFFECT_FREE:
                fail("requires exactly one use for operations with side effects")


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
        condition = parser.parse_str_literal()
        operands = _parse_format_args(parser, parser.Delimiter.PAREN)
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
        _print_format_args(printer, self.cond_args, ("(", ")"))
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
    if parser.parse_optional_punctuation("=") is None:
        parser.raise_error("custom op 'emitpy.global' expected '=' after symbol name")
    value = parser.parse_optional_attribute()
    if value is None:
        parser.raise_error("custom op 'emitpy.global' expected initial value for global variable")
    return value


@irdl_op_definition
class GlobalOp(IRDLOperation):
    """A module-level variable: `emitpy.global @x = #emitpy.opaque<"None">`."""

    name = "emitpy.global"
    sym_name = prop_def(StringAttr)
    initial_value = prop_def(Attribute)
    type = opt_prop_def(Attribute)  # the variable's type when its value does not carry one (`... : !emitpy.dict`)
    traits = traits_def(SymbolOpInterface())

    @classmethod
    def parse(cls, parser: Parser) -> "GlobalOp":
        name = parser.parse_symbol_name()
        props = {"sym_name": name, "initial_value": _parse_initial_value(parser)}
        if parser.parse_optional_punctuation(":") is not None:
            props["type"] = parser.parse_type()
        return cls.create(properties=props, attributes=parser.parse_optional_attr_dict())

    def print(self, printer: Printer) -> None:
        printer.print_string(f" @{self.sym_name.data} = ")
        printer.print_attribute(self.initial_value)
        if self.type is not None:
            printer.print_string(" : ")
            printer.print_attribute(self.type)
        printer.print_op_attributes(self.attributes)

    def verify_(self) -> None:
        if isinstance(self.initial_value, OpaqueAttr) and not self.initial_value.value.data:
            raise VerifyException("'emitpy.global' op initial value must not be empty")
        if (problem := name_problem(self.sym_name.data)) is not None:
            raise VerifyException(f"'emitpy.global' op {problem}")


def _global_typed(op: IRDLOperation, what: str, t: Attribute) -> None:
    """The global `op` names exists and, when it has a type (its own or its value's), `t` is that type."""
    target = _global_named(op, op.global_name.root_reference.data)
    declared = target.type if target.type is not None else getattr(target.initial_value, "type", None)
    if declared is not None and declared != t:
        raise VerifyException(f"'{op.name}' op {what} type ('{t}') does not match global's type ('{declared}')")


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
        _global_typed(self, "result", self.result.type)


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
        _global_typed(self, "value", self.value.type)


@irdl_op_definition
class FileOp(IRDLOperation):
    """One generated Python file: `emitpy.file "main" { ... }`."""

    name = "emitpy.file"
    id = prop_def(StringAttr)
    body = region_def("single_block")
    traits = traits_def(NoTerminator(), SymbolTable())  # a file's functions call each other

    @classmethod
    def parse(cls, parser: Parser) -> "FileOp":
        if parser._current_token.text == "{":  # no id: MLIR reads the body as the attribute dictionary
            parser.raise_error("expected '}' in attribute dictionary")
        file_id = parser.parse_str_literal()
        attributes = parser.parse_optional_attr_dict_with_keyword()
        region = parser.parse_optional_region()
        if region is None:
            parser.raise_error("expected '{' to begin a region")
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

    def verify_ods(self) -> None:
        """MLIR's ODS checks, in its order and words (run before xDSL's own)."""
        where = f"'{self.name}' op"
        if len(self.regions) != 1:
            raise VerifyException(f"{where} requires one region")
        if self.results:
            raise VerifyException(f"{where} requires zero results")
        if self.operands:
            raise VerifyException(f"{where} requires zero operands")
        file_id = self.properties.get("id", self.attributes.get("id"))
        if file_id is None:
            raise VerifyException(f"{where} requires attribute 'id'")
        if not isinstance(file_id, StringAttr):
            raise VerifyException(f"{where} attribute 'id' failed to satisfy constraint: An Attribute containing a "
                                  "string")
        if len(self.body.blocks) != 1:
            raise VerifyException(f"{where} region #0 ('bodyRegion') failed to verify constraint: region with 1 blocks")
        if self.body.block.args:
            raise VerifyException(f"{where} region should have no arguments")

    def verify_(self) -> None:
        if not self.id.data:
            raise VerifyException("'emitpy.file' op id must not be empty")


class ChildOpError(VerifyException):
    """A verifier's failure reported at one of the op's children (MLIR's `child.emitOpError`)."""

    def __init__(self, at: Operation, message: str):
        super().__init__(f"'{at.name}' op {message}")
        self.at = at


METHOD_KINDS = ("instance", "staticmethod", "classmethod")


@irdl_op_definition
class ClassOp(IRDLOperation):
    """A Python class: `emitpy.class @Model(#emitpy.opaque<"torch.nn.Module">) { func.func @forward(...) }`; its
    functions are its methods (`emitpy.method_kind` staticmethod or classmethod, else instance methods)."""

    name = "emitpy.class"
    sym_name = prop_def(StringAttr)
    base_classes = opt_prop_def(ArrayAttr)
    body = region_def("single_block")
    traits = traits_def(NoTerminator(), SymbolOpInterface())

    @classmethod
    def parse(cls, parser: Parser) -> "ClassOp":
        name = parser.parse_symbol_name()
        bases = parser.parse_optional_comma_separated_list(parser.Delimiter.PAREN, parser.parse_attribute)
        attributes = parser.parse_optional_attr_dict_with_keyword()
        region = parser.parse_region()
        if not region.blocks:
            region.add_block(Block())
        props = {"sym_name": name, **({"base_classes": ArrayAttr(bases)} if bases else {})}
        return cls.create(properties=props, regions=[region], attributes=attributes.data if attributes else {})

    def print(self, printer: Printer) -> None:
        printer.print_string(f" @{self.sym_name.data}")
        if self.base_classes is not None:
            printer.print_string("(")
            printer.print_list(self.base_classes.data, printer.print_attribute)
            printer.print_string(")")
        printer.print_op_attributes(self.attributes, print_keyword=True)
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=False, print_empty_block=False)

    def verify_(self) -> None:
        from xdsl.dialects.func import FuncOp

        name = self.sym_name.data
        if (problem := name_problem(name)) is not None:
            raise VerifyException(f"'{self.name}' op {problem}")
        for base in self.base_classes.data if self.base_classes is not None else ():
            if not isinstance(base, (SymbolRefAttr, OpaqueAttr)):
                raise VerifyException(f"'{self.name}' op base_classes must be symbol refs or #emitpy.opaque")
        inits = 0
        for op in self.body.block.ops:
            if not isinstance(op, FuncOp):
                if not op.name.startswith("emitpy."):
                    raise ChildOpError(op, "only emitpy or func operations are allowed in a class body")
                continue
            inits += op.sym_name.data == "__init__"
            _verify_method(op, name)
        if inits > 1:
            raise VerifyException(f"'{self.name}' op class body must have at most one __init__")


def method_kind(func) -> str:
    kind = func.attributes.get("emitpy.method_kind")
    return kind.data if isinstance(kind, StringAttr) else "instance"


def _verify_method(func, class_name: str) -> None:
    kind = method_kind(func)
    if kind not in METHOD_KINDS:
        raise ChildOpError(func, "emitpy.method_kind must be one of 'instance', 'staticmethod', or 'classmethod'")
    init = func.sym_name.data == "__init__"
    if init and func.function_type.outputs.data:
        raise ChildOpError(func, "__init__ must not return a value")
    if init and kind != "instance":
        raise ChildOpError(func, "__init__ must be an instance method")
    if kind == "staticmethod" and not init:
        return
    if not func.function_type.inputs.data:
        raise ChildOpError(func, "instance and class methods must take a receiver argument")
    receiver = "cls" if kind == "classmethod" else "self"
    given = func.arg_attrs.data[0].data.get(NAME) if func.arg_attrs is not None else None
    if isinstance(given, StringAttr) and given.data != receiver:
        raise ChildOpError(func, f"first argument must be named '{receiver}' via emitpy.name")
    if kind != "classmethod":
        self_type = func.function_type.inputs.data[0]
        if not isinstance(self_type, ClassType):
            raise ChildOpError(func, "self argument must have !emitpy.class type")
        if self_type.value.data != class_name:
            raise ChildOpError(func, f"self type must match class name '{class_name}'")


@irdl_op_definition
class GetAttrOp(IRDLOperation):
    """`object.attr`: `%w = emitpy.get_attr %self, "weight" : (!emitpy.class<"M">) -> T`."""

    name = "emitpy.get_attr"
    object = operand_def()
    attr_name = prop_def(StringAttr, prop_name="name")
    result = result_def()
    traits = traits_def(Pure())

    @classmethod
    def parse(cls, parser: Parser) -> "GetAttrOp":
        obj = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        attr = parser.parse_str_literal()
        parser.parse_punctuation(":")
        fn_type = parser.parse_function_type()
        (operand,) = parser.resolve_operands([obj], fn_type.inputs.data, parser.pos)
        return cls.create(operands=[operand], result_types=list(fn_type.outputs.data),
                          properties={"name": StringAttr(attr)}, attributes=parser.parse_optional_attr_dict())

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.object)
        printer.print_string(", ")
        printer.print_string_literal(self.attr_name.data)
        printer.print_string(" : ")
        printer.print_function_type([self.object.type], [self.result.type])


@irdl_op_definition
class SetAttrOp(IRDLOperation):
    """`object.attr = value`: `emitpy.set_attr %self, "weight", %w : (!emitpy.class<"M">, T)`."""

    name = "emitpy.set_attr"
    object = operand_def()
    attr_name = prop_def(StringAttr, prop_name="name")
    value = operand_def()

    @classmethod
    def parse(cls, parser: Parser) -> "SetAttrOp":
        obj = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        attr = parser.parse_str_literal()
        parser.parse_punctuation(",")
        value = parser.parse_unresolved_operand()
        parser.parse_punctuation(":")
        types = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_type)
        operands = parser.resolve_operands([obj, value], types, parser.pos)
        return cls.create(operands=operands, properties={"name": StringAttr(attr)},
                          attributes=parser.parse_optional_attr_dict())

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.object)
        printer.print_string(", ")
        printer.print_string_literal(self.attr_name.data)
        printer.print_string(", ")
        printer.print_operand(self.value)
        printer.print_string(" : (")
        printer.print_list([self.object.type, self.value.type], printer.print_attribute)
        printer.print_string(")")


EmitPy = Dialect("emitpy", [CallOpaqueOp, ImportOp, LiteralOp, SubscriptOp, AssignOp, VerbatimOp, ConstantOp, GlobalOp,
                            GlobalStatementOp, AssignGlobalOp, FileOp, IfOp, CreateDictOp, ExpressionOp, YieldOp,
                            ClassOp, GetAttrOp, SetAttrOp],
                 [OpaqueType, OpaqueAttr, DictType, StrType, ClassType])
