"""--ttir-global-data-format-conversion computes a function in bf16 behind an unchanged f32 signature: its values are
the f32 ones to bf16 precision."""

from __future__ import annotations

import torch

from ttir_eval import function_module, run_function
from ttmlir.dialects import make_context
from ttmlir.passes import make_pass

BODY = """
  %0 = "ttir.exp"(%a0) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %1 = "ttir.multiply"(%0, %a1) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  return %1 : tensor<8x16xf32>"""


def test_bf16_inside_keeps_values_to_bf16_precision():
    torch.manual_seed(0)
    inputs = [torch.randn(8, 16), torch.randn(8, 16)]
    want = run_function(function_module(["8x16", "8x16"], BODY, "8x16"), inputs)[0]
    module = function_module(["8x16", "8x16"], BODY, "8x16")
    make_pass("ttir-global-data-format-conversion", "target-format=bf16").apply(make_context(), module)
    module.verify()
    inner = [op for op in module.walk() if op.name in ("ttir.exp", "ttir.multiply")]
    assert all(str(op.results[0].type.element_type) == "bf16" for op in inner)
    got = run_function(module, inputs)[0]
    assert got.dtype == torch.float32
    torch.testing.assert_close(got, want, rtol=2 ** -6, atol=1e-2)
