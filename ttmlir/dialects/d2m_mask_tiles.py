"""D2M ops a decomposed `d2m.mask` computes with: a mask tile whose first `valid` rows (or columns) are ones and
the rest zeros (`d2m.write_row_mask_tile(%n) to %tile : index, memref<...>`, `d2m.write_col_mask_tile`), and
`d2m.tile_where` choosing per element between two tiles by a condition tile (generic form)."""

from __future__ import annotations

from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def, result_def

from ttmlir.dialects import ttcore


class WriteMaskTileOp(IRDLOperation):
    valid = operand_def()
    output = operand_def()
    assembly_format = "`(` $valid `)` `to` $output attr-dict `:` type($valid) `,` type($output)"


@irdl_op_definition
class WriteRowMaskTileOp(WriteMaskTileOp):
    name = "d2m.write_row_mask_tile"


@irdl_op_definition
class WriteColMaskTileOp(WriteMaskTileOp):
    name = "d2m.write_col_mask_tile"


@irdl_op_definition
class TileWhereOp(IRDLOperation):
    """`%r = "d2m.tile_where"(%cond, %a, %b)`: each element `a`'s where `cond`'s is nonzero, else `b`'s."""

    name = "d2m.tile_where"
    condition = operand_def(ttcore.TileType)
    true_value = operand_def(ttcore.TileType)
    false_value = operand_def(ttcore.TileType)
    result = result_def(ttcore.TileType)


MASK_TILE_OPS = [WriteRowMaskTileOp, WriteColMaskTileOp, TileWhereOp]
