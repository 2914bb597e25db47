"""More of upstream's D2M tile ops, in generic form: the comparisons with zero (`"d2m.tile_eqz"(%t)`, nez, gtz,
gez, ltz, lez: 1 where the element compares true, else 0), `"d2m.tile_where"(%cond, %a, %b)` (a where cond is
non-zero, else b) and `"d2m.tile_bcast"(%t) <{bcast_type = #d2m<tile_bcast_type col>}>`, which fills a tile from its
first column (`col`), first row (`row`) or first element (`scalar`). The DST passes place them; the TTKernel
conversion does not lower them yet."""

from __future__ import annotations

import types
from typing import ClassVar

from xdsl.ir import Data
from xdsl.irdl import IRDLOperation, irdl_attr_definition, irdl_op_definition, prop_def, result_def, var_operand_def
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from ttmlir.dialects import ttcore
from ttmlir.dialects.d2m_cb import verify_compute_region


@irdl_attr_definition
class TileBcastTypeAttr(Data[str]):
    """The shape a broadcast tile's data has: `#d2m<tile_bcast_type col>` (also none, row, scalar)."""

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


class _TileOp(IRDLOperation):
    """A tile op of `ARITY` tile operands and one tile result."""

    ARITY: ClassVar[int] = 1
    operands_ = var_operand_def(ttcore.TileType)
    result = result_def(ttcore.TileType)

    def verify_(self) -> None:
        verify_compute_region(self)
        if len(self.operands) != self.ARITY:
            raise VerifyException(f"'{self.name}' op expected {self.ARITY} operands, but found {len(self.operands)}")


@irdl_op_definition
class TileBcastOp(_TileOp):
    name = "d2m.tile_bcast"
    bcast_type = prop_def(TileBcastTypeAttr)


def _op(mnemonic: str, arity: int) -> type[_TileOp]:
    camel = "".join(p.capitalize() for p in mnemonic.split("_")) + "Op"
    body = {"name": f"d2m.{mnemonic}", "ARITY": arity, "__doc__": f"upstream's `d2m.{mnemonic}`.",
            "__annotations__": {"ARITY": ClassVar[int]}}
    return irdl_op_definition(types.new_class(camel, (_TileOp,), exec_body=lambda ns: ns.update(body)))


EXTRA_TILE_OPS = [*(_op(f"tile_{c}z", 1) for c in ("eq", "ne", "gt", "ge", "lt", "le")), _op("tile_where", 3),
                  TileBcastOp]
