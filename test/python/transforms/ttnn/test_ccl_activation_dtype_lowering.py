"""`--ttnn-ccl-activation-dtype-lowering`: a projection's activations cross reduce_scatter/all_gather in bfp_bf8 and the
residual add brings the block back to bf16; run on a 1x2 mesh, the result stays within block-float precision of the
bf16 graph."""

import torch

from ttmlir.asm import print_module
from ttmlir.compiler import lower
from ttmlir.runtime.device import MeshDevice
from ttmlir.runtime.executor import Binary, run_program
from ttmlir.runtime.golden import pcc

LAYOUT = "#ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<{}x{}x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>"
MODEL = f"""
#dram = #ttnn.buffer_type<dram>
#a = {LAYOUT.format(1, 4)}
#w = {LAYOUT.format(4, 8)}
#o = {LAYOUT.format(1, 8)}
#s = {LAYOUT.format(1, 4)}
func.func @block(%act: tensor<32x128xbf16, #a>, %weight: tensor<128x256xbf16, #w>,
                 %residual: tensor<32x256xbf16, #o>) -> tensor<32x256xbf16, #o> {{
  %m = "ttnn.matmul"(%act, %weight) <{{transpose_a = false, transpose_b = false}}>
      : (tensor<32x128xbf16, #a>, tensor<128x256xbf16, #w>) -> tensor<32x256xbf16, #o>
  %rs = "ttnn.reduce_scatter"(%m) <{{cluster_axis = 1 : ui32, reduce_type = #ttcore.reduce_type<sum>,
      scatter_dim = 1 : si32}}> : (tensor<32x256xbf16, #o>) -> tensor<32x128xbf16, #s>
  %ag = "ttnn.all_gather"(%rs) <{{all_gather_dim = 1 : si32, cluster_axis = 1 : ui32}}>
      : (tensor<32x128xbf16, #s>) -> tensor<32x256xbf16, #o>
  %out = "ttnn.add"(%residual, %ag) : (tensor<32x256xbf16, #o>, tensor<32x256xbf16, #o>) -> tensor<32x256xbf16, #o>
  return %out : tensor<32x256xbf16, #o>
}}
"""


def _run(text: str, inputs):
    from ttmlir.target.ttnn import translate

    module = lower(text, "<test>", "ttcore-register-device", "mesh-shape=1,2")
    binary = Binary(data=translate(module))
    (out,), _ = run_program(binary, 0, inputs, MeshDevice("wormhole_b0", (1, 2)))
    return out.data.float()


def test_block_crosses_the_collectives_in_bfp8():
    lowered = print_module(lower(MODEL, "<test>", "ttnn-ccl-activation-dtype-lowering"))
    for op in ("ttnn.matmul", "ttnn.reduce_scatter", "ttnn.all_gather"):
        line = next(l for l in lowered.splitlines() if f'"{op}"' in l)
        assert line.rsplit("->", 1)[1].strip().startswith("tensor<32x") and "bfp_bf8" in line.rsplit("->", 1)[1]
    add = next(l for l in lowered.splitlines() if '"ttnn.add"' in l)
    assert "-> tensor<32x256xbf16" in add and "typecast" not in lowered
    g = torch.Generator().manual_seed(0)
    inputs = [torch.randn(s, generator=g).to(torch.bfloat16) for s in ((32, 128), (128, 256), (32, 256))]
    reference, lowered_out = _run(MODEL, inputs), _run(lowered, inputs)
    assert not torch.equal(reference, lowered_out)  # the activations really went through block floats
    assert pcc(reference, lowered_out) > 0.99
