"""The StableHLO dialect (openxla/stablehlo), as JAX and tt-xla hand it to tt-mlir.

Every op is built from a row of `OPS`: its assembly format (how `stablehlo.<op>` reads and prints in the
StableHLO project's pretty syntax; ops without one use the generic form), the inherent attributes it
keeps as properties, and whether it is pure. The generic form (`"stablehlo.add"(%a, %b) : (..) -> ..`)
reads for every op. Shapes are checked by per-op rules in `ttmlir.dialects.stablehlo_verify`.
"""

from __future__ import annotations

import io
import math
import types
from dataclasses import dataclass
from typing import ClassVar

from xdsl.dialects.builtin import (ArrayAttr, DenseArrayBase, DenseIntOrFPElementsAttr, DictionaryAttr,
                                   FlatSymbolRefAttr, FunctionType, IndexType, IntegerAttr, IntegerType, StringAttr,
                                   SymbolRefAttr, TensorType, TupleType, UnitAttr, i1, i32, i64)
from xdsl.ir import Attribute, Block, Data, Dialect, Operation, Region
from xdsl.irdl import (IRDLOperation, irdl_attr_definition, irdl_op_definition, opt_prop_def, traits_def, var_operand_def,
                       var_region_def, var_result_def)
from xdsl.parser import AttrParser, Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import IsTerminator, Pure
from xdsl.utils.exceptions import VerifyException

# ---------------------------------------------------------------------------------------------------------------
# Attributes


class _Enum(Data[str]):
    """`#stablehlo<comparison_direction GT>`: one word out of `VALUES`."""

    VALUES: ClassVar[tuple[str, ...]] = ()
    opaque_syntax: ClassVar[bool] = True  # printed `#stablehlo<mnemonic value>`, as MLIR prints it

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> str:
        angled = parser.parse_optional_punctuation("<") is not None
        pos = parser.pos
        word = parser.parse_identifier()
        if word not in cls.VALUES:
            parser.raise_error(f"expected one of {', '.join(cls.VALUES)} for {cls.name.split('.')[1]}, got {word}",
                               at_position=pos)
        if angled:
            parser.parse_punctuation(">")
        return word

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string(self.data)


def _enum(mnemonic: str, values: str) -> type[_Enum]:
    camel = "".join(p.capitalize() for p in mnemonic.split("_")) + "Attr"
    body = {"name": f"stablehlo.{mnemonic}", "VALUES": tuple(values.split())}
    return irdl_attr_definition(types.new_class(camel, (_Enum,), exec_body=lambda ns: ns.update(body)))


ComparisonDirectionAttr = _enum("comparison_direction", "EQ NE GE GT LE LT")
ComparisonTypeAttr = _enum("comparison_type", "NOTYPE FLOAT TOTALORDER SIGNED UNSIGNED")
PrecisionAttr = _enum("precision", "DEFAULT HIGH HIGHEST")
RngDistributionAttr = _enum("rng_distribution", "UNIFORM NORMAL")
RngAlgorithmAttr = _enum("rng_algorithm", "DEFAULT THREE_FRY PHILOX")
TransposeAttr = _enum("transpose", "TRANSPOSE_INVALID NO_TRANSPOSE TRANSPOSE ADJOINT")
CustomCallApiVersionAttr = _enum("custom_call_api_version", "API_VERSION_UNSPECIFIED API_VERSION_ORIGINAL "
                                 "API_VERSION_STATUS_RETURNING API_VERSION_STATUS_RETURNING_UNIFIED "
                                 "API_VERSION_TYPED_FFI")


class _Struct(Data[tuple]):
    """`#stablehlo.gather<offset_dims = [1], index_vector_dim = 1>`: named integer (list) fields, in `FIELDS`
    order; list fields left out are empty, as the StableHLO printer leaves empty ones out."""

    FIELDS: ClassVar[tuple[tuple[str, str], ...]] = ()  # (name, "ints" | "int")
    ALWAYS: ClassVar[bool] = False  # print every field, even empty ones

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> tuple:
        kinds = dict(cls.FIELDS)
        values: dict[str, object] = {}

        def field():
            pos = parser.pos
            key = parser.parse_identifier()
            if key not in kinds:
                parser.raise_error(f"unknown {cls.name} field '{key}'", at_position=pos)
            parser.parse_punctuation("=")
            values[key] = (tuple(parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parser.parse_integer))
                           if kinds[key] == "ints" else parser.parse_integer())

        parser.parse_comma_separated_list(parser.Delimiter.ANGLE, field)
        return tuple(values.get(k, () if kind == "ints" else 0) for k, kind in cls.FIELDS)

    def print_parameter(self, printer: Printer) -> None:
        parts = [f"{k} = [{', '.join(map(str, v))}]" if kind == "ints" else f"{k} = {v}"
                 for (k, kind), v in zip(self.FIELDS, self.data) if self.ALWAYS or kind == "int" or v]
        printer.print_string(f"<{', '.join(parts)}>")

    def __getattr__(self, key: str):
        for (name, _), value in zip(type(self).FIELDS, self.data):
            if name == key:
                return value
        raise AttributeError(key)

    @classmethod
    def get(cls, **fields) -> "_Struct":
        return cls(tuple(fields.get(k, () if kind == "ints" else 0) for k, kind in cls.FIELDS))


def _struct(mnemonic: str, camel: str, fields: str, always: bool = False) -> type[_Struct]:
    body = {"name": f"stablehlo.{mnemonic}", "ALWAYS": always,
            "FIELDS": tuple(tuple(f.split(":")) for f in fields.split())}
    return irdl_attr_definition(types.new_class(camel, (_Struct,), exec_body=lambda ns: ns.update(body)))


DotDimensionNumbersAttr = _struct("dot", "DotDimensionNumbersAttr",
                                  "lhs_batching_dimensions:ints rhs_batching_dimensions:ints "
                                  "lhs_contracting_dimensions:ints rhs_contracting_dimensions:ints")
GatherDimensionNumbersAttr = _struct("gather", "GatherDimensionNumbersAttr",
                                     "offset_dims:ints collapsed_slice_dims:ints operand_batching_dims:ints "
                                     "start_indices_batching_dims:ints start_index_map:ints index_vector_dim:int")
ScatterDimensionNumbersAttr = _struct("scatter", "ScatterDimensionNumbersAttr",
                                      "update_window_dims:ints inserted_window_dims:ints input_batching_dims:ints "
                                      "scatter_indices_batching_dims:ints scatter_dims_to_operand_dims:ints "
                                      "index_vector_dim:int")
ChannelHandleAttr = _struct("channel_handle", "ChannelHandleAttr", "handle:int type:int", always=True)
OutputOperandAliasAttr = _struct("output_operand_alias", "OutputOperandAliasAttr",
                                 "output_tuple_indices:ints operand_index:int operand_tuple_indices:ints",
                                 always=True)


@dataclass(frozen=True)
class ConvLayout:
    """A convolution's dimension numbers in its `[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]` form: each side's
    layout as a tuple of letters (`b`, `f`, `i`, `o`) and spatial indices."""

    input: tuple
    kernel: tuple
    output: tuple

    @staticmethod
    def _dims(layout: tuple, batch: str, feature: str) -> tuple[int, int, tuple[int, ...]]:
        spatial = sorted((d, i) for i, d in enumerate(layout) if isinstance(d, int))
        return layout.index(batch), layout.index(feature), tuple(i for _, i in spatial)

    @property
    def input_dims(self):  # (batch, feature, spatial...)
        return self._dims(self.input, "b", "f")

    @property
    def kernel_dims(self):  # (input feature, output feature, spatial...)
        return self._dims(self.kernel, "i", "o")

    @property
    def output_dims(self):
        return self._dims(self.output, "b", "f")

    def text(self) -> str:
        return "->".join("x".join(f"[{', '.join(map(str, side))}]" for side in pair) for pair in
                         ((self.input, self.kernel), (self.output,)))


def parse_conv_layout(parser: AttrParser) -> ConvLayout:
    def side(letters: str) -> tuple:
        pos = parser.pos

        def item():
            if (n := parser.parse_optional_integer()) is not None:
                return n
            word = parser.parse_identifier()
            if word not in letters:
                parser.raise_error(f"Unexpected dimension {word}", at_position=pos)
            return word

        dims = tuple(parser.parse_comma_separated_list(parser.Delimiter.SQUARE, item))
        spatial = sorted(d for d in dims if isinstance(d, int))
        if spatial != list(range(len(spatial))) or any(dims.count(c) != 1 for c in letters):
            parser.raise_error(f"Unexpected or missing dimension in [{', '.join(map(str, dims))}]", at_position=pos)
        return dims

    lhs = side("bf")
    parser.parse_keyword("x")
    rhs = side("io")
    parser.parse_punctuation("->")
    return ConvLayout(lhs, rhs, side("bf"))


@irdl_attr_definition
class ConvDimensionNumbersAttr(Data[ConvLayout]):
    """`#stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>`."""

    name = "stablehlo.conv"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> ConvLayout:
        with parser.in_angle_brackets():
            parser.parse_optional_keyword("raw")
            return parse_conv_layout(parser)

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string(f"<{self.data.text()}>")


ATTRIBUTES = [ComparisonDirectionAttr, ComparisonTypeAttr, PrecisionAttr, RngDistributionAttr, RngAlgorithmAttr,
              TransposeAttr, CustomCallApiVersionAttr, DotDimensionNumbersAttr, GatherDimensionNumbersAttr,
              ScatterDimensionNumbersAttr, ChannelHandleAttr, OutputOperandAliasAttr, ConvDimensionNumbersAttr]


def i64_array(values) -> DenseArrayBase:
    return DenseArrayBase.from_list(i64, list(values))


def ints_of(attr: Attribute | None) -> tuple[int, ...]:
    if attr is None:
        return ()
    if isinstance(attr, DenseArrayBase):
        return tuple(int(v) for v in attr.get_values())
    if isinstance(attr, DenseIntOrFPElementsAttr):  # a splat keeps one element (see TTParser)
        values = tuple(int(v) for v in attr.get_values())
        count = math.prod(attr.type.get_shape())
        return values * count if len(values) == 1 else values
    if isinstance(attr, ArrayAttr):
        return tuple(int(a.value.data) for a in attr.data)
    raise VerifyException(f"expected an integer array, got {attr}")


def int_of(attr: Attribute | None, default: int = 0) -> int:
    return default if attr is None else int(attr.value.data)


# ---------------------------------------------------------------------------------------------------------------
# Assembly formats: a format reads `operands/attributes/types` after the op name and prints them back.


def _types_after_colon(parser: Parser, count: int, results: int = 1) -> tuple[list[Attribute], list[Attribute]]:
    """custom<SameOperandsAndResultType>: `: T` (every operand and result) or `: (T, ..) -> R`."""
    parser.parse_punctuation(":")
    if parser._current_token.text == "(":
        fn = parser.parse_function_type()
        return list(fn.inputs.data), list(fn.outputs.data)
    t = parser.parse_type()
    return [t] * count, [t] * results


def _print_same_or_functional(printer: Printer, op: IRDLOperation) -> None:
    kinds = {v.type for v in (*op.operands, *op.results)}
    printer.print_string(" : ")
    if len(kinds) == 1 and len(op.results) == 1:
        printer.print_attribute(op.results[0].type)
    else:
        _print_functional(printer, op)


def _print_functional(printer: Printer, op: IRDLOperation) -> None:
    printer.print_string("(")
    printer.print_list([v.type for v in op.operands], printer.print_attribute)
    printer.print_string(") -> ")
    if len(op.results) == 1 and not isinstance(op.results[0].type, FunctionType):
        printer.print_attribute(op.results[0].type)
    else:
        printer.print_string("(")
        printer.print_list([v.type for v in op.results], printer.print_attribute)
        printer.print_string(")")


def _resolve(parser: Parser, names: list[UnresolvedOperand], types_: list[Attribute], what: str):
    if len(names) != len(types_):
        parser.raise_error(f"{len(names)} operands present, but expected {len(types_)}")
    return [parser.resolve_operand(n, t) for n, t in zip(names, types_)]


def _split_attrs(cls, attrs: dict[str, Attribute]) -> tuple[dict, dict]:
    props = {k: v for k, v in attrs.items() if k in cls.PROPS}
    return props, {k: v for k, v in attrs.items() if k not in cls.PROPS}


def _print_attr_dict(printer: Printer, op: IRDLOperation, elide: tuple[str, ...] = ()) -> None:
    merged = {k: v for k, v in {**op.properties, **op.attributes}.items() if k not in elide}
    if merged:
        printer.print_string(" ")
        printer.print_attr_dict(dict(sorted(merged.items())))


def _ints_list(parser: Parser) -> list[int]:
    return parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parser.parse_integer)


def _ints_text(values) -> str:
    return f"[{', '.join(map(str, values))}]"


@dataclass(frozen=True)
class Clause:
    """`, keyword = value` after the operands, stored as property `prop` (an i64 array or an i64)."""

    keyword: str
    prop: str
    kind: str  # "array" | "int"


def _clauses(spec: str) -> tuple[Clause, ...]:
    return tuple(Clause(*c.replace("=", ":").split(":")) for c in spec.split())


class StableHLOOp(IRDLOperation):
    """Base of every table-built stablehlo op."""

    FORMAT: ClassVar[str] = "generic"
    CLAUSES: ClassVar[tuple[Clause, ...]] = ()
    PROPS: ClassVar[frozenset[str]] = frozenset()

    args = var_operand_def()
    outs = var_result_def()
    regs = var_region_def()

    def attr(self, name: str) -> Attribute | None:
        found = self.properties.get(name)  # not `or`: a zero IntegerAttr is falsy
        return found if found is not None else self.attributes.get(name)

    @classmethod
    def create(cls, *, operands=(), result_types=(), properties=None, attributes=None, successors=(), regions=(),
               **rest):
        # inherent attributes written in the generic form's `{...}` dictionary are properties, as MLIR reads them
        properties, attributes = dict(properties or {}), dict(attributes or {})
        for key in [k for k in attributes if k in cls.PROPS]:
            properties[key] = attributes.pop(key)
        return super().create(operands=operands, result_types=result_types, properties=properties,
                              attributes=attributes, successors=successors, regions=regions, **rest)

    def error(self, message: str) -> VerifyException:
        return VerifyException(f"'{self.name}' op {message}")

    def asm_result_name(self) -> str | None:
        """A constant's result prints as `%cst` (floats) or `%c` (integers), as StableHLO names them."""
        if self.FORMAT != "constant" or not isinstance(self.results[0].type, TensorType):
            return None
        return "c" if isinstance(self.results[0].type.element_type, (IntegerType, IndexType)) else "cst"

    def verify_(self) -> None:
        from ttmlir.dialects.stablehlo_verify import verify
        verify(self)

    # -- pretty formats -------------------------------------------------------------------------------------
    @classmethod
    def parse(cls, parser: Parser):
        if cls.FORMAT == "generic":
            parser.raise_error(f"custom op '{cls.name}' has no custom assembly form")
        return getattr(cls, "_parse_" + cls.FORMAT)(parser)

    def print(self, printer: Printer) -> None:
        getattr(self, "_print_" + self.FORMAT)(printer)

    @classmethod
    def _make(cls, parser, names, operand_types, result_types, props=None, attrs=None, regions=()):
        extra_props, attrs = _split_attrs(cls, attrs or {})
        operands = _resolve(parser, names, operand_types, cls.name)
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
                props[clause.prop] = i64_array(_ints_list(parser)) if clause.kind == "array" else \
                    IntegerAttr(parser.parse_integer(), i64)
        return names, props

    def _print_operands_clauses(self, printer: Printer) -> None:
        if self.operands:
            printer.print_string(" ")
            printer.print_list(self.operands, printer.print_operand)
        for clause in self.CLAUSES:
            if (value := self.properties.get(clause.prop)) is not None:
                text = _ints_text(ints_of(value)) if clause.kind == "array" else str(int_of(value))
                printer.print_string(f", {clause.keyword} = {text}")

    @classmethod
    def _parse_same(cls, parser: Parser):  # `%a, %b, dims = [..] attr-dict : T` or `: (T, T) -> R`
        names, props = cls._parse_operands_clauses(parser)
        attrs = parser.parse_optional_attr_dict()
        operand_types, result_types = _types_after_colon(parser, len(names))
        return cls._make(parser, names, operand_types, result_types, props, attrs)

    def _print_same(self, printer: Printer) -> None:
        self._print_operands_clauses(printer)
        _print_attr_dict(printer, self, tuple(c.prop for c in self.CLAUSES))
        _print_same_or_functional(printer, self)

    _parse_functional = _parse_same  # the same text reads; it prints always as a function type

    def _print_functional(self, printer: Printer) -> None:
        self._print_operands_clauses(printer)
        _print_attr_dict(printer, self, tuple(c.prop for c in self.CLAUSES))
        printer.print_string(" : ")
        _print_functional(printer, self)

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
        _print_attr_dict(printer, self)
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
        _print_attr_dict(printer, self)
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
        _print_attr_dict(printer, self, ("value",))
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
        _print_attr_dict(printer, self, ("iota_dimension",))
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
        operand_types, result_types = _types_after_colon(parser, 2)
        return cls._make(parser, names, operand_types, result_types, props, attrs)

    def _print_compare(self, printer: Printer) -> None:
        printer.print_string(f" {self.properties['comparison_direction'].data}, ")
        printer.print_list(self.operands, printer.print_operand)
        if (kind := self.properties.get("compare_type")) is not None:
            printer.print_string(f", {kind.data}")
        _print_attr_dict(printer, self, ("comparison_direction", "compare_type"))
        _print_same_or_functional(printer, self)

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
        _print_attr_dict(printer, self)
        pred, on_true, on_false = (v.type for v in self.operands)
        if on_true == on_false == self.results[0].type:
            printer.print_string(" : ")
            printer.print_list([pred, on_true], printer.print_attribute)
        else:
            printer.print_string(" : ")
            _print_functional(printer, self)

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
        operand_types, result_types = _types_after_colon(parser, 1)
        props = {k: i64_array([b[i] for b in bounds]) for i, k in enumerate(("start_indices", "limit_indices",
                                                                              "strides"))}
        return cls._make(parser, names, operand_types, result_types, props, attrs)

    def _print_slice(self, printer: Printer) -> None:
        starts, limits, strides = (ints_of(self.properties[k]) for k in ("start_indices", "limit_indices", "strides"))
        printer.print_string(" ")
        printer.print_operand(self.operands[0])
        parts = [f"{a}:{b}" + (f":{s}" if s != 1 else "") for a, b, s in zip(starts, limits, strides)]
        printer.print_string(f" [{', '.join(parts)}]")
        _print_attr_dict(printer, self, ("start_indices", "limit_indices", "strides"))
        _print_same_or_functional(printer, self)

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
                lhs = _ints_list(parser)
                parser.parse_keyword("x")
                dims[key] = (lhs, _ints_list(parser))
            elif key == "precision":
                props["precision_config"] = _parse_precision(parser)
            elif key == "algorithm":
                props["algorithm"] = parser.parse_attribute()
            else:
                parser.raise_error(f"unexpected '{key}' in {cls.name}", at_position=pos)
        batch, contract = dims.get("batching_dims", ((), ())), dims.get("contracting_dims", ((), ()))
        props["dot_dimension_numbers"] = DotDimensionNumbersAttr.get(
            lhs_batching_dimensions=tuple(batch[0]), rhs_batching_dimensions=tuple(batch[1]),
            lhs_contracting_dimensions=tuple(contract[0]), rhs_contracting_dimensions=tuple(contract[1]))
        attrs = parser.parse_optional_attr_dict()
        operand_types, result_types = _types_after_colon(parser, 2)
        return cls._make(parser, names, operand_types, result_types, props, attrs)

    def _print_dot_general(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        dims = self.properties["dot_dimension_numbers"]
        if dims.lhs_batching_dimensions or dims.rhs_batching_dimensions:
            printer.print_string(f", batching_dims = {_ints_text(dims.lhs_batching_dimensions)} x "
                                 f"{_ints_text(dims.rhs_batching_dimensions)}")
        printer.print_string(f", contracting_dims = {_ints_text(dims.lhs_contracting_dimensions)} x "
                             f"{_ints_text(dims.rhs_contracting_dimensions)}")
        self._print_precision(printer)
        if (algorithm := self.properties.get("algorithm")) is not None:
            printer.print_string(", algorithm = ")
            printer.print_attribute(algorithm)
        _print_attr_dict(printer, self, ("dot_dimension_numbers", "precision_config", "algorithm"))
        printer.print_string(" : ")
        _print_functional(printer, self)

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
            props["precision_config"] = _parse_precision(parser)
        attrs = parser.parse_optional_attr_dict()
        operand_types, result_types = _types_after_colon(parser, 2)
        return cls._make(parser, names, operand_types, result_types, props, attrs)

    def _print_dot(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        self._print_precision(printer)
        _print_attr_dict(printer, self, ("precision_config",))
        printer.print_string(" : ")
        _print_functional(printer, self)

    @classmethod
    def _parse_reduce(cls, parser: Parser):
        # `(%x init: %c), (%y init: %d) applies stablehlo.add across dimensions = [1] : (..) -> (..)`, or with
        # `reducer(%a: T, %b: T) (%c: U, %d: U) { body }` after the types
        pairs = []

        def pair():
            value = parser.parse_unresolved_operand()
            parser.parse_keyword("init")
            parser.parse_punctuation(":")
            pairs.append((value, parser.parse_unresolved_operand()))

        parser.parse_punctuation("(")
        pair()
        parser.parse_punctuation(")")
        while parser.parse_optional_punctuation(","):
            parser.parse_punctuation("(")
            pair()
            parser.parse_punctuation(")")
        applies = None
        if parser.parse_optional_keyword("applies"):
            pos = parser.pos
            applies = parser.parse_identifier()
            if applies not in REDUCE_BODY:
                parser.raise_error(f"unknown op '{applies}' after 'applies'", at_position=pos)
        parser.parse_keyword("across")
        parser.parse_keyword("dimensions")
        parser.parse_punctuation("=")
        props = {"dimensions": i64_array(_ints_list(parser))}
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        fn = parser.parse_function_type()
        names = [p[0] for p in pairs] + [p[1] for p in pairs]
        n = len(pairs)
        if applies is not None:
            scalars = [TensorType(t.element_type, []) for t in fn.inputs.data[n:]]
            block = Block(arg_types=scalars + scalars)
            inner = REDUCE_BODY[applies].create(operands=[block.args[0], block.args[1]], result_types=[scalars[0]])
            block.add_ops([inner, ReturnOp.create(operands=[inner.results[0]])])
            region = Region(block)
        else:
            parser.parse_keyword("reducer")
            groups = []
            def argument():
                arg = parser.parse_argument()
                parser.parse_optional_location()  # a block argument's location (printed with debug info)
                return arg

            for _ in range(n):
                groups.append(parser.parse_comma_separated_list(parser.Delimiter.PAREN, argument))
            args = [g[0] for g in groups] + [g[1] for g in groups]
            region = parser.parse_region(args)
        return cls._make(parser, names, list(fn.inputs.data), list(fn.outputs.data), props, attrs, [region])

    def _print_reduce(self, printer: Printer) -> None:
        n = len(self.operands) // 2
        printer.print_string("(")
        for i in range(n):
            if i:
                printer.print_string(", (")
            printer.print_operand(self.operands[i])
            printer.print_string(" init: ")
            printer.print_operand(self.operands[n + i])
            printer.print_string(")")
        body = self.regions[0].block
        applied = _applied_op(body) if n == 1 else None
        if applied is not None:
            printer.print_string(f" applies {applied}")
        printer.print_string(f" across dimensions = {_ints_text(ints_of(self.properties['dimensions']))}")
        _print_attr_dict(printer, self, ("dimensions",))
        printer.print_string(" : ")
        _print_functional(printer, self)
        if applied is None:
            names, printer.stream = printer.stream, io.StringIO()
            for arg in body.args:  # named in block order, whatever order the pairs print them in
                printer.print_ssa_value(arg)
            printer.stream = names
            printer.print_string("\n")
            printer.print_string(" reducer")
            for i in range(n):
                printer.print_string("(")
                printer.print_block_argument(body.args[i])
                printer.print_string(", ")
                printer.print_block_argument(body.args[n + i])
                printer.print_string(") ")
            printer.print_string(" ")
            printer.print_region(self.regions[0], print_entry_block_args=False)

    @classmethod
    def _parse_while(cls, parser: Parser):
        # `(%iterArg = %a, %iterArg_0 = %b) : T, U attributes {..} cond { .. } do { .. }`: both regions' arguments
        # are the names bound in the header
        pairs = []

        def binding():
            name = parser.parse_unresolved_operand()
            parser.parse_punctuation("=")
            pairs.append((name, parser.parse_unresolved_operand()))
        parser.parse_comma_separated_list(parser.Delimiter.PAREN, binding)
        types_ = []
        if pairs:
            parser.parse_punctuation(":")
            types_ = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
        attrs = parser.parse_optional_attr_dict_with_keyword()
        if len(types_) != len(pairs):
            parser.raise_error(f"{len(pairs)} operands present, but expected {len(types_)}")
        regions = []
        for keyword in ("cond", "do"):
            parser.parse_keyword(keyword)
            regions.append(parser.parse_region([parser.Argument(n.span, t) for (n, _), t in zip(pairs, types_)]))
        return cls._make(parser, [p[1] for p in pairs], types_, types_, None,
                         dict(attrs.data) if attrs is not None else None, regions)

    def _print_while(self, printer: Printer) -> None:
        cond, body = (r.block for r in self.regions)
        printer.print_string("(")
        for i, (arg, operand) in enumerate(zip(body.args, self.operands)):
            if i:
                printer.print_string(", ")
            if arg.name_hint is None:
                arg.name_hint = "iterArg"
            name = printer.print_ssa_value(arg)
            printer._ssa_values[cond.args[i]] = name  # the cond region reads the header's names too
            printer.print_string(" = ")
            printer.print_operand(operand)
        printer.print_string(")")
        if self.operands:
            printer.print_string(" : ")
            printer.print_list(self.operand_types, printer.print_attribute)
        merged = {**self.properties, **self.attributes}
        if merged:
            printer.print_string(" attributes ")
            printer.print_attr_dict(dict(sorted(merged.items())))
        printer.print_string("\n")
        printer.print_string(" cond ")
        printer.print_region(self.regions[0], print_entry_block_args=False)
        printer.print_string(" do ")
        printer.print_region(self.regions[1], print_entry_block_args=False)

    @classmethod
    def _parse_convolution(cls, parser: Parser):
        # `(%a, %b) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [..], ..} {..} : ..`
        names = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_unresolved_operand)
        parser.parse_keyword("dim_numbers")
        parser.parse_punctuation("=")
        props: dict[str, Attribute] = {"dimension_numbers": ConvDimensionNumbersAttr(parse_conv_layout(parser))}
        parser.parse_punctuation(",")
        parser.parse_keyword("window")
        parser.parse_punctuation("=")

        def window_entry():
            pos = parser.pos
            key = parser.parse_identifier()
            parser.parse_punctuation("=")
            if key == "pad":
                rows = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, lambda: _ints_list(parser))
                props["padding"] = DenseIntOrFPElementsAttr.from_list(TensorType(i64, [len(rows), 2]),
                                                                      [v for r in rows for v in r])
            elif key == "reverse":
                flags = parser.parse_comma_separated_list(
                    parser.Delimiter.SQUARE, lambda: (b if (b := parser.parse_optional_boolean()) is not None
                                                      else bool(parser.parse_integer())))
                props["window_reversal"] = DenseArrayBase.from_list(i1, [int(f) for f in flags])
            elif key in WINDOW_KEYS:
                props[WINDOW_KEYS[key]] = i64_array(_ints_list(parser))
            else:
                parser.raise_error(f"unexpected window attribute '{key}'", at_position=pos)

        parser.parse_punctuation("{")
        while parser.parse_optional_punctuation("}") is None:  # entries, a trailing comma allowed
            window_entry()
            if parser.parse_optional_punctuation(",") is None:
                parser.parse_punctuation("}")
                break
        attrs = parser.parse_optional_attr_dict()
        operand_types, result_types = _types_after_colon(parser, 2)
        return cls._make(parser, names, operand_types, result_types, props, attrs)

    def _print_convolution(self, printer: Printer) -> None:
        printer.print_string("(")
        printer.print_list(self.operands, printer.print_operand)
        printer.print_string(f") dim_numbers = {self.properties['dimension_numbers'].data.text()}, window = {{")
        parts = []
        for key, prop in WINDOW_KEYS.items():
            if (value := self.properties.get(prop)) is not None:
                parts.append(f"{key} = {_ints_text(ints_of(value))}")
            if key == "stride" and (pad := self.properties.get("padding")) is not None:
                flat = ints_of(pad)
                parts.append(f"pad = [{', '.join(_ints_text(flat[i:i + 2]) for i in range(0, len(flat), 2))}]")
        if (reverse := self.properties.get("window_reversal")) is not None:
            parts.append(f"reverse = [{', '.join('true' if v else 'false' for v in ints_of(reverse))}]")
        printer.print_string(", ".join(parts) + "}")
        _print_attr_dict(printer, self, ("dimension_numbers", "padding", "window_reversal", *WINDOW_KEYS.values()))
        printer.print_string(" : ")
        _print_functional(printer, self)

    @classmethod
    def _parse_custom_call(cls, parser: Parser):  # `stablehlo.custom_call @target(%a, %b) {..} : (T, T) -> R`
        target = parser.parse_symbol_name()
        names = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_unresolved_operand)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        fn = parser.parse_function_type()
        return cls._make(parser, names, list(fn.inputs.data), list(fn.outputs.data),
                         {"call_target_name": target}, attrs)

    def _print_custom_call(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_symbol_name(self.properties["call_target_name"].data)
        printer.print_string("(")
        printer.print_list(self.operands, printer.print_operand)
        printer.print_string(")")
        _print_attr_dict(printer, self, ("call_target_name",))
        printer.print_string(" : ")
        _print_functional(printer, self)

    @classmethod
    def _parse_composite(cls, parser: Parser):
        # `stablehlo.composite "tenstorrent.gelu" %a {composite_attributes = {..}, decomposition = @f} : (T) -> R`
        name = parser.parse_str_literal()
        names = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_unresolved_operand) \
            if parser._current_token.text.startswith("%") else []
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        fn = parser.parse_function_type()
        return cls._make(parser, names, list(fn.inputs.data), list(fn.outputs.data), {"name": StringAttr(name)},
                         attrs)

    def _print_composite(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_string_literal(self.properties["name"].data)
        if self.operands:
            printer.print_string(" ")
            printer.print_list(self.operands, printer.print_operand)
        _print_attr_dict(printer, self, ("name",))
        printer.print_string(" : ")
        _print_functional(printer, self)

    @classmethod
    def _parse_tuple(cls, parser: Parser):  # `stablehlo.tuple %a, %b : tuple<T, U>`
        names = []
        if parser._current_token.text.startswith("%"):
            names = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_unresolved_operand)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        if parser._current_token.text == "(":
            fn = parser.parse_function_type()
            return cls._make(parser, names, list(fn.inputs.data), list(fn.outputs.data), attrs=attrs)
        t = parser.parse_type()
        if not isinstance(t, TupleType):
            parser.raise_error("expected a tuple type")
        return cls._make(parser, names, list(t.types.data), [t], attrs=attrs)

    def _print_tuple(self, printer: Printer) -> None:
        if self.operands:
            printer.print_string(" ")
            printer.print_list(self.operands, printer.print_operand)
        _print_attr_dict(printer, self)
        printer.print_string(" : ")
        printer.print_attribute(self.results[0].type)

    @classmethod
    def _parse_get_tuple_element(cls, parser: Parser):  # `stablehlo.get_tuple_element %t[0] : (tuple<..>) -> T`
        names = [parser.parse_unresolved_operand()]
        parser.parse_punctuation("[")
        index = parser.parse_integer()
        parser.parse_punctuation("]")
        attrs = parser.parse_optional_attr_dict()
        operand_types, result_types = _types_after_colon(parser, 1)
        return cls._make(parser, names, operand_types, result_types, {"index": IntegerAttr(index, i32)}, attrs)

    def _print_get_tuple_element(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.operands[0])
        printer.print_string(f"[{int_of(self.properties['index'])}]")
        _print_attr_dict(printer, self, ("index",))
        printer.print_string(" : ")
        _print_functional(printer, self)

    @classmethod
    def _parse_rng(cls, parser: Parser):  # `stablehlo.rng %a, %b, %shape, distribution = UNIFORM : (..) -> T`
        names = [parser.parse_unresolved_operand()]
        while parser.parse_optional_punctuation(","):
            if (operand := parser.parse_optional_unresolved_operand()) is None:
                break
            names.append(operand)
        parser.parse_keyword("distribution")
        parser.parse_punctuation("=")
        props = {"rng_distribution": RngDistributionAttr(RngDistributionAttr.parse_parameter(parser))}
        attrs = parser.parse_optional_attr_dict()
        operand_types, result_types = _types_after_colon(parser, len(names))
        return cls._make(parser, names, operand_types, result_types, props, attrs)

    def _print_rng(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        printer.print_string(f", distribution = {self.properties['rng_distribution'].data}")
        _print_attr_dict(printer, self, ("rng_distribution",))
        printer.print_string(" : ")
        _print_functional(printer, self)

    @classmethod
    def _parse_rng_bit_generator(cls, parser: Parser):  # `%state, algorithm = DEFAULT : (T) -> (T, U)`
        names = [parser.parse_unresolved_operand()]
        parser.parse_punctuation(",")
        parser.parse_keyword("algorithm")
        parser.parse_punctuation("=")
        props = {"rng_algorithm": RngAlgorithmAttr(RngAlgorithmAttr.parse_parameter(parser))}
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        fn = parser.parse_function_type()
        return cls._make(parser, names, list(fn.inputs.data), list(fn.outputs.data), props, attrs)

    def _print_rng_bit_generator(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.operands[0])
        printer.print_string(f", algorithm = {self.properties['rng_algorithm'].data}")
        _print_attr_dict(printer, self, ("rng_algorithm",))
        printer.print_string(" : ")
        _print_functional(printer, self)

    @classmethod
    def _parse_complex(cls, parser: Parser):  # `stablehlo.complex %re, %im : tensor<4xcomplex<f32>>`
        names = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_unresolved_operand)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        if parser._current_token.text == "(":
            fn = parser.parse_function_type()
            return cls._make(parser, names, list(fn.inputs.data), list(fn.outputs.data), attrs=attrs)
        t = parser.parse_type()
        part = TensorType(t.element_type.element_type, t.get_shape())
        return cls._make(parser, names, [part, part], [t], attrs=attrs)

    def _print_complex(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        _print_attr_dict(printer, self)
        printer.print_string(" : ")
        printer.print_attribute(self.results[0].type)

    @classmethod
    def _parse_part(cls, parser: Parser):  # real/imag: `%z : tensor<4xcomplex<f32>>` or `: (T) -> R`
        names = [parser.parse_unresolved_operand()]
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        if parser._current_token.text == "(":
            fn = parser.parse_function_type()
            return cls._make(parser, names, list(fn.inputs.data), list(fn.outputs.data), attrs=attrs)
        t = parser.parse_type()
        element = t.element_type
        part = TensorType(getattr(element, "element_type", element), t.get_shape())
        return cls._make(parser, names, [t], [part], attrs=attrs)

    _print_part = _print_functional


class _TopK:
    """chlo.top_k: `chlo.top_k(%x, k = 5) : tensor<16xf32> -> (tensor<5xf32>, tensor<5xi32>)`."""

    @classmethod
    def _parse_top_k(cls, parser: Parser):
        parser.parse_punctuation("(")
        names = [parser.parse_unresolved_operand()]
        parser.parse_punctuation(",")
        parser.parse_keyword("k")
        parser.parse_punctuation("=")
        k = parser.parse_integer()
        parser.parse_punctuation(")")
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        operand = parser.parse_type()
        parser.parse_punctuation("->")
        results = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_type)
        return cls._make(parser, names, [operand], results, {"k": IntegerAttr(k, i64)}, attrs)

    def _print_top_k(self, printer: Printer) -> None:
        printer.print_string("(")
        printer.print_operand(self.operands[0])
        printer.print_string(f", k = {int_of(self.properties['k'])})")
        _print_attr_dict(printer, self, ("k",))
        printer.print_string(" : ")
        printer.print_attribute(self.operands[0].type)
        printer.print_string(" -> (")
        printer.print_list([r.type for r in self.results], printer.print_attribute)
        printer.print_string(")")


    @classmethod
    def _parse_arrow(cls, parser: Parser):  # CHLO's `%a, %b : T, U -> R`
        names = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_unresolved_operand)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        operand_types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
        parser.parse_punctuation("->")
        return cls._make(parser, names, operand_types, [parser.parse_type()], attrs=attrs)

    def _print_arrow(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        _print_attr_dict(printer, self)
        printer.print_string(" : ")
        printer.print_list([v.type for v in self.operands], printer.print_attribute)
        printer.print_string(" -> ")
        printer.print_attribute(self.results[0].type)


for _name in ("_parse_top_k", "_print_top_k", "_parse_arrow", "_print_arrow"):
    setattr(StableHLOOp, _name, _TopK.__dict__[_name])


def _parse_precision(parser: Parser) -> ArrayAttr:
    return ArrayAttr(parser.parse_comma_separated_list(
        parser.Delimiter.SQUARE, lambda: PrecisionAttr(PrecisionAttr.parse_parameter(parser))))


def _applied_op(body: Block) -> str | None:
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


WINDOW_KEYS = {"stride": "window_strides", "lhs_dilate": "lhs_dilation", "rhs_dilate": "rhs_dilation"}

# ---------------------------------------------------------------------------------------------------------------
# The op table: name -> (format, clauses, inherent attributes, pure)

UNARY = ("abs cbrt ceil cosine count_leading_zeros exponential exponential_minus_one floor imag_ is_finite_ log "
         "log_plus_one logistic negate not popcnt real_ round_nearest_afz round_nearest_even rsqrt sign sine sqrt "
         "tan tanh").split()
BINARY = ("add and atan2 divide maximum minimum multiply or power remainder shift_left shift_right_arithmetic "
          "shift_right_logical subtract xor").split()
REDUCE_BODY_NAMES = frozenset({"add", "multiply", "maximum", "minimum", "and", "or", "xor"})

_ROWS: list[tuple[str, str, str, str]] = [  # name, format, clauses, properties (beyond the clauses')
    *((n, "same", "", "result_accuracy") for n in UNARY if not n.endswith("_")),
    ("is_finite", "functional", "", ""),
    ("real", "part", "", ""), ("imag", "part", "", ""),
    *((n, "same", "", "") for n in BINARY),
    ("clamp", "same", "", ""),
    ("convert", "same", "", ""),
    ("bitcast_convert", "functional", "", ""),
    ("reshape", "functional", "", ""),
    ("broadcast_in_dim", "functional", "dims=broadcast_dimensions:array", ""),
    ("broadcast", "functional", "sizes=broadcast_sizes:array", ""),
    ("transpose", "functional", "dims=permutation:array", ""),
    ("reverse", "same", "dims=dimensions:array", ""),
    ("concatenate", "functional", "dim=dimension:int", ""),
    ("get_dimension_size", "functional", "dim=dimension:int", ""),
    ("dynamic_iota", "functional", "dim=iota_dimension:int", ""),
    ("dynamic_slice", "functional", "sizes=slice_sizes:array", ""),
    ("dynamic_update_slice", "functional", "", ""),
    ("pad", "functional", "low=edge_padding_low:array high=edge_padding_high:array interior=interior_padding:array",
     ""),
    ("uniform_quantize", "functional", "", ""),
    ("uniform_dequantize", "functional", "", ""),
    ("constant", "constant", "", "value"),
    ("iota", "iota", "", "iota_dimension"),
    ("compare", "compare", "", "comparison_direction compare_type"),
    ("select", "select", "", ""),
    ("slice", "slice", "", "start_indices limit_indices strides"),
    ("dot_general", "dot_general", "", "dot_dimension_numbers precision_config algorithm"),
    ("dot", "dot", "", "precision_config"),
    ("reduce", "reduce", "", "dimensions"),
    ("convolution", "convolution", "", "window_strides padding lhs_dilation rhs_dilation window_reversal "
     "dimension_numbers feature_group_count batch_group_count precision_config"),
    ("custom_call", "custom_call", "", "call_target_name has_side_effect backend_config api_version "
     "called_computations operand_layouts result_layouts output_operand_aliases"),
    ("composite", "composite", "", "name composite_attributes decomposition version"),
    ("tuple", "tuple", "", ""),
    ("get_tuple_element", "get_tuple_element", "", "index"),
    ("optimization_barrier", "variadic", "", ""),
    ("return", "return", "", ""),
    ("rng", "rng", "", "rng_distribution"),
    ("rng_bit_generator", "rng_bit_generator", "", "rng_algorithm"),
    ("complex", "complex", "", ""),
    # no pretty syntax: generic form only, as the StableHLO project prints them
    ("gather", "generic", "", "dimension_numbers slice_sizes indices_are_sorted"),
    ("dynamic_gather", "generic", "", "dimension_numbers indices_are_sorted"),
    ("scatter", "generic", "", "scatter_dimension_numbers indices_are_sorted unique_indices"),
    ("reduce_window", "generic", "", "window_dimensions window_strides base_dilations window_dilations padding"),
    ("select_and_scatter", "generic", "", "window_dimensions window_strides padding"),
    ("sort", "generic", "", "dimension is_stable"),
    ("batch_norm_inference", "generic", "", "epsilon feature_index"),
    ("batch_norm_training", "generic", "", "epsilon feature_index"),
    ("batch_norm_grad", "generic", "", "epsilon feature_index"),
    ("einsum", "generic", "", "einsum_config"),
    ("all_gather", "generic", "", "all_gather_dim replica_groups channel_handle use_global_device_ids"),
    ("all_reduce", "generic", "", "replica_groups channel_handle use_global_device_ids"),
    ("reduce_scatter", "generic", "", "scatter_dimension replica_groups channel_handle use_global_device_ids"),
    ("all_to_all", "generic", "", "split_dimension concat_dimension split_count replica_groups channel_handle"),
    ("collective_permute", "generic", "", "source_target_pairs channel_handle"),
    ("collective_broadcast", "generic", "", "replica_groups channel_handle"),
    ("partition_id", "generic", "", ""),
    ("replica_id", "generic", "", ""),
    ("while", "while", "", ""),
    ("case", "generic", "", ""),
    ("if", "generic", "", ""),
]

# ops with effects beyond their results (never folded away or merged by CSE)
EFFECTFUL = frozenset({"custom_call", "rng", "rng_bit_generator", "optimization_barrier", "all_gather", "all_reduce",
                       "reduce_scatter", "all_to_all", "collective_permute", "collective_broadcast", "return",
                       "while", "case", "if", "partition_id", "replica_id"})


def _op_class(name: str, fmt: str, clauses: str, props: str, dialect: str = "stablehlo") -> type[StableHLOOp]:
    parsed = _clauses(clauses)
    traits = [] if name in EFFECTFUL else [Pure()]
    if name == "return":
        traits.append(IsTerminator())
    inherent = frozenset(props.split()) | {c.prop for c in parsed}
    body = {"name": f"{dialect}.{name}", "traits": traits_def(*traits),
            "__doc__": f"{dialect}.{name}: the {dialect} op of that name.",
            **{f"prop_{p}": opt_prop_def(Attribute, prop_name=p) for p in sorted(inherent)}}
    if fmt == "generic":
        body["print"] = Operation.print  # printed in the generic form
    camel = (dialect.capitalize() if dialect != "stablehlo" else "") + \
        "".join(p.capitalize() for p in name.split("_")) + "Op"
    cls = types.new_class(camel, (StableHLOOp,), exec_body=lambda ns: ns.update(body))
    cls.__module__ = __name__
    cls = irdl_op_definition(cls)
    cls.FORMAT, cls.CLAUSES, cls.PROPS = fmt, parsed, inherent
    return cls


OP_ROWS = {f"stablehlo.{r[0]}": r for r in _ROWS}
OPS: dict[str, type[StableHLOOp]] = {r[0]: _op_class(*r) for r in _ROWS}
REDUCE_BODY = {f"stablehlo.{n}": OPS[n] for n in REDUCE_BODY_NAMES}
ReturnOp = OPS["return"]
globals().update({cls.__name__: cls for cls in OPS.values()})

StableHLO = Dialect("stablehlo", list(OPS.values()), ATTRIBUTES)
