"""--ttir-cpu-boolean-narrowing keeps booleans as i1 through comparisons, logical ops and data movement, and casts
back only where they meet other consumers; the values do not change."""

from __future__ import annotations

import torch

from ttir_eval import function_module, run_function
from ttmlir.dialects import make_context
from ttmlir.passes import make_pass

T = "tensor<4x6xf32>"
BODY = f"""
  %0 = "ttir.ge"(%a0, %a1) : ({T}, {T}) -> {T}
  %1 = "ttir.lt"(%a0, %a1) : ({T}, {T}) -> {T}
  %2 = "ttir.logical_or"(%0, %1) : ({T}, {T}) -> {T}
  %3 = "ttir.logical_not"(%0) : ({T}) -> {T}
  %4 = "ttir.slice_static"(%3) <{{begins = [0 : i32, 0 : i32], ends = [4 : i32, 6 : i32], step = [1 : i32, 2 : i32]}}> : ({T}) -> tensor<4x3xf32>
  %5 = "ttir.reshape"(%4) <{{shape = [4 : i32, 3 : i32]}}> : (tensor<4x3xf32>) -> tensor<4x3xf32>
  %6 = "ttir.add"(%2, %0) : ({T}, {T}) -> {T}
  %7 = "ttir.slice_static"(%6) <{{begins = [0 : i32, 0 : i32], ends = [4 : i32, 3 : i32], step = [1 : i32, 1 : i32]}}> : ({T}) -> tensor<4x3xf32>
  %8 = "ttir.multiply"(%7, %5) : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  return %8 : tensor<4x3xf32>"""


def test_booleans_stay_i1_and_keep_values():
    torch.manual_seed(0)
    inputs = [torch.randn(4, 6), torch.randn(4, 6)]
    want = run_function(function_module(["4x6", "4x6"], BODY, "4x3"), inputs)[0]
    module = function_module(["4x6", "4x6"], BODY, "4x3")
    make_pass("ttir-cpu-boolean-narrowing").apply(make_context(), module)
    module.verify()
    kinds = {op.name: str(op.results[0].type.element_type) for op in module.walk()
             if op.name in ("ttir.ge", "ttir.lt", "ttir.logical_or", "ttir.logical_not", "ttir.reshape")}
    assert set(kinds.values()) == {"i1"}
    casts = [op for op in module.walk() if op.name == "ttir.typecast"]
    assert len(casts) == 3  # before the add (two operands) and before the multiply
    torch.testing.assert_close(run_function(module, inputs)[0], want)
