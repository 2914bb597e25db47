"""Vision-model ops the TTMetal path writes out in others (batch norm at inference), run on the simulated grid
against goldens computed here from the op's definition."""

import pytest
import torch

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
