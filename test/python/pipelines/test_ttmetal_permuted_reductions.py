"""Reductions over a dim the tiles do not reduce (one folded into the batch of the collapsed matrices, or a matrix's
rows when there are several): permuted last, reduced there and reshaped to the result. Through
`--ttir-to-ttmetal-pipeline`, run on the simulator against torch."""

import pytest
import torch

from test_ttmetal_pipeline import compile_ttir
from ttmlir.runtime.metal.program import run_program

REDUCE = {"sum": torch.sum, "mean": torch.mean, "max": torch.amax}


def _type(shape) -> str:
    return f"tensor<{'x'.join(map(str, shape))}xf32>"


@pytest.mark.parametrize("reduction, shape, dims, keep", [
    ("mean", (4, 1, 20, 64), (2,), False),  # a matrix's rows, several matrices
    ("sum", (1, 6, 4, 40), (1,), True),  # a dim folded into the batch
    ("max", (3, 20, 40), (0,), False),
    ("sum", (2, 3, 5, 1), (1,), True),  # the last dim of 1 is not the one reduced
    # several dims with the last: the last reduced first (each row to one element) when the folded matrix would pad
    # to more tiles than the input, then the rest (a mean of the rows' means is the mean); a matrix's both dims at once
    ("sum", (128, 96), (0, 1), True),
    ("mean", (2, 40, 96), (1, 2), False),
    ("max", (3, 64, 40), (0, 2), True),
    ("mean", (2, 3, 32, 64), (1, 3), True),
])
def test_a_reduction_over_batch_or_several_dims_runs_right(reduction, shape, dims, keep):
    out = [1 if d in dims else n for d, n in enumerate(shape) if keep or d not in dims]
    ti, to = _type(shape), _type(out)
    # an exp first: the reduction reads a program's result, its tile padding not zero
    source = (f"func.func @r(%a: {ti}) -> {to} {{\n  %0 = \"ttir.exp\"(%a) : ({ti}) -> {ti}\n"
              f"  %1 = \"ttir.{reduction}\"(%0) <{{dim_arg = [{', '.join(f'{d} : i32' for d in dims)}], keep_dim = "
              f"{str(keep).lower()}}}> : ({ti}) -> {to}\n  return %1 : {to}\n}}\n")
    x = torch.randn(shape, generator=torch.Generator().manual_seed(0))
    (result,), _ = run_program(compile_ttir(source), [x])
    expected = REDUCE[reduction](torch.exp(x), dims, keepdim=keep)
    assert torch.allclose(result, expected, rtol=1e-4, atol=1e-4 if len(dims) == 1 else 1e-3)


def test_a_softmax_over_a_batch_dim_runs_right():
    t = _type((1, 16, 4, 40))
    source = (f"func.func @s(%a: {t}) -> {t} {{\n"
              f"  %0 = \"ttir.softmax\"(%a) <{{dimension = 1 : si32}}> : ({t}) -> {t}\n  return %0 : {t}\n}}\n")
    x = torch.randn(1, 16, 4, 40, generator=torch.Generator().manual_seed(0))
    (result,), _ = run_program(compile_ttir(source), [x])
    assert torch.allclose(result, torch.softmax(x, 1), rtol=1e-4, atol=1e-4)
