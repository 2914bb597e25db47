"""D2M's block tilize and untilize (upstream's generic form): a compute thread converts a whole CB block between
row-major scalars and tiles, `%r = "d2m.tile_tilize_block"(%in, %out) : (memref<128x192xf32, #l1>,
memref<4x6x!ttcore.tile<32x32, f32>, #l1>) -> memref<4x6x!ttcore.tile<32x32, f32>, #l1>`."""

from __future__ import annotations

from typing import ClassVar

from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def, result_def
from xdsl.utils.exceptions import VerifyException

from ttmlir.dialects.ttcore_attrs import TileType


class _LayoutBlockOp(IRDLOperation):
    """`output = convert(input)`, blocks of the same elements: the tiled side has tiles, the other scalars."""

    TILED_INPUT: ClassVar[bool] = False
    input = operand_def()
    output = operand_def()
    result = result_def()

    def verify_(self) -> None:
        tiled, scalar = (self.input, self.output) if self.TILED_INPUT else (self.output, self.input)
        if not isinstance(getattr(tiled.type, "element_type", None), TileType) or \
                isinstance(getattr(scalar.type, "element_type", None), TileType):
            side = "input" if self.TILED_INPUT else "output"
            raise VerifyException(f"'{self.name}' op expects tiles as its {side} and scalars on the other side")
        if self.result.type != self.output.type:
            raise VerifyException(f"'{self.name}' op result type must match its output's")


@irdl_op_definition
class TileTilizeBlockOp(_LayoutBlockOp):
    """A block of row-major scalars tilized into a block of tiles."""

    name = "d2m.tile_tilize_block"


@irdl_op_definition
class TileUntilizeBlockOp(_LayoutBlockOp):
    """A block of tiles untilized into row-major scalars."""

    name = "d2m.tile_untilize_block"
    TILED_INPUT: ClassVar[bool] = True


TILIZE_OPS = (TileTilizeBlockOp, TileUntilizeBlockOp)
