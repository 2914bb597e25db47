"""`--ttnn-workaround` rewrites keep the values: group norm and bilinear upsampling on channels padded to tiles,
a linear whose bias has rows split into matmul and add, a rank-1 gather on (1, n) views (a negative index reading
NaN); against torch."""

import torch
import torch.nn.functional as F

from ttmlir.asm import print_module
from ttmlir.compiler import lower
from ttmlir.runtime.device import MeshDevice
from ttmlir.runtime.executor import Binary, run_program
from ttmlir.runtime.golden import pcc
from ttmlir.target.ttnn import translate

X, P = "tensor<1x1x64x16xbf16>", "tensor<16xbf16>"
IMG, UP = "tensor<1x8x8x30xbf16>", "tensor<1x16x16x30xbf16>"
A, W, B, Y = "tensor<2x33x64xbf16>", "tensor<64x48xbf16>", "tensor<2x1x1xbf16>", "tensor<2x33x48xbf16>"
MODEL = f"""
func.func @forward(%x: {X}, %w: {P}, %b: {P}, %img: {IMG}, %a: {A}, %wt: {W}, %bias: {B},
                   %t: tensor<9xbf16>, %i: tensor<4xi32>) -> ({X}, {UP}, {Y}, tensor<4xbf16>) {{
  %0 = "ttir.group_norm"(%x, %w, %b) <{{num_groups = 2 : i64, epsilon = 1.000000e-05 : f32,
      operandSegmentSizes = array<i32: 1, 0, 1, 1>}}> : ({X}, {P}, {P}) -> {X}
  %1 = "ttir.upsample2d"(%img) <{{scale_factor = 2 : si32, mode = "bilinear"}}> : ({IMG}) -> {UP}
  %2 = "ttir.linear"(%a, %wt, %bias) : ({A}, {W}, {B}) -> {Y}
  %3 = "ttir.gather"(%t, %i) <{{dim = 0 : i32}}> : (tensor<9xbf16>, tensor<4xi32>) -> tensor<4xbf16>
  return %0, %1, %2, %3 : {X}, {UP}, {Y}, tensor<4xbf16>
}}
"""


def test_workaround_rewrites_keep_the_values():
    g = torch.Generator().manual_seed(2)
    x, w, b = torch.randn(1, 1, 64, 16, generator=g), torch.randn(16, generator=g), torch.randn(16, generator=g)
    img, a = torch.randn(1, 8, 8, 30, generator=g), torch.randn(2, 33, 64, generator=g)
    wt, bias, t = torch.randn(64, 48, generator=g) * 0.2, torch.randn(2, 1, 1, generator=g), torch.randn(9, generator=g)
    index = torch.tensor([8, -1, 3, 0], dtype=torch.int32)
    inputs = [v.to(torch.bfloat16) for v in (x, w, b, img, a, wt, bias, t)] + [index]
    module = lower(MODEL, "<test>", "ttir-to-ttnn-backend-pipeline", "enable-ttnn-decomposition-pass=false")
    text = print_module(module)
    assert "num_groups = 4" in text and '"ttnn.upsample"' in text
    binary = Binary(data=translate(module))
    outputs, _ = run_program(binary, next(i for i, p in enumerate(binary.programs) if p.name == "forward"), inputs,
                             MeshDevice())
    x, w, b, img, a, wt, bias, t = (v.float() for v in inputs[:8])
    norm = F.group_norm(x.reshape(1, 64, 16).permute(0, 2, 1), 2, w, b, 1e-5).permute(0, 2, 1).reshape(1, 1, 64, 16)
    up = F.interpolate(img.permute(0, 3, 1, 2), scale_factor=2, mode="bilinear").permute(0, 2, 3, 1)
    goldens = [norm, up, a @ wt + bias]
    for golden, out in zip(goldens, outputs):
        assert out.data.shape == golden.shape and pcc(golden, out.data.float()) > 0.99
    gathered = outputs[3].data.float()
    assert gathered[1].isnan() and torch.equal(gathered[[0, 2, 3]], t[[8, 3, 0]])


QKV, KV = "tensor<1x10x480xbf16>", "tensor<1x10x320xbf16>"
HEADS = "tensor<1x4x10x40xbf16>"
SPLIT = f"""
func.func @forward(%x: {QKV}, %q: {KV}, %kv: {KV}) -> ({HEADS}, tensor<1x4x40x10xbf16>, {HEADS},
                                                     tensor<1x8x10x40xbf16>, {HEADS}, {HEADS}) {{
  %q0, %k0, %v0 = "ttir.split_query_key_value_and_split_heads"(%x) <{{num_heads = 4 : ui32, transpose_key = true}}>
      : ({QKV}) -> ({HEADS}, tensor<1x4x40x10xbf16>, {HEADS})
  %q1, %k1, %v1 = "ttir.split_query_key_value_and_split_heads"(%q, %kv) <{{num_heads = 8 : ui32,
      num_kv_heads = 4 : ui32, transpose_key = false}}> : ({KV}, {KV}) -> (tensor<1x8x10x40xbf16>, {HEADS}, {HEADS})
  return %q0, %k0, %v0, %q1, %k1, %v1 : {HEADS}, tensor<1x4x40x10xbf16>, {HEADS}, tensor<1x8x10x40xbf16>, {HEADS}, {HEADS}
}}
"""


def test_heads_of_no_whole_tile_split_apart():
    """40-wide heads: the QKV split runs as slices, reshapes and permutes, with torch's values."""
    g = torch.Generator().manual_seed(3)
    x, q, kv = (torch.randn(1, 10, n, generator=g).to(torch.bfloat16) for n in (480, 320, 320))
    module = lower(SPLIT, "<test>", "ttir-to-ttnn-backend-pipeline")
    assert '"ttnn.split_query_key_value_and_split_heads"' not in print_module(module)
    binary = Binary(data=translate(module))
    outputs, _ = run_program(binary, next(i for i, p in enumerate(binary.programs) if p.name == "forward"),
                             [x, q, kv], MeshDevice())
    heads = lambda t, n: t.float().reshape(1, 10, n, 40).permute(0, 2, 1, 3)  # noqa: E731
    goldens = [heads(x[..., :160], 4), heads(x[..., 160:320], 4).transpose(2, 3), heads(x[..., 320:], 4),
               heads(q, 8), heads(kv[..., :160], 4), heads(kv[..., 160:], 4)]
    for golden, out in zip(goldens, outputs):
        assert torch.equal(golden, out.data.float())
