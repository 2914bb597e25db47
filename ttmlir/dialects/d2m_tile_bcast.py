"""`d2m.tile_bcast`: a tile holding a row, a column or a single value spread over the whole tile, in upstream's
generic form (`"d2m.tile_bcast"(%t) <{bcast_type = #d2m<tile_bcast_type row>}>`). The type names the shape of the
input's data, not the direction: `row` spreads row 0 down the rows, `col` column 0 across the columns, `scalar`
element (0, 0) everywhere."""

from __future__ import annotations

from typing import ClassVar

from xdsl.ir import Data
from xdsl.irdl import IRDLOperation, irdl_attr_definition, irdl_op_definition, operand_def, prop_def, result_def
from xdsl.parser import AttrParser
from xdsl.printer import Printer

from ttmlir.dialects import ttcore
from ttmlir.dialects.d2m_cb import verify_compute_region


@irdl_attr_definition
class TileBcastTypeAttr(Data[str]):
    """`#d2m<tile_bcast_type row>`: which part of its input tile a `d2m.tile_bcast` spreads (none, col, row,
    scalar)."""

    name = "d2m.tile_bcast_type"
    VALUES: ClassVar[tuple[str, ...]] = ("none", "col", "row", "scalar")
    opaque_syntax: ClassVar[bool] = True

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> str:
        position = parser.pos
        word = parser.parse_identifier()
        if word not in cls.VALUES:
            parser.raise_error(f"expected one of {', '.join(cls.VALUES)} for tile_bcast_type, got {word}", position)
        return word

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string(self.data)


@irdl_op_definition
class TileBcastOp(IRDLOperation):
    """upstream's `d2m.tile_bcast`."""

    name = "d2m.tile_bcast"
    input = operand_def(ttcore.TileType)
    result = result_def(ttcore.TileType)
    bcast_type = prop_def(TileBcastTypeAttr)

    def verify_(self) -> None:
        verify_compute_region(self)


TILE_BCAST_OPS = [TileBcastOp]
