"""`--ttnn-fusing`: activations fused into matmul, linear and conv2d compute what the separate ops did (the fused
and unfused binaries run on the simulator, and torch), and the fused ops are gone from the graph."""

import re

import pytest
import torch

from ttmlir.asm import print_module
from ttmlir.compiler import lower
from ttmlir.runtime.device import MeshDevice
from ttmlir.runtime.executor import Binary, run_program
from ttmlir.runtime.golden import pcc
from ttmlir.target.ttnn import translate

MODEL = """
func.func @forward(%x: tensor<64x128xbf16>, %w: tensor<128x96xbf16>, %b: tensor<96xbf16>,
                   %img: tensor<1x16x16x8xbf16>, %k: tensor<16x8x3x3xbf16>)
    -> (tensor<64x96xbf16>, tensor<64x96xbf16>, tensor<1x14x14x16xbf16>) {
  %0 = "ttir.matmul"(%x, %w) : (tensor<64x128xbf16>, tensor<128x96xbf16>) -> tensor<64x96xbf16>
  %1 = "ttir.sigmoid"(%0) : (tensor<64x96xbf16>) -> tensor<64x96xbf16>
  %2 = "ttir.linear"(%x, %w, %b) : (tensor<64x128xbf16>, tensor<128x96xbf16>, tensor<96xbf16>) -> tensor<64x96xbf16>
  %3 = "ttir.gelu"(%2) : (tensor<64x96xbf16>) -> tensor<64x96xbf16>
  %4 = "ttir.conv2d"(%img, %k) <{stride = 1 : i32, padding = 0 : i32, dilation = 1 : i32, groups = 1 : i32}>
      : (tensor<1x16x16x8xbf16>, tensor<16x8x3x3xbf16>) -> tensor<1x14x14x16xbf16>
  %5 = "ttir.relu"(%4) : (tensor<1x14x14x16xbf16>) -> tensor<1x14x14x16xbf16>
  return %1, %3, %5 : tensor<64x96xbf16>, tensor<64x96xbf16>, tensor<1x14x14x16xbf16>
}
"""


def _outputs(module, inputs):
    binary = Binary(data=translate(module))
    index = next(i for i, p in enumerate(binary.programs) if p.name == "forward")
    outputs, _ = run_program(binary, index, inputs, MeshDevice())
    return [o.data.float() for o in outputs]


def test_fused_activations_compute_the_same():
    g = torch.Generator().manual_seed(0)
    shapes = ((64, 128), (128, 96), (96,), (1, 16, 16, 8), (16, 8, 3, 3))
    inputs = [(torch.randn(s, generator=g) * 0.3).to(torch.bfloat16) for s in shapes]
    # the pipeline runs ttnn-fusing after the conversion to TTNN unless enable-fusing-pass=false
    unfused = lower(MODEL, "<test>", "ttir-to-ttnn-backend-pipeline", "enable-fusing-pass=false")
    fused = lower(MODEL, "<test>", "ttir-to-ttnn-backend-pipeline")
    text = print_module(fused)
    assert 'activation = "sigmoid"' in text and 'activation = "gelu"' in text and "op_type = relu" in text
    assert not any(f'"ttnn.{name}"' in text for name in ("sigmoid", "gelu", "relu"))
    before, after = _outputs(unfused, inputs), _outputs(fused, inputs)
    for a, b in zip(before, after):
        assert pcc(a, b) > 0.999
    x, w, b = (t.float() for t in inputs[:3])
    assert pcc(torch.sigmoid(x @ w), after[0]) > 0.99
    assert pcc(torch.nn.functional.gelu(x @ w + b), after[1]) > 0.99


SCORES = "tensor<2x4x64x64xf32>"
HEAD_ROWS = "tensor<2x4x64x32xf32>"


def attention(mask_fill: str, guard: bool = True) -> str:
    """Attention as torch's decomposition writes it: Q Kᵀ plus a mask (where(keep, 0, fill) from an integer input),
    softmax, the safe-softmax guard zeroing rows whose every score is -inf, and the product with V."""
    guarded = f"""
  %ninf = "ttir.full"() <{{fill_value = 0xFF800000 : f32, shape = array<i32: 2, 4, 64, 64>}}> : () -> {SCORES}
  %zero = "ttir.full"() <{{fill_value = 0.0 : f32, shape = array<i32: 2, 4, 64, 64>}}> : () -> {SCORES}
  %zrow = "ttir.full"() <{{fill_value = 0.0 : f32, shape = array<i32: 2, 4, 64>}}> : () -> tensor<2x4x64xf32>
  %e = "ttir.eq"(%s, %ninf) : ({SCORES}, {SCORES}) -> {SCORES}
  %n1 = "ttir.logical_not"(%e) : ({SCORES}) -> {SCORES}
  %n2 = "ttir.ne"(%n1, %zero) : ({SCORES}, {SCORES}) -> {SCORES}
  %c = "ttir.sum"(%n2) <{{dim_arg = [3 : i32], keep_dim = false}}> : ({SCORES}) -> tensor<2x4x64xf32>
  %n3 = "ttir.ne"(%c, %zrow) : (tensor<2x4x64xf32>, tensor<2x4x64xf32>) -> tensor<2x4x64xf32>
  %all = "ttir.logical_not"(%n3) : (tensor<2x4x64xf32>) -> tensor<2x4x64xf32>
  %row = "ttir.reshape"(%all) <{{shape = [2 : i32, 4 : i32, 64 : i32, 1 : i32]}}> : (tensor<2x4x64xf32>) -> tensor<2x4x64x1xf32>
  %p = "ttir.where"(%row, %zero, %sm) : (tensor<2x4x64x1xf32>, {SCORES}, {SCORES}) -> {SCORES}""" if guard else """
  %p = "ttir.abs"(%sm) : ({SCORES}) -> {SCORES}""".format(SCORES=SCORES)
    return f"""
func.func @forward(%q: {HEAD_ROWS}, %k: {HEAD_ROWS}, %v: {HEAD_ROWS}, %keep: tensor<2x1x64x64xi32>) -> {HEAD_ROWS} {{
  %kt = "ttir.permute"(%k) <{{permutation = array<i64: 0, 1, 3, 2>}}> : ({HEAD_ROWS}) -> tensor<2x4x32x64xf32>
  %qk = "ttir.matmul"(%q, %kt) : ({HEAD_ROWS}, tensor<2x4x32x64xf32>) -> {SCORES}
  %keepf = "ttir.typecast"(%keep) : (tensor<2x1x64x64xi32>) -> tensor<2x1x64x64xf32>
  %zeros = "ttir.full"() <{{fill_value = 0.0 : f32, shape = array<i32: 2, 1, 64, 64>}}> : () -> tensor<2x1x64x64xf32>
  %fill = "ttir.full"() <{{fill_value = {mask_fill} : f32, shape = array<i32: 2, 1, 64, 64>}}> : () -> tensor<2x1x64x64xf32>
  %mask = "ttir.where"(%keepf, %zeros, %fill) : (tensor<2x1x64x64xf32>, tensor<2x1x64x64xf32>, tensor<2x1x64x64xf32>) -> tensor<2x1x64x64xf32>
  %s = "ttir.add"(%qk, %mask) : ({SCORES}, tensor<2x1x64x64xf32>) -> {SCORES}
  %sm = "ttir.softmax"(%s) <{{dimension = 3 : si32, numericStable = true}}> : ({SCORES}) -> {SCORES}{guarded}
  %o = "ttir.matmul"(%p, %v) : ({SCORES}, {HEAD_ROWS}) -> {HEAD_ROWS}
  return %o : {HEAD_ROWS}
}}
"""


def test_attention_with_a_finite_mask_fuses_into_sdpa_and_computes_the_same():
    text = attention("-3.38953139E+38")
    g = torch.Generator().manual_seed(3)
    keep = (torch.rand(2, 1, 64, 64, generator=g) > 0.2).to(torch.int32)
    keep[:, :, :, 0] = 1
    inputs = [torch.randn(2, 4, 64, 32, generator=g) for _ in range(3)] + [keep]
    fused = print_module(lower(text, "<test>", "ttir-to-ttnn-backend-pipeline", "optimization-level=2"))
    assert '"ttnn.scaled_dot_product_attention"' in fused
    assert not any(f'"ttnn.{name}"' in fused for name in ("softmax", "eq", "logical_not", "sum"))
    unfused = print_module(lower(text, "<test>", "ttir-to-ttnn-backend-pipeline", "optimization-level=0"))
    assert "scaled_dot_product_attention" not in unfused and '"ttnn.softmax"' in unfused
    after = _outputs(lower(text, "<test>", "ttir-to-ttnn-backend-pipeline", "optimization-level=2"), inputs)[0]
    before = _outputs(lower(text, "<test>", "ttir-to-ttnn-backend-pipeline", "optimization-level=0"), inputs)[0]
    assert pcc(after, before) > 0.999
    q, k, v = inputs[:3]
    expected = torch.softmax(q @ k.transpose(-1, -2) + torch.where(keep.bool(), 0.0, -3.38953139e38), -1) @ v
    assert pcc(after, expected) > 0.99


GQA_F32_SOFTMAX = """
func.func @forward(%q: tensor<1x8x64x32xbf16>, %k: tensor<1x2x64x32xbf16>, %v: tensor<1x2x64x32xbf16>,
                   %mask: tensor<1x1x64x64xbf16>) -> tensor<1x8x64x32xbf16> {
  %0 = "ttir.reshape"(%k) <{shape = [1 : i32, 2 : i32, 1 : i32, 64 : i32, 32 : i32]}> : (tensor<1x2x64x32xbf16>) -> tensor<1x2x1x64x32xbf16>
  %1 = "ttir.broadcast"(%0) <{broadcast_dimensions = array<i64: 1, 1, 4, 1, 1>}> : (tensor<1x2x1x64x32xbf16>) -> tensor<1x2x4x64x32xbf16>
  %2 = "ttir.reshape"(%1) <{shape = [1 : i32, 8 : i32, 64 : i32, 32 : i32]}> : (tensor<1x2x4x64x32xbf16>) -> tensor<1x8x64x32xbf16>
  %3 = "ttir.reshape"(%v) <{shape = [1 : i32, 2 : i32, 1 : i32, 64 : i32, 32 : i32]}> : (tensor<1x2x64x32xbf16>) -> tensor<1x2x1x64x32xbf16>
  %4 = "ttir.broadcast"(%3) <{broadcast_dimensions = array<i64: 1, 1, 4, 1, 1>}> : (tensor<1x2x1x64x32xbf16>) -> tensor<1x2x4x64x32xbf16>
  %5 = "ttir.reshape"(%4) <{shape = [1 : i32, 8 : i32, 64 : i32, 32 : i32]}> : (tensor<1x2x4x64x32xbf16>) -> tensor<1x8x64x32xbf16>
  %6 = "ttir.transpose"(%2) <{dim0 = -2 : si32, dim1 = -1 : si32}> : (tensor<1x8x64x32xbf16>) -> tensor<1x8x32x64xbf16>
  %7 = "ttir.matmul"(%q, %6) : (tensor<1x8x64x32xbf16>, tensor<1x8x32x64xbf16>) -> tensor<1x8x64x64xbf16>
  %8 = "ttir.full"() <{fill_value = 0.25 : f32, shape = array<i32: 1, 1, 1, 1>}> : () -> tensor<1x1x1x1xbf16>
  %9 = "ttir.multiply"(%7, %8) : (tensor<1x8x64x64xbf16>, tensor<1x1x1x1xbf16>) -> tensor<1x8x64x64xbf16>
  %10 = "ttir.add"(%9, %mask) : (tensor<1x8x64x64xbf16>, tensor<1x1x64x64xbf16>) -> tensor<1x8x64x64xbf16>
  %11 = "ttir.typecast"(%10) : (tensor<1x8x64x64xbf16>) -> tensor<1x8x64x64xf32>
  %12 = "ttir.softmax"(%11) <{dimension = -1 : si32}> : (tensor<1x8x64x64xf32>) -> tensor<1x8x64x64xf32>
  %13 = "ttir.typecast"(%12) : (tensor<1x8x64x64xf32>) -> tensor<1x8x64x64xbf16>
  %14 = "ttir.matmul"(%13, %5) : (tensor<1x8x64x64xbf16>, tensor<1x8x64x32xbf16>) -> tensor<1x8x64x32xbf16>
  return %14 : tensor<1x8x64x32xbf16>
}
"""


def test_grouped_attention_with_an_f32_softmax_and_scaled_scores_fuses_and_computes_the_same():
    # K's heads repeated before the transpose, the scores scaled before the mask, the softmax in f32 between bf16
    # matmuls: one SDPA on the 2 key/value heads with the scale, computing what the ops did
    fused = print_module(lower(GQA_F32_SOFTMAX, "<test>", "ttir-to-ttnn-backend-pipeline", "optimization-level=1"))
    assert '"ttnn.scaled_dot_product_attention"' in fused and "scale = 2.500000e-01" in fused
    assert not any(f'"ttnn.{name}"' in fused for name in ("softmax", "repeat", "matmul"))
    g = torch.Generator().manual_seed(5)
    inputs = [torch.randn(1, 8, 64, 32, generator=g), torch.randn(1, 2, 64, 32, generator=g),
              torch.randn(1, 2, 64, 32, generator=g), torch.randn(1, 1, 64, 64, generator=g)]
    after = _outputs(lower(GQA_F32_SOFTMAX, "<test>", "ttir-to-ttnn-backend-pipeline", "optimization-level=1"),
                     inputs)[0]
    before = _outputs(lower(GQA_F32_SOFTMAX, "<test>", "ttir-to-ttnn-backend-pipeline", "optimization-level=0"),
                      inputs)[0]
    q, k, v, mask = inputs
    k, v = k.repeat_interleave(4, 1), v.repeat_interleave(4, 1)
    expected = torch.softmax(q @ k.transpose(-1, -2) * 0.25 + mask, -1) @ v
    assert pcc(after, before) > 0.999 and pcc(after, expected) > 0.999


def test_attention_whose_mask_may_hide_a_whole_row_keeps_its_guard():
    # a -inf fill may make a row all -inf, which the guard zeroes and the fused kernel would not: not fused
    fused = print_module(lower(attention("0xFF800000"), "<test>", "ttir-to-ttnn-backend-pipeline", "optimization-level=2"))
    assert "scaled_dot_product_attention" not in fused and '"ttnn.softmax"' in fused
    # a softmax read by anything but the product with V is not attention's: not fused either
    fused = print_module(lower(attention("-1.0", guard=False), "<test>", "ttir-to-ttnn-backend-pipeline",
                               "optimization-level=2"))
    assert "scaled_dot_product_attention" not in fused


def one_key_decode(b: int, h: int, hkv: int, d: int) -> str:
    """A decode step's attention over the step's own key as torch's export writes it (grouped heads repeated, Q and Kᵀ
    each scaled by d^-1/4, the safe-softmax guard in its where(any visible, softmax, 0) form, and P · V over one key
    a dot_general with a unit contraction), on bf16 projections widened to f32."""
    g, q, kv = h // hkv, f"tensor<{b}x{h}x1x{d}x", f"tensor<{b}x{hkv}x1x{d}xbf16>"
    s = f"tensor<{b}x{h}x1x1xf32>"
    scale = (1 / d) ** 0.25
    return f"""
func.func @forward(%q: {q}bf16>, %k: {kv}, %v: {kv}) -> {q}bf16> {{
  %c = "ttir.full"() <{{fill_value = {scale} : f32, shape = array<i32: {b}, {h}, 1, {d}>}}> : () -> {q}f32>
  %ck = "ttir.full"() <{{fill_value = {scale} : f32, shape = array<i32: {b}, {h}, {d}, 1>}}> : () -> tensor<{b}x{h}x{d}x1xf32>
  %ninf = "ttir.full"() <{{fill_value = 0xFF800000 : f32, shape = array<i32: {b}, {h}, 1, 1>}}> : () -> {s}
  %zero = "ttir.full"() <{{fill_value = 0.0 : f32, shape = array<i32: {b}, {h}, 1, 1>}}> : () -> {s}
  %qf = "ttir.typecast"(%q) : ({q}bf16>) -> {q}f32>
  %qs = "ttir.multiply"(%qf, %c) : ({q}f32>, {q}f32>) -> {q}f32>
  %kf = "ttir.typecast"(%k) : ({kv}) -> tensor<{b}x{hkv}x1x{d}xf32>
  %k5 = "ttir.reshape"(%kf) <{{shape = [{b} : i32, {hkv} : i32, 1 : i32, 1 : i32, {d} : i32]}}> : (tensor<{b}x{hkv}x1x{d}xf32>) -> tensor<{b}x{hkv}x1x1x{d}xf32>
  %kg = "ttir.broadcast"(%k5) <{{broadcast_dimensions = array<i64: 1, 1, {g}, 1, 1>}}> : (tensor<{b}x{hkv}x1x1x{d}xf32>) -> tensor<{b}x{hkv}x{g}x1x{d}xf32>
  %kt = "ttir.reshape"(%kg) <{{shape = [{b} : i32, {h} : i32, {d} : i32, 1 : i32]}}> : (tensor<{b}x{hkv}x{g}x1x{d}xf32>) -> tensor<{b}x{h}x{d}x1xf32>
  %ks = "ttir.multiply"(%kt, %ck) : (tensor<{b}x{h}x{d}x1xf32>, tensor<{b}x{h}x{d}x1xf32>) -> tensor<{b}x{h}x{d}x1xf32>
  %sc = "ttir.dot_general"(%qs, %ks) <{{batch_dims_lhs = array<i64: 0, 1>, batch_dims_rhs = array<i64: 0, 1>, contract_dims_lhs = array<i64: 3>, contract_dims_rhs = array<i64: 2>}}> : ({q}f32>, tensor<{b}x{h}x{d}x1xf32>) -> {s}
  %e = "ttir.eq"(%sc, %ninf) : ({s}, {s}) -> tensor<{b}x{h}x1x1xi1>
  %n = "ttir.logical_not"(%e) : (tensor<{b}x{h}x1x1xi1>) -> tensor<{b}x{h}x1x1xi1>
  %any = "ttir.reduce_or"(%n) <{{dim_arg = [3 : i32], keep_dim = false}}> : (tensor<{b}x{h}x1x1xi1>) -> tensor<{b}x{h}x1xi1>
  %row = "ttir.reshape"(%any) <{{shape = [{b} : i32, {h} : i32, 1 : i32, 1 : i32]}}> : (tensor<{b}x{h}x1xi1>) -> tensor<{b}x{h}x1x1xi1>
  %sm = "ttir.softmax"(%sc) <{{dimension = 3 : si32, numericStable = true}}> : ({s}) -> {s}
  %p = "ttir.where"(%row, %sm, %zero) : (tensor<{b}x{h}x1x1xi1>, {s}, {s}) -> {s}
  %vf = "ttir.typecast"(%v) : ({kv}) -> tensor<{b}x{hkv}x1x{d}xf32>
  %v5 = "ttir.reshape"(%vf) <{{shape = [{b} : i32, {hkv} : i32, 1 : i32, 1 : i32, {d} : i32]}}> : (tensor<{b}x{hkv}x1x{d}xf32>) -> tensor<{b}x{hkv}x1x1x{d}xf32>
  %vg = "ttir.broadcast"(%v5) <{{broadcast_dimensions = array<i64: 1, 1, {g}, 1, 1>}}> : (tensor<{b}x{hkv}x1x1x{d}xf32>) -> tensor<{b}x{hkv}x{g}x1x{d}xf32>
  %vr = "ttir.reshape"(%vg) <{{shape = [{b} : i32, {h} : i32, 1 : i32, {d} : i32]}}> : (tensor<{b}x{hkv}x{g}x1x{d}xf32>) -> {q}f32>
  %o = "ttir.dot_general"(%p, %vr) <{{batch_dims_lhs = array<i64: 0, 1>, batch_dims_rhs = array<i64: 0, 1>, contract_dims_lhs = array<i64: 3>, contract_dims_rhs = array<i64: 2>}}> : ({s}, {q}f32>) -> {q}f32>
  %ob = "ttir.typecast"(%o) : ({q}f32>) -> {q}bf16>
  return %ob : {q}bf16>
}}
"""


def test_one_key_decode_attention_runs_as_the_decode_kernel():
    """Decode attention over one key (grouped heads, scaled Q and Kᵀ, the guard, P · V as an elementwise product)
    becomes scaled_dot_product_attention_decode on [1, B, H, D] queries, its scale the product of the two scalings,
    and computes what level 0's decomposed ops and torch do."""
    text = one_key_decode(4, 8, 2, 64)
    g = torch.Generator().manual_seed(5)
    inputs = [torch.randn(4, 8, 1, 64, generator=g).to(torch.bfloat16)] + \
        [torch.randn(4, 2, 1, 64, generator=g).to(torch.bfloat16) for _ in range(2)]
    fused = print_module(lower(text, "<test>", "ttir-to-ttnn-backend-pipeline", "optimization-level=2"))
    assert fused.count('"ttnn.scaled_dot_product_attention_decode"') == 1
    assert float(re.search(r"scale = ([0-9.e+-]+)", fused).group(1)) == pytest.approx(1 / 8)
    assert not any(f'"ttnn.{name}"' in fused for name in ("softmax", "eq", "where", "repeat"))
    after = _outputs(lower(text, "<test>", "ttir-to-ttnn-backend-pipeline", "optimization-level=2"), inputs)[0]
    before = _outputs(lower(text, "<test>", "ttir-to-ttnn-backend-pipeline", "optimization-level=0"), inputs)[0]
    assert pcc(after, before) > 0.999
    # one key: every query head's output is its group's value
    expected = inputs[2].float().repeat_interleave(4, 1)
    assert pcc(after, expected) > 0.999 and torch.allclose(after, expected, atol=0.02)


HEADS = "tensor<1x32x8x64xbf16>"
DECODE = f"""
func.func @forward(%x: {HEADS}, %keep: tensor<32x8x1x1xbf16>, %zero: tensor<1x1x1x1xbf16>)
    -> (tensor<32x512xbf16>, tensor<32x512xbf16>) {{
  %0 = "ttir.permute"(%x) <{{permutation = array<i64: 1, 2, 0, 3>}}> : ({HEADS}) -> tensor<32x8x1x64xbf16>
  %1 = "ttir.reshape"(%0) <{{shape = [32 : i32, 512 : i32]}}> : (tensor<32x8x1x64xbf16>) -> tensor<32x512xbf16>
  %2 = "ttir.where"(%keep, %zero, %0) : (tensor<32x8x1x1xbf16>, tensor<1x1x1x1xbf16>, tensor<32x8x1x64xbf16>)
      -> tensor<32x8x1x64xbf16>
  %3 = "ttir.reshape"(%2) <{{shape = [32 : i32, 512 : i32]}}> : (tensor<32x8x1x64xbf16>) -> tensor<32x512xbf16>
  return %1, %3 : tensor<32x512xbf16>, tensor<32x512xbf16>
}}
"""


def test_decode_heads_concatenated_by_the_decode_kernel():
    """With the optimizer's op constraints, [1, B, H, D] heads reordered and collapsed to rows (with or without a
    where zeroing whole heads in between) run as nlp_concat_heads_decode, with the same values."""
    g = torch.Generator().manual_seed(1)
    x = torch.randn(1, 32, 8, 64, generator=g).to(torch.bfloat16)
    keep = (torch.rand(32, 8, 1, 1, generator=g) < 0.3).to(torch.bfloat16)
    inputs = [x, keep, torch.zeros(1, 1, 1, 1, dtype=torch.bfloat16)]
    # the TMs kept where they are: erase-inverse-ops would move the where's reshape above it (onto 32x512 rows)
    kept = "optimization-level=1 enable-erase-inverse-ops-pass=false"
    plain = lower(DECODE, "<test>", "ttir-to-ttnn-backend-pipeline", f"{kept} enable-fusing-pass=false")
    fused = lower(DECODE, "<test>", "ttir-to-ttnn-backend-pipeline", kept)
    assert print_module(fused).count('"ttnn.nlp_concat_heads_decode"') == 2
    assert '"ttnn.nlp_concat_heads_decode"' not in print_module(
        lower(DECODE, "<test>", "ttir-to-ttnn-backend-pipeline"))  # level 0: no op model, no fusion
    before, after = _outputs(plain, inputs), _outputs(fused, inputs)
    rows = x.float()[0].reshape(32, 512)
    goldens = [rows, torch.where(keep.float().reshape(32, 8, 1).bool(), 0.0, rows.reshape(32, 8, 64)).reshape(32, 512)]
    for golden, a, b in zip(goldens, before, after):
        assert torch.equal(a, b) and torch.equal(golden, b)


def _rope_half(x, cos, sin):
    half = x.shape[-1] // 2
    return x * cos + torch.cat([-x[..., half:], x[..., :half]], -1) * sin


def _rotate_half_ir(name, x, table, out=None):
    """RoPE written out in TTIR on the [B, H, S, D] argument %x with [1, 1, S, D] tables (then reshaped to `out`)."""
    b, h, s, d = x
    t, lo = f"tensor<{b}x{h}x{s}x{d}xbf16>", f"tensor<{b}x{h}x{s}x{d // 2}xbf16>"
    cut = lambda start, end: (f'"ttir.slice_static"(%{name}) <{{begins = [0 : i32, 0 : i32, 0 : i32, {start} : i32], '
                              f'ends = [{b} : i32, {h} : i32, {s} : i32, {end} : i32], '
                              f'step = [1 : i32, 1 : i32, 1 : i32, 1 : i32]}}> : ({t}) -> {lo}')
    bc = lambda v: (f'"ttir.broadcast"(%{v}) <{{broadcast_dimensions = array<i64: {b}, {h}, 1, 1>}}> : '
                    f'({table}) -> {t}')
    return f"""
  %{name}_c = {bc("cos")}
  %{name}_xc = "ttir.multiply"(%{name}_c, %{name}) : ({t}, {t}) -> {t}
  %{name}_hi = {cut(d // 2, d)}
  %{name}_n = "ttir.neg"(%{name}_hi) : ({lo}) -> {lo}
  %{name}_lo = {cut(0, d // 2)}
  %{name}_r = "ttir.concat"(%{name}_n, %{name}_lo) <{{dim = 3 : si32}}> : ({lo}, {lo}) -> {t}
  %{name}_s = {bc("sin")}
  %{name}_rs = "ttir.multiply"(%{name}_r, %{name}_s) : ({t}, {t}) -> {t}
  %{name}_out = "ttir.add"(%{name}_rs, %{name}_xc) : ({t}, {t}) -> {t}"""


PREFILL, DECODE_ROWS = (1, 4, 18, 64), (32, 8, 1, 64)
ROPE = f"""
func.func @forward(%p: tensor<1x4x18x64xbf16>, %cos: tensor<1x1x18x64xbf16>, %sin: tensor<1x1x18x64xbf16>)
    -> tensor<1x4x18x64xbf16> {{{_rotate_half_ir("p", PREFILL, "tensor<1x1x18x64xbf16>")}
  return %p_out : tensor<1x4x18x64xbf16>
}}
"""
ROPE_DECODE = f"""
func.func @forward(%x: tensor<32x8x1x64xbf16>, %w: tensor<64xbf16>, %cos: tensor<1x1x1x64xbf16>,
                   %sin: tensor<1x1x1x64xbf16>) -> tensor<1x32x8x64xbf16> {{
  %d = "ttir.rms_norm"(%x, %w) <{{normalized_shape = array<i64: 64>, epsilon = 1.000000e-05 : f32,
      operandSegmentSizes = array<i32: 1, 1, 0>}}> : (tensor<32x8x1x64xbf16>, tensor<64xbf16>) -> tensor<32x8x1x64xbf16>
  {_rotate_half_ir("d", DECODE_ROWS, "tensor<1x1x1x64xbf16>")}
  %r = "ttir.reshape"(%d_out) <{{shape = [1 : i32, 32 : i32, 8 : i32, 64 : i32]}}> : (tensor<32x8x1x64xbf16>)
      -> tensor<1x32x8x64xbf16>
  return %r : tensor<1x32x8x64xbf16>
}}
"""
H, HALF = "tensor<16x8x1x32xbf16>", "tensor<1x1x1x32xbf16>"
EXPANDED = f"""
func.func @forward(%x: tensor<16x8x1x64xbf16>, %c: {HALF}, %s: {HALF}) -> tensor<16x8x1x64xbf16> {{
  %cb = "ttir.broadcast"(%c) <{{broadcast_dimensions = array<i64: 16, 8, 1, 1>}}> : ({HALF}) -> {H}
  %sb = "ttir.broadcast"(%s) <{{broadcast_dimensions = array<i64: 16, 8, 1, 1>}}> : ({HALF}) -> {H}
  %x1 = "ttir.slice_static"(%x) <{{begins = [0 : i32, 0 : i32, 0 : i32, 0 : i32], ends = [16 : i32, 8 : i32, 1 : i32,
      32 : i32], step = [1 : i32, 1 : i32, 1 : i32, 1 : i32]}}> : (tensor<16x8x1x64xbf16>) -> {H}
  %x2 = "ttir.slice_static"(%x) <{{begins = [0 : i32, 0 : i32, 0 : i32, 32 : i32], ends = [16 : i32, 8 : i32, 1 : i32,
      64 : i32], step = [1 : i32, 1 : i32, 1 : i32, 1 : i32]}}> : (tensor<16x8x1x64xbf16>) -> {H}
  %0 = "ttir.multiply"(%x1, %cb) : ({H}, {H}) -> {H}
  %1 = "ttir.multiply"(%x2, %sb) : ({H}, {H}) -> {H}
  %2 = "ttir.subtract"(%0, %1) : ({H}, {H}) -> {H}
  %3 = "ttir.multiply"(%cb, %x2) : ({H}, {H}) -> {H}
  %4 = "ttir.multiply"(%x1, %sb) : ({H}, {H}) -> {H}
  %5 = "ttir.add"(%3, %4) : ({H}, {H}) -> {H}
  %6 = "ttir.concat"(%2, %5) <{{dim = 3 : si32}}> : ({H}, {H}) -> tensor<16x8x1x64xbf16>
  return %6 : tensor<16x8x1x64xbf16>
}}
"""


ROPE_DECODE_REORDERED = f"""
func.func @forward(%d: tensor<32x8x1x64xbf16>, %cos: tensor<1x1x1x64xbf16>, %sin: tensor<1x1x1x64xbf16>)
    -> tensor<1x32x8x64xbf16> {{{_rotate_half_ir("d", DECODE_ROWS, "tensor<1x1x1x64xbf16>")}
  %r = "ttir.permute"(%d_out) <{{permutation = array<i64: 2, 0, 1, 3>}}> : (tensor<32x8x1x64xbf16>)
      -> tensor<1x32x8x64xbf16>
  return %r : tensor<1x32x8x64xbf16>
}}
"""


def _plain_and_fused(source, inputs, fused_text, erase="false"):
    # TMs left where they are unless asked: erase-inverse-ops moves a decode output's reorder into the rotation
    kept = f"optimization-level=1 enable-erase-inverse-ops-pass={erase}"
    plain = lower(source, "<test>", "ttir-to-ttnn-backend-pipeline", f"{kept} enable-fusing-pass=false")
    fused = lower(source, "<test>", "ttir-to-ttnn-backend-pipeline", kept)
    text = print_module(fused)
    assert fused_text in text and '"ttnn.neg"' not in text and '"ttnn.subtract"' not in text
    assert fused_text not in print_module(lower(source, "<test>", "ttir-to-ttnn-backend-pipeline"))  # level 0
    return _outputs(plain, inputs)[0], _outputs(fused, inputs)[0]


def test_rope_runs_as_the_rotary_embedding_kernel():
    """With the optimizer on, RoPE written out (rotate-half over a non-tile sequence, the expanded half-table form)
    runs as ttnn.rotary_embedding; on decode rows reordered to [1, B, H, D] (through a per-head rms_norm) as its
    decode mode (also after erase-inverse-ops moved the reorder before the products); each with the values of torch
    and exactly those of the unfused ops (the kernel rounds its products to bf16 before their sum, as they do)."""
    g = torch.Generator().manual_seed(2)
    angles = torch.rand(1, 1, 18, 32, generator=g) * 6
    cos, sin = (torch.cat([f(angles)] * 2, -1).to(torch.bfloat16) for f in (torch.cos, torch.sin))
    x = torch.randn(PREFILL, generator=g).to(torch.bfloat16)
    plain, fused = _plain_and_fused(ROPE, [x, cos, sin], '"ttnn.rotary_embedding"')
    golden = _rope_half(x.float(), cos.float(), sin.float())
    assert pcc(golden, fused) > 0.999 and torch.equal(plain, fused)

    x = torch.randn(DECODE_ROWS, generator=g).to(torch.bfloat16)
    w = (torch.rand(64, generator=g) + 0.5).to(torch.bfloat16)
    row_cos, row_sin = cos[:, :, 5:6], sin[:, :, 5:6]
    plain, fused = _plain_and_fused(ROPE_DECODE, [x, w, row_cos, row_sin], "token_index = 0")
    normed = x.float() * torch.rsqrt(x.float().pow(2).mean(-1, keepdim=True) + 1e-5) * w.float()
    golden = _rope_half(normed, row_cos.float(), row_sin.float()).permute(2, 0, 1, 3)
    assert pcc(golden, fused) > 0.999 and torch.equal(plain, fused)

    # the pipeline's erase-inverse-ops moves the reorder above the products and the rotation's two halves
    plain, fused = _plain_and_fused(ROPE_DECODE_REORDERED, [x, row_cos, row_sin], "token_index = 0", erase="true")
    golden = _rope_half(x.float(), row_cos.float(), row_sin.float()).permute(2, 0, 1, 3)
    assert pcc(golden, fused) > 0.999 and torch.equal(plain, fused)

    x = torch.randn(16, 8, 1, 64, generator=g).to(torch.bfloat16)
    half_cos, half_sin = cos[:, :, 3:4, :32], sin[:, :, 3:4, :32]
    plain, fused = _plain_and_fused(EXPANDED, [x, half_cos, half_sin], '"ttnn.rotary_embedding"')
    golden = _rope_half(x.float(), torch.cat([half_cos.float()] * 2, -1), torch.cat([half_sin.float()] * 2, -1))
    assert pcc(golden, fused) > 0.999 and torch.equal(plain, fused)


def _projection(name, weight, heads, bias=None):
    t, w = f"tensor<32x{heads * 64}xbf16>", f"tensor<{heads * 64}x256xbf16>"
    flags = "<{transpose_a = false, transpose_b = true}>"
    product = (f'"ttir.linear"(%rows, %{weight}, %{bias}) {flags} : (tensor<32x256xbf16>, {w}, '
               f'tensor<{heads * 64}xbf16>) -> {t}' if bias else
               f'"ttir.matmul"(%rows, %{weight}) {flags} : (tensor<32x256xbf16>, {w}) -> {t}')
    return f"""
  %{name}0 = {product}
  %{name}1 = "ttir.reshape"(%{name}0) <{{shape = [1 : i32, 32 : i32, {heads} : i32, 64 : i32]}}> : ({t})
      -> tensor<1x32x{heads}x64xbf16>
  %{name} = "ttir.permute"(%{name}1) <{{permutation = array<i64: 0, 2, 1, 3>}}> : (tensor<1x32x{heads}x64xbf16>)
      -> tensor<1x{heads}x32x64xbf16>"""


QKV = f"""
func.func @forward(%x: tensor<1x32x256xbf16>, %wk: tensor<128x256xbf16>, %bk: tensor<128xbf16>,
                   %wq: tensor<256x256xbf16>, %bq: tensor<256xbf16>, %wv: tensor<128x256xbf16>, %bv: tensor<128xbf16>)
    -> (tensor<1x2x32x64xbf16>, tensor<1x4x32x64xbf16>, tensor<1x2x32x64xbf16>) {{
  %rows = "ttir.reshape"(%x) <{{shape = [32 : i32, 256 : i32]}}> : (tensor<1x32x256xbf16>) -> tensor<32x256xbf16>
  {_projection("k", "wk", 2, "bk")}{_projection("q", "wq", 4, "bq")}{_projection("v", "wv", 2, "bv")}
  return %k, %q, %v : tensor<1x2x32x64xbf16>, tensor<1x4x32x64xbf16>, tensor<1x2x32x64xbf16>
}}
"""


def test_three_projections_split_by_the_fused_qkv_kernel():
    """Key, query and value projections of one input (grouped-query: 4 query heads, 2 key/value heads; key first)
    run as one linear onto the joined weights and biases, split by split_query_key_value_and_split_heads, with the
    values of the separate projections and of torch."""
    g = torch.Generator().manual_seed(3)
    shapes = ((1, 32, 256), (128, 256), (128,), (256, 256), (256,), (128, 256), (128,))
    inputs = [(torch.randn(s, generator=g) * 0.2).to(torch.bfloat16) for s in shapes]
    plain = lower(QKV, "<test>", "ttir-to-ttnn-backend-pipeline", "optimization-level=1 enable-fusing-pass=false")
    fused = lower(QKV, "<test>", "ttir-to-ttnn-backend-pipeline", "optimization-level=1")
    text = print_module(fused)
    assert text.count('"ttnn.split_query_key_value_and_split_heads"') == 1 and '"ttnn.permute"' not in text
    assert text.count('"ttnn.linear"') == 1
    x = inputs[0].float().reshape(32, 256)
    for (w, b), a, f in zip(((inputs[1], inputs[2]), (inputs[3], inputs[4]), (inputs[5], inputs[6])),
                            _outputs(plain, inputs), _outputs(fused, inputs)):
        golden = (x @ w.float().T + b.float()).reshape(1, 32, -1, 64).permute(0, 2, 1, 3)
        assert pcc(golden, f) > 0.999 and pcc(a, f) > 0.999


NORM_ACT = """
func.func @forward(%x: tensor<64x256xbf16>, %w: tensor<256xbf16>) -> (tensor<256x64xbf16>, tensor<64x256xbf16>) {
  %0 = "ttir.rms_norm"(%x, %w) <{normalized_shape = array<i64: 256>, epsilon = 1.000000e-05 : f32,
      operandSegmentSizes = array<i32: 1, 1, 0>}> : (tensor<64x256xbf16>, tensor<256xbf16>) -> tensor<64x256xbf16>
  %1 = "ttir.permute"(%0) <{permutation = array<i64: 1, 0>}> : (tensor<64x256xbf16>) -> tensor<256x64xbf16>
  %2 = "ttir.gelu"(%1) : (tensor<256x64xbf16>) -> tensor<256x64xbf16>
  %3 = "ttir.rms_norm"(%x, %w) <{normalized_shape = array<i64: 256>, epsilon = 1.000000e-02 : f32,
      operandSegmentSizes = array<i32: 1, 1, 0>}> : (tensor<64x256xbf16>, tensor<256xbf16>) -> tensor<64x256xbf16>
  %4 = "ttir.silu"(%3) : (tensor<64x256xbf16>) -> tensor<64x256xbf16>
  return %2, %4 : tensor<256x64xbf16>, tensor<64x256xbf16>
}
"""


def test_rms_norm_and_its_activation_run_as_one_kernel(tmp_path):
    """With the optimizer on, gelu (through a permute) and silu of an rms_norm run as dit_rms_norm_unary_fused,
    with the values of the separate ops and of torch; EmitPy's generated Python reproduces the binary."""
    import json

    from ttrt.common.api import API

    from ttmlir.compiler import compile_ttir
    from ttmlir.target.python import translate_to_python

    g = torch.Generator().manual_seed(4)
    x = (torch.randn(64, 256, generator=g) * 3).to(torch.bfloat16)
    w = (torch.rand(256, generator=g) + 0.5).to(torch.bfloat16)
    plain = lower(NORM_ACT, "<test>", "ttir-to-ttnn-backend-pipeline", "optimization-level=1 enable-fusing-pass=false")
    fused = lower(NORM_ACT, "<test>", "ttir-to-ttnn-backend-pipeline", "optimization-level=1")
    text = print_module(fused)
    assert text.count('"ttnn.dit_rms_norm_unary_fused"') == 2 and '"ttnn.rms_norm"' not in text
    assert 'activation = "gelu"' in text and 'activation = "silu"' in text and '"ttnn.gelu"' not in text
    norm = lambda eps: x.float() * torch.rsqrt(x.float().pow(2).mean(-1, keepdim=True) + eps) * w.float()  # noqa
    goldens = [torch.nn.functional.gelu(norm(1e-5).T), torch.nn.functional.silu(norm(1e-2))]
    for golden, a, b in zip(goldens, _outputs(plain, [x, w]), _outputs(fused, [x, w])):
        assert pcc(golden, b) > 0.999 and pcc(a, b) > 0.999
    py = translate_to_python(lower(NORM_ACT, "<test>", "ttir-to-emitpy-pipeline", "optimization-level=1"))
    assert "ttnn.experimental.dit_rms_norm_unary_fused(" in py
    (tmp_path / "model.py").write_text(py)
    (tmp_path / "model.ttnn").write_bytes(compile_ttir(NORM_ACT, pipeline_options="optimization-level=1"))
    API.initialize_apis()
    API.EmitPy(args={"binary": str(tmp_path / "model.py"), "--flatbuffer": str(tmp_path / "model.ttnn"),
                     "--result-file": str(tmp_path / "results.json"), "--artifact-dir": str(tmp_path / "art")})()
    result = json.loads((tmp_path / "results.json").read_text())[0]
    assert result["result"] == "pass", result["exception"]
