"""The tile-format changes of a block inside a generic (what `--d2m-lower-to-layout` writes for a tilize or an
untilize): `%r = "d2m.tile_tilize_block"(%rows, %tiles) : (T, U) -> U` makes the tiles of a row-major block,
`d2m.tile_untilize_block` the rows of a tiled one; on memrefs they write their output and have no result."""

from __future__ import annotations

from xdsl.dialects.builtin import MemRefType, TensorType
from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def, opt_result_def


class _FormatOp(IRDLOperation):
    input = operand_def(MemRefType | TensorType)
    output = operand_def(MemRefType | TensorType)
    result = opt_result_def(MemRefType | TensorType)


@irdl_op_definition
class TileTilizeBlockOp(_FormatOp):
    name = "d2m.tile_tilize_block"


@irdl_op_definition
class TileUntilizeBlockOp(_FormatOp):
    name = "d2m.tile_untilize_block"


FORMAT_OPS = [TileTilizeBlockOp, TileUntilizeBlockOp]
