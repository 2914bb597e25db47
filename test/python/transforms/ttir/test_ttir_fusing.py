"""--ttir-fusing turns activations written out elementwise into the one op, keeping their values (TTIR goldens
before and after on the same inputs), and leaves look-alikes alone."""

from __future__ import annotations

import pytest
import torch

from ttir_eval import function_module, run_function
from ttmlir.dialects import make_context
from ttmlir.ir.props import int_values
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


def test_a_clamp_at_a_small_floor_is_not_relu():
    # max(x, 1e-12) (F.normalize's guard against dividing by zero) matches relu to 2% at every sample but 0, where
    # it keeps the division finite: it stays a clamp, and a zero row still divides to zero
    body = f"""
  %lo = {SPLAT.format("9.99999996E-13")}
  %hi = {SPLAT.format("3.40282347E+38")}
  %0 = "ttir.clamp_tensor"(%a0, %lo, %hi) : ({T}, {T}, {T}) -> {T}
  %1 = "ttir.div"(%a0, %0) : ({T}, {T}) -> {T}
  return %1 : {T}"""
    x = torch.zeros(4, 8)
    module = _fuse(function_module(["4x8"], body, "4x8"))
    assert "ttir.relu" not in [op.name for op in module.walk()]
    assert torch.equal(run_function(module, [x])[0], torch.zeros(4, 8))


NORMALIZE = """
  %two = "ttir.full"() <{shape = array<i32: 2, 4, 8>, fill_value = 2.0 : f32}> : () -> tensor<2x4x8xf32>
  %sq = "ttir.pow"(%a0, %two) : (tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %sum = "ttir.sum"(%sq) <{dim_arg = [DIM : i32], keep_dim = true}> : (tensor<2x4x8xf32>) -> tensor<RED>
  %half = "ttir.full"() <{shape = array<i32: SHAPE>, fill_value = 0.5 : f32}> : () -> tensor<RED>
  %root = "ttir.pow"(%sum, %half) : (tensor<RED>, tensor<RED>) -> tensor<RED>
  %lo = "ttir.full"() <{shape = array<i32: SHAPE>, fill_value = FLOOR : f32}> : () -> tensor<RED>
  %hi = "ttir.full"() <{shape = array<i32: SHAPE>, fill_value = 3.40282347E+38 : f32}> : () -> tensor<RED>
  %clamp = "ttir.clamp_tensor"(%root, %lo, %hi) : (tensor<RED>, tensor<RED>, tensor<RED>) -> tensor<RED>
  %b = "ttir.broadcast"(%clamp) <{broadcast_dimensions = array<i64: BCAST>}> : (tensor<RED>) -> tensor<2x4x8xf32>
  %div = "ttir.div"(%a0, %b) : (tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %scale = "ttir.full"() <{shape = array<i32: 2, 4, 8>, fill_value = SCALE : f32}> : () -> tensor<2x4x8xf32>
  %out = "ttir.multiply"(%div, %scale) : (tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  return %out : tensor<2x4x8xf32>"""


@pytest.mark.parametrize("dim, floor, scale, fused", [
    (1, "1.0e-12", "2.0", True), (2, "1.0e-12", "2.82842708", True),
    (1, "0.5", "2.0", False),   # a floor that matters is a clamp, not eps
    (1, "1.0e-12", "3.0", False),   # not sqrt(D): a plain L2 normalization
])
def test_f_normalize_times_sqrt_of_the_size_is_an_rms_norm(dim, floor, scale, fused):
    shape = [2, 4, 8]
    reduced = [1 if d == dim else n for d, n in enumerate(shape)]
    body = (NORMALIZE.replace("DIM", str(dim)).replace("RED", "x".join(map(str, reduced)) + "xf32")
            .replace("SHAPE", ", ".join(map(str, reduced))).replace("FLOOR", floor).replace("SCALE", scale)
            .replace("BCAST", ", ".join(str(shape[d] if d == dim else 1) for d in range(3))))
    x = torch.randn(2, 4, 8, generator=torch.Generator().manual_seed(4))
    x[1, :, 3] = 0.0   # a zero vector along dim 1: still zeros, not 0/0
    x[0, 2, :] = 0.0   # and along dim 2
    before = run_function(function_module(["2x4x8"], body, "2x4x8"), [x])[0]
    module = _fuse(function_module(["2x4x8"], body, "2x4x8"))
    names = [op.name for op in module.walk() if op.name.startswith("ttir.")]
    assert ("ttir.rms_norm" in names) == fused and ("ttir.div" in names) != fused
    if fused:
        assert names.count("ttir.permute") == (2 if dim != 2 else 0)
    after = run_function(module, [x])[0]
    assert not after.isnan().any() and torch.allclose(before, after, atol=1e-5, rtol=1e-4)


CONV = ('%c = "ttir.conv2d"(%x, %w) <{stride = 1 : i32, padding = 1 : i32, dilation = 1 : i32, groups = 1 : i32}> '
        ': (tensor<1x6x6x4xf32>, tensor<8x4x3x3xf32>) -> tensor<1x6x6x8xf32>')
PER_CHANNEL = "tensor<1x1x1x8xf32> {ttcore.argument_type = #ttcore.argument_type<constant>}"
OUT = "tensor<1x6x6x8xf32>"


@pytest.mark.parametrize("options, tail, fused_ops", [
    ("", f'%r = "ttir.add"(%c, %p) : ({OUT}, tensor<1x1x1x8xf32>) -> {OUT}', {"ttir.add": 0}),
    ("", f'%b = "ttir.broadcast"(%p) <{{broadcast_dimensions = array<i64: 1, 6, 6, 1>}}> : (tensor<1x1x1x8xf32>) -> {OUT}\n'
     f'  %r = "ttir.add"(%b, %c) : ({OUT}, {OUT}) -> {OUT}', {"ttir.add": 0, "ttir.broadcast": 0}),
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


def test_a_scale_made_of_constants_is_evaluated_into_the_weights():
    """As a greedy rewrite folds what it visits: once a constant scale moves onto constant weights, the product is
    computed (zeros times ones is zeros), and neither the scale nor a multiply is left."""
    from ttmlir.asm import parse_text

    text = (f"func.func @f(%x: tensor<1x6x6x4xf32>) -> {OUT} {{\n"
            '  %w = "ttir.full"() <{fill_value = 2.0 : f32, shape = array<i32: 8, 4, 3, 3>}> : () -> tensor<8x4x3x3xf32>\n'
            f"  {CONV}\n"
            '  %p = "ttir.full"() <{fill_value = 3.0 : f32, shape = array<i32: 1, 1, 1, 8>}> : () -> tensor<1x1x1x8xf32>\n'
            f'  %r = "ttir.multiply"(%c, %p) : ({OUT}, tensor<1x1x1x8xf32>) -> {OUT}\n'
            f"  return %r : {OUT}\n}}")
    inputs = [torch.randn(1, 6, 6, 4)]
    want = run_function(parse_text(make_context(), text)[0], inputs)
    module = parse_text(make_context(), text)[0]
    make_pass("ttir-fusing", "ttnn-enable-conv2d-with-multiply-pattern=true").apply(make_context(), module)
    names = [op.name for op in module.walk() if op.name.startswith("ttir.")]
    assert names == ["ttir.full", "ttir.conv2d"]
    weight = next(op for op in module.walk() if op.name == "ttir.full")
    assert weight.results[0].type.get_shape() == (8, 4, 3, 3) and float(weight.prop("fill_value").value.data) == 6.0
    torch.testing.assert_close(run_function(module, inputs), want, rtol=1e-4, atol=1e-4)


def test_a_transposed_constant_scale_still_moves_into_the_weights():
    from ttmlir.asm import parse_text

    text = (f"func.func @f(%x: tensor<1x6x6x4xf32>, %w: tensor<8x4x3x3xf32> {{ttcore.argument_type = "
            f"#ttcore.argument_type<parameter>}}, %p: tensor<1x1x8x1xf32> {{ttcore.argument_type = "
            f"#ttcore.argument_type<constant>}}) -> {OUT} {{\n  {CONV}\n"
            '  %t = "ttir.transpose"(%p) <{dim0 = 2 : si32, dim1 = 3 : si32}> : (tensor<1x1x8x1xf32>) -> '
            "tensor<1x1x1x8xf32>\n"
            f'  %r = "ttir.multiply"(%c, %t) : ({OUT}, tensor<1x1x1x8xf32>) -> {OUT}\n  return %r : {OUT}\n}}')
    inputs = [torch.randn(1, 6, 6, 4), torch.randn(8, 4, 3, 3), torch.rand(1, 1, 8, 1) + 0.5]
    want = run_function(parse_text(make_context(), text)[0], inputs)
    module = parse_text(make_context(), text)[0]
    make_pass("ttir-fusing", "ttnn-enable-conv2d-with-multiply-pattern=true").apply(make_context(), module)
    conv = next(op for op in module.walk() if op.name == "ttir.conv2d")
    assert conv.operands[1].owner.name == "ttir.multiply"
    assert [use.operation.name for use in conv.results[0].uses] == ["func.return"]
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


@pytest.mark.parametrize("scale, fused", [("0.0833333358", True), ("0.0800000", False)])
def test_a_sum_scaled_by_one_over_its_count_is_a_mean(scale, fused):
    body = f"""
  %s = "ttir.sum"(%a0) <{{dim_arg = [1 : i32, 2 : i32], keep_dim = false}}> : (tensor<2x3x4x5xf32>) -> tensor<2x5xf32>
  %c = "ttir.full"() <{{fill_value = {scale} : f32, shape = array<i32: 2, 5>}}> : () -> tensor<2x5xf32>
  %m = "ttir.multiply"(%c, %s) : (tensor<2x5xf32>, tensor<2x5xf32>) -> tensor<2x5xf32>
  return %m : tensor<2x5xf32>"""
    x = torch.randn(2, 3, 4, 5)
    before = run_function(function_module(["2x3x4x5"], body, "2x5"), [x])[0]
    module = _fuse(function_module(["2x3x4x5"], body, "2x5"))
    names = [op.name for op in module.walk() if op.name.startswith("ttir.")]
    assert ("ttir.sum" not in names and "ttir.multiply" not in names) == fused
    torch.testing.assert_close(run_function(module, [x])[0], before, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("keep", [True, False])
def test_a_spatial_mean_is_one_mean_over_the_flattened_plane(keep):
    out = "2x1x1x6" if keep else "2x6"
    body = f"""
  %m = "ttir.mean"(%a0) <{{dim_arg = [1 : i32, 2 : i32], keep_dim = {str(keep).lower()}}}> : (tensor<2x3x4x6xf32>) -> tensor<{out}xf32>
  return %m : tensor<{out}xf32>"""
    x = torch.randn(2, 3, 4, 6)
    module = _fuse(function_module(["2x3x4x6"], body, out))
    means = [op for op in module.walk() if op.name == "ttir.mean"]
    assert [int_values(m.prop("dim_arg")) for m in means] == [[2]]
    torch.testing.assert_close(run_function(module, [x])[0], x.mean(dim=(1, 2), keepdim=keep), rtol=1e-5, atol=1e-6)


LINEAR_CASES = [
    # a reshape keeping the last dim between the matmul and the add; the bias broadcast from (6,) in two steps
    ("reshaped", "6", "2x2x6", """
  %p = "ttir.matmul"(%a0, %a1) : (tensor<4x5xf32>, tensor<5x6xf32>) -> tensor<4x6xf32>
  %r = "ttir.reshape"(%p) <{shape = [2 : i32, 2 : i32, 6 : i32]}> : (tensor<4x6xf32>) -> tensor<2x2x6xf32>
  %b = "ttir.reshape"(%a2) <{shape = [1 : i32, 1 : i32, 6 : i32]}> : (tensor<6xf32>) -> tensor<1x1x6xf32>
  %c = "ttir.broadcast"(%b) <{broadcast_dimensions = array<i64: 2, 2, 1>}> : (tensor<1x1x6xf32>) -> tensor<2x2x6xf32>
  %s = "ttir.add"(%r, %c) : (tensor<2x2x6xf32>, tensor<2x2x6xf32>) -> tensor<2x2x6xf32>
  return %s : tensor<2x2x6xf32>""", True),
    # a bias larger than the product: the linear's result is the broadcast sum
    ("larger_bias", "3x4x6", "3x4x6", """
  %p = "ttir.matmul"(%a0, %a1) : (tensor<4x5xf32>, tensor<5x6xf32>) -> tensor<4x6xf32>
  %s = "ttir.add"(%a2, %p) : (tensor<3x4x6xf32>, tensor<4x6xf32>) -> tensor<3x4x6xf32>
  return %s : tensor<3x4x6xf32>""", True),
    # a bias varying along rows cannot follow a reshape that regroups them
    ("row_bias_after_reshape", "2x1x6", "2x2x6", """
  %p = "ttir.matmul"(%a0, %a1) : (tensor<4x5xf32>, tensor<5x6xf32>) -> tensor<4x6xf32>
  %r = "ttir.reshape"(%p) <{shape = [2 : i32, 2 : i32, 6 : i32]}> : (tensor<4x6xf32>) -> tensor<2x2x6xf32>
  %s = "ttir.add"(%r, %a2) : (tensor<2x2x6xf32>, tensor<2x1x6xf32>) -> tensor<2x2x6xf32>
  return %s : tensor<2x2x6xf32>""", False),
]


@pytest.mark.parametrize("name, bias, out, body, fused", LINEAR_CASES, ids=[c[0] for c in LINEAR_CASES])
def test_matmul_and_bias_become_linear(name, bias, out, body, fused):
    torch.manual_seed(0)
    inputs = [torch.randn(4, 5), torch.randn(5, 6), torch.randn(*map(int, bias.split("x")))]
    before = run_function(function_module(["4x5", "5x6", bias], body, out), inputs)[0]
    module = _fuse(function_module(["4x5", "5x6", bias], body, out))
    names = [op.name for op in module.walk() if op.name.startswith("ttir.")]
    assert ("ttir.linear" in names and "ttir.add" not in names) == fused
    torch.testing.assert_close(run_function(module, inputs)[0], before, rtol=1e-5, atol=1e-5)


SLICE_CASES = [
    # rows of the product: A is sliced (transposed A: along its columns), with a bias varying along rows
    ("rows_transposed_a_bias", ["5x6", "5x7", "6x7"], "2x7", """
  %p = "ttir.linear"(%a0, %a1, %a2) <{transpose_a = true, transpose_b = false}>
       : (tensor<5x6xf32>, tensor<5x7xf32>, tensor<6x7xf32>) -> tensor<6x7xf32>
  %s = "ttir.slice_static"(%p) <{begins = [-4 : i32, 0 : i32], ends = [6 : i32, 7 : i32], step = [2 : i32, 1 : i32]}>
       : (tensor<6x7xf32>) -> tensor<2x7xf32>
  return %s : tensor<2x7xf32>""", True),
    # columns of a batched product: B is sliced, the batch kept
    ("batched_cols", ["2x3x4", "2x4x9", "9"], "2x3x3", """
  %p = "ttir.linear"(%a0, %a1, %a2) : (tensor<2x3x4xf32>, tensor<2x4x9xf32>, tensor<9xf32>) -> tensor<2x3x9xf32>
  %s = "ttir.slice_static"(%p) <{begins = [0 : i32, 0 : i32, 1 : i32], ends = [2 : i32, 3 : i32, 9 : i32], step = [1 : i32, 1 : i32, 3 : i32]}>
       : (tensor<2x3x9xf32>) -> tensor<2x3x3xf32>
  return %s : tensor<2x3x3xf32>""", True),
    # rows and columns at once: left alone
    ("both", ["3x4", "4x5", "5"], "1x2", """
  %p = "ttir.linear"(%a0, %a1, %a2) : (tensor<3x4xf32>, tensor<4x5xf32>, tensor<5xf32>) -> tensor<3x5xf32>
  %s = "ttir.slice_static"(%p) <{begins = [2 : i32, 0 : i32], ends = [3 : i32, 2 : i32], step = [1 : i32, 1 : i32]}>
       : (tensor<3x5xf32>) -> tensor<1x2xf32>
  return %s : tensor<1x2xf32>""", False),
]


@pytest.mark.parametrize("name, args, out, body, fused", SLICE_CASES, ids=[c[0] for c in SLICE_CASES])
def test_a_slice_of_a_product_slices_its_operand(name, args, out, body, fused):
    torch.manual_seed(0)
    inputs = [torch.randn(*map(int, s.split("x"))) for s in args]
    before = run_function(function_module(args, body, out), inputs)[0]
    module = _fuse(function_module(args, body, out))
    product = next(op for op in module.walk() if op.name == "ttir.linear")
    assert (product.results[0].type.get_shape() == tuple(map(int, out.split("x")))) == fused
    torch.testing.assert_close(run_function(module, inputs)[0], before, rtol=1e-5, atol=1e-5)
    module = function_module(args, body, out)
    make_pass("ttir-fusing", "enable-permute-slice-after-matmul-fusion=false").apply(make_context(), module)
    assert "ttir.slice_static" in [op.name for op in module.walk()]


@pytest.mark.parametrize("out", ["2x5x12", "10x12"])
def test_heads_moved_and_merged_are_concatenate_heads(out):
    body = f"""
  %p = "ttir.permute"(%a0) <{{permutation = array<i64: 0, 2, 1, 3>}}> : (tensor<2x3x5x4xf32>) -> tensor<2x5x3x4xf32>
  %r = "ttir.reshape"(%p) <{{shape = [{", ".join(f"{d} : i32" for d in out.split("x"))}]}}> : (tensor<2x5x3x4xf32>) -> tensor<{out}xf32>
  return %r : tensor<{out}xf32>"""
    x = torch.randn(2, 3, 5, 4)
    module = _fuse(function_module(["2x3x5x4"], body, out))
    assert "ttir.concatenate_heads" in [op.name for op in module.walk()]
    want = x.permute(0, 2, 1, 3).reshape(*map(int, out.split("x")))
    torch.testing.assert_close(run_function(module, [x])[0], want)


@pytest.mark.parametrize("pad, fused", [("0, 0, 0, 0, 1, 1, 2, 2, 0, 0", True), ("0, 0, 0, 0, 1, 0, 2, 2, 0, 0", False)])
def test_a_zero_pad_before_a_conv3d_becomes_its_padding(pad, fused):
    from ttmlir.asm import parse_text

    low = [int(v) for v in pad.split(", ")]
    padded = [2 + low[2] + low[3], 5 + low[4] + low[5], 6 + low[6] + low[7]]
    out = [padded[0] - 2 + 2, padded[1] - 2 + 2, padded[2] - 2 + 2]  # kernel 3, conv padding 1
    p, o = "x".join(map(str, padded)), "x".join(map(str, out))
    text = (f"func.func @f(%x: tensor<1x2x5x6x4xf32>, %w: tensor<3x4x3x3x3xf32>) -> tensor<1x{o}x3xf32> {{\n"
            f'  %p = "ttir.pad"(%x) <{{padding = array<i32: {pad}>, value = 0.0 : f32}}> : (tensor<1x2x5x6x4xf32>) -> tensor<1x{p}x4xf32>\n'
            '  %c = "ttir.conv3d"(%p, %w) <{stride = array<i32: 1, 1, 1>, padding = array<i32: 1, 1, 1>, groups = 1 : i32}> : '
            f'(tensor<1x{p}x4xf32>, tensor<3x4x3x3x3xf32>) -> tensor<1x{o}x3xf32>\n  return %c : tensor<1x{o}x3xf32>\n}}')
    inputs = [torch.randn(1, 2, 5, 6, 4), torch.randn(3, 4, 3, 3, 3)]
    want = run_function(parse_text(make_context(), text)[0], inputs)
    module = parse_text(make_context(), text)[0]
    make_pass("ttir-fusing").apply(make_context(), module)
    module.verify()
    assert ("ttir.pad" not in [op.name for op in module.walk()]) == fused
    torch.testing.assert_close(run_function(module, inputs), want, rtol=1e-4, atol=1e-4)


def test_two_convs_of_one_input_summed_are_one_conv():
    from ttmlir.asm import parse_text

    out = "tensor<1x6x6x8xf32>"
    conv = ('"ttir.conv2d"(%x, %{w}, %{b}) <{{stride = 1 : i32, padding = {p} : i32, dilation = 1 : i32, groups = 1 : i32}}> : '
            '(tensor<1x6x6x4xf32>, tensor<8x4x{k}x{k}xf32>, tensor<1x1x1x8xf32>) -> ' + out)
    text = (f"func.func @f(%x: tensor<1x6x6x4xf32>, %w3: tensor<8x4x3x3xf32>, %b3: tensor<1x1x1x8xf32>, "
            f"%w1: tensor<8x4x1x1xf32>, %b1: tensor<1x1x1x8xf32>) -> {out} {{\n"
            f"  %c3 = {conv.format(w='w3', b='b3', p=1, k=3)}\n  %c1 = {conv.format(w='w1', b='b1', p=0, k=1)}\n"
            f'  %s = "ttir.add"(%c1, %c3) : ({out}, {out}) -> {out}\n  return %s : {out}\n}}')
    inputs = [torch.randn(1, 6, 6, 4), torch.randn(8, 4, 3, 3), torch.randn(1, 1, 1, 8), torch.randn(8, 4, 1, 1),
              torch.randn(1, 1, 1, 8)]
    want = run_function(parse_text(make_context(), text)[0], inputs)
    module = parse_text(make_context(), text)[0]
    make_pass("ttir-fusing").apply(make_context(), module)
    module.verify()
    assert [op.name for op in module.walk()].count("ttir.conv2d") == 1
    torch.testing.assert_close(run_function(module, inputs), want, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("square, weighted", [("pow", True), ("multiply", False)])
def test_rms_norm_written_out_is_rms_norm(square, weighted):
    sq = ('"ttir.pow"(%a0, %two) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>' if square == "pow" else
          '"ttir.multiply"(%a0, %a0) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>')
    tail = ('  %w = "ttir.reshape"(%a1) <{shape = [1 : i32, 8 : i32]}> : (tensor<8xf32>) -> tensor<1x8xf32>\n'
            '  %g = "ttir.broadcast"(%w) <{broadcast_dimensions = array<i64: 4, 1>}> : (tensor<1x8xf32>) -> tensor<4x8xf32>\n'
            '  %o = "ttir.multiply"(%g, %y) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>\n'
            '  return %o : tensor<4x8xf32>') if weighted else '  return %y : tensor<4x8xf32>'
    body = f"""
  %two = "ttir.full"() <{{fill_value = 2.0 : f32, shape = array<i32: 4, 8>}}> : () -> tensor<4x8xf32>
  %eps = "ttir.full"() <{{fill_value = 1.0e-05 : f32, shape = array<i32: 4, 1>}}> : () -> tensor<4x1xf32>
  %s = {sq}
  %m = "ttir.mean"(%s) <{{dim_arg = [-1 : i32], keep_dim = true}}> : (tensor<4x8xf32>) -> tensor<4x1xf32>
  %a = "ttir.add"(%m, %eps) : (tensor<4x1xf32>, tensor<4x1xf32>) -> tensor<4x1xf32>
  %r = "ttir.rsqrt"(%a) : (tensor<4x1xf32>) -> tensor<4x1xf32>
  %b = "ttir.broadcast"(%r) <{{broadcast_dimensions = array<i64: 1, 8>}}> : (tensor<4x1xf32>) -> tensor<4x8xf32>
  %y = "ttir.multiply"(%a0, %b) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
{tail}"""
    from ttmlir.asm import parse_text

    text = f"func.func @f(%a0: tensor<4x8xf32>, %a1: tensor<8xf32>) -> tensor<4x8xf32> {{\n{body}\n}}"
    inputs = [torch.randn(4, 8), torch.randn(8)]
    want = run_function(parse_text(make_context(), text)[0], inputs)
    module = parse_text(make_context(), text)[0]
    make_pass("ttir-fusing").apply(make_context(), module)
    module.verify()
    names = [op.name for op in module.walk() if op.name.startswith("ttir.")]
    assert names == ["ttir.rms_norm"]
    torch.testing.assert_close(run_function(module, inputs), want, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("bias", [True, False])
def test_products_of_one_lhs_are_one_product_sliced(bias):
    """Three projections of one input (weights N x K, widths 3, 5, 2, with or without biases) are one product of
    the joined weights, sliced; a fourth reading the input transposed is left alone. Values and names are kept."""
    from ttmlir.asm import parse_text

    def product(i, n):
        b = f", %b{i}" if bias else ""
        types = f"tensor<4x6xf32>, tensor<{n}x6xf32>" + (f", tensor<{n}xf32>" if bias else "")
        return (f'  %p{i} = "ttir.{"linear" if bias else "matmul"}"(%x, %w{i}{b}) <{{transpose_a = false, '
                f'transpose_b = true}}> : ({types}) -> tensor<4x{n}xf32> loc("proj{i}")\n')
    widths = (3, 5, 2)
    params = ", ".join([f"%w{i}: tensor<{n}x6xf32>" for i, n in enumerate(widths)] +
                       ([f"%b{i}: tensor<{n}xf32>" for i, n in enumerate(widths)] if bias else []))
    outs = ", ".join(f"tensor<4x{n}xf32>" for n in widths)
    text = (f"func.func @f(%x: tensor<4x6xf32>, %y: tensor<6x4xf32>, {params}) -> ({outs}, tensor<6x6xf32>) {{\n"
            + "".join(product(i, n) for i, n in enumerate(widths)) +
            '  %t = "ttir.matmul"(%x, %y) <{transpose_a = true, transpose_b = true}> : (tensor<4x6xf32>, '
            'tensor<6x4xf32>) -> tensor<6x6xf32>\n'
            f"  return %p0, %p1, %p2, %t : {outs}, tensor<6x6xf32>\n}}")
    torch.manual_seed(0)
    inputs = [torch.randn(4, 6), torch.randn(6, 4), *(torch.randn(n, 6) for n in widths)]
    inputs += [torch.randn(n) for n in widths] if bias else []
    before = run_function(parse_text(make_context(), text)[0], inputs)
    module = _fuse(parse_text(make_context(), text)[0])
    names = [op.name for op in module.walk() if op.name.startswith("ttir.")]
    assert names.count("ttir.concat") == (2 if bias else 1) and names.count("ttir.slice_static") == 3
    assert names.count("ttir.linear" if bias else "ttir.matmul") == (1 if bias else 2)
    # each slice answers for its projection (per-op golden checks find it by name), the joint product for none
    named = {str(op.location): op.name for op in module.walk() if op.name.startswith("ttir.")}
    assert all(named[f'loc("proj{i}")'] == "ttir.slice_static" for i in range(3))
    for want, got in zip(before, run_function(module, inputs)):
        torch.testing.assert_close(got, want, rtol=1e-5, atol=1e-5)
