"""Vision-model ops on the TTMetal path (batch norm at inference, pads of a value, matmuls broadcasting their batch
dims, convolutions of many patch rows), run on the simulated grid against goldens computed here from each op's
definition (torch's convolution for conv2d)."""

import pytest
import torch
import torch.nn.functional as F

from ttmlir.conversion.ttir_to_d2m.conv2d import MATMUL_ROWS

from ttmlir.runtime.metal.program import run_program

from test_ttmetal_cache_updates import t
from test_ttmetal_conv2d import bf16, pcc
from test_ttmetal_pipeline import compile_ttir


@pytest.mark.parametrize("shape, dim, stats", [((2, 16, 6, 10), 1, 1), ((1, 5, 7, 48), 3, 1), ((2, 32, 4, 4), 1, 4)])
def test_batch_norm_inference_matches_its_definition(shape, dim, stats):
    channels = shape[dim]
    stat_shape = (channels,) if stats == 1 else tuple(channels if d == dim else 1 for d in range(4))
    x, scale, offset, mean = (bf16(*s, seed=i) for i, s in enumerate([shape] + [stat_shape] * 3))
    variance = bf16(*stat_shape, seed=9).abs() + 0.25
    text = (f"func.func @f(%x: {t(shape)}, %s: {t(stat_shape)}, %o: {t(stat_shape)}, %m: {t(stat_shape)}, "
            f"%v: {t(stat_shape)}) -> {t(shape)} {{\n"
            f"  %0 = \"ttir.batch_norm_inference\"(%x, %s, %o, %m, %v) <{{dimension = {dim} : i32, "
            f"epsilon = 1.0e-05 : f32}}> : ({t(shape)}, {', '.join([t(stat_shape)] * 4)}) -> {t(shape)}\n"
            f"  return %0 : {t(shape)}\n}}\n")
    (out,), _ = run_program(compile_ttir(text), [x, scale, offset, mean, variance])
    view = [channels if d == dim else 1 for d in range(4)]
    s, o, m, v = (a.reshape(view) for a in (scale, offset, mean, variance))
    expected = (x - m) / torch.sqrt(v + 1e-5) * s + o
    assert out.shape == shape and pcc(out, expected) > 0.999
    assert torch.allclose(out, expected, rtol=5e-2, atol=5e-2)


@pytest.mark.parametrize("a, b", [((2, 3, 40, 64), (3, 64, 48)), ((1, 40, 64), (4, 64, 48)), ((40, 64), (2, 64, 48)),
                                  ((3, 1, 40, 64), (1, 2, 64, 48))])
def test_batched_matmul_broadcasts_its_batch_dims(a, b):
    x, y = bf16(*a, seed=1), bf16(*b, seed=2)
    expected = torch.matmul(x, y)
    shape = tuple(expected.shape)
    text = (f"func.func @f(%a: {t(a)}, %b: {t(b)}) -> {t(shape)} {{\n"
            f"  %0 = \"ttir.matmul\"(%a, %b) : ({t(a)}, {t(b)}) -> {t(shape)}\n"
            f"  return %0 : {t(shape)}\n}}\n")
    (out,), _ = run_program(compile_ttir(text), [x, y])
    assert out.shape == shape and pcc(out, expected) > 0.999


@pytest.mark.parametrize("value", ["0xFF800000", "2.500000e+00"])
def test_pad_of_a_value_fills_the_border_with_it(value):
    shape, result = (2, 3, 5, 6), (2, 3, 8, 7)
    x = bf16(*shape, seed=3)
    text = (f"func.func @f(%x: {t(shape)}) -> {t(result)} {{\n"
            f"  %0 = \"ttir.pad\"(%x) <{{padding = array<i32: 0, 0, 0, 0, 1, 2, 0, 1>, value = {value} : f32}}> : "
            f"({t(shape)}) -> {t(result)}\n"
            f"  return %0 : {t(result)}\n}}\n")
    (out,), _ = run_program(compile_ttir(text), [x])
    fill = float("-inf") if value.startswith("0x") else float(value)
    expected = torch.full(result, fill)
    expected[:, :, 1:6, 0:6] = x
    assert torch.equal(out, expected)


def test_conv2d_of_more_patch_rows_than_one_matmul_takes_is_computed_in_row_blocks():
    """16800 patch rows: two blocks (MATMUL_ROWS, then the rest), their products concatenated."""
    shape, weight, bias, result = (1, 140, 120, 16), (32, 16, 1, 1), (1, 1, 1, 32), (1, 140, 120, 32)
    assert shape[1] * shape[2] > MATMUL_ROWS
    x, w, b = bf16(*shape, seed=4), bf16(*weight, seed=5), bf16(*bias, seed=6)
    props = ("dilation = array<i32: 1, 1>, groups = 1 : i32, padding = array<i32: 0, 0, 0, 0>, "
             "stride = array<i32: 1, 1>")
    text = (f"func.func @f(%x: {t(shape)}, %w: {t(weight)}, %b: {t(bias)}) -> {t(result)} {{\n"
            f"  %0 = \"ttir.conv2d\"(%x, %w, %b) <{{{props}}}> : ({t(shape)}, {t(weight)}, {t(bias)}) -> {t(result)}\n"
            f"  return %0 : {t(result)}\n}}\n")
    (out,), _ = run_program(compile_ttir(text), [x, w, b])
    expected = F.conv2d(x.permute(0, 3, 1, 2), w, b.flatten()).permute(0, 2, 3, 1)
    assert out.shape == result and pcc(out, expected) > 0.999
