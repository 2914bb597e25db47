"""MLIR's `quant` dialect, as far as tt-mlir uses it: the uniform quantized element type.

`!quant.uniform<i8:f32, 0.1:128>` stores values of the expressed type (f32) as integers of the storage type (i8),
value = (stored - zero_point) * scale; `!quant.uniform<i32:f32:1, {0.1,0.2:5}>` has a scale and zero point per
index of dimension 1 (per-axis). A storage range other than the type's full one is spelled `i8<-127:127>`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from xdsl.dialects.builtin import IntegerType
from xdsl.ir import Attribute, Data, Dialect, TypeAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer

STORAGE = re.compile(r"([iu])([0-9]+)")
MAX_STORAGE_BITS = 32  # MLIR's QuantizedType::MaxStorageBits


@dataclass(frozen=True)
class UniformQuantization:
    signed: bool
    width: int
    storage_min: int
    storage_max: int
    expressed: Attribute
    axis: int | None  # the quantized dimension of a per-axis type
    scales: tuple[float, ...]
    zero_points: tuple[int, ...]


def storage_of(element: Attribute) -> Attribute:
    """The element type a tensor of `element` holds: a quantized type's storage integer, else the type itself."""
    return element.storage_type if isinstance(element, UniformQuantizedType) else element


def full_range(signed: bool, width: int) -> tuple[int, int]:
    return (-(1 << (width - 1)), (1 << (width - 1)) - 1) if signed else (0, (1 << width) - 1)


@irdl_attr_definition
class UniformQuantizedType(Data[UniformQuantization], TypeAttribute):
    """A uniform quantized element type, per tensor (one scale) or per axis (`axis` set, one scale per index)."""

    name = "quant.uniform"

    @property
    def storage_type(self) -> IntegerType:
        """The signless integer the values are stored as (the type a device tensor holds)."""
        return IntegerType(self.data.width)

    @property
    def per_axis(self) -> bool:
        return self.data.axis is not None

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> UniformQuantization:
        with parser.in_angle_brackets():
            return cls._parse_body(parser)

    @staticmethod
    def _parse_body(parser: AttrParser) -> UniformQuantization:
        pos = parser.pos
        match = STORAGE.fullmatch(parser.parse_identifier(" for a storage type"))
        if match is None:
            parser.raise_error("illegal storage type prefix", pos, parser.pos)
        signed, width = match.group(1) == "i", int(match.group(2)) if len(match.group(2)) <= 10 else 1 << 32
        if width == 0 or width >= 1 << 32:
            parser.raise_error("invalid integer width", pos, parser.pos)
        if width > MAX_STORAGE_BITS:
            parser.raise_error(f"illegal storage type size: {width}", pos, parser.pos)
        low, high = full = full_range(signed, width)
        if parser.parse_optional_punctuation("<"):
            low = parser.parse_integer(allow_boolean=False)
            parser.parse_punctuation(":")
            high = parser.parse_integer(allow_boolean=False)
            parser.parse_punctuation(">")
            if not full[0] <= low < high <= full[1]:
                parser.raise_error("illegal storage type minimum or maximum", pos, parser.pos)
        parser.parse_punctuation(":")
        expressed = parser.parse_type()
        axis = parser.parse_integer(allow_boolean=False) if parser.parse_optional_punctuation(":") else None
        parser.parse_punctuation(",")

        def params() -> tuple[float, int]:
            scale = float(parser.parse_number())
            return scale, parser.parse_integer(allow_boolean=False) if parser.parse_optional_punctuation(":") else 0

        pairs = parser.parse_comma_separated_list(parser.Delimiter.BRACES, params) if axis is not None else [params()]
        return UniformQuantization(signed, width, low, high, expressed, axis, tuple(s for s, _ in pairs),
                                   tuple(z for _, z in pairs))

    def print_parameter(self, printer: Printer) -> None:
        q = self.data
        printer.print_string(f"<{'i' if q.signed else 'u'}{q.width}")
        if (q.storage_min, q.storage_max) != full_range(q.signed, q.width):
            printer.print_string(f"<{q.storage_min}:{q.storage_max}>")
        printer.print_string(":")
        printer.print_attribute(q.expressed)
        params = [f"{s:e}" + (f":{z}" if z else "") for s, z in zip(q.scales, q.zero_points)]
        if q.axis is None:
            printer.print_string(f", {params[0]}>")
        else:
            printer.print_string(f":{q.axis}, {{{','.join(params)}}}>")


def uniform(storage: str, expressed: Attribute, scales, zero_points=None, axis: int | None = None
            ) -> UniformQuantizedType:
    """`uniform("i32", f32, [0.1])` is `!quant.uniform<i32:f32, 0.1>`; with `axis`, one scale per index."""
    match = STORAGE.fullmatch(storage)
    if match is None:
        raise ValueError(f"illegal storage type '{storage}'")
    signed, width = match.group(1) == "i", int(match.group(2))
    if not 0 < width <= MAX_STORAGE_BITS:
        raise ValueError(f"illegal storage type size: {width}")
    scales = tuple(float(s) for s in scales)
    zero_points = tuple(int(z) for z in zero_points) if zero_points is not None else (0,) * len(scales)
    return UniformQuantizedType(UniformQuantization(signed, width, *full_range(signed, width), expressed, axis, scales,
                                                    zero_points))


Quant = Dialect("quant", [], [UniformQuantizedType])
