"""TTIR's elementwise ops that D2M has no tile op for, each as one elementwise program of a few tile ops that it has:
mish as x * tanh(log1p(e^x)) (softplus; past e^88 the tanh is 1 and the product x), isfinite as whether x - x is
zero (inf - inf and NaN - NaN are NaN), remainder as a - b * floor(a / b) (the divisor's sign, as torch's). An
operand used twice is read twice, as fusion reads one (each use a tile of its own in DST: an SFPU op works in place).
relu6 is `d2m.tile_clamp_scalar` between 0 and 6 (the pass's ops with scalar attributes)."""

from __future__ import annotations

from ttmlir.conversion.ttir_to_d2m.tiles import tile_chain

# name -> (the TTIR operand each use reads, the chain over the uses' tiles)
COMPOSITE_CHAINS = {
    "mish": ((0, 0), lambda made, x, x_: made("tile_mul", x, made("tile_tanh", made("tile_log1p",
                                                                                    made("tile_exp", x_))))),
    "isfinite": ((0, 0), lambda made, x, x_: made("tile_eqz", made("tile_sub", x, x_))),
    "remainder": ((0, 1, 0, 1), lambda made, a, b, a_, b_: made("tile_sub", a, made("tile_mul", b, made(
        "tile_floor", made("tile_div", a_, b_))))),
}
# name -> (compute, tile operands), as the pass's elementwise ops
COMPOSITES = {name: (tile_chain(lambda made, leaves, chain=chain: chain(made, *leaves)), max(uses) + 1)
              for name, (uses, chain) in COMPOSITE_CHAINS.items()}
COMPOSITE_USES = {name: uses for name, (uses, _) in COMPOSITE_CHAINS.items()}
# ops that are a tile op with scalar attributes of fixed values: name -> (tile op, its attributes)
FIXED_SCALARS = {"relu6": ("tile_clamp_scalar", {"min": 0.0, "max": 6.0})}
