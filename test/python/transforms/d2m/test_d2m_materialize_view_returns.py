"""--d2m-materialize-view-returns on programs whose host transfers are the explicit d2m.to_device/d2m.to_host:
a view moved to the host is copied into a tensor of its own first, and the program, lowered to TTMetal and run
on the simulated grid, gives back the input (a copy through a view changes no value)."""

from __future__ import annotations

import torch

from ttmlir.asm import parse_text
from ttmlir.dialects import d2m, make_context
from ttmlir.passes import make_pass
from ttmlir.runtime.metal.program import run_program
from ttmlir.target.ttmetal import translate

LAYOUT = ("#ttcore.metal_layout<logical_shape = 64x32, dim_alignments = 32x32, collapsed_intervals = "
          "dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>, l1, sharded>")
DEVICE = "tensor<1x1x2x1x!ttcore.tile<32x32, f32>, #layout>"
PROGRAM = f"""
#layout = {LAYOUT}
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @round_trip(%arg0: tensor<64x32xf32>) -> tensor<64x32xf32> {{
  %0 = d2m.empty() : {DEVICE}
  %1 = d2m.to_device %arg0, %0 layout = #layout : tensor<64x32xf32> into {DEVICE} -> {DEVICE}
  %2 = d2m.view_layout %1 remapping = #map : {DEVICE} -> {DEVICE}
  %3 = d2m.empty() : tensor<64x32xf32>
  %4 = d2m.to_host %2, %3 layout = #layout : {DEVICE} into tensor<64x32xf32> -> tensor<64x32xf32>
  return %4 : tensor<64x32xf32>
}}
"""


def _compiled(passes: list[str]):
    ctx = make_context()
    module, _ = parse_text(ctx, PROGRAM)
    for name in ["ttcore-register-device", *passes]:
        make_pass(name).apply(ctx, module)
    return module


def test_a_view_moved_to_the_host_is_copied_into_a_tensor_first():
    module = _compiled(["d2m-materialize-view-returns"])
    (to_host,) = [op for op in module.walk() if isinstance(op, d2m.ToHostOp)]
    assert isinstance(to_host.input.owner, d2m.GenericOp)
    assert isinstance(to_host.input.owner.inputs[0].owner, d2m.ViewLayoutOp)


def test_the_explicit_host_transfers_run_as_the_moves_they_name():
    module = _compiled(["d2m-materialize-view-returns", "convert-d2m-to-ttkernel", "convert-d2m-to-ttmetal",
                        "convert-ttkernel-to-emitc"])
    x = torch.randn(64, 32)
    (out,), _ = run_program(translate(module), [x])
    assert torch.equal(out, x)
