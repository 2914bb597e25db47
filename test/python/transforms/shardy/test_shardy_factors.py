"""Shardy's choices on a mesh, checked by the values the split program computes: which factor of an op keeps a
mesh axis (propagation's conflicts, user priorities, the explicit reshards' cost), reshapes whose dims merge or
split into several factors, and scatters into split indexed dims."""

from __future__ import annotations

import torch

from ttmlir.asm import parse_text, print_module
from ttmlir.dialects import make_context
from ttmlir.passes import stablehlo_pipeline

from test_shardy import pipeline_run, run


def test_one_axis_on_rows_and_contraction_keeps_the_rows_and_gathers_the_weight():
    """x split by rows and w by its contracted rows, both over "y": one axis cannot split both factors of the
    matmul. The rows (the bigger tensor) keep it, so the result and the bias added to it split by rows and only
    the weight is gathered, no partial sums."""
    text = '''sdy.mesh @mesh = <["x"=1, "y"=2]>
    func.func public @main(%x: tensor<64x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>},
                           %w: tensor<32x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>},
                           %b: tensor<64x16xf32>) -> tensor<64x16xf32> {
      %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<64x32xf32>, tensor<32x16xf32>) -> tensor<64x16xf32>
      %1 = stablehlo.add %0, %b : tensor<64x16xf32>
      return %1 : tensor<64x16xf32>
    }'''
    x, w, b = torch.randn(64, 32), torch.randn(32, 16), torch.randn(64, 16)
    ir, (out,) = pipeline_run(text, [[x[:32], x[32:]], [w[:16], w[16:]], b])
    assert ir.count('"stablehlo.all_gather"') == 1 and "all_reduce" not in ir
    assert "in_shardings=[<@mesh, [{\"y\"}, {}]>, <@mesh, [{\"y\"}, {}]>, <@mesh, [{\"y\"}, {}]>]" in ir
    torch.testing.assert_close(out, x @ w + b, rtol=2e-2, atol=5e-2)


def test_dot_with_a_split_contraction_sums_partial_products():
    """`stablehlo.dot` (no dimension numbers) splits like a matmul: x's columns and w's rows over "y" give each chip
    a partial product, all-reduced; the rows of x stay whole."""
    text = '''sdy.mesh @mesh = <["x"=1, "y"=2]>
    func.func public @main(%x: tensor<8x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>},
                           %w: tensor<32x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) -> tensor<8x16xf32> {
      %0 = stablehlo.dot %x, %w : (tensor<8x32xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>
      return %0 : tensor<8x16xf32>
    }'''
    x, w = torch.randn(8, 32), torch.randn(32, 16)
    ir, (out,) = pipeline_run(text, [[x[:, :16], x[:, 16:]], [w[:16], w[16:]]])
    assert '"stablehlo.all_reduce"' in ir and "all_gather" not in ir
    assert "(tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>" in ir
    torch.testing.assert_close(out, x @ w, rtol=2e-2, atol=5e-2)


def test_user_priorities_decide_the_lookup_split_and_the_cheap_side_moves():
    """Indices split by rows at p0 and the table by its hidden dim at p1, both over "y": p0 propagates first, so the
    lookup's result splits by rows. The table is the big tensor, so each chip looks its half of the hidden dim up
    for every (gathered) index and an all_to_all turns that into its rows, instead of gathering the table."""
    text = '''sdy.mesh @mesh = <["x"=1, "y"=2]>
    func.func public @main(%ids: tensor<8xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}p0]>},
                           %table: tensor<100x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}p1]>}) -> tensor<8x32xf32> {
      %0 = "stablehlo.gather"(%table, %ids) <{dimension_numbers = #stablehlo.gather<offset_dims = [1],
          collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 32>}>
          : (tensor<100x32xf32>, tensor<8xi32>) -> tensor<8x32xf32>
      %1 = stablehlo.tanh %0 : tensor<8x32xf32>
      return %1 : tensor<8x32xf32>
    }'''
    index, table = torch.randint(0, 100, (8,), dtype=torch.int32), torch.randn(100, 32)
    ir, (out,) = pipeline_run(text, [[index[:4], index[4:]], [table[:, :16], table[:, 16:]]])
    assert "out_shardings=[<@mesh, [{\"y\"}, {}]>]" in ir and '"stablehlo.all_to_all"' in ir
    assert "(tensor<100x16xf32>, tensor<8xi32>) -> tensor<8x16xf32>" in ir
    torch.testing.assert_close(out, torch.tanh(table[index.long()]), rtol=1e-2, atol=1e-2)


def test_scatter_into_a_split_indexed_dim_computes_whole_and_keeps_the_split():
    """Points scattered into a table split by columns, the columns indexed: each chip needs the whole table to
    place any point, so the table is gathered and the scatter computed whole; the result keeps the table's split
    (each chip keeps its columns of it), as shardy carries a need-replication factor's split over."""
    text = '''sdy.mesh @mesh = <["x"=1, "y"=2]>
    func.func public @main(%table: tensor<8x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>},
                           %at: tensor<5x2xi32>, %new: tensor<5xf32>) -> tensor<8x32xf32> {
      %0 = "stablehlo.scatter"(%table, %at, %new) <{scatter_dimension_numbers = #stablehlo.scatter<
          inserted_window_dims = [0, 1], scatter_dims_to_operand_dims = [0, 1], index_vector_dim = 1>}> ({
      ^bb0(%old: tensor<f32>, %upd: tensor<f32>):
        stablehlo.return %upd : tensor<f32>
      }) : (tensor<8x32xf32>, tensor<5x2xi32>, tensor<5xf32>) -> tensor<8x32xf32>
      return %0 : tensor<8x32xf32>
    }'''
    table, new = torch.randn(8, 32), torch.randn(5)
    at = torch.tensor([[0, 3], [7, 31], [2, 16], [5, 15], [1, 0]], dtype=torch.int32)
    ir, (out,) = pipeline_run(text, [[table[:, :16], table[:, 16:]], at, new])
    assert "out_shardings=[<@mesh, [{}, {\"y\"}]>]" in ir and '"stablehlo.all_gather"' in ir
    assert "(tensor<8x32xf32>, tensor<5x2xi32>, tensor<5xf32>) -> tensor<8x32xf32>" in ir
    expected = table.clone()
    expected[at[:, 0].long(), at[:, 1].long()] = new
    torch.testing.assert_close(out, expected)


def test_reshapes_merging_and_splitting_dims_keep_every_axis_on_a_2x2_mesh():
    """Shardy's reshape factors: [2, 8] split over "x" then "y" merged into [16] is split over both ("x" major),
    and back into [2, 8] each dim gets its axis again; no chip gathers anything and the values are one chip's."""
    from ttmlir.passes import stablehlo_to_ttir_pipeline

    text = '''sdy.mesh @mesh = <["x"=2, "y"=2]>
    func.func public @main(%a: tensor<2x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> tensor<2x8xf32> {
      %0 = stablehlo.reshape %a : (tensor<2x8xf32>) -> tensor<16xf32>
      %1 = stablehlo.tanh %0 : tensor<16xf32>
      %2 = stablehlo.reshape %1 : (tensor<16xf32>) -> tensor<2x8xf32>
      %3 = stablehlo.exponential %2 : tensor<2x8xf32>
      return %3 : tensor<2x8xf32>
    }'''
    module, _ = parse_text(make_context(), text)
    stablehlo_pipeline(module)
    ir = print_module(module)
    assert "all_gather" not in ir and "all_to_all" not in ir
    assert "stablehlo.tanh %1 : tensor<4xf32>" in ir
    assert "out_shardings=[<@mesh, [{\"x\"}, {\"y\"}]>]" in ir
    stablehlo_to_ttir_pipeline(module)
    a = torch.randn(2, 8)
    (out,) = run(print_module(module), (2, 2), [[a[i:i + 1, j * 4:(j + 1) * 4] for i in range(2) for j in range(2)]])
    torch.testing.assert_close(out, torch.exp(torch.tanh(a)), rtol=1e-2, atol=1e-2)


def test_reshape_merging_a_partly_split_dim_keeps_only_the_major_split():
    """[4, 6] split over "y" on its 4 rows (two rows a chip) merged into [24]: the rows' split carries over (each chip
    holds 12 contiguous values); a split of the minor dim could not, the rows not being split whole."""
    text = '''sdy.mesh @mesh = <["x"=1, "y"=2]>
    func.func public @main(%a: tensor<4x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) -> tensor<24xf32> {
      %0 = stablehlo.reshape %a : (tensor<4x6xf32>) -> tensor<24xf32>
      %1 = stablehlo.tanh %0 : tensor<24xf32>
      return %1 : tensor<24xf32>
    }'''
    a = torch.randn(4, 6)
    ir, (out,) = pipeline_run(text, [[a[:2], a[2:]]])
    assert "out_shardings=[<@mesh, [{\"y\"}]>]" in ir and "all_gather" not in ir
    torch.testing.assert_close(out, torch.tanh(a.reshape(24)), rtol=1e-2, atol=1e-2)
