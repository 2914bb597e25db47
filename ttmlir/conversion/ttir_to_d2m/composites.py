"""TTIR's elementwise ops that D2M has no tile op for, each as one elementwise program of a few tile ops that it has:
mish as x * tanh(log1p(e^x)) (softplus; past e^88 the tanh is 1 and the product x), isfinite as whether x - x is
zero (inf - inf and NaN - NaN are NaN), remainder as a - b * floor(a / b) (the divisor's sign, as torch's), cbrt as
sign(x) * e^(log|x| / 3), asinh as sign(x) * log1p(|x| + |x| / (1/|x| + sqrt(1/x^2 + 1))) (x^2 / (1 + sqrt(x^2 + 1))
without x^2: exact for small x, no overflow for large ones, inf at inf). Each use of an operand is an operand of the
program's own, as fusion writes one (a tile read once per use); a tile op's result is read once (neither kernel
path's DST allocation shares one). relu6 is `d2m.tile_clamp_scalar` between 0 and 6 (the pass's ops with scalar
attributes)."""

from __future__ import annotations

from ttmlir.conversion.ttir_to_d2m.tiles import tile_chain

# name -> (the TTIR operand each use reads, the chain over the uses' tiles)
COMPOSITE_CHAINS = {
    "mish": ((0, 0), lambda made, x, x_: made("tile_mul", x, made("tile_tanh", made("tile_log1p",
                                                                                    made("tile_exp", x_))))),
    "isfinite": ((0, 0), lambda made, x, x_: made("tile_eqz", made("tile_sub", x, x_))),
    "remainder": ((0, 1, 0, 1), lambda made, a, b, a_, b_: made("tile_sub", a, made("tile_mul", b, made(
        "tile_floor", made("tile_div", a_, b_))))),
    "cbrt": ((0, 0), lambda made, x, x_: made("tile_mul", made("tile_sign", x), made("tile_exp", made(
        "tile_mul", made("tile_log", made("tile_abs", x_)), 1.0 / 3.0)))),
    "asinh": ((0, 0, 0, 0, 0), lambda made, x, x1, x2, x3, x4: made("tile_mul", made("tile_sign", x), made(
        "tile_log1p", made("tile_add", made("tile_abs", x1), made("tile_div", made("tile_abs", x2), made(
            "tile_add", made("tile_recip", made("tile_abs", x3)), made("tile_sqrt", made("tile_add", made(
                "tile_square", made("tile_recip", made("tile_abs", x4))), 1.0)))))))),
}
# name -> (compute, tile operands), as the pass's elementwise ops
COMPOSITES = {name: (tile_chain(lambda made, leaves, chain=chain: chain(made, *leaves)), max(uses) + 1)
              for name, (uses, chain) in COMPOSITE_CHAINS.items()}
COMPOSITE_USES = {name: uses for name, (uses, _) in COMPOSITE_CHAINS.items()}
# ops that are a tile op with scalar attributes of fixed values: name -> (tile op, its attributes)
FIXED_SCALARS = {"relu6": ("tile_clamp_scalar", {"min": 0.0, "max": 6.0})}
