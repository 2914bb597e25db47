"""`pybuda.utils`: the tile arithmetic helpers scripts import."""

from pybuda.pybudaglobal import TILE_DIM, align_up_tile, round_up_div

__all__ = ["TILE_DIM", "align_up_tile", "round_up_div"]
