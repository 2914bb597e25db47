"""The CHLO dialect (openxla/stablehlo's client ops) as far as JAX emits it: math functions StableHLO lacks
(erf, erfc, asin, ...) and top_k; they read and print as the StableHLO project writes them."""

from __future__ import annotations

from xdsl.ir import Dialect

from ttmlir.dialects.stablehlo import _op_class

UNARY = ("acos acosh asin asinh atan atanh conj cosh digamma erf erf_inv erfc is_inf is_neg_inf is_pos_inf lgamma "
         "sinh square tan").split()
BINARY = "next_after polygamma zeta".split()

OPS = {**{n: _op_class(n, "arrow", "", "", "chlo") for n in (*UNARY, *BINARY)},
       "top_k": _op_class("top_k", "top_k", "", "k", "chlo")}
globals().update({cls.__name__: cls for cls in OPS.values()})

CHLO = Dialect("chlo", list(OPS.values()), [])
