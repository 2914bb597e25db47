"""The host's StableHLO: functions of `ttcore.cpu_module` that the CPU fallback hoisted (`CpuOp` in a binary), run
op by op with torch, as upstream runs them compiled for the host.

An interpreter of the StableHLO spec: `OPS` holds one implementation per op (the compiler hoists exactly these,
`HOST_OPS` of `ttmlir.transforms.stablehlo.cpu_hoist_non_lowerable_shlo_ops`); ops with regions (`while`, `if`,
`case`, and the reductions, windows, scatters and sorts of any body) run their regions here too.

Values are torch tensors. Integers of every width and sign are held in int64 and wrapped to their type after each
op (`ui64` as its bit pattern), booleans as torch.bool, floats in their own dtype (16-bit ones computed in f32 and
rounded, as XLA's CPU backend computes them). A region whose ops are all elementwise runs once on whole tensors
(a reduction folds slices through it); any other body runs element by element.

This module parses and runs a function; the ops without regions are in `host_stablehlo_ops`, those with regions
(and the whole table) in `host_stablehlo_regions`.
"""

from __future__ import annotations

from functools import lru_cache

import torch
from xdsl.dialects.func import FuncOp

from ttmlir.runtime import RuntimeFailure
from ttmlir.runtime.host_stablehlo_ops import SIGNED_BITS, Elem, coerce, elem_of
from ttmlir.runtime.host_stablehlo_regions import OPS, run_block  # noqa: F401 - OPS: what the host runs


@lru_cache(maxsize=64)
def _parse(text: str) -> FuncOp:
    from xdsl.utils.exceptions import ParseError

    from ttmlir.asm import parse_text
    from ttmlir.dialects import make_context
    try:
        module, _ = parse_text(make_context(), text, "<cpu function>")
    except ParseError as exc:
        raise RuntimeFailure(f"a CPU function of the binary does not parse: {str(exc).splitlines()[0]}") from None
    func = next((op for op in module.walk() if isinstance(op, FuncOp)), None)
    if func is None:
        raise RuntimeFailure("a CPU op of the binary holds no function")
    return func


def _storage(x: torch.Tensor, e: Elem) -> torch.Tensor:
    """A result in the torch dtype closest to its type (integers that torch has keep their width)."""
    if e.kind == "int":
        return x.to(SIGNED_BITS[e.width])
    if e.kind == "uint" and e.width == 8:
        return x.to(torch.uint8)
    if e.kind == "uint" and e.width == 16:
        return x.to(torch.int32)
    return x


def run_function(text: str, args: list[torch.Tensor]) -> list[torch.Tensor]:
    """The results of the function `text` defines, on `args`."""
    func = _parse(text)
    block = func.body.block
    # the device holds a scalar as one element: each argument takes its declared shape
    values = [coerce(a.reshape(arg.type.get_shape()), elem_of(arg.type)) for a, arg in zip(args, block.args)]
    try:
        results = run_block(block, dict(zip(block.args, values)))
    except RuntimeFailure as failure:
        raise RuntimeFailure(f"@{func.sym_name.data}: {failure}") from None
    return [_storage(r, elem_of(t)) for r, t in zip(results, func.function_type.outputs.data)]
