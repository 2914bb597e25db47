"""Small parsing/printing helpers shared by the tt dialects' custom attribute syntax."""

from __future__ import annotations

import types
from typing import Callable, Sequence, TypeVar

from xdsl.dialects.utils import EnumAttribute
from xdsl.ir.affine import (AffineBinaryOpExpr, AffineBinaryOpKind, AffineConstantExpr, AffineDimExpr, AffineExpr,
                            AffineMap, AffineSymExpr)
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
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


def parse_dims(parser: AttrParser) -> tuple[int, ...]:
    """`8x8`, `0x0x0x0` or `32` (also the empty list)."""
    return tuple(parser.parse_dimension_list())


def dims_str(dims: Sequence[int]) -> str:
    return "x".join(str(d) for d in dims)


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
    lhs = affine_expr_str(expr.lhs, prec)
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
