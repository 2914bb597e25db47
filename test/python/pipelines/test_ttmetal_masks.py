"""Reductions of tensors an op computed on the device, whose tile padding holds that op's value of the padding
(exp of 0 is 1, -0 is above every negative input): the pipeline masks the padding with the reduction's identity
on the device before reducing, so the values match torch's."""

import pytest
import torch

from ttmlir.runtime.metal.program import run_program

from test_ttmetal_pipeline import TORCH, compile_ttir

REDUCE = {"sum": torch.sum, "mean": torch.mean, "max": torch.amax}


def program(unary: str, reduction: str, shape: tuple[int, ...], dim: int, dtype: str) -> str:
    out_shape = list(shape)
    out_shape[dim] = 1
    ti, to = (f"tensor<{'x'.join(map(str, s))}x{dtype}>" for s in (shape, out_shape))
    return (f"func.func @r(%a: {ti}) -> {to} {{\n"
            f"  %0 = \"ttir.{unary}\"(%a) : ({ti}) -> {ti}\n"
            f"  %1 = \"ttir.{reduction}\"(%0) <{{dim_arg = [{dim} : i32], keep_dim = true}}> : ({ti}) -> {to}\n"
            f"  return %1 : {to}\n}}\n")


@pytest.mark.parametrize("unary, reduction, shape, dim, dtype", [
    ("exp", "sum", (40, 40), 1, "f32"), ("exp", "sum", (40, 50), 0, "f32"), ("neg", "max", (1, 40), 1, "f32"),
    ("neg", "max", (40, 33), 0, "f32"), ("exp", "mean", (2, 40, 50), 2, "f32"), ("neg", "max", (40, 72), 1, "bf16"),
    ("exp", "sum", (70, 96), 0, "bf16")])
def test_a_reduction_of_device_data_reduces_its_logical_elements_only(unary, reduction, shape, dim, dtype):
    x = (torch.rand(shape, generator=torch.Generator().manual_seed(1)) + 0.5).to(TORCH[dtype]).float()
    (out,), _ = run_program(compile_ttir(program(unary, reduction, shape, dim, dtype)), [x])
    expected = REDUCE[reduction]({"exp": torch.exp, "neg": torch.neg}[unary](x), dim, keepdim=True)
    assert out.shape == expected.shape
    tolerance = 2e-2 if dtype == "bf16" else 1e-4
    assert torch.allclose(out, expected.to(TORCH[dtype]).float(), rtol=tolerance, atol=tolerance)


@pytest.mark.parametrize("shape", [(12, 12), (2, 12, 40)])
def test_softmax_of_device_data_masks_its_max_and_its_sum(shape):
    """softmax's max reads the padding as -inf and its sum of exponentials as 0, each masked on the device."""
    t = f"tensor<{'x'.join(map(str, shape))}xf32>"
    dim = len(shape) - 1
    text = (f"func.func @s(%a: {t}, %b: {t}) -> {t} {{\n  %0 = \"ttir.multiply\"(%a, %b) : ({t}, {t}) -> {t}\n"
            f"  %1 = \"ttir.softmax\"(%0) <{{dimension = {dim} : si32}}> : ({t}) -> {t}\n  return %1 : {t}\n}}\n")
    generator = torch.Generator().manual_seed(2)
    a, b = (torch.randn(shape, generator=generator) for _ in range(2))
    (out,), _ = run_program(compile_ttir(text), [a, b])
    assert torch.allclose(out, torch.softmax(a * b, dim), rtol=1e-4, atol=1e-5)


def test_softmax_of_large_logits_in_host_data_is_finite():
    """Attention scores of a few hundred: exp overflows unless the max is subtracted (the decomposition always
    does), and the max over host data reads its zero padding as -inf (set on the device)."""
    t = "tensor<2x12x12xf32>"
    text = (f"func.func @s(%a: {t}) -> {t} {{\n  %0 = \"ttir.softmax\"(%a) <{{dimension = 2 : si32}}> : ({t}) -> {t}\n"
            f"  return %0 : {t}\n}}\n")
    a = torch.randn((2, 12, 12), generator=torch.Generator().manual_seed(4)) * 300 - 400  # all below the padding's 0
    (out,), _ = run_program(compile_ttir(text), [a])
    assert torch.allclose(out, torch.softmax(a, 2), rtol=1e-4, atol=1e-6)
