"""--ttir-fusing turns activations written out elementwise into the one op, keeping their values (TTIR goldens
before and after on the same inputs), and leaves look-alikes alone."""

from __future__ import annotations

import pytest
import torch

from ttir_eval import function_module, run_function
from ttmlir.dialects import make_context
from ttmlir.passes import make_pass

T = "tensor<4x8xf32>"
SPLAT = '"ttir.full"() <{{fill_value = {} : f32, shape = array<i32: 4, 8>}}> : () -> ' + T

CASES = [
    ("silu", f"""
  %0 = "ttir.sigmoid"(%a0) : ({T}) -> {T}
  %1 = "ttir.multiply"(%0, %a0) : ({T}, {T}) -> {T}
  return %1 : {T}"""),
    ("gelu", f"""
  %h = {SPLAT.format("5.000000e-01")}
  %s = {SPLAT.format("0.707106769")}
  %o = {SPLAT.format("1.000000e+00")}
  %0 = "ttir.multiply"(%a0, %s) : ({T}, {T}) -> {T}
  %1 = "ttir.erf"(%0) : ({T}) -> {T}
  %2 = "ttir.add"(%1, %o) : ({T}, {T}) -> {T}
  %3 = "ttir.multiply"(%a0, %h) : ({T}, {T}) -> {T}
  %4 = "ttir.multiply"(%3, %2) : ({T}, {T}) -> {T}
  return %4 : {T}"""),
    ("relu6", f"""
  %z = {SPLAT.format("0.000000e+00")}
  %six = {SPLAT.format("6.000000e+00")}
  %0 = "ttir.maximum"(%a0, %z) : ({T}, {T}) -> {T}
  %1 = "ttir.minimum"(%0, %six) : ({T}, {T}) -> {T}
  return %1 : {T}"""),
    ("hardsigmoid", f"""
  %three = {SPLAT.format("3.000000e+00")}
  %0 = "ttir.add"(%a0, %three) : ({T}, {T}) -> {T}
  %1 = "ttir.relu6"(%0) : ({T}) -> {T}
  %six = {SPLAT.format("6.000000e+00")}
  %2 = "ttir.div"(%1, %six) : ({T}, {T}) -> {T}
  return %2 : {T}"""),
]


def _fuse(module):
    make_pass("ttir-fusing").apply(make_context(), module)
    module.verify()
    return module


@pytest.mark.parametrize("name, body", CASES, ids=[c[0] for c in CASES])
def test_activation_fusion_keeps_values(name, body):
    x = torch.linspace(-8, 8, 32).reshape(4, 8)
    before = run_function(function_module(["4x8"], body, "4x8"), [x])[0]
    module = _fuse(function_module(["4x8"], body, "4x8"))
    names = [op.name for op in module.walk() if op.name.startswith("ttir.")]
    assert names == [f"ttir.{name}"]
    after = run_function(module, [x])[0]
    assert torch.allclose(before, after, atol=1e-3, rtol=1e-3)


def test_a_look_alike_is_not_fused():
    # x * sigmoid(2x) is not silu; an intermediate used elsewhere keeps the cone too
    body = f"""
  %two = {SPLAT.format("2.000000e+00")}
  %0 = "ttir.multiply"(%a0, %two) : ({T}, {T}) -> {T}
  %1 = "ttir.sigmoid"(%0) : ({T}) -> {T}
  %2 = "ttir.multiply"(%1, %a0) : ({T}, {T}) -> {T}
  return %2 : {T}"""
    module = _fuse(function_module(["4x8"], body, "4x8"))
    assert "ttir.sigmoid" in [op.name for op in module.walk()]
