"""Attributes of the TTIR dialect (kept apart from the ops so property kinds can name them)."""

from __future__ import annotations

from xdsl.ir import Attribute, Data
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer

FLATTENED_FIELDS = ("batch_size", "input_height", "input_width")


@irdl_attr_definition
class FlattenedCompatInfoAttr(Data[tuple[int, int, int]]):
    """Marks a sliding-window op (conv2d, pools) whose input is flattened to (1, 1, N*H*W, C), with the
    (N, H, W) it came from: `#ttir<flattened_compat batch_size = 1, input_height = 32, input_width = 32>`."""

    name = "ttir.flattened_compat"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> tuple[int, int, int]:
        values = []
        for i, field in enumerate(FLATTENED_FIELDS):
            if i:
                parser.parse_punctuation(",")
            parser.parse_keyword(field)
            parser.parse_punctuation("=")
            values.append(parser.parse_integer(allow_boolean=False))
        parser.parse_optional_punctuation(",")  # upstream's struct format takes a trailing comma
        return tuple(values)

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string(", ".join(f"{f} = {v}" for f, v in zip(FLATTENED_FIELDS, self.data)))


@irdl_attr_definition
class SparseElementsAttr(Data[tuple[str, Attribute]]):
    """MLIR's builtin `sparse<indices, values> : type`, kept as written: no op takes one (`ttir.constant` says
    which element attributes it takes), so it is read only for its verifier to refuse it."""

    name = "builtin.sparse"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> tuple[str, Attribute]:
        parser.raise_error("sparse elements are spelled `sparse<indices, values> : type`")

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string(f"<{self.data[0]}> : ")
        printer.print_attribute(self.data[1])
