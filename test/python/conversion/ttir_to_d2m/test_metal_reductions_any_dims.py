"""Reductions over any dims of tensors of several ranks, with and without keep_dim, on the kernel path
(`--ttir-to-ttmetal-pipeline`) run on the simulator against torch."""

import pytest
import torch

from ttmlir.compiler import lower_to_ttmetal
from ttmlir.runtime.metal.program import run_program
from ttmlir.target.ttmetal import translate

TORCH = {"bf16": torch.bfloat16, "f32": torch.float32}
GOLDEN = {"sum": torch.sum, "mean": torch.mean, "max": torch.amax, "min": torch.amin}


@pytest.mark.parametrize("op, shape, dims, keep, dtype", [
    ("sum", (2, 32, 64), [1, 2], True, "f32"),  # two dims: each matrix one row
    ("mean", (3, 40, 64), [0], False, "f32"),  # the leading dim
    ("min", (4, 40, 96), [1], True, "f32"),  # a batch of matrices' columns
    ("max", (2, 3, 20, 8), [0, 2], False, "bf16"),  # dims apart: permuted together
    ("sum", (70,), [0], False, "f32"),  # a vector to a scalar
])
def test_reduction_over_any_dims(op, shape, dims, keep, dtype):
    g = torch.Generator().manual_seed(sum(shape) + len(op))
    x = torch.randn(shape, generator=g).to(TORCH[dtype])
    expected = GOLDEN[op](x.float(), dim=dims, keepdim=keep)
    source = f"tensor<{'x'.join(map(str, shape))}x{dtype}>"
    target = f"tensor<{'x'.join(map(str, expected.shape))}x{dtype}>" if expected.dim() else f"tensor<{dtype}>"
    dim_arg = ", ".join(f"{d} : i32" for d in dims)
    text = f"""
func.func @reduce(%a: {source}) -> {target} {{
  %0 = "ttir.{op}"(%a) <{{dim_arg = [{dim_arg}], keep_dim = {str(keep).lower()}}}> : ({source}) -> {target}
  return %0 : {target}
}}
"""
    outputs, _ = run_program(translate(lower_to_ttmetal(text, "<test>")), [x])
    tolerance = 0.02 if dtype == "bf16" else 1e-3
    assert torch.allclose(outputs[0].float().reshape(expected.shape), expected,
                          atol=tolerance * (1 + expected.abs().max().item()), rtol=tolerance)
