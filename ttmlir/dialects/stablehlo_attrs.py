"""StableHLO's attributes: comparison/precision/rng/transpose/custom-call enums (`#stablehlo<comparison_direction
GT>`), the dimension-number structs of dot, gather and scatter, channel handles, output-operand aliases and
convolution layouts (`[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]`), and the readers of integer attributes the ops
keep. `ttmlir.dialects.stablehlo` re-exports them: they are `stablehlo.<Name>` too."""

from __future__ import annotations

import math
import types
from dataclasses import dataclass
from typing import ClassVar

from xdsl.dialects.builtin import ArrayAttr, DenseArrayBase, DenseIntOrFPElementsAttr, i64
from xdsl.ir import Attribute, Data
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException


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
FftTypeAttr = _enum("fft_type", "FFT IFFT RFFT IRFFT")
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
