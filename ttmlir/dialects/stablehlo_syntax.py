"""Text helpers shared by StableHLO's assembly formats: `: T` or `: (T, U) -> R` type lists, attribute
dictionaries without the properties a format prints itself, integer lists, `, keyword = value` clauses, precision
lists, and the one-op reduce bodies that print as `applies stablehlo.<op>`."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects.builtin import ArrayAttr, FunctionType
from xdsl.ir import Attribute, Block
from xdsl.irdl import IRDLOperation
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer

from ttmlir.dialects.stablehlo_attrs import PrecisionAttr
from ttmlir.dialects.stablehlo_table import REDUCE_BODY_NAMES


def types_after_colon(parser: Parser, count: int, results: int = 1) -> tuple[list[Attribute], list[Attribute]]:
    """custom<SameOperandsAndResultType>: `: T` (every operand and result) or `: (T, ..) -> R`."""
    parser.parse_punctuation(":")
    if parser._current_token.text == "(":
        fn = parser.parse_function_type()
        return list(fn.inputs.data), list(fn.outputs.data)
    t = parser.parse_type()
    return [t] * count, [t] * results


def print_same_or_functional(printer: Printer, op: IRDLOperation) -> None:
    kinds = {v.type for v in (*op.operands, *op.results)}
    printer.print_string(" : ")
    if len(kinds) == 1 and len(op.results) == 1:
        printer.print_attribute(op.results[0].type)
    else:
        print_function_type(printer, op)


def print_function_type(printer: Printer, op: IRDLOperation) -> None:
    printer.print_string("(")
    printer.print_list([v.type for v in op.operands], printer.print_attribute)
    printer.print_string(") -> ")
    if len(op.results) == 1 and not isinstance(op.results[0].type, FunctionType):
        printer.print_attribute(op.results[0].type)
    else:
        printer.print_string("(")
        printer.print_list([v.type for v in op.results], printer.print_attribute)
        printer.print_string(")")


def resolve_operands(parser: Parser, names: list[UnresolvedOperand], types_: list[Attribute], what: str):
    if len(names) != len(types_):
        parser.raise_error(f"{len(names)} operands present, but expected {len(types_)}")
    return [parser.resolve_operand(n, t) for n, t in zip(names, types_)]


def split_attrs(cls, attrs: dict[str, Attribute]) -> tuple[dict, dict]:
    props = {k: v for k, v in attrs.items() if k in cls.PROPS}
    return props, {k: v for k, v in attrs.items() if k not in cls.PROPS}


def print_attr_dict(printer: Printer, op: IRDLOperation, elide: tuple[str, ...] = ()) -> None:
    merged = {k: v for k, v in {**op.properties, **op.attributes}.items() if k not in elide}
    if merged:
        printer.print_string(" ")
        printer.print_attr_dict(dict(sorted(merged.items())))


def ints_list(parser: Parser) -> list[int]:
    return parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parser.parse_integer)


def ints_text(values) -> str:
    return f"[{', '.join(map(str, values))}]"


@dataclass(frozen=True)
class Clause:
    """`, keyword = value` after the operands, stored as property `prop`: an i64 array, an i64, an enum's value
    (`type = FFT`, kind "fft_type") or a float format (`format = e5m10`: props exponent_bits and mantissa_bits)."""

    keyword: str
    prop: str
    kind: str  # "array" | "int" | "fft_type" | "float_format"


FLOAT_FORMAT_PROPS = ("exponent_bits", "mantissa_bits")


def clause_props(clauses: tuple[Clause, ...]) -> tuple[str, ...]:
    """The properties clauses store (their text stands for them: not printed again in the attribute dict)."""
    return tuple(p for c in clauses for p in (FLOAT_FORMAT_PROPS if c.kind == "float_format" else (c.prop,)))


def parse_clauses(spec: str) -> tuple[Clause, ...]:
    return tuple(Clause(*c.replace("=", ":").split(":")) for c in spec.split())


def parse_precision(parser: Parser) -> ArrayAttr:
    return ArrayAttr(parser.parse_comma_separated_list(
        parser.Delimiter.SQUARE, lambda: PrecisionAttr(PrecisionAttr.parse_parameter(parser))))


def applied_op(body: Block) -> str | None:
    """The op a one-input reduce body applies (`applies stablehlo.add`), when the body is just that."""
    ops = list(body.ops)
    if len(ops) != 2 or len(body.args) != 2:
        return None
    inner, ret = ops
    if (inner.name.split(".", 1)[1] in REDUCE_BODY_NAMES and list(inner.operands) == list(body.args)
            and list(ret.operands) == list(inner.results)
            and all(a.type == inner.results[0].type for a in body.args)):
        return inner.name
    return None
