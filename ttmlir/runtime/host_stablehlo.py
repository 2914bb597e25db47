"""The host's StableHLO: functions of `ttcore.cpu_module` that the CPU fallback hoisted (`CpuOp` in a binary), run
op by op with torch, as upstream runs them compiled for the host.

`OPS` holds one implementation per op; the compiler hoists exactly these (`HOST_OPS` of
`ttmlir.transforms.stablehlo.cpu_hoist_non_lowerable_shlo_ops`).
"""

from __future__ import annotations

from functools import lru_cache

import torch
from xdsl.dialects.func import FuncOp, ReturnOp

from ttmlir.runtime import RuntimeFailure


def dynamic_update_slice(op, operand, update, *starts):
    out = operand.clone()
    # start indices clamped so the update stays inside the operand, as StableHLO clamps them
    at = [min(max(int(s), 0), n - w) for s, n, w in zip(starts, operand.shape, update.shape)]
    out[tuple(slice(s, s + w) for s, w in zip(at, update.shape))] = update.to(out.dtype)
    return out


def einsum(op, lhs, rhs):
    return torch.einsum(op.attr("einsum_config").data, lhs, rhs)


OPS = {"stablehlo.dynamic_update_slice": dynamic_update_slice, "stablehlo.einsum": einsum}


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


def run_function(text: str, args: list[torch.Tensor]) -> list[torch.Tensor]:
    """The results of the function `text` defines, on `args`."""
    func = _parse(text)
    values = dict(zip(func.body.block.args, args))
    for op in func.body.block.ops:
        if isinstance(op, ReturnOp):
            return [values[v] for v in op.operands]
        impl = OPS.get(op.name)
        if impl is None:
            raise RuntimeFailure(f"@{func.sym_name.data}: the host has no implementation of '{op.name}'")
        values[op.results[0]] = impl(op, *(values[v] for v in op.operands))
    raise RuntimeFailure(f"@{func.sym_name.data}: the function does not return")
