"""TOSA's own type: `!tosa.shape<N>`."""

from __future__ import annotations

from xdsl.dialects.builtin import IntAttr
from xdsl.ir import ParametrizedAttribute, TypeAttribute
from xdsl.irdl import irdl_attr_definition, param_def
from xdsl.parser import AttrParser
from xdsl.printer import Printer


@irdl_attr_definition
class ShapeType(ParametrizedAttribute, TypeAttribute):
    """`!tosa.shape<N>`: a shape of rank N, the operand `tosa.reshape`, `tosa.tile`, `tosa.pad` and
    `tosa.slice` take their sizes in (made by `tosa.const_shape`)."""

    name = "tosa.shape"
    rank: IntAttr = param_def(IntAttr)

    def __init__(self, rank: int):
        super().__init__(IntAttr(rank))

    @classmethod
    def parse_parameters(cls, parser: AttrParser):
        with parser.in_angle_brackets():
            return (IntAttr(parser.parse_integer(allow_boolean=False, allow_negative=False)),)

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{self.rank.data}>")
