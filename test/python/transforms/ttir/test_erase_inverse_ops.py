"""--ttir-erase-inverse-ops keeps what a graph computes: each graph is evaluated with the TTIR goldens (torch, one op
at a time) before and after the pass on the same random inputs, and the TMs it should erase are gone."""

from __future__ import annotations

import pytest
import torch
from xdsl.ir import BlockArgument

from ttir_eval import function_module as _module, run_function as _run
from ttmlir.dialects import make_context
from ttmlir.passes import make_pass

def _erase(module, options: str = ""):
    make_pass("ttir-erase-inverse-ops", options).apply(make_context(), module)
    return module


CASES = [
    # inverse permutes around an elementwise chain
    (["2x3x4x5"], """
  %0 = "ttir.permute"(%a0) <{permutation = array<i64: 0, 2, 3, 1>}> : (tensor<2x3x4x5xf32>) -> tensor<2x4x5x3xf32>
  %1 = "ttir.exp"(%0) : (tensor<2x4x5x3xf32>) -> tensor<2x4x5x3xf32>
  %2 = "ttir.neg"(%1) : (tensor<2x4x5x3xf32>) -> tensor<2x4x5x3xf32>
  %3 = "ttir.permute"(%2) <{permutation = array<i64: 0, 3, 1, 2>}> : (tensor<2x4x5x3xf32>) -> tensor<2x3x4x5xf32>
  return %3 : tensor<2x3x4x5xf32>""", "2x3x4x5", 0),
    # reshape in and out of a softmax over a dimension the reshape keeps, with a binary op on the way
    (["6x4x8", "6x4x8"], """
  %0 = "ttir.reshape"(%a0) <{shape = [24 : i32, 8 : i32]}> : (tensor<6x4x8xf32>) -> tensor<24x8xf32>
  %1 = "ttir.reshape"(%a1) <{shape = [24 : i32, 8 : i32]}> : (tensor<6x4x8xf32>) -> tensor<24x8xf32>
  %2 = "ttir.add"(%0, %1) : (tensor<24x8xf32>, tensor<24x8xf32>) -> tensor<24x8xf32>
  %3 = "ttir.softmax"(%2) <{dimension = 1 : si32}> : (tensor<24x8xf32>) -> tensor<24x8xf32>
  %4 = "ttir.reshape"(%3) <{shape = [6 : i32, 4 : i32, 8 : i32]}> : (tensor<24x8xf32>) -> tensor<6x4x8xf32>
  return %4 : tensor<6x4x8xf32>""", "6x4x8", 0),
    # a permute through a keep_dim=false mean and a slice: the leftover permute is the contracted one
    (["2x3x4x5"], """
  %0 = "ttir.permute"(%a0) <{permutation = array<i64: 0, 2, 3, 1>}> : (tensor<2x3x4x5xf32>) -> tensor<2x4x5x3xf32>
  %1 = "ttir.slice_static"(%0) <{begins = [0 : i32, 1 : i32, 0 : i32, 0 : i32], ends = [2 : i32, 4 : i32, 5 : i32, 3 : i32], step = [1 : i32, 2 : i32, 1 : i32, 1 : i32]}> : (tensor<2x4x5x3xf32>) -> tensor<2x2x5x3xf32>
  %2 = "ttir.mean"(%1) <{dim_arg = [1 : i32], keep_dim = false}> : (tensor<2x2x5x3xf32>) -> tensor<2x5x3xf32>
  return %2 : tensor<2x5x3xf32>""", "2x5x3", 1),
    # concat of permuted pieces, permuted back
    (["4x6", "4x6"], """
  %0 = "ttir.permute"(%a0) <{permutation = array<i64: 1, 0>}> : (tensor<4x6xf32>) -> tensor<6x4xf32>
  %1 = "ttir.permute"(%a1) <{permutation = array<i64: 1, 0>}> : (tensor<4x6xf32>) -> tensor<6x4xf32>
  %2 = "ttir.concat"(%0, %1) <{dim = 1 : si32}> : (tensor<6x4xf32>, tensor<6x4xf32>) -> tensor<6x8xf32>
  %3 = "ttir.permute"(%2) <{permutation = array<i64: 1, 0>}> : (tensor<6x8xf32>) -> tensor<8x6xf32>
  return %3 : tensor<8x6xf32>""", "8x6", 0),
    # a reshape above a broadcast that grows a run of dims: the broadcast then grows the reshaped run
    (["3x1x1"], """
  %0 = "ttir.broadcast"(%a0) <{broadcast_dimensions = array<i64: 1, 4, 2>}> : (tensor<3x1x1xf32>) -> tensor<3x4x2xf32>
  %1 = "ttir.reshape"(%0) <{shape = [3 : i32, 8 : i32]}> : (tensor<3x4x2xf32>) -> tensor<3x8xf32>
  %2 = "ttir.relu"(%1) : (tensor<3x8xf32>) -> tensor<3x8xf32>
  return %2 : tensor<3x8xf32>""", "3x8", 1),
    # permute, reshape, permute that keep element order: one reshape
    (["2x3x5x7"], """
  %0 = "ttir.permute"(%a0) <{permutation = array<i64: 0, 3, 1, 2>}> : (tensor<2x3x5x7xf32>) -> tensor<2x7x3x5xf32>
  %1 = "ttir.reshape"(%0) <{shape = [2 : i32, 7 : i32, 1 : i32, 15 : i32]}> : (tensor<2x7x3x5xf32>) -> tensor<2x7x1x15xf32>
  %2 = "ttir.permute"(%1) <{permutation = array<i64: 0, 2, 3, 1>}> : (tensor<2x7x1x15xf32>) -> tensor<2x1x15x7xf32>
  return %2 : tensor<2x1x15x7xf32>""", "2x1x15x7", 1),
]


@pytest.mark.parametrize("args, body, result, tms_left", CASES)
def test_erase_inverse_ops_keeps_values(args, body, result, tms_left):
    torch.manual_seed(0)
    inputs = [torch.randn(*map(int, s.split("x"))) for s in args]
    before = _run(_module(args, body, result), inputs)
    module = _erase(_module(args, body, result))
    module.verify()
    after = _run(module, inputs)
    for a, b in zip(before, after):
        assert a.shape == b.shape and torch.allclose(a, b, atol=1e-6)
    assert sum(op.name in ("ttir.reshape", "ttir.permute") for op in module.walk()) == tms_left


def test_a_merged_softmax_dimension_blocks_the_commute():
    body = """
  %0 = "ttir.reshape"(%a0) <{shape = [12 : i32, 5 : i32]}> : (tensor<3x4x5xf32>) -> tensor<12x5xf32>
  %1 = "ttir.softmax"(%0) <{dimension = 0 : si32}> : (tensor<12x5xf32>) -> tensor<12x5xf32>
  return %1 : tensor<12x5xf32>"""
    module = _erase(_module(["3x4x5"], body, "12x5"))
    assert [op.name for op in module.walk()][-3:] == ["ttir.reshape", "ttir.softmax", "func.return"]


def test_without_a_flattened_op_force_false_leaves_the_function():
    body = """
  %0 = "ttir.permute"(%a0) <{permutation = array<i64: 1, 0>}> : (tensor<4x6xf32>) -> tensor<6x4xf32>
  %1 = "ttir.exp"(%0) : (tensor<6x4xf32>) -> tensor<6x4xf32>
  %2 = "ttir.permute"(%1) <{permutation = array<i64: 1, 0>}> : (tensor<6x4xf32>) -> tensor<4x6xf32>
  return %2 : tensor<4x6xf32>"""
    module = _erase(_module(["4x6"], body, "4x6"), "force=false")
    assert sum(op.name == "ttir.permute" for op in module.walk()) == 2


@pytest.mark.parametrize("shape, body, result, tm_input", [
    # as many TMs either way, of one size, as many tiles: the reshape goes to the input (reshape, then the norm)
    ("64x32", """
  %0 = "ttir.rms_norm"(%a0) <{normalized_shape = array<i64: 32>, epsilon = 1.0e-05 : f32, operandSegmentSizes = array<i32: 1, 0, 0>}> : (tensor<64x32xf32>) -> tensor<64x32xf32>
  %1 = "ttir.reshape"(%0) <{shape = [2 : i32, 32 : i32, 32 : i32]}> : (tensor<64x32xf32>) -> tensor<2x32x32xf32>
  return %1 : tensor<2x32x32xf32>""", "2x32x32", "argument"),
    # as many TMs either way, of one size, but 8x1x16 pads to 8 tiles where 8x16 fills one: the norm stays on 8x16
    ("8x16", """
  %0 = "ttir.rms_norm"(%a0) <{normalized_shape = array<i64: 16>, epsilon = 1.0e-05 : f32, operandSegmentSizes = array<i32: 1, 0, 0>}> : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %1 = "ttir.reshape"(%0) <{shape = [8 : i32, 1 : i32, 16 : i32]}> : (tensor<8x16xf32>) -> tensor<8x1x16xf32>
  return %1 : tensor<8x1x16xf32>""", "8x1x16", "ttir.rms_norm"),
    # as many TMs either way, smaller after the slice: the reshape stays after it
    ("8x16", """
  %0 = "ttir.reshape"(%a0) <{shape = [8 : i32, 1 : i32, 16 : i32]}> : (tensor<8x16xf32>) -> tensor<8x1x16xf32>
  %1 = "ttir.slice_static"(%0) <{begins = [7 : i32, 0 : i32, 0 : i32], ends = [8 : i32, 1 : i32, 16 : i32], step = [1 : i32, 1 : i32, 1 : i32]}> : (tensor<8x1x16xf32>) -> tensor<1x1x16xf32>
  return %1 : tensor<1x1x16xf32>""", "1x1x16", "ttir.slice_static"),
], ids=["norm", "norm-tiles", "slice"])
def test_of_equal_tm_counts_the_smaller_tms_then_fewer_tiles_then_the_inputs_win(shape, body, result, tm_input):
    x = torch.randn(*map(int, shape.split("x")))
    before = _run(_module([shape], body, result), [x])[0]
    module = _erase(_module([shape], body, result))
    (reshape,) = [op for op in module.walk() if op.name == "ttir.reshape"]
    source = reshape.operands[0]
    assert isinstance(source, BlockArgument) if tm_input == "argument" else source.owner.name == tm_input
    torch.testing.assert_close(_run(module, [x])[0], before)


def test_a_where_keeps_its_tms():
    """As upstream's pass, TMs commute through unary and binary elementwise ops only: a where between a permute and
    a reshape (a NaN scrub zeroing whole heads, its condition broadcast) keeps both where they are."""
    body = """
  %0 = "ttir.permute"(%a0) <{permutation = array<i64: 1, 2, 0, 3>}> : (tensor<1x4x2x8xf32>) -> tensor<4x2x1x8xf32>
  %1 = "ttir.broadcast"(%a1) <{broadcast_dimensions = array<i64: 1, 1, 1, 8>}> : (tensor<4x2x1x1xf32>) -> tensor<4x2x1x8xf32>
  %2 = "ttir.broadcast"(%a2) <{broadcast_dimensions = array<i64: 4, 2, 1, 8>}> : (tensor<1x1x1x1xf32>) -> tensor<4x2x1x8xf32>
  %3 = "ttir.where"(%1, %2, %0) : (tensor<4x2x1x8xf32>, tensor<4x2x1x8xf32>, tensor<4x2x1x8xf32>) -> tensor<4x2x1x8xf32>
  %4 = "ttir.reshape"(%3) <{shape = [4 : i32, 16 : i32]}> : (tensor<4x2x1x8xf32>) -> tensor<4x16xf32>
  return %4 : tensor<4x16xf32>"""
    args = ["1x4x2x8", "4x2x1x1", "1x1x1x1"]
    module = _erase(_module(args, body, "4x16"))
    where = next(op for op in module.walk() if op.name == "ttir.where")
    assert where.operands[2].owner.name == "ttir.permute"
    assert [use.operation.name for use in where.results[0].uses] == ["ttir.reshape"]
