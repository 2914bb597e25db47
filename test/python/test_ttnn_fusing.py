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


def test_op_model_fusions_are_refused():
    from ttmlir.diagnostics import DiagnosticError

    with pytest.raises(DiagnosticError, match="'enable-sdpa-fusion' is not supported by this build"):
        lower(MODEL, "<test>", "ttnn-fusing", "enable-sdpa-fusion=true")
