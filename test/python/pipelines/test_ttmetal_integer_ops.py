"""Integer tiles' bitwise ops and shifts on the kernel path (SFPU calls told the tiles' format), and comparisons
(a difference compared with zero) and sums of CB tiles (copied into DST), through the main pipeline and upstream's
staged one, against numpy on the int32 values, over the whole int32 range (the simulated DST holds integer tiles
exactly, as the register's 32-bit mode does); a comparison's operands keep their difference in range (it is
computed)."""

import numpy as np
import pytest
import torch

from ttmlir.asm import parse_text
from ttmlir.dialects import make_context
from ttmlir.passes import make_pass
from ttmlir.runtime.metal.program import run_program
from ttmlir.target.ttmetal import translate

from test_ttmetal_stage_pipelines import staged

SHAPE = (40, 96)  # rows not a tile multiple
# TTIR op -> numpy of the int32 operands (a logical right shift moves zeros into the sign bit)
OPS = {"bitwise_and": np.bitwise_and, "bitwise_or": np.bitwise_or, "bitwise_xor": np.bitwise_xor,
       "logical_left_shift": lambda a, b: (a.view(np.uint32) << b.view(np.uint32)).view(np.int32),
       "logical_right_shift": lambda a, b: (a.view(np.uint32) >> b.view(np.uint32)).view(np.int32),
       "right_shift": np.right_shift, "add": np.add, "subtract": np.subtract,
       **{c: (lambda f: lambda a, b: f(a, b).astype(np.int32))(getattr(np, n)) for c, n in (
           ("eq", "equal"), ("ne", "not_equal"), ("gt", "greater"), ("ge", "greater_equal"), ("lt", "less"),
           ("le", "less_equal"))}}


def module_text(name: str) -> str:
    t = f"tensor<{SHAPE[0]}x{SHAPE[1]}xsi32>"
    return (f"func.func @f(%a: {t}, %b: {t}) -> {t} {{\n  %0 = \"ttir.{name}\"(%a, %b) : ({t}, {t}) -> {t}\n"
            f"  return %0 : {t}\n}}\n")


def main_pipeline(text: str):
    ctx = make_context()
    module, _ = parse_text(ctx, text)
    make_pass("ttir-to-ttmetal-pipeline", "").apply(ctx, module)
    return module


def operands(name: str) -> tuple[torch.Tensor, torch.Tensor]:
    g = torch.Generator().manual_seed(7)
    bound = 2 ** 30 if name in ("eq", "ne", "gt", "ge", "lt", "le") else 2 ** 31

    def draw(low: int, high: int) -> torch.Tensor:
        return torch.randint(low, high, SHAPE, generator=g, dtype=torch.int64).to(torch.int32)

    a = draw(-bound, bound)
    if name.endswith("shift"):
        return a, draw(0, 32)
    b = draw(-bound, bound)
    if name in ("eq", "ne", "ge", "le"):  # equal pairs too
        b = torch.where(torch.rand(SHAPE, generator=g) < 0.3, a, b)
    return a, b


@pytest.mark.parametrize("compile_", [main_pipeline, staged], ids=["main", "staged"])
@pytest.mark.parametrize("name", OPS)
def test_integer_op_is_exact(name, compile_):
    a, b = operands(name)
    (out,), _ = run_program(translate(compile_(module_text(name))), [a, b])
    expected = OPS[name](a.numpy(), b.numpy())
    assert np.array_equal(out.to(torch.int32).numpy(), expected)


# TTIR reduction -> numpy's, over int64 (the operands keep a sum in range)
REDUCTIONS = {"sum": np.sum, "max": np.max, "min": np.min}


@pytest.mark.parametrize("compile_", [main_pipeline, staged], ids=["main", "staged"])
@pytest.mark.parametrize("dim", [(-1,), (-2,), (-2, -1)], ids=["rows", "columns", "both"])
@pytest.mark.parametrize("name", REDUCTIONS)
def test_integer_reduction_is_exact(name, dim, compile_):
    """A sum, max or min of si32 over rows, columns or both (the rows not a tile multiple: the padding masked); a
    min is ~max(~x), exact at INT_MIN and INT_MAX."""
    result = [1 if d - len(SHAPE) in dim else n for d, n in enumerate(SHAPE)]
    t, r = (f"tensor<{'x'.join(map(str, s))}xsi32>" for s in (SHAPE, result))
    dims = ", ".join(f"{d} : i32" for d in dim)
    text = (f"func.func @f(%a: {t}) -> {r} {{\n  %0 = \"ttir.{name}\"(%a) <{{dim_arg = [{dims}], keep_dim = true}}> : "
            f"({t}) -> {r}\n  return %0 : {r}\n}}\n")
    bound = 2 ** 24 if name == "sum" else 2 ** 31
    a = torch.randint(-bound, bound, SHAPE, generator=torch.Generator().manual_seed(11), dtype=torch.int64)
    a[0, 0], a[-1, -1] = -bound, bound - 1  # the extremes
    a = a.to(torch.int32)
    (out,), _ = run_program(translate(compile_(text)), [a])
    expected = REDUCTIONS[name](a.numpy().astype(np.int64), axis=dim, keepdims=True)
    assert np.array_equal(out.to(torch.int64).numpy(), expected)
