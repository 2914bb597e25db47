"""`ttir.clamp_tensor` as one elementwise D2M program, as upstream writes it: each tile raised to its lower bound's
(`d2m.tile_maximum`), then lowered to its upper bound's (`d2m.tile_minimum`). The bounds are read as any elementwise
operand (broadcast along the rows, columns or both). (`ttir.clamp_scalar` is one `d2m.tile_clamp_scalar`, its bounds
attributes: an elementwise op of the pass's table.)"""

from __future__ import annotations

from ttmlir.conversion.ttir_to_d2m.tiles import tile_chain

# name -> (compute, tile operands), as the pass's elementwise ops
CLAMPS = {"clamp_tensor": (tile_chain(lambda made, leaves: made("tile_minimum", made("tile_maximum", *leaves[:2]),
                                                                 leaves[2])), 3)}
