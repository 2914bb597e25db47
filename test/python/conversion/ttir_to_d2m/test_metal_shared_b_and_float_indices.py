"""Two lowerings a model's index arithmetic needs on the kernel path (`--ttir-to-ttmetal-pipeline`), run on the
simulator against torch: a batched matmul by one B for the whole batch (a matrix, or a batch of ones; B given
transposed or not), and an embedding whose indices are floats (cast to si32 on the device first)."""

import pytest
import torch

from ttmlir.compiler import lower_to_ttmetal
from ttmlir.runtime.metal.program import run_program
from ttmlir.target.ttmetal import translate

TORCH = {"bf16": torch.bfloat16, "f32": torch.float32}


def _tensor(shape, dtype) -> str:
    return f"tensor<{'x'.join(map(str, shape))}x{dtype}>"


@pytest.mark.parametrize("a, b, transpose_b, dtype", [
    ((32, 18, 2), (2, 1), False, "f32"),  # the models' flat-index weights: one tile row per matrix of A
    ((3, 40, 64), (1, 64, 96), False, "f32"),
    ((2, 3, 40, 64), (96, 64), True, "bf16"),
])
def test_a_batch_times_one_b(a, b, transpose_b, dtype):
    g = torch.Generator().manual_seed(sum(a) + sum(b))
    x, y = torch.randn(a, generator=g).to(TORCH[dtype]), torch.randn(b, generator=g).to(TORCH[dtype])
    expected = x.float() @ (y.float().transpose(-1, -2) if transpose_b else y.float())
    ta, tb, tc = _tensor(a, dtype), _tensor(b, dtype), _tensor(expected.shape, dtype)
    text = f"""
func.func @mm(%a: {ta}, %b: {tb}) -> {tc} {{
  %0 = "ttir.matmul"(%a, %b) <{{transpose_b = {str(transpose_b).lower()}}}> : ({ta}, {tb}) -> {tc}
  return %0 : {tc}
}}
"""
    outputs, _ = run_program(translate(lower_to_ttmetal(text, "<test>")), [x, y])
    tolerance = 0.05 * expected.abs().max().item()
    assert torch.allclose(outputs[0].float(), expected, atol=tolerance, rtol=0.02)


def test_flat_indices_computed_in_f32_pick_their_rows():
    """(row, column) pairs times (width, 1) as flat f32 indices, then the rows they name: the model's pattern."""
    pairs = torch.stack([torch.randint(0, 4, (8, 18)), torch.randint(0, 18, (8, 18))], dim=-1).float()
    table = torch.randn(72, 1).to(torch.bfloat16)
    text = """
func.func @pick(%pairs: tensor<8x18x2xf32>, %table: tensor<72x1xbf16>) -> tensor<1x144x1xbf16> {
  %w = "ttir.constant"() <{value = dense<[[1.800000e+01], [1.000000e+00]]> : tensor<2x1xf32>}> : () -> tensor<2x1xf32>
  %0 = "ttir.matmul"(%pairs, %w) <{transpose_a = false, transpose_b = false}> : (tensor<8x18x2xf32>, tensor<2x1xf32>) -> tensor<8x18x1xf32>
  %1 = "ttir.reshape"(%0) <{shape = [1 : i32, 144 : i32]}> : (tensor<8x18x1xf32>) -> tensor<1x144xf32>
  %2 = "ttir.embedding"(%1, %table) : (tensor<1x144xf32>, tensor<72x1xbf16>) -> tensor<1x144x1xbf16>
  return %2 : tensor<1x144x1xbf16>
}
"""
    flat = (pairs[..., 0] * 18 + pairs[..., 1]).long().reshape(1, 144)
    outputs, _ = run_program(translate(lower_to_ttmetal(text, "<test>")), [pairs, table])
    assert torch.equal(outputs[0].to(torch.bfloat16), table[flat])
