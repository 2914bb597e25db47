"""Small parsing/printing helpers shared by the tt dialects' custom attribute syntax."""

from __future__ import annotations

import types
from typing import Callable, Sequence, TypeVar

from xdsl.dialects.utils import EnumAttribute
from xdsl.ir.affine import (AffineBinaryOpExpr, AffineBinaryOpKind, AffineConstantExpr, AffineDimExpr, AffineExpr,
                            AffineMap, AffineSymExpr)
from xdsl.irdl import irdl_attr_definition
from xdsl.ir import Attribute
from xdsl.parser import AttrParser, Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.utils.str_enum import StrEnum

T = TypeVar("T")


def enum_attr(name: str, values: Sequence[str], doc: str) -> type[EnumAttribute]:
    """An `#dialect.name<value>` enum attribute class from a list of its spellings."""
    kind = StrEnum(_camel(name) + "Kind", [(v.upper(), v) for v in values])  # type: ignore[misc]
    def parse_parameter(cls, parser: AttrParser):
        with parser.in_angle_brackets():
            return parser.parse_str_enum(cls.enum_type)

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string(f"<{self.data.value}>")

    body = dict(name=name, __doc__=doc, parse_parameter=classmethod(parse_parameter), print_parameter=print_parameter)
    cls = types.new_class(_camel(name) + "Attr", (EnumAttribute[kind],), exec_body=lambda ns: ns.update(body))
    return irdl_attr_definition(cls)


def _camel(name: str) -> str:
    return "".join(p[:1].upper() + p[1:] for p in name.split(".")[-1].split("_"))


def table_class(mnemonic: str, suffix: str, bases: tuple[type, ...], body: dict, define):
    """A class made from a table row, `<Mnemonic><suffix>` (`tile_exp` -> `TileExpOp`), declared with `define`
    (irdl_op_definition or irdl_attr_definition)."""
    name = "".join(p[:1].upper() + p[1:] for p in mnemonic.replace(".", "_").split("_")) + suffix
    return define(types.new_class(name, bases, exec_body=lambda ns: ns.update(body)))


def parse_dims(parser: AttrParser) -> tuple[int, ...]:
    """`8x8`, `0x0x0x0` or `32` (also the empty list)."""
    return tuple(parser.parse_dimension_list())


def dims_str(dims: Sequence[int]) -> str:
    return "x".join(str(d) for d in dims)


class BracketedDims:
    """The syntax of an attribute that is a list of dims: `<8192x4096>` (mixed into a `Data[tuple[int, ...]]`)."""

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> tuple[int, ...]:
        with parser.in_angle_brackets():
            return parse_dims(parser)

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string(f"<{dims_str(self.data)}>")


def parse_keyword_value(parser: AttrParser, key: str, value: Callable[[], T]) -> T:
    parser.parse_keyword(key)
    parser.parse_punctuation("=")
    return value()


def parse_bracketed_ints(parser: AttrParser) -> tuple[int, ...]:
    return tuple(parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parser.parse_integer))


def scan_raw(parser: AttrParser) -> str:
    """Raw text up to the next top-level `,` or the closing `>` (for maps xDSL cannot model)."""
    content = parser.lexer.input.content
    start = pos = parser._current_token.span.start
    depth = 0
    while pos < len(content):
        c = content[pos]
        if c == "-" and content[pos + 1 : pos + 2] == ">":
            pos += 2
            continue
        if c in "([{<":
            depth += 1
        elif c in ")]}>":
            if depth == 0:
                break
            depth -= 1
        elif c == "," and depth == 0:
            break
        pos += 1
    parser._resume_from(pos)
    return " ".join(content[start:pos].split())


def enum(cls: type[EnumAttribute], value: str) -> EnumAttribute:
    """An enum attribute from its spelling: `enum(ArchAttr, "blackhole")`."""
    return cls(cls.enum_type(value))


_BINARY = {AffineBinaryOpKind.Add: ("+", 0), AffineBinaryOpKind.Mul: ("*", 1),
           AffineBinaryOpKind.FloorDiv: ("floordiv", 1), AffineBinaryOpKind.CeilDiv: ("ceildiv", 1),
           AffineBinaryOpKind.Mod: ("mod", 1)}


def affine_expr_str(expr: AffineExpr, parent_prec: int = -1) -> str:
    """MLIR's spelling: `d0 * 128 + d1`, `d0 - 1`, parenthesised only where precedence needs it."""
    if isinstance(expr, AffineDimExpr):
        return f"d{expr.position}"
    if isinstance(expr, AffineSymExpr):
        return f"s{expr.position}"
    if isinstance(expr, AffineConstantExpr):
        return str(expr.value)
    assert isinstance(expr, AffineBinaryOpExpr)
    symbol, prec = _BINARY[expr.kind]
    # MLIR binds both operands of *, floordiv, ceildiv and mod strongly: `(d1 floordiv 8) mod 8`
    lhs = affine_expr_str(expr.lhs, prec + 1 if prec == 1 else prec)
    rhs_expr = expr.rhs
    if expr.kind == AffineBinaryOpKind.Add and isinstance(rhs_expr, AffineConstantExpr) and rhs_expr.value < 0:
        text = f"{lhs} - {-rhs_expr.value}"
    else:
        text = f"{lhs} {symbol} {affine_expr_str(rhs_expr, prec + 1 if prec == 1 else prec)}"
    return f"({text})" if prec < parent_prec or (prec == parent_prec and prec == 1 and parent_prec > 1) else text


def affine_map_str(amap: AffineMap) -> str:
    dims = ", ".join(f"d{i}" for i in range(amap.num_dims))
    syms = f"[{', '.join(f's{i}' for i in range(amap.num_symbols))}]" if amap.num_symbols else ""
    return f"({dims}){syms} -> ({', '.join(affine_expr_str(e) for e in amap.results)})"


# A struct attribute field's kind: "bool", "int", "attr" (any attribute, e.g. `#ttnn.core_coord<8, 8>` or
# `[1.0 : f32]`), "keyword" (any bare word), a tuple of the keywords it may be, an attribute class (its
# parameter alone, as MLIR prints a parameter of known type: `<[#ttnn.core_range<...>]>`), or `[kind]`, a
# bracketed list of values of that kind (held as a tuple).
StructField = tuple[str, object, bool]  # name, kind, required


def struct_attr(name: str, fields: Sequence[StructField], doc: str, check: Callable[[dict], str | None] | None = None) -> type:
    """An `#dialect.name<key = value, ...>` attribute (MLIR's `struct(params)` format) as a Data attribute
    holding its (key, value) pairs in declaration order; values are bool, int, str (a keyword) or Attribute.
    `check`, given the fields by name, says what is wrong with them (None if nothing): the attribute's verifier."""
    from xdsl.ir import Attribute, Data

    kinds = {key: kind for key, kind, _ in fields}
    order = [key for key, _, _ in fields]

    def parse_value(parser: AttrParser, key: str, kind):
        if isinstance(kind, list):
            return tuple(parser.parse_comma_separated_list(parser.Delimiter.SQUARE,
                                                           lambda: parse_value(parser, key, kind[0])))
        if isinstance(kind, type):  # written bare (`<...>`) or as the whole attribute, perhaps by its alias
            if parser._current_token.text.startswith("#"):
                attr = parser.parse_attribute()
                return attr if isinstance(attr, kind) else parser.raise_error(f"expected #{kind.name} for '{key}'")
            return kind(kind.parse_parameter(parser))
        if kind == "bool":
            value = parser.parse_optional_boolean()
            return value if value is not None else parser.raise_error(f"expected 'true' or 'false' for '{key}'")
        if kind == "int":
            return parser.parse_integer(allow_boolean=False)
        if kind == "attr":
            return parser.parse_attribute()
        word = parser.parse_identifier()
        if kind != "keyword" and word not in kind:
            parser.raise_error(f"expected {key} to be one of: {', '.join(kind)}")
        return word

    def parse_parameter(cls, parser: AttrParser):
        values: dict[str, object] = {}

        def entry():
            key = parser.parse_identifier()
            if key not in kinds or key in values:
                parser.raise_error(f"duplicate or unknown struct parameter name: {key}")
            parser.parse_punctuation("=")
            values[key] = parse_value(parser, key, kinds[key])

        with parser.in_angle_brackets():
            if parser._current_token.text != ">":
                parser.parse_comma_separated_list(parser.Delimiter.NONE, entry)
        missing = [key for key, _, required in fields if required and key not in values]
        if missing:
            parser.raise_error(f"struct is missing required parameter: {missing[0]}")
        return tuple((key, values[key]) for key in order if key in values)

    def print_value(printer: Printer, value, kind) -> None:
        if isinstance(kind, list):
            printer.print_string("[")
            printer.print_list(value, lambda v: print_value(printer, v, kind[0]))
            printer.print_string("]")
        elif isinstance(kind, type):
            value.print_parameter(printer)
        elif isinstance(value, Attribute):
            printer.print_attribute(value)
        else:
            printer.print_string(("true" if value else "false") if isinstance(value, bool) else str(value))

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string("<")
        for i, (key, value) in enumerate(self.data):
            printer.print_string(f"{', ' if i else ''}{key} = ")
            print_value(printer, value, kinds[key])
        printer.print_string(">")

    def get(self, key: str, default=None):
        return dict(self.data).get(key, default)

    def verify(self) -> None:
        if check is not None and (problem := check(dict(self.data))) is not None:
            from xdsl.utils.exceptions import VerifyException
            raise VerifyException(problem)

    body = dict(name=name, __doc__=doc, parse_parameter=classmethod(parse_parameter),
                print_parameter=print_parameter, get=get, verify=verify, FIELDS=tuple(fields))
    cls = types.new_class(_camel(name) + "Attr", (Data[tuple],), exec_body=lambda ns: ns.update(body))
    return irdl_attr_definition(cls)


def parse_arg_groups(parser: AttrParser, groups: Sequence[str], parse_item: Callable[[], T]) -> tuple[tuple[T, ...], ...]:
    """`<` then each of `groups` that is present, in order, as `name = [item, ...]`, then `>`; an absent
    group is empty (kernel argument lists: `#ttmetal.kernel_args`, `#ttkernel.arg_spec`)."""
    found = []
    with parser.in_angle_brackets():
        for group in groups:
            if parser.parse_optional_keyword(group) is None:
                found.append(())
                continue
            parser.parse_punctuation("=")
            found.append(tuple(parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parse_item)))
    return tuple(found)


class EmptyFormat:
    """The format of an op making a value of a type from nothing: `%0 = <op>() {attrs} : tensor<2x3xf32>`
    (`ttir.empty`, `d2m.empty`)."""

    @classmethod
    def parse(cls, parser: Parser):
        parser.parse_punctuation("(")
        parser.parse_punctuation(")")
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        return cls.create(result_types=[parser.parse_type()], attributes=attributes)

    def print(self, printer: Printer) -> None:
        printer.print_string("()")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.results[0].type)


def parse_typed_operands(parser: Parser) -> tuple[list[UnresolvedOperand], list[Attribute], int]:
    """`(%a, %b : T, U)`: the operands, their types, and where the types start."""
    with parser.in_parens():
        position = parser.pos
        if parser._current_token.text == ")":  # `ins()`: none
            return [], [], position
        names = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_unresolved_operand)
        parser.parse_punctuation(":")
        position = parser.pos
        types_ = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
    return names, types_, position


def print_typed_operands(printer: Printer, keyword: str, values, space: str = " ") -> None:
    """`<space>keyword(%a, %b : T, U)`."""
    printer.print_string(f"{space}{keyword}(")
    if values:
        printer.print_list(values, printer.print_operand)
        printer.print_string(" : ")
        printer.print_list([v.type for v in values], printer.print_attribute)
    printer.print_string(")")
