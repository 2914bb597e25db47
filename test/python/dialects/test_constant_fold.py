"""`--canonicalize` folds TTIR elementwise ops of constants to the values torch computes for the same op."""

import numpy as np
import pytest
import torch

from ttmlir.compiler import lower
from ttmlir.ir.props import dense_values

LHS, RHS = [[1.5, -2.25, 7.0, -9.0]], [[0.5, 4.0, -3.0, 2.0]]
INT_LHS, INT_RHS = [[7, -7, 100, -3]], [[2, 2, -9, 5]]


def folded(body: str, result: str) -> np.ndarray:
    """The values the single constant op left after canonicalization holds."""
    module = lower(f"func.func @f() -> {result} {{\n{body}\n}}", "<test>", "canonicalize")
    ops = [op for op in module.walk() if op.name.startswith("ttir.")]
    assert len(ops) == 1, [op.name for op in ops]
    (op,) = ops
    shape = op.results[0].type.get_shape()
    if op.name == "ttir.constant":
        return np.array(dense_values(op.prop("value"))).reshape(shape)
    fill = {"ttir.zeros": 0, "ttir.ones": 1}.get(op.name)
    return np.full(shape, fill if fill is not None else op.prop("fill_value").value.data)


def constant(name: str, values, element: str) -> str:
    shape = "x".join(map(str, np.array(values).shape))
    return f'%{name} = "ttir.constant"() <{{value = dense<{values}> : tensor<{shape}x{element}>}}> : () -> tensor<{shape}x{element}>'


@pytest.mark.parametrize("op, torch_op", [("add", torch.add), ("subtract", torch.sub), ("multiply", torch.mul),
                                           ("div", torch.div), ("maximum", torch.maximum), ("pow", torch.pow),
                                           ("remainder", torch.remainder), ("atan2", torch.atan2)])
def test_binary_f32(op, torch_op):
    t = "tensor<1x4xf32>"
    body = (f"{constant('a', LHS, 'f32')}\n{constant('b', RHS, 'f32')}\n"
            f'%r = "ttir.{op}"(%a, %b) : ({t}, {t}) -> {t}\nreturn %r : {t}')
    want = torch_op(torch.tensor(LHS), torch.tensor(RHS)).numpy()
    np.testing.assert_allclose(folded(body, t), want, rtol=1e-6, equal_nan=True)


@pytest.mark.parametrize("op, torch_op", [("div", lambda a, b: torch.div(a, b, rounding_mode="trunc")),
                                           ("remainder", torch.remainder), ("minimum", torch.minimum),
                                           ("bitwise_xor", torch.bitwise_xor)])
def test_binary_si32(op, torch_op):
    t = "tensor<1x4xsi32>"
    body = (f"{constant('a', INT_LHS, 'si32')}\n{constant('b', INT_RHS, 'si32')}\n"
            f'%r = "ttir.{op}"(%a, %b) : ({t}, {t}) -> {t}\nreturn %r : {t}')
    np.testing.assert_array_equal(folded(body, t), torch_op(torch.tensor(INT_LHS), torch.tensor(INT_RHS)).numpy())


@pytest.mark.parametrize("op, torch_op", [("exp", torch.exp), ("sqrt", torch.sqrt), ("neg", torch.neg),
                                           ("abs", torch.abs), ("floor", torch.floor), ("sign", torch.sign),
                                           ("sin", torch.sin)])
def test_unary_bf16(op, torch_op):
    t = "tensor<1x4xbf16>"
    values = [[0.25, 1.5, 3.0, 10.0]]
    body = f'{constant("a", values, "bf16")}\n%r = "ttir.{op}"(%a) : ({t}) -> {t}\nreturn %r : {t}'
    want = torch_op(torch.tensor(values, dtype=torch.bfloat16).float()).bfloat16().float().numpy()
    np.testing.assert_array_equal(folded(body, t), want)


def test_typecast_truncates_floats_and_keeps_out_of_range_values_for_the_device():
    body = (f'{constant("a", [[1.7, -2.3, 3.0]], "f32")}\n'
            '%r = "ttir.typecast"(%a) : (tensor<1x3xf32>) -> tensor<1x3xsi8>\nreturn %r : tensor<1x3xsi8>')
    np.testing.assert_array_equal(folded(body, "tensor<1x3xsi8>"), [[1, -2, 3]])
    module = lower('func.func @f() -> tensor<2xsi8> {\n' + constant("a", [300, 1], "si32") +
                   '\n%r = "ttir.typecast"(%a) : (tensor<2xsi32>) -> tensor<2xsi8>\nreturn %r : tensor<2xsi8>\n}',
                   "<test>", "canonicalize")
    assert any(op.name == "ttir.typecast" for op in module.walk())


def test_division_by_zero_is_not_folded():
    t = "tensor<1x4xf32>"
    body = (f"{constant('a', LHS, 'f32')}\n{constant('b', [[1.0, 0.0, 1.0, 1.0]], 'f32')}\n"
            f'%r = "ttir.div"(%a, %b) : ({t}, {t}) -> {t}\nreturn %r : {t}')
    module = lower(f"func.func @f() -> {t} {{\n{body}\n}}", "<test>", "canonicalize")
    assert any(op.name == "ttir.div" for op in module.walk())


def test_splat_sum_and_layout_ops():
    body = ('%a = "ttir.full"() <{shape = array<i32: 2, 4>, fill_value = 2.5 : f32}> : () -> tensor<2x4xf32>\n'
            '%p = "ttir.permute"(%a) <{permutation = array<i64: 1, 0>}> : (tensor<2x4xf32>) -> tensor<4x2xf32>\n'
            '%r = "ttir.sum"(%p) <{dim_arg = [0 : i32], keep_dim = false}> : (tensor<4x2xf32>) -> tensor<2xf32>\n'
            'return %r : tensor<2xf32>')
    np.testing.assert_array_equal(folded(body, "tensor<2xf32>"), [10.0, 10.0])
    values = np.arange(12).reshape(2, 3, 2)
    body = (f'{constant("a", values.tolist(), "si32")}\n'
            '%p = "ttir.permute"(%a) <{permutation = array<i64: 2, 0, 1>}> : (tensor<2x3x2xsi32>) -> tensor<2x2x3xsi32>\n'
            'return %p : tensor<2x2x3xsi32>')
    np.testing.assert_array_equal(folded(body, "tensor<2x2x3xsi32>"), values.transpose(2, 0, 1))


def test_fold_full_to_scalar_keeps_values():
    """Fills shrink to one element; a consumer they gave its shape computes small and is broadcast after."""
    from ttir_eval import function_module, run_function
    from xdsl.context import Context

    from ttmlir.passes import make_pass

    body = ('%f = "ttir.full"() <{shape = array<i32: 64, 32>, fill_value = 1.5 : f32}> : () -> tensor<64x32xf32>\n'
            '%z = "ttir.ones"() <{shape = array<i32: 64, 32>}> : () -> tensor<64x32xf32>\n'
            '%s = "ttir.add"(%a0, %f) : (tensor<1x32xf32>, tensor<64x32xf32>) -> tensor<64x32xf32>\n'
            '%r = "ttir.multiply"(%s, %z) : (tensor<64x32xf32>, tensor<64x32xf32>) -> tensor<64x32xf32>\n'
            'return %r : tensor<64x32xf32>')
    x = torch.randn(1, 32)
    want = run_function(function_module(["1x32"], body, "64x32"), [x])
    module = function_module(["1x32"], body, "64x32")
    make_pass("ttir-fold-full-to-scalar").apply(Context(), module)
    fills = [op for op in module.walk() if op.name in ("ttir.full", "ttir.ones")]
    assert fills and all(op.results[0].type.get_shape() == (1, 1) for op in fills)
    torch.testing.assert_close(run_function(module, [x]), want)
