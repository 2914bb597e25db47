"""`--ttnn-fusing`: activations fused into matmul, linear and conv2d compute what the separate ops did (the fused
and unfused binaries run on the simulator, and torch), and the fused ops are gone from the graph."""

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


def test_ttnn_level_rope_and_sdpa_fusions_are_refused():
    from ttmlir.diagnostics import DiagnosticError

    with pytest.raises(DiagnosticError, match="'enable-sdpa-fusion' is not supported by this build"):
        lower(MODEL, "<test>", "ttnn-fusing", "enable-sdpa-fusion=true")


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
    plain = lower(DECODE, "<test>", "ttir-to-ttnn-backend-pipeline", "optimization-level=1 enable-fusing-pass=false")
    fused = lower(DECODE, "<test>", "ttir-to-ttnn-backend-pipeline", "optimization-level=1")
    assert print_module(fused).count('"ttnn.nlp_concat_heads_decode"') == 2
    assert '"ttnn.nlp_concat_heads_decode"' not in print_module(
        lower(DECODE, "<test>", "ttir-to-ttnn-backend-pipeline"))  # level 0: no op model, no fusion
    before, after = _outputs(plain, inputs), _outputs(fused, inputs)
    rows = x.float()[0].reshape(32, 512)
    goldens = [rows, torch.where(keep.float().reshape(32, 8, 1).bool(), 0.0, rows.reshape(32, 8, 64)).reshape(32, 512)]
    for golden, a, b in zip(goldens, before, after):
        assert torch.equal(a, b) and torch.equal(golden, b)
