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


CONV = ('%c = "ttir.conv2d"(%x, %w) <{stride = 1 : i32, padding = 1 : i32, dilation = 1 : i32, groups = 1 : i32}> '
        ': (tensor<1x6x6x4xf32>, tensor<8x4x3x3xf32>) -> tensor<1x6x6x8xf32>')
PER_CHANNEL = "tensor<1x1x1x8xf32> {ttcore.argument_type = #ttcore.argument_type<constant>}"
OUT = "tensor<1x6x6x8xf32>"


@pytest.mark.parametrize("options, tail, fused_ops", [
    ("", f'%r = "ttir.add"(%c, %p) : ({OUT}, tensor<1x1x1x8xf32>) -> {OUT}', {"ttir.add": 0}),
    ("ttnn-enable-conv2d-with-multiply-pattern=true",
     f'%s = "ttir.multiply"(%c, %p) : ({OUT}, tensor<1x1x1x8xf32>) -> {OUT}\n'
     f'  %r = "ttir.add"(%s, %q) : ({OUT}, tensor<1x1x1x8xf32>) -> {OUT}', {"ttir.add": 0}),
    ("ttnn-enable-conv2d-with-multiply-pattern=true",
     f'%r = "ttir.batch_norm_inference"(%c, %p, %q, %m, %v) <{{dimension = 3 : i32, epsilon = 1.0e-05 : f32}}> : '
     f'({OUT}, {", ".join(["tensor<1x1x1x8xf32>"] * 4)}) -> {OUT}', {"ttir.batch_norm_inference": 0}),
])
def test_conv_fusions_keep_values(options, tail, fused_ops):
    """Bias adds, per-channel scales and batch norms after a conv fold into it, computing the same values."""
    from ttmlir.asm import parse_text

    params = ", ".join(f"%{n}: {PER_CHANNEL}" for n in "pqmv")
    text = (f"func.func @f(%x: tensor<1x6x6x4xf32>, %w: tensor<8x4x3x3xf32> {{ttcore.argument_type = "
            f"#ttcore.argument_type<parameter>}}, {params}) -> {OUT} {{\n  {CONV}\n  {tail}\n  return %r : {OUT}\n}}")
    inputs = [torch.randn(1, 6, 6, 4), torch.randn(8, 4, 3, 3)] + [torch.rand(1, 1, 1, 8) + 0.5 for _ in range(4)]
    want = run_function(parse_text(make_context(), text)[0], inputs)
    module = parse_text(make_context(), text)[0]
    make_pass("ttir-fusing", options).apply(make_context(), module)
    names = [op.name for op in module.walk()]
    assert all(names.count(name) == count for name, count in fused_ops.items()) and names.count("ttir.conv2d") == 1
    torch.testing.assert_close(run_function(module, inputs), want, rtol=1e-4, atol=1e-4)


def test_batch_norm_after_a_channels_first_conv_keeps_values():
    from ttmlir.asm import parse_text

    out, stat = "tensor<1x8x6x6xf32>", "tensor<8xf32> {ttcore.argument_type = #ttcore.argument_type<constant>}"
    text = (f"func.func @f(%x: tensor<1x4x6x6xf32>, %w: tensor<8x4x3x3xf32> {{ttcore.argument_type = "
            f"#ttcore.argument_type<parameter>}}, %s: {stat}, %o: {stat}, %m: {stat}, %v: {stat}) -> {out} {{\n"
            '  %c = "ttir.conv2d"(%x, %w) <{stride = 1 : i32, padding = 1 : i32, dilation = 1 : i32, groups = 1 : i32, '
            'batch_dim = 0 : i64, channel_dim = 1 : i64, height_dim = 2 : i64, width_dim = 3 : i64}> : '
            f'(tensor<1x4x6x6xf32>, tensor<8x4x3x3xf32>) -> {out}\n'
            '  %r = "ttir.batch_norm_inference"(%c, %s, %o, %m, %v) <{dimension = 1 : i32, epsilon = 1.0e-05 : f32}> : '
            f'({out}, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) -> {out}\n  return %r : {out}\n}}')
    inputs = [torch.randn(1, 4, 6, 6), torch.randn(8, 4, 3, 3)] + [torch.rand(8) + 0.5 for _ in range(4)]
    want = run_function(parse_text(make_context(), text)[0], inputs)
    module = parse_text(make_context(), text)[0]
    make_pass("ttir-fusing", "ttnn-enable-conv2d-with-multiply-pattern=true").apply(make_context(), module)
    names = [op.name for op in module.walk()]
    assert "ttir.batch_norm_inference" not in names and names.count("ttir.conv2d") == 1
    torch.testing.assert_close(run_function(module, inputs), want, rtol=1e-4, atol=1e-4)
