"""`--ttir-fold-constant-reshape-broadcast` and `--ttir-move-reshape-to-constant`: the reshapes and broadcasts around
constants move or fold away, and the graph computes what it did (run on the simulator before and after, and in torch).
"""

import pytest
import torch

from ttmlir.asm import print_module
from ttmlir.compiler import compile_ttir, lower
from ttmlir.runtime.device import MeshDevice
from ttmlir.runtime.executor import Binary, run_program

# pow(x, reshape(3.0)) + broadcast(0.5) and, on the activation path, mul(reshape(y), c) with c a splat 1x32x64
MODEL = """
func.func @forward(%x: tensor<32x64xf32>, %y: tensor<32x64xf32>) -> (tensor<32x64xf32>, tensor<1x32x64xf32>) {
  %c3 = "ttir.constant"() <{value = dense<3.0> : tensor<32x1x64xf32>}> : () -> tensor<32x1x64xf32>
  %e = "ttir.reshape"(%c3) <{shape = [32 : i32, 64 : i32]}> : (tensor<32x1x64xf32>) -> tensor<32x64xf32>
  %p = "ttir.pow"(%x, %e) : (tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
  %h = "ttir.constant"() <{value = dense<0.5> : tensor<1x64xf32>}> : () -> tensor<1x64xf32>
  %hb = "ttir.broadcast"(%h) <{broadcast_dimensions = array<i64: 32, 1>}> : (tensor<1x64xf32>) -> tensor<32x64xf32>
  %s = "ttir.add"(%p, %hb) : (tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
  %c = "ttir.constant"() <{value = dense<-2.0> : tensor<1x32x64xf32>}> : () -> tensor<1x32x64xf32>
  %yr = "ttir.reshape"(%y) <{shape = [1 : i32, 32 : i32, 64 : i32]}> : (tensor<32x64xf32>) -> tensor<1x32x64xf32>
  %m = "ttir.multiply"(%yr, %c) : (tensor<1x32x64xf32>, tensor<1x32x64xf32>) -> tensor<1x32x64xf32>
  return %s, %m : tensor<32x64xf32>, tensor<1x32x64xf32>
}
"""


def _run(text: str, x, y):
    binary = Binary(data=compile_ttir(text))
    index = next(i for i, p in enumerate(binary.programs) if p.name == "forward")
    outputs, _ = run_program(binary, index, [x, y], MeshDevice())
    return [o.data.float() for o in outputs]


@pytest.mark.parametrize("passes", [["ttir-fold-constant-reshape-broadcast"], ["ttir-move-reshape-to-constant"],
                                    ["ttir-move-reshape-to-constant", "ttir-fold-constant-reshape-broadcast"]])
def test_rewritten_graph_computes_the_same(passes):
    text = MODEL
    for name in passes:
        text = print_module(lower(text, "<test>", name))
    forward = text[text.index("func.func @forward"):]
    # the constants' reshapes and broadcasts fold into constants of the shapes their users read
    assert '"ttir.broadcast"' not in forward and forward.count('"ttir.reshape"') == 1
    multiply = next(line for line in forward.splitlines() if '"ttir.multiply"' in line)
    moved = "ttir-move-reshape-to-constant" in passes  # multiply runs on y's own shape, one reshape after it
    assert multiply.endswith("-> tensor<32x64xf32>" if moved else "-> tensor<1x32x64xf32>")
    g = torch.Generator().manual_seed(0)
    x, y = torch.rand(32, 64, generator=g) + 0.5, torch.randn(32, 64, generator=g)
    before, after = _run(MODEL, x, y), _run(text, x, y)
    assert all(torch.equal(a, b) for a, b in zip(before, after))
    assert torch.allclose(after[0], x ** 3 + 0.5, rtol=0.02) and torch.allclose(after[1], (y * -2).reshape(1, 32, 64),
                                                                                 rtol=0.02)
