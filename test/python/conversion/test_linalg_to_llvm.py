"""The CPU module's LLVM path: TTIR -> linalg (`--convert-ttir-to-linalg`, `--tosa-to-linalg`) -> LLVM dialect
(`--linalg-to-llvm-pipeline`) -> wrappers (`--emit-calling-convention-wrappers`), compiled and run by
`ttmlir.runtime.host_llvm`; every result is checked against numpy computing the same function itself."""

import numpy as np
import pytest

from ttmlir.asm import parse_text, print_module
from ttmlir.dialects import make_context
from ttmlir.errors import PassFailure
from ttmlir.passes import make_pass
from ttmlir.runtime import RuntimeFailure
from ttmlir.runtime.host_llvm import c_source, run_helper

PASSES = ("convert-ttir-to-linalg", "tosa-to-linalg", "linalg-to-llvm-pipeline", "emit-calling-convention-wrappers")


def lowered(text: str) -> str:
    ctx = make_context()
    module, _ = parse_text(ctx, text)
    for name in PASSES:
        make_pass(name, "").apply(ctx, module)
    module.verify()
    return print_module(module)


def function(body: str, args: list[tuple[int, ...]], results: list[tuple[int, ...]], element: str = "f32") -> str:
    def t(shape):
        return f"tensor<{'x'.join(map(str, shape))}x{element}>"
    params = ", ".join(f"%arg{i}: {t(s)}" for i, s in enumerate(args))
    ranks = f"arg_ranks = [{', '.join(str(len(s)) for s in args)}], result_ranks = [{', '.join(str(len(s)) for s in results)}]"
    outs = ", ".join(t(s) for s in results)
    return f"module {{\n  func.func @f({params}) -> ({outs}) attributes {{{ranks}}} {{\n{body}\n  }}\n}}\n"


def test_elementwise_chain_with_broadcast_matches_numpy():
    text = function("""
    %0 = "ttir.add"(%arg0, %arg1) : (tensor<4x8xf32>, tensor<1x8xf32>) -> tensor<4x8xf32>
    %1 = "ttir.multiply"(%0, %arg0) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    %2 = "ttir.tanh"(%1) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %3 = "ttir.gt"(%2, %arg0) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    %4 = "ttir.where"(%3, %2, %arg0) : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    %5 = "ttir.neg"(%4) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %6 = "ttir.maximum"(%5, %arg0) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    return %5, %6 : tensor<4x8xf32>, tensor<4x8xf32>""", [(4, 8), (1, 8)], [(4, 8), (4, 8)])
    module = lowered(text)
    assert "llvm.func @f(" in module and "llvm.func @f_helper(%arg0: !llvm.ptr) -> !llvm.ptr" in module
    rng = np.random.default_rng(1)
    a, b = rng.standard_normal((4, 8)).astype(np.float32), rng.standard_normal((1, 8)).astype(np.float32)
    got = run_helper(module, "f_helper", [a, b], [np.float32, np.float32])
    t = np.tanh((a + b) * a)
    want = -np.where(t > a, t, a)
    np.testing.assert_allclose(got[0], want, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(got[1], np.maximum(want, a), rtol=1e-5, atol=1e-6)


def test_returned_argument_is_a_copy_and_inputs_are_not_written():
    text = function("""
    %0 = "ttir.subtract"(%arg0, %arg1) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    return %0, %arg0 : tensor<2x3xf32>, tensor<2x3xf32>""", [(2, 3), (2, 3)], [(2, 3), (2, 3)])
    a, b = np.arange(6, dtype=np.float32).reshape(2, 3), np.full((2, 3), 0.5, np.float32)
    before = a.copy()
    difference, same = run_helper(lowered(text), "f_helper", [a, b], [np.float32, np.float32])
    np.testing.assert_array_equal(difference, before - 0.5)
    np.testing.assert_array_equal(same, before)
    np.testing.assert_array_equal(a, before)


def test_integer_and_cast_ops_match_numpy():
    text = function("""
    %0 = "ttir.typecast"(%arg0) : (tensor<8xf32>) -> tensor<8xi32>
    %1 = "ttir.typecast"(%0) : (tensor<8xi32>) -> tensor<8xf32>
    %2 = "ttir.abs"(%1) : (tensor<8xf32>) -> tensor<8xf32>
    return %2 : tensor<8xf32>""", [(8,)], [(8,)])
    x = np.array([-2.5, -1.5, -0.4, 0.5, 1.5, 2.5, 3.7, -7.2], np.float32)
    (got,) = run_helper(lowered(text), "f_helper", [x], [np.float32])
    np.testing.assert_array_equal(got, np.abs(np.rint(x)))  # TOSA's cast rounds half to even


def test_a_wrong_lowering_is_caught(monkeypatch):
    """The goldens are numpy's: a lowering that swapped subtract's operands fails the comparison."""
    from ttmlir.conversion.tosa_to_linalg import tosa_to_linalg
    text = function("""
    %0 = "ttir.subtract"(%arg0, %arg1) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    return %0 : tensor<4xf32>""", [(4,), (4,)], [(4,)])
    swapped, subtract = dict(tosa_to_linalg.BINARY), tosa_to_linalg.BINARY["sub"]
    swapped["sub"] = lambda e, a, b: subtract(e, b, a)
    monkeypatch.setattr(tosa_to_linalg, "BINARY", swapped)
    a, b = np.array([1, 2, 3, 4], np.float32), np.array([4, 3, 2, 1], np.float32)
    (got,) = run_helper(lowered(text), "f_helper", [a, b], [np.float32])
    assert not np.allclose(got, a - b)


def test_unlowerable_ops_are_located_errors():
    text = """module {
  func.func @f(%a: tensor<2x3xi32>) -> tensor<2xi32> {
    %0 = tosa.argmax %a {axis = 1 : i32} : (tensor<2x3xi32>) -> tensor<2xi32>
    return %0 : tensor<2xi32>
  }
}"""
    ctx = make_context()
    module, _ = parse_text(ctx, text)
    with pytest.raises(PassFailure, match="failed to legalize operation 'tosa.argmax'"):
        make_pass("tosa-to-linalg", "").apply(ctx, module)


def test_c_source_names_module_functions_apart_from_libc():
    text = function("""
    %0 = "ttir.exp"(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
    return %0 : tensor<4xf32>""", [(4,)], [(4,)])
    ctx = make_context()
    module, _ = parse_text(ctx, lowered(text))
    source = c_source(module)
    assert "ttmlir_f_helper(" in source and "expf(" in source
    with pytest.raises(RuntimeFailure, match="no function @missing_helper"):
        run_helper(lowered(text), "missing_helper", [np.zeros(4, np.float32)], [np.float32])


def test_data_movement_reductions_and_matmul_match_numpy():
    text = function("""
    %0 = "ttir.permute"(%arg0) <{permutation = array<i64: 1, 0>}> : (tensor<6x4xf32>) -> tensor<4x6xf32>
    %1 = "ttir.reshape"(%0) <{shape = [2 : i32, 12 : i32]}> : (tensor<4x6xf32>) -> tensor<2x12xf32>
    %2 = "ttir.sum"(%1) <{dim_arg = [1 : i32], keep_dim = true}> : (tensor<2x12xf32>) -> tensor<2x1xf32>
    %3 = "ttir.max"(%arg0) <{dim_arg = [0 : i32], keep_dim = true}> : (tensor<6x4xf32>) -> tensor<1x4xf32>
    %4 = "ttir.matmul"(%arg0, %0) : (tensor<6x4xf32>, tensor<4x6xf32>) -> tensor<6x6xf32>
    %5 = "ttir.concat"(%arg0, %arg0) <{dim = 1 : si32}> : (tensor<6x4xf32>, tensor<6x4xf32>) -> tensor<6x8xf32>
    return %1, %2, %3, %4, %5 : tensor<2x12xf32>, tensor<2x1xf32>, tensor<1x4xf32>, tensor<6x6xf32>, tensor<6x8xf32>""",
                    [(6, 4)], [(2, 12), (2, 1), (1, 4), (6, 6), (6, 8)])
    x = np.random.default_rng(3).standard_normal((6, 4)).astype(np.float32)
    reshaped, sums, maxima, product, joined = run_helper(lowered(text), "f_helper", [x], [np.float32] * 5)
    np.testing.assert_array_equal(reshaped, x.T.reshape(2, 12))
    np.testing.assert_allclose(sums, x.T.reshape(2, 12).sum(axis=1, keepdims=True), rtol=1e-5)
    np.testing.assert_array_equal(maxima, x.max(axis=0, keepdims=True))
    np.testing.assert_allclose(product, x @ x.T, rtol=1e-5, atol=1e-5)
    np.testing.assert_array_equal(joined, np.concatenate([x, x], axis=1))


def test_slices_pads_and_gathers_match_numpy():
    text = function("""
    %0 = "ttir.slice_static"(%arg0) <{begins = [1 : i32, 0 : i32], ends = [5 : i32, 4 : i32], step = [2 : i32, 1 : i32]}> : (tensor<6x4xf32>) -> tensor<2x4xf32>
    %1 = "ttir.pad"(%arg0) <{padding = array<i32: 1, 0, 0, 2>, value = 7.0 : f32}> : (tensor<6x4xf32>) -> tensor<7x6xf32>
    return %0, %1 : tensor<2x4xf32>, tensor<7x6xf32>""", [(6, 4)], [(2, 4), (7, 6)])
    x = np.arange(24, dtype=np.float32).reshape(6, 4)
    part, padded = run_helper(lowered(text), "f_helper", [x], [np.float32, np.float32])
    np.testing.assert_array_equal(part, x[1:5:2])
    np.testing.assert_array_equal(padded, np.pad(x, ((1, 0), (0, 2)), constant_values=7.0))


def test_a_slice_iterates_over_the_slice_not_its_source():
    """A prefix slice (offset 0, stride 1) copies only the slice's elements (the buffer is the slice's size)."""
    text = function("""
    %0 = "ttir.slice_static"(%arg0) <{begins = [0 : i32, 1 : i32], ends = [3 : i32, 3 : i32], step = [1 : i32, 1 : i32]}> : (tensor<512x4xf32>) -> tensor<3x2xf32>
    %1 = "ttir.reshape"(%0) <{shape = [1 : i32, 3 : i32, 2 : i32]}> : (tensor<3x2xf32>) -> tensor<1x3x2xf32>
    %2 = "ttir.slice_static"(%1) <{begins = [0 : i32, 1 : i32, 0 : i32], ends = [1 : i32, 3 : i32, 2 : i32], step = [1 : i32, 1 : i32, 1 : i32]}> : (tensor<1x3x2xf32>) -> tensor<1x2x2xf32>
    return %0, %2 : tensor<3x2xf32>, tensor<1x2x2xf32>""", [(512, 4)], [(3, 2), (1, 2, 2)])
    x = np.random.default_rng(5).standard_normal((512, 4)).astype(np.float32)
    head, tail = run_helper(lowered(text), "f_helper", [x], [np.float32, np.float32])
    np.testing.assert_array_equal(head, x[0:3, 1:3])
    np.testing.assert_array_equal(tail, x[0:3, 1:3].reshape(1, 3, 2)[:, 1:3])
