"""The tt dialects on xDSL and the context that loads them."""

from __future__ import annotations

from xdsl.context import Context


def _ttir():
    from ttmlir.dialects.ttir import TTIR
    return TTIR


def _ttnn():
    from ttmlir.dialects.ttnn import TTNN
    return TTNN


def _ttmetal():
    from ttmlir.dialects.ttmetal import TTMetal
    return TTMetal


def _memref():
    from xdsl.dialects.memref import MemRef
    return MemRef


def _emitc():
    from ttmlir.dialects.emitc import EmitC
    return EmitC


def _ttkernel():
    from ttmlir.dialects.ttkernel import TTKernel
    return TTKernel


def _arith():
    from xdsl.dialects.arith import Arith
    return Arith


def _scf():
    from xdsl.dialects.scf import Scf
    return Scf


def make_context(allow_unregistered: bool = False) -> Context:
    """A context with builtin, func, quant and ttcore loaded, and ttir, ttnn and ttmetal loaded when first named (each
    builds a class per op: a tool reading only TTIR need not build TTNN's)."""
    from xdsl.dialects.builtin import Builtin
    from xdsl.dialects.func import Func

    from ttmlir.dialects.quant import Quant
    from ttmlir.dialects.ttcore import TTCore

    ctx = Context(allow_unregistered=allow_unregistered)
    for dialect in (Builtin, Func, Quant, TTCore):
        ctx.load_dialect(dialect)
    ctx.register_dialect("ttir", _ttir)
    ctx.register_dialect("ttnn", _ttnn)
    ctx.register_dialect("ttmetal", _ttmetal)
    for name, load in (("memref", _memref), ("emitc", _emitc), ("ttkernel", _ttkernel), ("arith", _arith), ("scf", _scf)):
        ctx.register_dialect(name, load)
    return ctx
