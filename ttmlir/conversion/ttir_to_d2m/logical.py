"""`ttir.logical_and`, `ttir.logical_or` and `ttir.logical_xor` as elementwise D2M programs of a few tile ops each,
as upstream writes them: each operand's truth as a `d2m.tile_nez` (1 where it is non-zero, else 0), combined by a
product (and: both true), or the truth of their sum (or: at least one) or of their difference (xor: exactly one).
Their operands are read as any elementwise op's (broadcast along the rows, columns or both); `ttir.logical_not` is
the one tile op `d2m.tile_logical_not` (the pass's TILE_OF)."""

from __future__ import annotations

from ttmlir.conversion.ttir_to_d2m.tiles import tile_chain

# op -> (the tile op combining the operands' truths, whether the combination's own truth is taken)
LOGICAL_TILE_OPS = {"logical_and": ("tile_mul", False), "logical_or": ("tile_add", True),
                    "logical_xor": ("tile_sub", True)}


def _logical(combine: str, truth_of_result: bool):
    """Each pair of tiles' truths combined (and the combination's truth taken)."""

    def chain(made, leaves):
        result = made(combine, *(made("tile_nez", leaf) for leaf in leaves))
        return made("tile_nez", result) if truth_of_result else result

    return tile_chain(chain)


# name -> (compute, tile operands), as the pass's elementwise ops
LOGICAL = {name: (_logical(*row), 2) for name, row in LOGICAL_TILE_OPS.items()}
