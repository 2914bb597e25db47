"""The tt dialects on xDSL and the context that loads them."""

from __future__ import annotations

from xdsl.context import Context


def make_context(allow_unregistered: bool = False) -> Context:
    """A context with builtin, func, quant and the ttcore/ttir/ttnn dialects loaded."""
    from xdsl.dialects.builtin import Builtin
    from xdsl.dialects.func import Func

    from ttmlir.dialects.quant import Quant
    from ttmlir.dialects.ttcore import TTCore
    from ttmlir.dialects.ttir import TTIR
    from ttmlir.dialects.ttnn import TTNN

    ctx = Context(allow_unregistered=allow_unregistered)
    for dialect in (Builtin, Func, Quant, TTCore, TTIR, TTNN):
        ctx.load_dialect(dialect)
    return ctx
