"""`--ttir-quant-data-type-conversion`: i8 quantized types become i16/i32 ones with the same scale, the backend
pipeline takes the result, and a quantize/dequantize round trip computes torch's fake quantization."""

import pytest
import torch

from ttmlir.asm import print_module
from ttmlir.compiler import compile_ttir, lower
from ttmlir.runtime.device import MeshDevice
from ttmlir.runtime.executor import Binary, run_program

MODEL = """
func.func @roundtrip(%x: tensor<32x64xf32>) -> tensor<32x64xf32> {
  %q = "ttir.quantize"(%x) : (tensor<32x64xf32>) -> tensor<32x64x!quant.uniform<i8:f32, 1.000000e-01>>
  %d = "ttir.dequantize"(%q) : (tensor<32x64x!quant.uniform<i8:f32, 1.000000e-01>>) -> tensor<32x64xf32>
  return %d : tensor<32x64xf32>
}
"""


@pytest.mark.parametrize("width", [16, 32])
def test_converted_roundtrip_runs_as_fake_quantization(width):
    text = print_module(lower(MODEL, "<test>", "ttir-quant-data-type-conversion", f"target-bit-width={width}"))
    assert f"!quant.uniform<i{width}:f32, 1.000000e-01>" in text and "i8:" not in text
    binary = Binary(data=compile_ttir(text))
    x = torch.linspace(-6.0, 6.0, 32 * 64).reshape(32, 64)
    (out,), _ = run_program(binary, 0, [x], MeshDevice())
    assert torch.allclose(out.data.float(), torch.round(x / 0.1) * 0.1, atol=1e-5)


@pytest.mark.parametrize("width, message", [(12, "Invalid quantization bit width (must be 8, 16, 32, or 64)."),
                                            (64, "illegal storage type size: 64")])
def test_unsupported_widths_are_refused(width, message):
    from ttmlir.diagnostics import DiagnosticError

    with pytest.raises(DiagnosticError, match=message.replace("(", r"\(").replace(")", r"\)")):
        lower(MODEL, "<test>", "ttir-quant-data-type-conversion", f"target-bit-width={width}")
