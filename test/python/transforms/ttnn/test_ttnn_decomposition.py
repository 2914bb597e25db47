"""`--ttnn-decomposition`: SDPA (masked, grouped-query, causal, sliding window), decode SDPA (per-user positions)
and group_norm rebuilt from primitive TTNN ops compute what torch computes, and what the fused kernels compute
on the simulator."""

import math

import torch
import torch.nn.functional as F

from ttmlir.asm import print_module
from ttmlir.compiler import lower
from ttmlir.runtime.device import MeshDevice
from ttmlir.runtime.executor import Binary, run_program
from ttmlir.runtime.golden import pcc
from ttmlir.target.ttnn import translate

Q, KV, MASK = "tensor<1x8x64x32xbf16>", "tensor<1x2x64x32xbf16>", "tensor<1x1x64x64xbf16>"
DQ, DKV, POS = "tensor<1x4x8x32xbf16>", "tensor<4x8x64x32xbf16>", "tensor<4xi32>"
GN, GNP = "tensor<2x1x48x64xbf16>", "tensor<64xbf16>"
MODEL = f"""
func.func @forward(%q: {Q}, %k: {KV}, %v: {KV}, %m: {MASK}, %dq: {DQ}, %dk: {DKV}, %dv: {DKV}, %pos: {POS},
                   %x: {GN}, %w: {GNP}, %b: {GNP}) -> ({Q}, {Q}, {Q}, {DQ}, {GN}) {{
  %0 = "ttir.scaled_dot_product_attention"(%q, %k, %v, %m) <{{operandSegmentSizes = array<i32: 1, 1, 1, 1, 0>,
      is_causal = false, scale = 0.25 : f32}}> : ({Q}, {KV}, {KV}, {MASK}) -> {Q}
  %1 = "ttir.scaled_dot_product_attention"(%q, %k, %v) <{{operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>,
      is_causal = true}}> : ({Q}, {KV}, {KV}) -> {Q}
  %2 = "ttir.scaled_dot_product_attention"(%q, %k, %v) <{{operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>,
      is_causal = true, sliding_window_size = 16 : ui32}}> : ({Q}, {KV}, {KV}) -> {Q}
  %3 = "ttir.scaled_dot_product_attention_decode"(%dq, %dk, %dv, %pos) <{{operandSegmentSizes =
      array<i32: 1, 1, 1, 0, 1, 0>, is_causal = true}}> : ({DQ}, {DKV}, {DKV}, {POS}) -> {DQ}
  %4 = "ttir.group_norm"(%x, %w, %b) <{{num_groups = 8 : i64, epsilon = 1.000000e-05 : f32,
      operandSegmentSizes = array<i32: 1, 0, 1, 1>}}> : ({GN}, {GNP}, {GNP}) -> {GN}
  return %0, %1, %2, %3, %4 : {Q}, {Q}, {Q}, {DQ}, {GN}
}}
"""


def _outputs(module, inputs):
    binary = Binary(data=translate(module))
    index = next(i for i, p in enumerate(binary.programs) if p.name == "forward")
    outputs, _ = run_program(binary, index, inputs, MeshDevice())
    return [o.data.float() for o in outputs]


def _attention(q, k, v, bias, scale):
    k, v = (t.repeat_interleave(q.shape[1] // t.shape[1], 1) for t in (k, v))
    return torch.softmax(q @ k.transpose(-1, -2) * scale + bias, -1) @ v


def test_decompositions_compute_the_same():
    g = torch.Generator().manual_seed(0)
    shapes = ((1, 8, 64, 32), (1, 2, 64, 32), (1, 2, 64, 32), (1, 1, 64, 64), (1, 4, 8, 32), (4, 8, 64, 32),
              (4, 8, 64, 32))
    inputs = [torch.randn(s, generator=g).to(torch.bfloat16) for s in shapes]
    inputs[3] = torch.where(torch.rand(1, 1, 64, 64, generator=g) < 0.2, -1e4, 0.0).to(torch.bfloat16)
    inputs.append(torch.tensor([0, 17, 40, 63], dtype=torch.int32))
    inputs += [(torch.randn(2, 1, 48, 64, generator=g) * 2 + 1).to(torch.bfloat16),
               torch.randn(64, generator=g).to(torch.bfloat16), torch.randn(64, generator=g).to(torch.bfloat16)]
    fused = lower(MODEL, "<test>", "ttir-to-ttnn-backend-pipeline", "enable-ttnn-decomposition-pass=false")
    decomposed = lower(MODEL, "<test>", "ttir-to-ttnn-backend-pipeline")
    text = print_module(decomposed)
    assert not any(f'"ttnn.{name}"' in text for name in ("scaled_dot_product_attention",
                                                         "scaled_dot_product_attention_decode", "group_norm"))
    assert '"ttnn.softmax"' in text and '"ttnn.arange"' in text and '"ttnn.rsqrt"' in text
    before, after = _outputs(fused, inputs), _outputs(decomposed, inputs)
    for a, b in zip(before, after):
        assert pcc(a, b) > 0.99

    q, k, v, m, dq, dk, dv, pos, x, w, b = (t.float() if t.is_floating_point() else t for t in inputs)
    i, j = torch.arange(64)[:, None], torch.arange(64)
    hide = lambda seen: torch.where(seen, 0.0, -math.inf)
    goldens = [_attention(q, k, v, m, 0.25), _attention(q, k, v, hide(j <= i), 32 ** -0.5),
               _attention(q, k, v, hide((j <= i) & (j > i - 16)), 32 ** -0.5)]
    rows = dq.permute(1, 2, 0, 3)  # [users, heads, 1, size]
    bias = hide(j[None, :] <= pos[:, None].long()).reshape(4, 1, 1, 64)
    goldens.append(_attention(rows, dk, dv, bias, 32 ** -0.5).permute(2, 0, 1, 3))
    channels_first = x.reshape(2, 48, 64).permute(0, 2, 1)
    goldens.append(F.group_norm(channels_first, 8, w, b, 1e-5).permute(0, 2, 1).reshape(2, 1, 48, 64))
    for golden, out in zip(goldens, after):
        assert pcc(golden, out) > 0.99
