"""--ttir-to-ttir-decomposition rewrites ops TTNN lacks into TTIR ops it has, keeping their values (TTIR goldens
before and after on the same inputs); config=cpu-fallback leaves what the host runs itself."""

from __future__ import annotations

import pytest
import torch

from ttir_eval import function_module, run_function
from ttmlir.dialects import make_context
from ttmlir.passes import PassFailure, make_pass

# (name, argument shapes, result shape, body, what no op may be afterwards)
CASES = [
    ("dot_general_batched", ["2x3x5x4", "2x4x6"], "2x3x5x6", """
  %0 = "ttir.dot_general"(%a0, %a1) <{batch_dims_lhs = array<i64: 0>, batch_dims_rhs = array<i64: 0>,
       contract_dims_lhs = array<i64: 3>, contract_dims_rhs = array<i64: 1>}>
       : (tensor<2x3x5x4xf32>, tensor<2x4x6xf32>) -> tensor<2x3x5x6xf32>
  return %0 : tensor<2x3x5x6xf32>""", lambda op: op.name == "ttir.dot_general"),
    ("dot_general_two_contracted", ["4x3x2", "4x3x5"], "2x5", """
  %0 = "ttir.dot_general"(%a0, %a1) <{batch_dims_lhs = array<i64>, batch_dims_rhs = array<i64>,
       contract_dims_lhs = array<i64: 0, 1>, contract_dims_rhs = array<i64: 0, 1>}>
       : (tensor<4x3x2xf32>, tensor<4x3x5xf32>) -> tensor<2x5xf32>
  return %0 : tensor<2x5xf32>""", lambda op: op.name == "ttir.dot_general"),
    ("dot_general_outer", ["6x1", "1x7"], "6x7", """
  %0 = "ttir.dot_general"(%a0, %a1) <{batch_dims_lhs = array<i64>, batch_dims_rhs = array<i64>,
       contract_dims_lhs = array<i64: 1>, contract_dims_rhs = array<i64: 0>}>
       : (tensor<6x1xf32>, tensor<1x7xf32>) -> tensor<6x7xf32>
  return %0 : tensor<6x7xf32>""", lambda op: op.name in ("ttir.dot_general", "ttir.matmul")),
    ("index_negative_begin", ["5x4"], "2x4", """
  %0 = "ttir.index"(%a0) <{dim = 0 : i32, begin = -3 : i32, end = 5 : i32, step = 2 : i32}>
       : (tensor<5x4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>""", lambda op: op.name == "ttir.index"),
    ("index_select_chunks", ["3x12"], "3x6", """
  %0 = "ttir.index_select"(%a0) <{dim = 1 : si32, begin = 1 : si32, length = 2 : si32, stride = 4 : si32}>
       : (tensor<3x12xf32>) -> tensor<3x6xf32>
  return %0 : tensor<3x6xf32>""", lambda op: op.name == "ttir.index_select"),
    ("index_select_many_chunks", ["2x40"], "2x20", """
  %0 = "ttir.index_select"(%a0) <{dim = 1 : si32, begin = 2 : si32, length = 2 : si32, stride = 4 : si32}>
       : (tensor<2x40xf32>) -> tensor<2x20xf32>
  return %0 : tensor<2x20xf32>""", lambda op: op.name in ("ttir.index_select", "ttir.concat")),
    ("index_select_ragged", ["3x10"], "3x8", """
  %0 = "ttir.index_select"(%a0) <{dim = -1 : si32, begin = 0 : si32, length = 3 : si32, stride = 4 : si32}>
       : (tensor<3x10xf32>) -> tensor<3x8xf32>
  return %0 : tensor<3x8xf32>""", lambda op: op.name == "ttir.index_select"),
    ("prod_two_dims_keep", ["2x3x4x2"], "2x1x4x1", """
  %0 = "ttir.prod"(%a0) <{dim_arg = [1 : i32, -1 : i32], keep_dim = true}> : (tensor<2x3x4x2xf32>) -> tensor<2x1x4x1xf32>
  return %0 : tensor<2x1x4x1xf32>""", lambda op: op.name == "ttir.prod" and len(op.prop("dim_arg").data) > 1),
    ("negative_pad_mixed", ["2x5x6"], "2x7x3", """
  %0 = "ttir.pad"(%a0) <{padding = array<i32: 0, 0, 1, 1, -1, -2>, value = 7.0 : f32}> : (tensor<2x5x6xf32>) -> tensor<2x7x3xf32>
  return %0 : tensor<2x7x3xf32>""", lambda op: op.name == "ttir.pad" and min(op.prop("padding").get_values()) < 0),
    ("batch_norm_channels_of_3d", ["2x3x64", "3", "3", "3", "3"], "2x3x64", """
  %0 = "ttir.batch_norm_inference"(%a0, %a1, %a2, %a3, %a4) <{dimension = 1 : i32, epsilon = 1.0e-05 : f32}>
       : (tensor<2x3x64xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x64xf32>
  return %0 : tensor<2x3x64xf32>""", lambda op: op.name == "ttir.batch_norm_inference" and op.operands[1].type.get_num_dims() != 4),
    ("batch_norm_last_dim", ["4x5x6", "6", "6", "6", "6"], "4x5x6", """
  %0 = "ttir.batch_norm_inference"(%a0, %a1, %a2, %a3, %a4) <{dimension = 2 : i32, epsilon = 1.0e-05 : f32}>
       : (tensor<4x5x6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>) -> tensor<4x5x6xf32>
  return %0 : tensor<4x5x6xf32>""", lambda op: op.name == "ttir.batch_norm_inference" and op.operands[1].type.get_num_dims() != 4),
]


def _decompose(module, options: str = ""):
    make_pass("ttir-to-ttir-decomposition", options).apply(make_context(), module)
    module.verify()
    return module


def _names(module) -> list[str]:
    return [op.name for op in module.walk() if op.name.startswith("ttir.")]


@pytest.mark.parametrize("name, args, result, body, gone", CASES, ids=[c[0] for c in CASES])
def test_decomposition_keeps_values(name, args, result, body, gone):
    torch.manual_seed(0)
    inputs = [torch.randn(*map(int, s.split("x"))) for s in args]
    if len(inputs) == 5:  # a batch norm's variance is positive
        inputs[4] = inputs[4].abs() + 0.5
    before = run_function(function_module(args, body, result), inputs)[0]
    module = _decompose(function_module(args, body, result))
    assert not any(gone(op) for op in module.walk())
    after = run_function(module, inputs)[0]
    assert after.shape == before.shape
    assert torch.allclose(before, after, atol=1e-5, rtol=1e-5)


@pytest.mark.parametrize("keep", [False, True])
def test_argmax_of_several_dims_is_one_argmax(keep):
    torch.manual_seed(0)
    x = torch.randn(3, 4, 5, 2)
    out = "4x1x1x2" if keep else "4x2"
    body = f"""
  %0 = "ttir.argmax"(%a0) <{{dim_arg = [0 : i32, 2 : i32], keep_dim = {str(keep).lower()}}}>
       : (tensor<3x4x5x2xf32>) -> tensor<{out}xi32>
  return %0 : tensor<{out}xi32>"""
    module = _decompose(_parse(["3x4x5x2"], body, out))
    argmaxes = [op for op in module.walk() if op.name == "ttir.argmax"]
    assert len(argmaxes) == 1 and len(argmaxes[0].prop("dim_arg").data) == 1
    flat = x.permute(1, 3, 0, 2).reshape(4, 2, 15).argmax(-1)
    assert torch.equal(run_function(module, [x])[0].reshape(4, 2).long(), flat)


def _parse(args, body, result):
    from ttmlir.asm import parse_text
    params = ", ".join(f"%a{i}: tensor<{s}xf32>" for i, s in enumerate(args))
    return parse_text(make_context(), f"func.func @f({params}) -> tensor<{result}xi32> {{\n{body}\n}}")[0]


def test_shapes_known_at_compile_time_become_constants():
    body = """
  %0 = "ttir.get_dimension_size"(%a0) <{dimension = -1 : i32}> : (tensor<3x9xf32>) -> tensor<1xi32>
  return %0 : tensor<1xi32>"""
    module = _decompose(_parse(["3x9"], body, "1"))
    assert _names(module) == ["ttir.full"]
    assert run_function(module, [torch.zeros(3, 9)])[0].tolist() == [9]


def test_arange_along_a_dimension_is_broadcast_from_one_dimension():
    body = """
  %0 = "ttir.arange"() <{start = 2 : si64, end = 8 : si64, step = 2 : si64, arange_dimension = 1 : i64}>
       : () -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>"""
    module = _decompose(function_module([], body, "2x3x4"))
    arange = next(op for op in module.walk() if op.name == "ttir.arange")
    assert arange.results[0].type.get_shape() == (3,)
    expected = torch.arange(2, 8, 2, dtype=torch.float32).reshape(1, 3, 1).expand(2, 3, 4)
    assert torch.equal(run_function(module, [])[0], expected)


def test_a_pool_of_a_full_is_that_full():
    body = """
  %0 = "ttir.full"() <{fill_value = 3.0 : f32, shape = array<i32: 1, 8, 8, 4>}> : () -> tensor<1x8x8x4xf32>
  %1 = "ttir.max_pool2d"(%0) <{kernel = array<i32: 2, 2>, stride = array<i32: 2, 2>, dilation = array<i32: 1, 1>,
       padding = array<i32: 1, 1, 1, 1>, ceil_mode = false}> : (tensor<1x8x8x4xf32>) -> tensor<1x5x5x4xf32>
  return %1 : tensor<1x5x5x4xf32>"""
    module = _decompose(function_module([], body, "1x5x5x4"))
    assert "ttir.max_pool2d" not in _names(module)
    assert torch.equal(run_function(module, [])[0], torch.full((1, 5, 5, 4), 3.0))


def test_an_average_pool_counting_padding_is_kept():
    # zeros from the padding enter the border windows' averages: not a constant
    body = """
  %0 = "ttir.full"() <{fill_value = 3.0 : f32, shape = array<i32: 1, 4, 4, 2>}> : () -> tensor<1x4x4x2xf32>
  %1 = "ttir.avg_pool2d"(%0) <{kernel = array<i32: 2, 2>, stride = array<i32: 2, 2>, dilation = array<i32: 1, 1>,
       padding = array<i32: 1, 1, 1, 1>, ceil_mode = false, count_include_pad = true}>
       : (tensor<1x4x4x2xf32>) -> tensor<1x3x3x2xf32>
  return %1 : tensor<1x3x3x2xf32>"""
    assert "ttir.avg_pool2d" in _names(_decompose(function_module([], body, "1x3x3x2")))


def test_cpu_fallback_keeps_what_the_host_runs():
    body = """
  %0 = "ttir.index"(%a0) <{dim = 0 : i32, begin = 1 : i32, end = 5 : i32, step = 1 : i32}>
       : (tensor<5x4xf32>) -> tensor<4x4xf32>
  %1 = "ttir.dot_general"(%0, %a1) <{batch_dims_lhs = array<i64>, batch_dims_rhs = array<i64>,
       contract_dims_lhs = array<i64: 1>, contract_dims_rhs = array<i64: 0>}>
       : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %1 : tensor<4x4xf32>"""
    names = _names(_decompose(function_module(["5x4", "4x4"], body, "4x4"), "config=cpu-fallback"))
    assert "ttir.index" in names and "ttir.dot_general" not in names and "ttir.matmul" in names


def test_an_unknown_config_is_refused():
    with pytest.raises(PassFailure, match="invalid config 'gpu'"):
        _decompose(function_module(["4"], "  return %a0 : tensor<4xf32>", "4"), "config=gpu")


@pytest.mark.parametrize("dims", [[1, 2], [0], [-1, 0]])
def test_reverse_is_an_embedding_lookup(dims):
    x = torch.randn(3, 4, 5)
    body = f"""
  %0 = "ttir.reverse"(%a0) <{{dimensions = array<i64: {", ".join(map(str, dims))}>}}> : (tensor<3x4x5xf32>) -> tensor<3x4x5xf32>
  return %0 : tensor<3x4x5xf32>"""
    module = _decompose(function_module(["3x4x5"], body, "3x4x5"))
    assert "ttir.reverse" not in _names(module) and "ttir.embedding" in _names(module)
    assert torch.equal(run_function(module, [x])[0], x.flip(dims))


@pytest.mark.parametrize("gqa, transpose", [(False, True), (True, False)])
def test_split_heads_on_the_host_path(gqa, transpose):
    from ttmlir.asm import parse_text

    if gqa:
        args, operands = "%q: tensor<2x5x32xf32>, %kv: tensor<2x5x16xf32>", "%q, %kv"
        types, inputs = "tensor<2x5x32xf32>, tensor<2x5x16xf32>", [torch.randn(2, 5, 32), torch.randn(2, 5, 16)]
    else:
        args, operands, types = "%q: tensor<2x5x48xf32>", "%q", "tensor<2x5x48xf32>"
        inputs = [torch.randn(2, 5, 48)]
    heads = "num_heads = 8 : ui32, num_kv_heads = 2 : ui32" if gqa else "num_heads = 4 : ui32, num_kv_heads = 4 : ui32"
    q_shape, kv = ("2x8x5x4", "2x2x5x4") if gqa else ("2x4x5x4", "2x4x5x4")
    k_shape = ("2x2x4x5" if gqa else "2x4x4x5") if transpose else kv
    outs = f"tensor<{q_shape}xf32>, tensor<{k_shape}xf32>, tensor<{kv}xf32>"
    text = (f"func.func @f({args}) -> ({outs}) {{\n  %0:3 = \"ttir.split_query_key_value_and_split_heads\"({operands}) "
            f"<{{{heads}, transpose_key = {str(transpose).lower()}}}> : ({types}) -> ({outs})\n"
            f"  return %0#0, %0#1, %0#2 : {outs}\n}}")
    want = run_function(parse_text(make_context(), text)[0], inputs)
    module = _decompose(parse_text(make_context(), text)[0], "config=cpu-fallback")
    assert "ttir.split_query_key_value_and_split_heads" not in _names(module)
    assert len(want) == 3
    for got, expected in zip(run_function(module, inputs), want):
        assert torch.equal(got, expected)
    assert "ttir.split_query_key_value_and_split_heads" in _names(_decompose(parse_text(make_context(), text)[0]))



@pytest.mark.parametrize("first, second", [((1, 11, 2), (1, 5, 2)), ((0, 12, 1), (3, 9, 3)), ((2, 12, 3), (0, 4, 1))])
def test_a_slice_of_a_slice_is_one_slice(first, second):
    from ttmlir.asm import parse_text
    from xdsl.transforms.canonicalize import CanonicalizePass

    size1, size2 = len(range(*first)), len(range(*second))
    text = (f"func.func @f(%a0: tensor<12 x 3 x f32>) -> tensor<{size2}x3xf32> {{\n"  # MLIR also reads `12 x 3 x f32`
            f'  %0 = "ttir.slice_static"(%a0) <{{begins = [{first[0]} : i32, 0 : i32], ends = [{first[1]} : i32, 3 : i32], '
            f'step = [{first[2]} : i32, 1 : i32]}}> : (tensor<12x3xf32>) -> tensor<{size1}x3xf32>\n'
            f'  %1 = "ttir.slice_static"(%0) <{{begins = [{second[0]} : i32, 0 : i32], ends = [{second[1]} : i32, 3 : i32], '
            f'step = [{second[2]} : i32, 1 : i32]}}> : (tensor<{size1}x3xf32>) -> tensor<{size2}x3xf32>\n'
            f"  return %1 : tensor<{size2}x3xf32>\n}}")
    module = parse_text(make_context(), text)[0]
    CanonicalizePass().apply(make_context(), module)
    assert _names(module) == ["ttir.slice_static"]
    x = torch.randn(12, 3)
    assert torch.equal(run_function(module, [x])[0], x[slice(*first)][slice(*second)])


@pytest.mark.parametrize("name, torch_reduce", [("reduce_and", torch.all), ("reduce_or", torch.any)])
def test_logical_reductions_are_flags_whatever_the_inputs(name, torch_reduce):
    # rows: all zero, one nonzero, all nonzero, values cancelling in a sum (1, -1), a product over 1 (4, 0.5)
    x = torch.tensor([[0., 0., 0., 0.], [0., 3., 0., 0.], [2., -1., 5., 0.5], [1., -1., 1., -1.], [4., .5, 4., .5]])
    body = f"""
  %0 = "ttir.{name}"(%a0) <{{dim_arg = [1 : i32], keep_dim = false}}> : (tensor<5x4xf32>) -> tensor<5xf32>
  return %0 : tensor<5xf32>"""
    module = _decompose(function_module(["5x4"], body, "5"))
    assert f"ttir.{name}" not in _names(module)
    assert run_function(module, [x])[0].tolist() == torch_reduce(x != 0, dim=1).float().tolist()
