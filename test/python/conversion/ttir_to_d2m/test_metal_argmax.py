"""`ttir.argmax` on the kernel path (`--ttir-to-ttmetal-pipeline`) run on the simulator against torch: over any dim
or dims of tensors of several ranks, with and without keep_dim, in bf16 and f32, with ties (the first maximum's
flat index within the reduced dims, as torch.argmax gives it)."""

import pytest
import torch

from ttmlir.compiler import lower_to_ttmetal
from ttmlir.diagnostics import DiagnosticError
from ttmlir.runtime.metal.program import run_program
from ttmlir.target.ttmetal import translate

TORCH = {"bf16": torch.bfloat16, "f32": torch.float32}


def _text(shape, dims, keep, dtype, result) -> str:
    source = f"tensor<{'x'.join(map(str, shape))}x{dtype}>"
    target = f"tensor<{'x'.join(map(str, result))}xi32>" if result else "tensor<i32>"
    dim_arg = ", ".join(f"{d} : i32" for d in dims)
    return f"""
func.func @argmax(%a: {source}) -> {target} {{
  %0 = "ttir.argmax"(%a) <{{dim_arg = [{dim_arg}], keep_dim = {str(keep).lower()}}}> : ({source}) -> {target}
  return %0 : {target}
}}
"""


def _expected(x: torch.Tensor, dims: list[int], keep: bool) -> torch.Tensor:
    """The flat index within the reduced dims of each first maximum (torch picks the first of ties)."""
    kept = [d for d in range(x.dim()) if d not in dims]
    rows = x.permute(kept + dims).reshape([x.shape[d] for d in kept] + [-1])
    first = rows.argmax(-1)
    return first.reshape([1 if d in dims else x.shape[d] for d in range(x.dim())]) if keep else first


@pytest.mark.parametrize("shape, dims, keep, dtype", [
    ((32, 1, 300), [2], True, "bf16"),  # the models' logits: the last dim of a batch of one-row matrices
    ((4, 40, 96), [2], False, "f32"),  # the last dim, each matrix two tile rows
    ((4, 40, 96), [1], False, "bf16"),  # a matrix's rows: the reduced dim permuted last
    ((3, 5, 7), [0], True, "f32"),  # the leading dim
    ((2, 3, 33, 20), [1, 3], False, "f32"),  # two dims at once: the flat index within them
    ((70,), [0], False, "bf16"),  # a vector, to a scalar
    ((48, 80), [0], True, "bf16"),  # a matrix's columns
])
def test_argmax_is_the_first_maximum_along_the_reduced_dims(shape, dims, keep, dtype):
    g = torch.Generator().manual_seed(sum(shape))
    x = torch.randint(-6, 6, shape, generator=g).to(TORCH[dtype])  # few values: maxima repeat
    expected = _expected(x, dims, keep)
    assert (x == x.amax(dim=dims, keepdim=True)).sum() > expected.numel()  # some maxima are tied
    outputs, _ = run_program(translate(lower_to_ttmetal(_text(shape, dims, keep, dtype, list(expected.shape)),
                                                        "<test>")), [x])
    assert torch.equal(outputs[0].long().reshape(expected.shape), expected.long())


def test_ties_go_to_the_lowest_index():
    """Every row all one value but for a repeated maximum: the first of its positions, not the last."""
    x = torch.zeros(8, 200)
    for row in range(8):
        x[row, [5 * row + 3, 150 - row, 199]] = 1.0
    outputs, _ = run_program(translate(lower_to_ttmetal(_text((8, 200), [1], False, "f32", [8]), "<test>")), [x])
    assert outputs[0].long().tolist() == [5 * row + 3 for row in range(8)]


def test_an_argmax_of_integers_is_refused():
    with pytest.raises(DiagnosticError, match="an argmax of si32 is not converted to D2M yet"):
        lower_to_ttmetal(_text((4, 8), [1], False, "si32", [4]), "<test>")


@pytest.mark.parametrize("options", ["enable-elementwise-fusion=true",
                                     "default-input-memspace=dram default-output-memspace=dram"])
def test_argmax_fused_or_in_dram(options):
    g = torch.Generator().manual_seed(3)
    x = torch.randint(-5, 5, (4, 40, 96), generator=g).to(torch.bfloat16)
    text = _text((4, 40, 96), [2], False, "bf16", [4, 40])
    outputs, _ = run_program(translate(lower_to_ttmetal(text, "<test>", options)), [x])
    assert torch.equal(outputs[0].long(), x.float().argmax(-1))
