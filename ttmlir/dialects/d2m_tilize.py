"""A block converted between row-major and tiles inside a compute region, in upstream's generic form:
`%t = "d2m.tile_tilize_block"(%rows, %tiles) : (memref<32x32xf32, #l1>, memref<1x1x!ttcore.tile<32x32, f32>, #l1>)
-> memref<1x1x!ttcore.tile<32x32, f32>, #l1>` (and `d2m.tile_untilize_block` back); the second operand is written."""

from __future__ import annotations

from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def, opt_result_def


class _BlockConversionOp(IRDLOperation):
    input = operand_def()
    output = operand_def()
    result = opt_result_def()


@irdl_op_definition
class TileTilizeBlockOp(_BlockConversionOp):
    name = "d2m.tile_tilize_block"


@irdl_op_definition
class TileUntilizeBlockOp(_BlockConversionOp):
    name = "d2m.tile_untilize_block"


TILIZE_OPS = [TileTilizeBlockOp, TileUntilizeBlockOp]
