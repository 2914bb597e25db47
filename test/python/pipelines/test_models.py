"""End-to-end models (test/lit/Models): compiled to .ttnn, run on the simulated n150, compared with torch."""

from pathlib import Path

import pytest
import torch
import torch.nn.functional as F

from ttmlir.compiler import compile_ttir
from ttmlir.runtime.device import MeshDevice
from ttmlir.runtime.executor import Binary, run_program
from ttmlir.runtime.golden import pcc

MODELS = Path(__file__).resolve().parents[2] / "lit" / "Models"


def run(name: str, inputs: list[torch.Tensor], dtype: str) -> list[torch.Tensor]:
    text = (MODELS / f"{name}.mlir").read_text().replace("xf32>", f"x{dtype}>")
    binary = Binary(data=compile_ttir(text))
    return [t.data.float() for t in run_program(binary, 0, inputs, MeshDevice())[0]]


def as_dtype(values: list[torch.Tensor], dtype: str) -> list[torch.Tensor]:
    """The inputs as the device stores them, so torch starts from the same values."""
    return [v.to(torch.bfloat16).float() if dtype == "bf16" and v.is_floating_point() else v for v in values]


def resnet_block(x, w1, s1, o1, m1, v1, w2, s2, o2, m2, v2):
    def bn(t, s, o, m, v):
        return (t - m) / torch.sqrt(v + 1e-5) * s + o
    nchw = x.permute(0, 3, 1, 2)
    h = F.conv2d(nchw, w1, padding=1).permute(0, 2, 3, 1)
    h = torch.relu(bn(h, s1, o1, m1, v1))
    h = F.conv2d(h.permute(0, 3, 1, 2), w2, padding=1).permute(0, 2, 3, 1)
    h = torch.relu(bn(h, s2, o2, m2, v2) + x)
    return F.max_pool2d(h.permute(0, 3, 1, 2), 2).permute(0, 2, 3, 1)


def transformer_block(x, g1, be1, wq, bq, wk, bk, wv, bv, wo, bo, scale, g2, be2, w1, b1, w2, b2):
    h = F.layer_norm(x, [64], g1, be1)
    heads = lambda t: t.reshape(1, 32, 4, 16).permute(0, 2, 1, 3)  # noqa: E731
    q, k, v = heads(h @ wq + bq), heads(h @ wk + bk), heads(h @ wv + bv)
    probs = torch.softmax(q @ k.transpose(-1, -2) * scale, -1)
    attn = (probs @ v).permute(0, 2, 1, 3).reshape(1, 32, 64) @ wo + bo
    x = x + attn
    return x + F.gelu(F.layer_norm(x, [64], g2, be2) @ w1 + b1) @ w2 + b2


def llama_decoder_step(x, norm_w, wq, wk, wv, cos, sin, k_cache, v_cache, pos, mask, scale):
    h = x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-5) * norm_w
    rope = lambda t: t * cos + torch.cat([-t[..., 32:], t[..., :32]], -1) * sin  # noqa: E731
    q, k, v = rope(h @ wq), rope(h @ wk), h @ wv
    kc, vc = k_cache.clone(), v_cache.clone()
    kc[:, :, int(pos[0])] = k.reshape(1, 1, 64)
    vc[:, :, int(pos[0])] = v.reshape(1, 1, 64)
    scores = q.reshape(1, 1, 1, 64) @ kc.transpose(-1, -2) * scale
    probs = torch.softmax(torch.where(mask != 0, scores, torch.full_like(scores, -1e9)), -1)
    return [(probs @ vc).to(torch.bfloat16).float(), kc, vc]


def resnet_inputs():
    c = 32
    return [torch.randn(1, 16, 16, c), torch.randn(c, c, 3, 3) * 0.1, torch.rand(c) + 0.5, torch.randn(c) * 0.1,
            torch.randn(c) * 0.1, torch.rand(c) + 0.5, torch.randn(c, c, 3, 3) * 0.1, torch.rand(c) + 0.5,
            torch.randn(c) * 0.1, torch.randn(c) * 0.1, torch.rand(c) + 0.5]


def transformer_inputs():
    w = lambda *s: torch.randn(*s) * 0.1  # noqa: E731
    return [torch.randn(1, 32, 64), 1 + w(64), w(64), w(64, 64), w(64), w(64, 64), w(64), w(64, 64), w(64),
            w(64, 64), w(64), torch.full((1, 1, 1, 1), 0.25), 1 + w(64), w(64), w(64, 128), w(128), w(128, 64), w(64)]


def llama_inputs():
    w = lambda *s: torch.randn(*s) * 0.1  # noqa: E731
    angles = torch.arange(64) / 64.0 * 3
    mask = torch.tensor([1.0, 1, 1, 1, 0, 0, 0, 0]).reshape(1, 1, 1, 8)
    return [torch.randn(1, 1, 64), 1 + w(64), w(64, 64), w(64, 64), w(64, 64), torch.cos(angles).reshape(1, 1, 64),
            torch.sin(angles).reshape(1, 1, 64), torch.randn(1, 1, 8, 64), torch.randn(1, 1, 8, 64),
            torch.tensor([3], dtype=torch.int32), mask, torch.full((1, 1, 1, 1), 0.125)]


CASES = {"resnet_block": (resnet_inputs, resnet_block), "transformer_block": (transformer_inputs, transformer_block),
         "llama_decoder_step": (llama_inputs, llama_decoder_step)}


@pytest.mark.parametrize("dtype", ["f32", "bf16"])
@pytest.mark.parametrize("name", CASES)
def test_model_matches_torch(name, dtype):
    torch.manual_seed(0)
    make_inputs, reference = CASES[name]
    inputs = as_dtype(make_inputs(), dtype)
    expected = reference(*inputs)
    expected = expected if isinstance(expected, list) else [expected]
    outputs = run(name, inputs, dtype)
    assert len(outputs) == len(expected)
    for got, want in zip(outputs, expected):
        assert got.shape == want.shape
        assert pcc(want, got) >= 0.99, f"{name} ({dtype}): PCC {pcc(want, got):.4f}"
