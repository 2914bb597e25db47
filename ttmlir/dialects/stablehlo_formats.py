"""StableHLO's assembly formats for ops without regions: elementwise (`%a, %b : T`), functional (`: (T) -> R`),
variadic, return, constant, iota, compare, select, slice, dot_general and dot. Each format is a `_parse_<format>`
classmethod and a `_print_<format>` method of the op base (`StableHLOOp` mixes this class in); an op's row names
its format."""

from __future__ import annotations

import re

from xdsl.dialects.builtin import IntegerAttr, i32, i64
from xdsl.ir import Attribute
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer

from ttmlir.dialects.stablehlo_attrs import *  # noqa: F401,F403 - the formats read and print every attribute
from ttmlir.dialects.stablehlo_syntax import (FLOAT_FORMAT_PROPS, clause_props, ints_list, ints_text, parse_precision,
                                              print_attr_dict, print_function_type, print_same_or_functional,
                                              resolve_operands, split_attrs, types_after_colon)


FLOAT_FORMAT = re.compile(r"e(\d+)m(\d+)")


def _parse_clause_value(parser: Parser, clause) -> dict[str, Attribute]:
    if clause.kind == "array":
        return {clause.prop: i64_array(ints_list(parser))}
    if clause.kind == "fft_type":
        return {clause.prop: FftTypeAttr(FftTypeAttr.parse_parameter(parser))}
    if clause.kind == "float_format":
        pos, word = parser.pos, parser.parse_identifier()
        if (match := FLOAT_FORMAT.fullmatch(word)) is None:
            parser.raise_error(f"expected a float format such as e5m10, got {word}", at_position=pos)
        return {name: IntegerAttr(int(bits), i32) for name, bits in zip(FLOAT_FORMAT_PROPS, match.groups())}
    return {clause.prop: IntegerAttr(parser.parse_integer(), i64)}


def _clause_text(props: dict[str, Attribute], clause) -> str | None:
    if clause.kind == "float_format":
        bits = [props.get(name) for name in FLOAT_FORMAT_PROPS]
        return None if None in bits else "e{}m{}".format(*(int_of(b) for b in bits))
    if (value := props.get(clause.prop)) is None:
        return None
    if clause.kind == "array":
        return ints_text(ints_of(value))
    return value.data if clause.kind == "fft_type" else str(int_of(value))


class OperandFormats:
    """The formats of ops whose operands, attributes and types are all their text."""

    @classmethod
    def _make(cls, parser, names, operand_types, result_types, props=None, attrs=None, regions=()):
        extra_props, attrs = split_attrs(cls, attrs or {})
        operands = resolve_operands(parser, names, operand_types, cls.name)
        return cls.create(operands=operands, result_types=result_types, properties={**(props or {}), **extra_props},
                          attributes=attrs, regions=list(regions))

    @classmethod
    def _parse_operands_clauses(cls, parser: Parser) -> tuple[list[UnresolvedOperand], dict[str, Attribute]]:
        names, props = [], {}
        first = parser.parse_optional_unresolved_operand()
        if first is not None:
            names.append(first)
            while parser.parse_optional_punctuation(","):
                if (operand := parser.parse_optional_unresolved_operand()) is not None:
                    names.append(operand)
                    continue
                pos = parser.pos
                keyword = parser.parse_identifier()
                clause = next((c for c in cls.CLAUSES if c.keyword == keyword), None)
                if clause is None:
                    parser.raise_error(f"unexpected '{keyword}' in {cls.name}", at_position=pos)
                parser.parse_punctuation("=")
                props.update(_parse_clause_value(parser, clause))
        return names, props

    def _print_operands_clauses(self, printer: Printer) -> None:
        if self.operands:
            printer.print_string(" ")
            printer.print_list(self.operands, printer.print_operand)
        for clause in self.CLAUSES:
            if (text := _clause_text(self.properties, clause)) is not None:
                printer.print_string(f", {clause.keyword} = {text}")

    @classmethod
    def _parse_same(cls, parser: Parser):  # `%a, %b, dims = [..] attr-dict : T` or `: (T, T) -> R`
        names, props = cls._parse_operands_clauses(parser)
        attrs = parser.parse_optional_attr_dict()
        operand_types, result_types = types_after_colon(parser, len(names))
        return cls._make(parser, names, operand_types, result_types, props, attrs)

    def _print_same(self, printer: Printer) -> None:
        self._print_operands_clauses(printer)
        print_attr_dict(printer, self, clause_props(self.CLAUSES))
        print_same_or_functional(printer, self)

    _parse_functional = _parse_same  # the same text reads; it prints always as a function type

    def _print_functional(self, printer: Printer) -> None:
        self._print_operands_clauses(printer)
        print_attr_dict(printer, self, clause_props(self.CLAUSES))
        printer.print_string(" : ")
        print_function_type(printer, self)

    @classmethod
    def _parse_variadic(cls, parser: Parser):  # optimization_barrier: `%a, %b : T, U` (results typed as operands)
        names: list[UnresolvedOperand] = []
        if parser.parse_optional_punctuation("(") is not None:
            parser.parse_punctuation(")")
        else:
            names = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_unresolved_operand)
        attrs = parser.parse_optional_attr_dict()
        types_ = []
        if names:
            parser.parse_punctuation(":")
            types_ = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
        return cls._make(parser, names, types_, types_, attrs=attrs)

    def _print_variadic(self, printer: Printer) -> None:
        if not self.operands:
            printer.print_string("()")
        else:
            printer.print_string(" ")
            printer.print_list(self.operands, printer.print_operand)
        print_attr_dict(printer, self)
        if self.operands:
            printer.print_string(" : ")
            printer.print_list([v.type for v in self.operands], printer.print_attribute)

    @classmethod
    def _parse_return(cls, parser: Parser):  # `stablehlo.return %a, %b : T, U`
        names = []
        if parser._current_token.text.startswith("%"):
            names = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_unresolved_operand)
        attrs = parser.parse_optional_attr_dict()
        types_ = []
        if names:
            parser.parse_punctuation(":")
            types_ = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
        return cls._make(parser, names, types_, [], attrs=attrs)

    def _print_return(self, printer: Printer) -> None:
        if self.operands:
            printer.print_string(" ")
            printer.print_list(self.operands, printer.print_operand)
        print_attr_dict(printer, self)
        if self.operands:
            printer.print_string(" : ")
            printer.print_list([v.type for v in self.operands], printer.print_attribute)

    @classmethod
    def _parse_constant(cls, parser: Parser):  # `stablehlo.constant dense<1.0> : tensor<f32>`
        if parser.parse_optional_punctuation("(") is not None:  # `() <{value = ..}> : () -> T`
            parser.parse_punctuation(")")
            props = parser.parse_optional_properties_dict()
            attrs = parser.parse_optional_attr_dict()
            parser.parse_punctuation(":")
            fn = parser.parse_function_type()
            return cls._make(parser, [], [], list(fn.outputs.data), props, attrs)
        attrs = parser.parse_optional_attr_dict()
        value = parser.parse_attribute()
        if parser.parse_optional_punctuation(":") is not None:  # a function type after the value (opaque types)
            result = parser.parse_function_type().outputs.data[0]
        else:
            result = value.type
        return cls._make(parser, [], [], [result], {"value": value}, attrs)

    def _print_constant(self, printer: Printer) -> None:
        print_attr_dict(printer, self, ("value",))
        printer.print_string(" ")
        printer.print_attribute(self.properties["value"])

    @classmethod
    def _parse_iota(cls, parser: Parser):  # `stablehlo.iota dim = 0 : tensor<4xi32>`
        parser.parse_keyword("dim")
        parser.parse_punctuation("=")
        dim = parser.parse_integer()
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        return cls._make(parser, [], [], [parser.parse_type()], {"iota_dimension": IntegerAttr(dim, i64)}, attrs)

    def _print_iota(self, printer: Printer) -> None:
        printer.print_string(f" dim = {int_of(self.properties['iota_dimension'])}")
        print_attr_dict(printer, self, ("iota_dimension",))
        printer.print_string(" : ")
        printer.print_attribute(self.results[0].type)

    @classmethod
    def _parse_compare(cls, parser: Parser):  # `stablehlo.compare GT, %a, %b, FLOAT : (T, T) -> R`
        props: dict[str, Attribute] = {"comparison_direction": ComparisonDirectionAttr(
            ComparisonDirectionAttr.parse_parameter(parser))}
        parser.parse_punctuation(",")
        names = [parser.parse_unresolved_operand()]
        parser.parse_punctuation(",")
        names.append(parser.parse_unresolved_operand())
        if parser.parse_optional_punctuation(","):
            props["compare_type"] = ComparisonTypeAttr(ComparisonTypeAttr.parse_parameter(parser))
        attrs = parser.parse_optional_attr_dict()
        operand_types, result_types = types_after_colon(parser, 2)
        return cls._make(parser, names, operand_types, result_types, props, attrs)

    def _print_compare(self, printer: Printer) -> None:
        printer.print_string(f" {self.properties['comparison_direction'].data}, ")
        printer.print_list(self.operands, printer.print_operand)
        if (kind := self.properties.get("compare_type")) is not None:
            printer.print_string(f", {kind.data}")
        print_attr_dict(printer, self, ("comparison_direction", "compare_type"))
        print_same_or_functional(printer, self)

    @classmethod
    def _parse_select(cls, parser: Parser):  # `stablehlo.select %p, %a, %b : tensor<i1>, tensor<4xf32>`
        names = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_unresolved_operand)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        if parser._current_token.text == "(":
            fn = parser.parse_function_type()
            operand_types, result_types = list(fn.inputs.data), list(fn.outputs.data)
        else:
            pred = parser.parse_type()
            parser.parse_punctuation(",")
            result = parser.parse_type()
            operand_types, result_types = [pred, result, result], [result]
        return cls._make(parser, names, operand_types, result_types, attrs=attrs)

    def _print_select(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        print_attr_dict(printer, self)
        pred, on_true, on_false = (v.type for v in self.operands)
        if on_true == on_false == self.results[0].type:
            printer.print_string(" : ")
            printer.print_list([pred, on_true], printer.print_attribute)
        else:
            printer.print_string(" : ")
            print_function_type(printer, self)

    @classmethod
    def _parse_slice(cls, parser: Parser):  # `stablehlo.slice %x [0:1, 0:16:2] : (T) -> R`
        names = [parser.parse_unresolved_operand()]

        def bound():
            start = parser.parse_integer()
            parser.parse_punctuation(":")
            limit = parser.parse_integer()
            stride = parser.parse_integer() if parser.parse_optional_punctuation(":") else 1
            return start, limit, stride

        bounds = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, bound)
        attrs = parser.parse_optional_attr_dict()
        operand_types, result_types = types_after_colon(parser, 1)
        props = {k: i64_array([b[i] for b in bounds]) for i, k in enumerate(("start_indices", "limit_indices",
                                                                              "strides"))}
        return cls._make(parser, names, operand_types, result_types, props, attrs)

    def _print_slice(self, printer: Printer) -> None:
        starts, limits, strides = (ints_of(self.properties[k]) for k in ("start_indices", "limit_indices", "strides"))
        printer.print_string(" ")
        printer.print_operand(self.operands[0])
        parts = [f"{a}:{b}" + (f":{s}" if s != 1 else "") for a, b, s in zip(starts, limits, strides)]
        printer.print_string(f" [{', '.join(parts)}]")
        print_attr_dict(printer, self, ("start_indices", "limit_indices", "strides"))
        print_same_or_functional(printer, self)

    @classmethod
    def _parse_dot_general(cls, parser: Parser):
        # `%a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : ..`
        names = [parser.parse_unresolved_operand()]
        parser.parse_punctuation(",")
        names.append(parser.parse_unresolved_operand())
        dims: dict[str, tuple] = {}
        props: dict[str, Attribute] = {}
        while parser.parse_optional_punctuation(","):
            pos = parser.pos
            key = parser.parse_identifier()
            parser.parse_punctuation("=")
            if key in ("batching_dims", "contracting_dims"):
                lhs = ints_list(parser)
                parser.parse_keyword("x")
                dims[key] = (lhs, ints_list(parser))
            elif key == "precision":
                props["precision_config"] = parse_precision(parser)
            elif key == "algorithm":
                props["algorithm"] = parser.parse_attribute()
            else:
                parser.raise_error(f"unexpected '{key}' in {cls.name}", at_position=pos)
        batch, contract = dims.get("batching_dims", ((), ())), dims.get("contracting_dims", ((), ()))
        props["dot_dimension_numbers"] = DotDimensionNumbersAttr.get(
            lhs_batching_dimensions=tuple(batch[0]), rhs_batching_dimensions=tuple(batch[1]),
            lhs_contracting_dimensions=tuple(contract[0]), rhs_contracting_dimensions=tuple(contract[1]))
        attrs = parser.parse_optional_attr_dict()
        operand_types, result_types = types_after_colon(parser, 2)
        return cls._make(parser, names, operand_types, result_types, props, attrs)

    def _print_dot_general(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        dims = self.properties["dot_dimension_numbers"]
        if dims.lhs_batching_dimensions or dims.rhs_batching_dimensions:
            printer.print_string(f", batching_dims = {ints_text(dims.lhs_batching_dimensions)} x "
                                 f"{ints_text(dims.rhs_batching_dimensions)}")
        printer.print_string(f", contracting_dims = {ints_text(dims.lhs_contracting_dimensions)} x "
                             f"{ints_text(dims.rhs_contracting_dimensions)}")
        self._print_precision(printer)
        if (algorithm := self.properties.get("algorithm")) is not None:
            printer.print_string(", algorithm = ")
            printer.print_attribute(algorithm)
        print_attr_dict(printer, self, ("dot_dimension_numbers", "precision_config", "algorithm"))
        printer.print_string(" : ")
        print_function_type(printer, self)

    def _print_precision(self, printer: Printer) -> None:
        if (precision := self.properties.get("precision_config")) is not None:
            printer.print_string(f", precision = [{', '.join(p.data for p in precision.data)}]")

    @classmethod
    def _parse_dot(cls, parser: Parser):  # `stablehlo.dot %a, %b, precision = [DEFAULT] : (T, T) -> R`
        names = [parser.parse_unresolved_operand()]
        parser.parse_punctuation(",")
        names.append(parser.parse_unresolved_operand())
        props = {}
        if parser.parse_optional_punctuation(","):
            parser.parse_keyword("precision")
            parser.parse_punctuation("=")
            props["precision_config"] = parse_precision(parser)
        attrs = parser.parse_optional_attr_dict()
        operand_types, result_types = types_after_colon(parser, 2)
        return cls._make(parser, names, operand_types, result_types, props, attrs)

    def _print_dot(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        self._print_precision(printer)
        print_attr_dict(printer, self, ("precision_config",))
        printer.print_string(" : ")
        print_function_type(printer, self)
