"""The tt dialects on xDSL and the context that loads them."""

from __future__ import annotations

import importlib

from xdsl.context import Context


# dialects loaded when a module first names them: name -> "module:Dialect"
_LAZY = {"ttir": "ttmlir.dialects.ttir:TTIR", "ttnn": "ttmlir.dialects.ttnn:TTNN",
         "ttmetal": "ttmlir.dialects.ttmetal:TTMetal", "ttkernel": "ttmlir.dialects.ttkernel:TTKernel",
         "d2m": "ttmlir.dialects.d2m:D2M", "emitc": "ttmlir.dialects.emitc:EmitC",
         "emitpy": "ttmlir.dialects.emitpy:EmitPy",
         "memref": "ttmlir.dialects.memref_ext:MemRef",
         "arith": "ttmlir.dialects.arith_ext:Arith", "scf": "xdsl.dialects.scf:Scf", "linalg": "ttmlir.dialects.linalg_ext:Linalg",
         "math": "ttmlir.dialects.linalg_ext:Math", "tosa": "ttmlir.dialects.tosa:TOSA",
         "tensor": "xdsl.dialects.tensor:Tensor", "bufferization": "xdsl.dialects.bufferization:Bufferization",
         "stablehlo": "ttmlir.dialects.stablehlo:StableHLO", "chlo": "ttmlir.dialects.chlo:CHLO",
         "sdy": "ttmlir.dialects.sdy:SDY", "debug": "ttmlir.dialects.debug:Debug",
         "check": "ttmlir.dialects.check:Check", "affine": "ttmlir.dialects.affine_ext:Affine",
         "llvm": "ttmlir.dialects.llvm_ext:LLVM",
         "cf": "xdsl.dialects.cf:Cf"}


def _loader(path: str):
    def load():
        module, name = path.split(":")
        return getattr(importlib.import_module(module), name)
    return load


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
    for name, path in _LAZY.items():
        ctx.register_dialect(name, _loader(path))
    return ctx
