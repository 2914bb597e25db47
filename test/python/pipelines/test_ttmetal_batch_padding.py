"""Views naming elements past a dim folded into the batch of the collapsed matrices (a pad or concat along a leading
dim after another of more than 1): those elements are padding (zero), not rows of the next matrix. Each through
`--ttir-to-ttmetal-pipeline`, run on the simulated grid against torch."""

import pytest
import torch

from test_ttmetal_data_movement import one_op
from test_ttmetal_pipeline import compile_ttir
from ttmlir.runtime.metal.program import run_program


@pytest.mark.parametrize("source, padding", [
    ((2, 3, 4, 32), (0, 0, 1, 2, 0, 0, 0, 0)),  # face rows gathered
    ((2, 3, 4, 20), (0, 0, 2, 1, 0, 0, 0, 0)),  # elements gathered (rows not whole face rows)
    ((2, 3, 5, 4, 32), (0, 1, 1, 0, 0, 1, 0, 0, 0, 0)),  # two batch dims padded, both ways
])
def test_a_pad_of_a_batch_dim_after_another_leaves_zeros(source, padding):
    result = tuple(n + padding[2 * d] + padding[2 * d + 1] for d, n in enumerate(source))
    attrs = f"padding = array<i32: {', '.join(map(str, padding))}>, value = 0.000000e+00 : f32"
    x = torch.randn(source, generator=torch.Generator().manual_seed(0))
    (out,), _ = run_program(compile_ttir(one_op("pad", attrs, source, result)), [x])
    # torch's pad lists the dims from the last
    pairs = [padding[2 * d:2 * d + 2] for d in reversed(range(len(source)))]
    expected = -torch.nn.functional.pad(torch.exp(x), [p for pair in pairs for p in pair])
    assert torch.allclose(out, expected, rtol=1e-5, atol=1e-5)


def test_a_concat_along_a_batch_dim_after_another_runs_right():
    shapes, out_shape = [(2, 3, 4, 32), (2, 2, 4, 32)], (2, 5, 4, 32)
    types = [f"tensor<{'x'.join(map(str, t))}xf32>" for t in (*shapes, out_shape)]
    source = (f"func.func @f(%a: {types[0]}, %b: {types[1]}) -> {types[2]} {{\n"
              f"  %0 = \"ttir.concat\"(%a, %b) <{{dim = 1 : si32}}> : ({types[0]}, {types[1]}) -> {types[2]}\n"
              f"  return %0 : {types[2]}\n}}\n")
    xs = [torch.randn(t, generator=torch.Generator().manual_seed(i)) for i, t in enumerate(shapes)]
    (out,), _ = run_program(compile_ttir(source), xs)
    assert torch.equal(out, torch.cat(xs, 1))
