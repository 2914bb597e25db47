"""Shardy programs on a 1x2 mesh compute what one chip computes: the manual computation's body runs per chip on
its pieces, the collectives exchange what the body needs, and the results are put back together."""

from __future__ import annotations

import pytest
import torch

from ttmlir.asm import parse_text, print_module
from ttmlir.compiler import compile_ttir
from ttmlir.dialects import make_context
from ttmlir.passes import PassFailure, stablehlo_pipeline, update_global_to_local_shapes
from ttmlir.conversion.stablehlo_to_ttir.shardy import convert_shardy_to_ttir
from ttmlir.conversion.stablehlo_to_ttir.ccl import convert_stablehlo_ccl_to_ttir
from ttmlir.runtime.device import MeshDevice
from ttmlir.runtime.executor import Binary, run_program

MESH = 'sdy.mesh @mesh = <["x"=1, "y"=2]>'


def to_ttir(text: str) -> str:
    """Shardy's ops, the `sdy.all_slice` composites and the StableHLO collectives the pipeline leaves, in TTIR (as
    --stablehlo-to-ttir-pipeline lowers them), the TTIR bodies as they are."""
    from ttmlir.passes import legalize_stablehlo_composite_to_ttir
    from ttmlir.transforms.stablehlo.flatten_or_convert_composites import erase_unused_private_functions

    module, _ = parse_text(make_context(), text)
    legalize_stablehlo_composite_to_ttir(module)
    erase_unused_private_functions(module)  # the composites' decompositions
    convert_shardy_to_ttir(module)
    convert_stablehlo_ccl_to_ttir(module)
    module.verify()
    return print_module(module)


def run(ttir: str, mesh: tuple[int, int], inputs: list[torch.Tensor]) -> list[torch.Tensor]:
    binary = Binary(data=compile_ttir(ttir, pipeline_options=f"mesh-shape={mesh[0]},{mesh[1]}"))
    outputs, _ = run_program(binary, 0, inputs, MeshDevice(mesh_shape=mesh))
    return [t.data for t in outputs]


def test_row_split_matmul_then_gathered_rows():
    """Rows of x split over "y"; each chip multiplies its rows by the whole weight; out_shardings join them."""
    text = MESH + '''
    func.func @main(%x: tensor<64x32xf32>, %w: tensor<32x64xf32>) -> tensor<64x64xf32> {
      %0 = sdy.manual_computation(%x, %w) in_shardings=[<@mesh, [{"y"}, {}]>, <@mesh, [{}, {}]>]
          out_shardings=[<@mesh, [{"y"}, {}]>] manual_axes={"x", "y"} (%lx: tensor<32x32xf32>, %lw: tensor<32x64xf32>) {
        %1 = "ttir.matmul"(%lx, %lw) : (tensor<32x32xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
        %2 = "ttir.relu"(%1) : (tensor<32x64xf32>) -> tensor<32x64xf32>
        sdy.return %2 : tensor<32x64xf32>
      } : (tensor<64x32xf32>, tensor<32x64xf32>) -> tensor<64x64xf32>
      return %0 : tensor<64x64xf32>
    }'''
    ttir = to_ttir(text)
    assert "ttcore.meshes = #ttcore.meshes<[<\"mesh\" = 1x2>]>" in ttir
    assert "shard_type = #ttcore.shard_type<devices>" in ttir and "shard_type = #ttcore.shard_type<replicate>" in ttir
    x, w = torch.randn(64, 32), torch.randn(32, 64)
    (out,) = run(ttir, (1, 2), [x, w])
    torch.testing.assert_close(out, torch.relu(x @ w), rtol=2e-2, atol=2e-2)


def global_body(ops: list[str], args: str, in_shardings: str, out_sharding: str, result: str, inputs: str) -> str:
    """A func whose manual computation (manual_axes={}) still works on global shapes, as the stablehlo pipeline
    leaves it before `--update-global-to-local-shapes`."""
    body = "\n".join(f"        {line}" for line in ops)
    return MESH + f'''
    func.func @main({args}) -> {result} {{
      %0 = sdy.manual_computation({inputs}) in_shardings=[{in_shardings}] out_shardings=[{out_sharding}]
          manual_axes={{}} ({", ".join(a.replace("%", "%l") for a in args.split(", "))}) {{
{body}
      }} : ({", ".join(a.split(": ")[1] for a in args.split(", "))}) -> {result}
      return %0 : {result}
    }}'''


def test_contracting_dim_split_needs_an_all_reduce():
    """Megatron's second matmul: both operands split along the contracted dim; sdy.all_reduce sums the partials."""
    text = global_body([
        '%1 = "ttir.matmul"(%lh, %lw) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>]>} : '
        '(tensor<32x128xf32>, tensor<128x64xf32>) -> tensor<32x64xf32>',
        '%2 = sdy.all_reduce {"y"} %1 out_sharding=<@mesh, [{}, {}]> : tensor<32x64xf32>',
        'sdy.return %2 : tensor<32x64xf32>'],
        "%h: tensor<32x128xf32>, %w: tensor<128x64xf32>", '<@mesh, [{}, {"y"}]>, <@mesh, [{"y"}, {}]>',
        "<@mesh, [{}, {}]>", "tensor<32x64xf32>", "%h, %w")
    module, _ = parse_text(make_context(), text)
    update_global_to_local_shapes(module)
    local = print_module(module)
    assert 'manual_axes={"x", "y"} (%arg2: tensor<32x64xf32>, %arg3: tensor<64x64xf32>)' in local
    assert '"stablehlo.all_reduce"' in local and "sdy.all_reduce" not in local
    ttir = to_ttir(local)
    h, w = torch.randn(32, 128), torch.randn(128, 64)
    (sharded,) = run(ttir, (1, 2), [h, w])
    torch.testing.assert_close(sharded, h @ w, rtol=2e-2, atol=5e-2)


@pytest.mark.parametrize("collective, result_sharding, expected", [
    ('sdy.all_gather [{}, {"y"}] %la out_sharding=<@mesh, [{}, {}]> : tensor<16x32xf32>', "[{}, {}]",
     lambda a: a),
    ('sdy.all_slice [{"y"}, {}] %la out_sharding=<@mesh, [{"y"}, {}]> : tensor<16x32xf32>', '[{"y"}, {}]',
     lambda a: a),
    ('sdy.all_to_all [{"y"}: 1->0] %la out_sharding=<@mesh, [{"y"}, {}]> : tensor<16x32xf32>', '[{"y"}, {}]',
     lambda a: a),
])
def test_collectives_move_pieces(collective, result_sharding, expected):
    """A column-split value gathered back whole, sliced by rows as well, or moved to a row split: the values
    are the same, only who holds which piece changes."""
    text = global_body([f"%1 = {collective}", "sdy.return %1 : tensor<16x32xf32>"], "%a: tensor<16x32xf32>",
                       '<@mesh, [{}, {"y"}]>', f"<@mesh, {result_sharding}>", "tensor<16x32xf32>", "%a")
    if "all_slice" in collective:  # a value already split by columns, then also by rows
        text = text.replace('out_sharding=<@mesh, [{"y"}, {}]>', 'out_sharding=<@mesh, [{"y"}, {}]>')
        text = text.replace('in_shardings=[<@mesh, [{}, {"y"}]>]', 'in_shardings=[<@mesh, [{}, {}]>]')
    module, _ = parse_text(make_context(), text)
    update_global_to_local_shapes(module)
    a = torch.randn(16, 32)
    (out,) = run(to_ttir(print_module(module)), (1, 2), [a])
    torch.testing.assert_close(out, expected(a))


def test_collectives_need_local_shapes_first():
    text = global_body(['%1 = sdy.all_reduce {"y"} %la out_sharding=<@mesh, [{}]> : tensor<8xf32>',
                        "sdy.return %1 : tensor<8xf32>"], "%a: tensor<8xf32>", "<@mesh, [{}]>", "<@mesh, [{}]>",
                       "tensor<8xf32>", "%a")
    module, _ = parse_text(make_context(), text)
    with pytest.raises(PassFailure, match="'sdy.all_reduce' must be lowered by --stablehlo-pipeline"):
        convert_shardy_to_ttir(module)


def test_two_meshes_are_refused():
    text = MESH + '\nsdy.mesh @other = <["a"=2]>\nfunc.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {\n' \
                  '  return %a : tensor<4xf32>\n}'
    module, _ = parse_text(make_context(), text)
    with pytest.raises(PassFailure, match="only supports single mesh"):
        convert_shardy_to_ttir(module)


def test_stablehlo_pipeline_spreads_a_user_sharding_and_runs_split():
    """One argument split by rows: propagation splits the other operand alike, the body runs on 32-row pieces
    per chip, a sharding constraint moves the split to the columns (an all_to_all), and the joined result is
    what one chip computes. The annotated argument arrives presharded (one piece per chip), the other whole."""
    from ttmlir.passes import stablehlo_pipeline

    text = '''sdy.mesh @mesh = <["y"=2]>
    func.func public @main(%a: tensor<64x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>},
                           %b: tensor<64x32xf32>) -> tensor<64x32xf32> {
      %0 = "ttir.add"(%a, %b) : (tensor<64x32xf32>, tensor<64x32xf32>) -> tensor<64x32xf32>
      %1 = "ttir.relu"(%0) : (tensor<64x32xf32>) -> tensor<64x32xf32>
      %2 = sdy.sharding_constraint %1 <@mesh, [{}, {"y"}]> : tensor<64x32xf32>
      %3 = "ttir.exp"(%2) : (tensor<64x32xf32>) -> tensor<64x32xf32>
      return %3 : tensor<64x32xf32>
    }'''
    module, _ = parse_text(make_context(), text)
    stablehlo_pipeline(module, "mesh-shape=1,2")  # options as an MLIR option string, as upstream's bindings take
    assert '"stablehlo.all_to_all"' in print_module(module)  # rows to columns: the constraint's reshard
    printed = print_module(module)
    assert 'sdy.mesh @mesh = <["y_aux"=1, "y"=2]>' in printed
    assert 'manual_axes={"y_aux", "y"} (%arg2: tensor<32x32xf32>, %arg3: tensor<32x32xf32>)' in printed
    assert "ttcore.shard_status = #ttcore.shard_status<presharded>" in printed
    ttir = to_ttir(printed)
    assert "func.func public @main(%arg0: tensor<32x32xf32>" in ttir  # the presharded argument is a piece
    a, b = torch.randn(64, 32), torch.randn(64, 32)
    (out,) = run(ttir, (1, 2), [[a[:32], a[32:]], b])
    torch.testing.assert_close(out, torch.exp(torch.relu(a + b)))


def test_automatic_parallelization_keeps_the_splits_that_move_nothing():
    """Every way to split two added vectors over 2 chips; the best ones split both alike (nothing moves), a
    mismatched pair (one over "x", the other over "y") needs data moved."""
    from builder.base.builder_apis import generate_all_module_permutations, get_optimal_module_least_num_collectives
    from builder.stablehlo.shardy_parallelization import count_collectives

    text = '''func.func public @main(%a: tensor<64xf32>, %b: tensor<64xf32>) -> tensor<64xf32> {
      %0 = "ttir.add"(%a, %b) : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
      return %0 : tensor<64xf32>
    }'''
    modules = generate_all_module_permutations(text, num_devices=2)
    assert len(modules) == 2 * 2 * 2  # meshes 1x2 and 2x1; each vector split over "x" or over "y"
    best = get_optimal_module_least_num_collectives(modules)
    assert best and all(count_collectives(m.module_op) == 0 for m in best)
    mismatched = [m for m in modules if '<["x"=1, "y"=2]>' in str(m) and '[{"x", ?}]>}, %arg1: tensor<64xf32> '
                  '{sdy.sharding = #sdy.sharding<@mesh, [{"y", ?}]>' in str(m)]
    assert len(mismatched) == 1
    module, _ = parse_text(make_context(), print_module(mismatched[0].module_op))
    stablehlo_pipeline(module)
    assert count_collectives(module) > 0


@pytest.mark.parametrize("text, expected", [
    ("{replicated}", ("replicated", ())), ("{manual}", ("manual", ())),
    ("{devices=[2,1]<=[2]}", ("devices", (2, 1))),
    ("{devices=[1,2,4]<=[8] last_tile_dim_replicate}", ("devices", (1, 2))),
    ("{devices=[2,1]0,1}", ("devices", (2, 1))),
])
def test_gspmd_sharding_strings(text, expected):
    from ttmlir.conversion.stablehlo_to_ttir.gspmd import parse_gspmd

    parsed = parse_gspmd(text)
    assert (parsed.kind, parsed.tiles) == expected


def test_gspmd_strings_this_build_cannot_read_are_refused():
    from ttmlir.conversion.stablehlo_to_ttir.gspmd import parse_gspmd

    with pytest.raises(ValueError, match="unsupported mhlo.sharding"):
        parse_gspmd("{devices=[2,2]<=[2,2]T(1,0) last_tile_dims={manual}}")


def test_sharded_stablehlo_program_matches_one_chip():
    """A StableHLO program whose weight is split along the contracted dim: the pipeline splits the activation
    alike, sums the partial products with an all_reduce, and the whole program on 1x2 equals the one-chip run."""
    from ttmlir.passes import stablehlo_to_ttir_pipeline

    text = '''sdy.mesh @mesh = <["x"=1, "y"=2]>
    func.func public @main(%a: tensor<64x32xf32>, %w: tensor<32x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>})
        -> tensor<64xf32> {
      %0 = stablehlo.dot_general %a, %w, contracting_dims = [1] x [0] : (tensor<64x32xf32>, tensor<32x16xf32>) -> tensor<64x16xf32>
      %1 = stablehlo.tanh %0 : tensor<64x16xf32>
      %cst = stablehlo.constant dense<0.0> : tensor<f32>
      %2 = stablehlo.reduce(%1 init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<64x16xf32>, tensor<f32>) -> tensor<64xf32>
      return %2 : tensor<64xf32>
    }'''
    module, _ = parse_text(make_context(), text)
    stablehlo_pipeline(module)
    assert "stablehlo.all_reduce" in print_module(module)
    stablehlo_to_ttir_pipeline(module)
    ttir = print_module(module)
    a, w = torch.randn(64, 32), torch.randn(32, 16)
    (sharded,) = run(ttir, (1, 2), [a, [w[:16], w[16:]]])
    torch.testing.assert_close(sharded, torch.tanh(a @ w).sum(1), rtol=2e-2, atol=5e-2)


def test_slice_of_a_split_dimension_gathers_first():
    """Rows 2..5 of a row-split tensor straddle both chips: the rows are gathered before the slice, and an iota
    (whose pieces would count from 0 on every chip) stays whole, so the result is what one chip computes."""
    text = '''sdy.mesh @mesh = <["x"=1, "y"=2]>
    func.func public @main(%a: tensor<8x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) -> tensor<4x64xf32> {
      %0 = stablehlo.slice %a [2:6, 0:64] : (tensor<8x64xf32>) -> tensor<4x64xf32>
      %1 = stablehlo.exponential %0 : tensor<4x64xf32>
      %2 = stablehlo.iota dim = 0 : tensor<4x64xf32>
      %3 = stablehlo.add %1, %2 : tensor<4x64xf32>
      return %3 : tensor<4x64xf32>
    }'''
    from ttmlir.passes import stablehlo_to_ttir_pipeline

    module, _ = parse_text(make_context(), text)
    stablehlo_pipeline(module)
    assert '"stablehlo.all_gather"(%arg1)' in print_module(module)
    stablehlo_to_ttir_pipeline(module)
    a = torch.randn(8, 64)
    (out,) = run(print_module(module), (1, 2), [[a[:4], a[4:]]])
    torch.testing.assert_close(out, torch.exp(a[2:6]) + torch.arange(4.0)[:, None], rtol=1e-2, atol=1e-2)


def test_contracted_split_then_row_constraint_is_a_reduce_scatter():
    """Both operands split along the contracted dim and the product constrained to rows: "y" cannot split both
    the contraction and the rows of one matmul, so the partial products are reduce-scattered to rows."""
    from ttmlir.passes import stablehlo_to_ttir_pipeline

    text = '''sdy.mesh @mesh = <["x"=1, "y"=2]>
    func.func public @main(%a: tensor<64x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>},
                           %w: tensor<32x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) -> tensor<64x16xf32> {
      %0 = stablehlo.dot_general %a, %w, contracting_dims = [1] x [0] : (tensor<64x32xf32>, tensor<32x16xf32>) -> tensor<64x16xf32>
      %1 = sdy.sharding_constraint %0 <@mesh, [{"y"}, {}]> : tensor<64x16xf32>
      %2 = stablehlo.tanh %1 : tensor<64x16xf32>
      return %2 : tensor<64x16xf32>
    }'''
    module, _ = parse_text(make_context(), text)
    stablehlo_pipeline(module)
    printed = print_module(module)
    assert '"stablehlo.reduce_scatter"' in printed and "all_reduce" not in printed
    stablehlo_to_ttir_pipeline(module)
    a, w = torch.randn(64, 32), torch.randn(32, 16)
    (out,) = run(print_module(module), (1, 2), [[a[:, :16], a[:, 16:]], [w[:16], w[16:]]])
    torch.testing.assert_close(out, torch.tanh(a @ w), rtol=2e-2, atol=5e-2)


def pipeline_run(text: str, inputs: list) -> tuple[str, list[torch.Tensor]]:
    """The StableHLO program through both pipelines, run on a 1x2 mesh; also what the sharding pipeline made."""
    from ttmlir.passes import stablehlo_to_ttir_pipeline

    module, _ = parse_text(make_context(), text)
    stablehlo_pipeline(module)
    sharded = print_module(module)
    stablehlo_to_ttir_pipeline(module)
    return sharded, run(print_module(module), (1, 2), inputs)


def test_grouped_query_attention_splits_heads_without_gathering():
    """Query heads (8) and their key/value heads (4) split over "y" together: each chip attends its 4 query heads
    with their 2 key/value heads, no gather before the custom call, and the heads put back equal one chip's."""
    sharded = '#sdy.sharding<@mesh, [{}, {"y"}, {}, {}]>'
    text = f'''sdy.mesh @mesh = <["x"=1, "y"=2]>
    func.func public @main(%q: tensor<1x8x32x64xf32> {{sdy.sharding = {sharded}}},
                           %k: tensor<1x4x32x64xf32> {{sdy.sharding = {sharded}}},
                           %v: tensor<1x4x32x64xf32> {{sdy.sharding = {sharded}}}) -> tensor<1x8x32x64xf32> {{
      %0 = stablehlo.custom_call @tt.scaled_dot_product_attention(%q, %k, %v) {{mhlo.frontend_attributes = {{is_causal = "True"}}}}
          : (tensor<1x8x32x64xf32>, tensor<1x4x32x64xf32>, tensor<1x4x32x64xf32>) -> tensor<1x8x32x64xf32>
      return %0 : tensor<1x8x32x64xf32>
    }}'''
    q, k, v = torch.randn(1, 8, 32, 64), torch.randn(1, 4, 32, 64), torch.randn(1, 4, 32, 64)
    halves = [[t[:, :n // 2], t[:, n // 2:]] for t, n in ((q, 8), (k, 4), (v, 4))]
    ir, (out,) = pipeline_run(text, halves)
    assert "all_gather" not in ir and "(tensor<1x4x32x64xf32>, tensor<1x2x32x64xf32>, tensor<1x2x32x64xf32>)" in ir
    expected = torch.nn.functional.scaled_dot_product_attention(
        q, k.repeat_interleave(2, dim=1), v.repeat_interleave(2, dim=1), is_causal=True)
    torch.testing.assert_close(out, expected, rtol=2e-2, atol=2e-2)


def test_indexer_heads_split_then_partial_scores_all_reduced():
    """The DSA indexer sums its heads away: query and weights split by head over "y" leave each chip a partial
    score (the key whole), and the all-reduce after the call gives one chip's scores."""
    sharded = '#sdy.sharding<@mesh, [{}, {"y"}, {}, {}]>'
    text = f'''sdy.mesh @mesh = <["x"=1, "y"=2]>
    func.func public @main(%q: tensor<1x4x32x64xf32> {{sdy.sharding = {sharded}}}, %k: tensor<1x1x32x64xf32>,
                           %w: tensor<1x4x32x1xf32> {{sdy.sharding = {sharded}}}) -> tensor<1x1x32x32xf32> {{
      %0 = stablehlo.custom_call @tt.indexer_score_dsa(%q, %k, %w) {{mhlo.frontend_attributes = {{chunk_start_idx = "0"}}}}
          : (tensor<1x4x32x64xf32>, tensor<1x1x32x64xf32>, tensor<1x4x32x1xf32>) -> tensor<1x1x32x32xf32>
      return %0 : tensor<1x1x32x32xf32>
    }}'''
    q, k, w = torch.randn(1, 4, 32, 64), torch.randn(1, 1, 32, 64), torch.rand(1, 4, 32, 1)
    ir, (out,) = pipeline_run(text, [[q[:, :2], q[:, 2:]], k, [w[:, :2], w[:, 2:]]])
    assert "all_gather" not in ir and "stablehlo.all_reduce" in ir
    scores = (torch.relu(q @ k.transpose(-1, -2)) * w).sum(1, keepdim=True)
    expected = scores.masked_fill(torch.ones(32, 32, dtype=torch.bool).triu(1), -torch.inf)
    torch.testing.assert_close(out, expected, rtol=2e-2, atol=0.5)


def test_sampling_splits_rows_and_keeps_candidates_whole():
    """Rows split over "y", each row's candidates (split by the user too) gathered whole: with top-1 each row
    draws its largest candidate, whose index the chips' rows return as one chip would."""
    text = '''sdy.mesh @mesh = <["x"=1, "y"=2]>
    func.func public @main(%values: tensor<64x128xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>},
                           %indices: tensor<64x128xi32>, %k: tensor<64xi32>, %p: tensor<64xf32>,
                           %temp: tensor<64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>}) -> tensor<64xi32> {
      %0 = stablehlo.custom_call @tt.sampling(%values, %indices, %k, %p, %temp) {mhlo.frontend_attributes = {seed = "7"}}
          : (tensor<64x128xf32>, tensor<64x128xi32>, tensor<64xi32>, tensor<64xf32>, tensor<64xf32>) -> tensor<64xi32>
      return %0 : tensor<64xi32>
    }'''
    winners = torch.randint(0, 128, (64, 1))
    values = torch.randn(64, 128).scatter(1, winners, 8.0)  # one clear maximum per row, even in bf16
    indices = torch.stack([torch.randperm(128, dtype=torch.int32) for _ in range(64)])
    temp = torch.ones(64)
    ir, (out,) = pipeline_run(text, [[values[:, :64], values[:, 64:]], indices, torch.ones(64, dtype=torch.int32),
                                      torch.ones(64), [temp[:32], temp[32:]]])
    assert "(tensor<32x128xf32>, tensor<32x128xi32>, tensor<32xi32>, tensor<32xf32>, tensor<32xf32>)" in ir
    expected = indices.gather(1, winners).squeeze(1)
    assert torch.equal(out.to(torch.int64), expected.to(torch.int64))


def test_user_sharding_rule_splits_a_custom_call_shardy_knows_nothing_of():
    """A custom call with no built-in rule runs on replicated values; the user's `xla.sdy.custom_sharding_rule`
    says its rows move together, so each chip computes its rows and nothing is gathered."""
    rule = '#sdy.op_sharding_rule<([i, j])->([i, j]) {i=64, j=32}, custom>'
    text = f'''sdy.mesh @mesh = <["x"=1, "y"=2]>
    func.func public @main(%a: tensor<64x32xf32> {{sdy.sharding = #sdy.sharding<@mesh, [{{"y"}}, {{}}]>}}) -> tensor<64x32xf32> {{
      %0 = stablehlo.custom_call @mhlo.erf(%a) {{mhlo.frontend_attributes = {{xla.sdy.custom_sharding_rule = "{rule}"}}}}
          : (tensor<64x32xf32>) -> tensor<64x32xf32>
      return %0 : tensor<64x32xf32>
    }}'''
    a = torch.randn(64, 32)
    ir, (out,) = pipeline_run(text, [[a[:32], a[32:]]])
    assert "all_gather" not in ir and "(tensor<32x32xf32>) -> tensor<32x32xf32>" in ir
    torch.testing.assert_close(out, torch.erf(a), rtol=1e-2, atol=1e-2)
    ir, (out,) = pipeline_run(text.replace(rule, ""), [[a[:32], a[32:]]])  # no rule: computed whole
    assert "all_gather" in ir
    torch.testing.assert_close(out, torch.erf(a), rtol=1e-2, atol=1e-2)


@pytest.mark.parametrize("rule, error", [
    ("not a valid rule", "failed to parse 'xla.sdy.custom_sharding_rule' frontend attribute as an #sdy.op_sharding_rule"),
    ("([i])->([i]) {i=64}", "failed to parse"),
    ("#sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=64, j=32}>", "number of operands and mappings must match: 1 != 2"),
    ("#sdy.op_sharding_rule<([i])->([i, j]) {i=64, j=32}>", "operand - mapping rank must match: 1 != 2"),
    ("#sdy.op_sharding_rule<([i, i])->([i, j]) {i=64, j=32}>", "operand - cannot reuse factors for the same tensor value"),
])
def test_user_sharding_rules_that_do_not_fit_are_refused(rule, error):
    from ttmlir.passes import register_user_sharding_rule

    text = f'''func.func public @main(%a: tensor<64x32xf32>) -> tensor<64x32xf32> {{
      %0 = stablehlo.custom_call @mhlo.erf(%a) {{mhlo.frontend_attributes = {{xla.sdy.custom_sharding_rule = "{rule}"}}}}
          : (tensor<64x32xf32>) -> tensor<64x32xf32>
      return %0 : tensor<64x32xf32>
    }}'''
    module, _ = parse_text(make_context(), text)
    with pytest.raises(PassFailure, match=error.replace("#", ".").replace("(", ".").replace(")", ".")):
        register_user_sharding_rule(module)


def test_constants_take_the_split_of_their_users():
    """A splat constant and one whose rows repeat are made per chip at the piece's shape (no slice of a whole
    copy); the rows each chip adds are the ones one chip would."""
    row = "[1.0, 2.0, 3.0, 4.0]"
    text = f'''sdy.mesh @mesh = <["x"=1, "y"=2]>
    func.func public @main(%a: tensor<8x4xf32> {{sdy.sharding = #sdy.sharding<@mesh, [{{"y"}}, {{}}]>}}) -> tensor<8x4xf32> {{
      %0 = stablehlo.constant dense<[{", ".join([row] * 8)}]> : tensor<8x4xf32>
      %1 = stablehlo.constant dense<0.5> : tensor<8x4xf32>
      %2 = stablehlo.add %a, %0 : tensor<8x4xf32>
      %3 = stablehlo.multiply %2, %1 : tensor<8x4xf32>
      return %3 : tensor<8x4xf32>
    }}'''
    a = torch.randn(8, 4)
    ir, (out,) = pipeline_run(text, [[a[:4], a[4:]]])
    assert "all_slice" not in ir and "mesh_partition" not in ir and "dense<5.000000e-01> : tensor<4x4xf32>" in ir
    torch.testing.assert_close(out, (a + torch.arange(1.0, 5.0)) * 0.5, rtol=1e-2, atol=1e-2)


@pytest.mark.parametrize("split", ["indices", "table"])
def test_embedding_gather_keeps_the_split_of_its_indices_or_hidden_dim(split):
    """A lookup of rows: split indices give split rows of the result, a table split along its hidden dim gives
    the result split alike; in both, each chip looks up its part and nothing is gathered."""
    ids = '{sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}' if split == "indices" else ""
    table = '{sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}' if split == "table" else ""
    text = f'''sdy.mesh @mesh = <["x"=1, "y"=2]>
    func.func public @main(%ids: tensor<4x6xi32> {ids}, %table: tensor<50x32xf32> {table}) -> tensor<4x6x32xf32> {{
      %0 = "stablehlo.gather"(%table, %ids) <{{dimension_numbers = #stablehlo.gather<offset_dims = [2],
          collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, slice_sizes = array<i64: 1, 32>}}>
          : (tensor<50x32xf32>, tensor<4x6xi32>) -> tensor<4x6x32xf32>
      %1 = stablehlo.tanh %0 : tensor<4x6x32xf32>
      return %1 : tensor<4x6x32xf32>
    }}'''
    index, weights = torch.randint(0, 50, (4, 6), dtype=torch.int32), torch.randn(50, 32)
    inputs = [[index[:2], index[2:]], weights] if split == "indices" else [index, [weights[:, :16], weights[:, 16:]]]
    ir, (out,) = pipeline_run(text, inputs)
    assert "all_gather" not in ir
    assert ("(tensor<50x32xf32>, tensor<2x6xi32>)" if split == "indices" else "slice_sizes = array<i64: 1, 16>") in ir
    torch.testing.assert_close(out, torch.tanh(weights[index.long()]), rtol=1e-2, atol=1e-2)


def test_reshapes_adding_unit_dims_keep_the_split():
    """A weight split by rows goes through reshapes that add and drop a leading unit dim, then a transpose: the
    split follows it to the product's columns, so each chip multiplies by its half of the weight."""
    text = '''sdy.mesh @mesh = <["x"=1, "y"=2]>
    func.func public @main(%x: tensor<4x8xf32>, %w: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>})
        -> tensor<1x4x16xf32> {
      %0 = stablehlo.reshape %w : (tensor<16x8xf32>) -> tensor<1x16x8xf32>
      %1 = stablehlo.reshape %0 : (tensor<1x16x8xf32>) -> tensor<16x8xf32>
      %2 = stablehlo.transpose %1, dims = [1, 0] : (tensor<16x8xf32>) -> tensor<8x16xf32>
      %3 = stablehlo.dot_general %x, %2, contracting_dims = [1] x [0] : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
      %4 = stablehlo.reshape %3 : (tensor<4x16xf32>) -> tensor<1x4x16xf32>
      return %4 : tensor<1x4x16xf32>
    }'''
    x, w = torch.randn(4, 8), torch.randn(16, 8)
    ir, (out,) = pipeline_run(text, [x, [w[:8], w[8:]]])
    assert "all_gather" not in ir and "(tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>" in ir
    torch.testing.assert_close(out, (x @ w.T)[None], rtol=2e-2, atol=2e-2)


def test_multi_latent_decode_splits_query_heads_over_one_shared_cache():
    """Paged multi-latent attention decode: the query's 16 heads split over "y" (8 a chip), the one latent cache
    (keys, and values as its first head_dim_v columns) and the page table stay whole on every chip."""
    text = '''sdy.mesh @mesh = <["x"=1, "y"=2]>
    func.func public @main(%q: tensor<1x2x16x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}, {"y"}, {}]>},
                           %cache: tensor<8x1x32x64xf32>, %pages: tensor<2x4xi32>, %pos: tensor<2xi32>) -> tensor<1x2x16x32xf32> {
      %0 = stablehlo.custom_call @tt.paged_flash_mla_decode(%q, %cache, %pages, %pos) {mhlo.frontend_attributes = {
          head_dim_v = "32", has_value = "False", has_attention_mask = "False", has_cur_pos_tensor = "True",
          has_attention_sink = "False", is_causal = "True"}}
          : (tensor<1x2x16x64xf32>, tensor<8x1x32x64xf32>, tensor<2x4xi32>, tensor<2xi32>) -> tensor<1x2x16x32xf32>
      return %0 : tensor<1x2x16x32xf32>
    }'''
    q, cache = torch.randn(1, 2, 16, 64), torch.randn(8, 1, 32, 64)
    pages, pos = torch.tensor([[3, 0, 6, 1], [5, 2, 7, 4]], dtype=torch.int32), torch.tensor([37, 100], dtype=torch.int32)
    ir, (out,) = pipeline_run(text, [[q[:, :, :8], q[:, :, 8:]], cache, pages, pos])
    assert "all_gather" not in ir and "(tensor<1x2x8x64xf32>, tensor<8x1x32x64xf32>, tensor<2x4xi32>, tensor<2xi32>)" in ir
    expected = torch.empty(1, 2, 16, 32)
    for user in range(2):
        keys = cache[pages[user].long(), 0].reshape(-1, 64)[:int(pos[user]) + 1]
        weights = torch.softmax(q[0, user] @ keys.T / 8.0, dim=-1)
        expected[0, user] = weights @ keys[:, :32]
    torch.testing.assert_close(out, expected, rtol=2e-2, atol=2e-2)


def test_composite_flattened_for_propagation_is_rebuilt_on_local_shapes():
    """A composite's decomposition is propagated through (its broadcast constants made per chip, nothing
    gathered), then outlined again: the TTIR gelu runs on each chip's columns and the columns put back equal
    torch's tanh gelu of the whole."""
    text = '''sdy.mesh @mesh = <["x"=1, "y"=2]>
    func.func public @main(%a: tensor<32x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}) -> tensor<32x64xf32> {
      %0 = stablehlo.composite "tenstorrent.gelu_tanh" %a {composite_attributes = {approximate = "tanh"}, decomposition = @gelu} : (tensor<32x64xf32>) -> tensor<32x64xf32>
      return %0 : tensor<32x64xf32>
    }
    func.func private @gelu(%x: tensor<32x64xf32>) -> tensor<32x64xf32> {
      %half = stablehlo.constant dense<5.000000e-01> : tensor<f32>
      %one = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %c = stablehlo.constant dense<0.797884583> : tensor<f32>
      %k = stablehlo.constant dense<4.471500e-02> : tensor<f32>
      %h = stablehlo.broadcast_in_dim %half, dims = [] : (tensor<f32>) -> tensor<32x64xf32>
      %o = stablehlo.broadcast_in_dim %one, dims = [] : (tensor<f32>) -> tensor<32x64xf32>
      %cc = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<f32>) -> tensor<32x64xf32>
      %kk = stablehlo.broadcast_in_dim %k, dims = [] : (tensor<f32>) -> tensor<32x64xf32>
      %x2 = stablehlo.multiply %x, %x : tensor<32x64xf32>
      %x3 = stablehlo.multiply %x2, %x : tensor<32x64xf32>
      %t0 = stablehlo.multiply %x3, %kk : tensor<32x64xf32>
      %t1 = stablehlo.add %x, %t0 : tensor<32x64xf32>
      %t2 = stablehlo.multiply %t1, %cc : tensor<32x64xf32>
      %t3 = stablehlo.tanh %t2 : tensor<32x64xf32>
      %t4 = stablehlo.add %t3, %o : tensor<32x64xf32>
      %t5 = stablehlo.multiply %x, %h : tensor<32x64xf32>
      %r = stablehlo.multiply %t5, %t4 : tensor<32x64xf32>
      return %r : tensor<32x64xf32>
    }'''
    a = torch.randn(32, 64)
    ir, (out,) = pipeline_run(text, [[a[:, :32], a[:, 32:]]])
    assert 'stablehlo.composite "tenstorrent.gelu_tanh"' in ir and "(tensor<32x32xf32>) -> tensor<32x32xf32>" in ir
    assert "all_gather" not in ir and "mesh_partition" not in ir
    torch.testing.assert_close(out, torch.nn.functional.gelu(a, approximate="tanh"), rtol=2e-2, atol=2e-2)


def test_tt_sharding_constraint_names_mesh_axes_by_position():
    """A custom op's `@tt.sharding_constraint` says `mesh_idx_1` for the mesh's second axis: the rows split over
    "y" there, and the program equals one chip's; an index past the mesh is an error."""
    def text(axis: str) -> str:
        return f'''sdy.mesh @mesh = <["x"=1, "y"=2]>
        func.func public @main(%a: tensor<64x32xf32>) -> tensor<64x32xf32> {{
          %0 = stablehlo.custom_call @tt.sharding_constraint(%a) {{mhlo.frontend_attributes = {{xla.sdy.sharding = "#sdy.sharding_per_value<[<@mesh, [{{\\22{axis}\\22}}, {{}}]>]>"}}}} : (tensor<64x32xf32>) -> tensor<64x32xf32>
          %1 = stablehlo.tanh %0 : tensor<64x32xf32>
          return %1 : tensor<64x32xf32>
        }}'''
    a = torch.randn(64, 32)
    ir, (out,) = pipeline_run(text("mesh_idx_1"), [a])
    assert "tt.sharding_constraint" not in ir and "stablehlo.tanh %arg1 : tensor<32x32xf32>" in ir
    torch.testing.assert_close(out, torch.tanh(a), rtol=2e-2, atol=2e-2)
    with pytest.raises(PassFailure, match="'mesh_idx_2' names no axis of the 2-axis mesh"):
        stablehlo_pipeline(parse_text(make_context(), text("mesh_idx_2"))[0])


def test_flash_mla_prefill_split_by_sequence_runs_split_by_heads():
    """Attention needs whole sequences: query, key and value split by sequence over "y" move that split to the
    heads (all-to-alls, nothing gathered), and the output moves back; the pieces equal one chip's causal
    attention."""
    seq = '#sdy.sharding<@mesh, [{}, {}, {"y"}, {}]>'
    text = f'''sdy.mesh @mesh = <["x"=1, "y"=2]>
    func.func public @main(%q: tensor<1x4x64x32xf32> {{sdy.sharding = {seq}}}, %k: tensor<1x4x64x32xf32> {{sdy.sharding = {seq}}},
                           %v: tensor<1x4x64x32xf32> {{sdy.sharding = {seq}}}) -> tensor<1x4x64x32xf32> {{
      %0 = stablehlo.custom_call @tt.flash_mla_prefill(%q, %k, %v) {{mhlo.frontend_attributes = {{head_dim_v = "32", has_value = "True"}}}}
          : (tensor<1x4x64x32xf32>, tensor<1x4x64x32xf32>, tensor<1x4x64x32xf32>) -> tensor<1x4x64x32xf32>
      return %0 : tensor<1x4x64x32xf32>
    }}'''
    q, k, v = (torch.randn(1, 4, 64, 32) for _ in range(3))
    halves = [[t[:, :, :32], t[:, :, 32:]] for t in (q, k, v)]
    ir, (out,) = pipeline_run(text, halves)
    assert "all_gather" not in ir and ir.count("stablehlo.all_to_all") == 4
    assert "(tensor<1x2x64x32xf32>, tensor<1x2x64x32xf32>, tensor<1x2x64x32xf32>) -> tensor<1x2x64x32xf32>" in ir
    expected = torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True)
    torch.testing.assert_close(out, expected, rtol=3e-2, atol=3e-2)


@pytest.mark.parametrize("split", ["experts", "contraction"])
def test_sparse_matmul_splits_experts_or_sums_split_contractions(split):
    """Expert parallelism: b's experts and the sparsity's columns split over "y", each chip computing its experts'
    blocks; a split contraction leaves partial blocks, all-reduced. Either way the blocks equal one chip's."""
    spec = {"experts": ('[{}, {}, {}, {}]', '[{}, {"y"}, {}, {}]', '[{}, {}, {}, {"y"}]'),
            "contraction": ('[{}, {}, {}, {"y"}]', '[{}, {}, {"y"}, {}]', '[{}, {}, {}, {}]')}[split]
    a_s, b_s, s_s = (f"#sdy.sharding<@mesh, {d}>" for d in spec)
    text = f'''sdy.mesh @mesh = <["x"=1, "y"=2]>
    func.func public @main(%a: tensor<2x2x32x64xf32> {{sdy.sharding = {a_s}}}, %b: tensor<1x4x64x32xf32> {{sdy.sharding = {b_s}}},
                           %s: tensor<2x2x1x4xf32> {{sdy.sharding = {s_s}}}) -> tensor<2x2x1x4x32x32xf32> {{
      %0 = stablehlo.custom_call @tt.sparse_matmul(%a, %b, %s) {{mhlo.frontend_attributes = {{is_input_a_sparse = "False", is_input_b_sparse = "True", nnz = "0"}}}}
          : (tensor<2x2x32x64xf32>, tensor<1x4x64x32xf32>, tensor<2x2x1x4xf32>) -> tensor<2x2x1x4x32x32xf32>
      return %0 : tensor<2x2x1x4x32x32xf32>
    }}'''
    a, b = torch.randn(2, 2, 32, 64), torch.randn(1, 4, 64, 32)
    s = torch.tensor([1, 0, 1, 1, 0, 1, 0, 0, 1, 1, 1, 0, 0, 0, 1, 1], dtype=torch.float32).reshape(2, 2, 1, 4)
    pieces = {"experts": [a, [b[:, :2], b[:, 2:]], [s[..., :2], s[..., 2:]]],
              "contraction": [[a[..., :32], a[..., 32:]], [b[:, :, :32], b[:, :, 32:]], s]}[split]
    ir, (out,) = pipeline_run(text, pieces)
    assert "all_gather" not in ir and ("stablehlo.all_reduce" in ir) == (split == "contraction")
    expected = (a[:, :, None] @ b[0][None, None]) * s[:, :, 0, :, None, None]
    torch.testing.assert_close(out, expected.unsqueeze(2), rtol=3e-2, atol=0.3)


@pytest.mark.parametrize("k", [3, 40])
def test_topk_of_a_split_dim_takes_each_chips_candidates(k):
    """A topk along the split dim: each chip's own topk (a whole tile of candidates when k is small), only the
    candidates gathered, their indices offset by the chip's start, and the topk of those: torch's topk of the
    whole, values and indices."""
    text = f'''sdy.mesh @mesh = <["x"=1, "y"=2]>
    func.func public @main(%a: tensor<4x256xf32> {{sdy.sharding = #sdy.sharding<@mesh, [{{}}, {{"y"}}]>}}) -> (tensor<4x{k}xf32>, tensor<4x{k}xi32>) {{
      %0:2 = stablehlo.composite "tenstorrent.topk" %a {{composite_attributes = {{dim = -1 : i64, k = {k} : i64, largest = true, sorted = true}}, decomposition = @impl}} : (tensor<4x256xf32>) -> (tensor<4x{k}xf32>, tensor<4x{k}xi32>)
      return %0#0, %0#1 : tensor<4x{k}xf32>, tensor<4x{k}xi32>
    }}
    func.func private @impl(%x: tensor<4x256xf32>) -> (tensor<4x{k}xf32>, tensor<4x{k}xi32>) {{
      %v = stablehlo.slice %x [0:4, 0:{k}] : (tensor<4x256xf32>) -> tensor<4x{k}xf32>
      %i = stablehlo.constant dense<0> : tensor<4x{k}xi32>
      return %v, %i : tensor<4x{k}xf32>, tensor<4x{k}xi32>
    }}'''
    a = torch.randn(4, 256).bfloat16().float()  # the device compares bf16 values: exact ones here
    ir, (values, indices) = pipeline_run(text, [[a[:, :128], a[:, 128:]]])
    assert '"stablehlo.all_gather"' in ir  # what the topk of candidates replaces
    torch.testing.assert_close(values, torch.topk(a, k, dim=1).values)
    torch.testing.assert_close(a.gather(1, indices.long()), values)  # each index points at its value


def test_expert_outputs_split_by_expert_stay_split_into_the_combine():
    """tt.all_to_all_combine reads its expert outputs as each chip's own experts: split over "y" by expert they
    reach the call as they are (gathered, every chip would read the first experts as its own), and each token
    gets back the output of the experts it chose."""
    sharded = '#sdy.sharding<@mesh, [{"y"}, {}, {}, {}]>'
    text = f'''sdy.mesh @mesh = <["x"=1, "y"=2]>
    func.func public @main(%e: tensor<4x2x8x32xbf16> {{sdy.sharding = {sharded}}}, %m: tensor<1x2x8x2xi32>,
                           %map: tensor<1x1x4x2xi32>) -> tensor<2x1x8x32xbf16> {{
      %0 = stablehlo.custom_call @tt.all_to_all_combine(%e, %m, %map) {{mhlo.frontend_attributes = {{cluster_axis = "1", num_devices = "2", num_experts_per_tok = "2", output_shard_dim = "1"}}}}
          : (tensor<4x2x8x32xbf16>, tensor<1x2x8x2xi32>, tensor<1x1x4x2xi32>) -> tensor<2x1x8x32xbf16>
      return %0 : tensor<2x1x8x32xbf16>
    }}'''
    outputs = torch.randn(4, 2, 8, 32).bfloat16()
    chosen = torch.stack([torch.randperm(4)[:2] for _ in range(16)]).reshape(1, 2, 8, 2).int()
    mapping = torch.nn.functional.one_hot(torch.tensor([0, 0, 1, 1]), 2).reshape(1, 1, 4, 2).int()
    ir, (out,) = pipeline_run(text, [[outputs[:2], outputs[2:]], chosen, mapping])
    assert "all_gather" not in ir and "(tensor<2x2x8x32xbf16>, tensor<1x2x8x2xi32>" in ir
    # chip 0's tokens (row 0 of the line's): for each choice k, the chosen expert's output for that token
    want = torch.stack([outputs[chosen[0, 0, :, k].long(), 0, torch.arange(8)] for k in range(2)])[:, None]
    torch.testing.assert_close(out, want)


@pytest.mark.parametrize("lowering", ["composite", "decomposition"])
def test_a_whole_value_sliced_over_the_mesh_is_an_all_slice_composite(lowering):
    """A value every chip holds whole, split for its user: a `sdy.all_slice` composite (TTIR's mesh_partition)
    whose decomposition, all_to_alls of the chips' equal copies, computes the same pieces."""
    from ttmlir.passes import inline, stablehlo_legalize_composite_to_call, stablehlo_to_ttir_pipeline

    text = '''sdy.mesh @mesh = <["x"=1, "y"=2]>
    func.func public @main(%a: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>})
        -> (tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) {
      %0 = stablehlo.negate %a : tensor<8x4xf32>
      %1 = sdy.sharding_constraint %0 <@mesh, [{"y"}, {}]> : tensor<8x4xf32>
      return %1 : tensor<8x4xf32>
    }'''
    module, _ = parse_text(make_context(), text)
    stablehlo_pipeline(module)
    ir = print_module(module)
    assert 'stablehlo.composite "sdy.all_slice"' in ir and "func.func private @sdy.all_slice1" in ir
    if lowering == "decomposition":
        stablehlo_legalize_composite_to_call(module)
        inline(module)
    stablehlo_to_ttir_pipeline(module)
    ttir = print_module(module)
    assert ("ttir.mesh_partition" in ttir) == (lowering == "composite")
    assert ("ttir.all_to_all" in ttir) == (lowering == "decomposition")
    a = torch.randn(8, 4)
    (out,) = run(ttir, (1, 2), [a])
    torch.testing.assert_close(out, -a)


def test_cache_split_by_heads_is_updated_in_place_per_chip():
    """A scatter writing whole heads (an update window covering the heads dim, indices picking positions) runs on
    each chip's heads: the cache split over "y" by heads is not gathered, and the positions written equal one
    chip's scatter. A window covering part of a split dim (the head size here) gathers it first."""
    heads = '#sdy.sharding<@mesh, [{}, {"y"}, {}, {}]>'
    text = f'''sdy.mesh @mesh = <["x"=1, "y"=2]>
    func.func public @main(%cache: tensor<1x8x32x16xf32> {{sdy.sharding = {heads}}}, %pos: tensor<4x1xi64>,
                           %new: tensor<1x8x4x16xf32> {{sdy.sharding = {heads}}}) -> (tensor<1x8x32x16xf32> {{sdy.sharding = {heads}}}) {{
      %0 = "stablehlo.scatter"(%cache, %pos, %new) <{{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [0, 1, 3], inserted_window_dims = [2], scatter_dims_to_operand_dims = [2], index_vector_dim = 1>}}> ({{
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        stablehlo.return %b : tensor<f32>
      }}) : (tensor<1x8x32x16xf32>, tensor<4x1xi64>, tensor<1x8x4x16xf32>) -> tensor<1x8x32x16xf32>
      return %0 : tensor<1x8x32x16xf32>
    }}'''
    cache, new = torch.randn(1, 8, 32, 16), torch.randn(1, 8, 4, 16)
    pos = torch.tensor([[3], [17], [0], [31]])
    ir, (out,) = pipeline_run(text, [[cache[:, :4], cache[:, 4:]], pos, [new[:, :4], new[:, 4:]]])
    assert "all_gather" not in ir and "mesh_partition" not in ir
    assert "(tensor<1x4x32x16xf32>, tensor<4x1xi64>, tensor<1x4x4x16xf32>) -> tensor<1x4x32x16xf32>" in ir
    want = cache.clone()
    want[:, :, pos[:, 0]] = new
    torch.testing.assert_close(out, want)
    partial = text.replace("tensor<1x8x4x16xf32>", "tensor<1x8x4x8xf32>").replace(
        f"%new: tensor<1x8x4x8xf32> {{sdy.sharding = {heads}}}", "%new: tensor<1x8x4x8xf32>").replace(
        heads, '#sdy.sharding<@mesh, [{}, {}, {}, {"y"}]>')
    ir, (out,) = pipeline_run(partial, [[cache[..., :8], cache[..., 8:]], pos, new[..., :8]])
    assert '"stablehlo.all_gather"' in ir
    want = cache.clone()
    want[:, :, pos[:, 0], :8] = new[..., :8]
    torch.testing.assert_close(out, want)


def test_indexer_queries_split_by_sequence_mask_from_each_chips_place():
    """Sequence parallelism for the DSA indexer: query and weights split over "y" by sequence, the key whole; each
    chip scores its queries against every key, its causal mask counting from its first query's place (told to the
    call as its cluster_axis), and the rows put back equal one chip's scores."""
    seq = '#sdy.sharding<@mesh, [{}, {}, {"y"}, {}]>'
    text = f'''sdy.mesh @mesh = <["x"=1, "y"=2]>
    func.func public @main(%q: tensor<1x4x64x32xf32> {{sdy.sharding = {seq}}}, %k: tensor<1x1x64x32xf32>,
                           %w: tensor<1x4x64x1xf32> {{sdy.sharding = {seq}}}) -> tensor<1x1x64x64xf32> {{
      %0 = stablehlo.custom_call @tt.indexer_score_dsa(%q, %k, %w) {{mhlo.frontend_attributes = {{chunk_start_idx = "0"}}}}
          : (tensor<1x4x64x32xf32>, tensor<1x1x64x32xf32>, tensor<1x4x64x1xf32>) -> tensor<1x1x64x64xf32>
      return %0 : tensor<1x1x64x64xf32>
    }}'''
    q, k, w = torch.randn(1, 4, 64, 32), torch.randn(1, 1, 64, 32), torch.rand(1, 4, 64, 1)
    ir, (out,) = pipeline_run(text, [[q[:, :, :32], q[:, :, 32:]], k, [w[:, :, :32], w[:, :, 32:]]])
    assert "all_gather" not in ir and 'cluster_axis = "1"' in ir
    assert "(tensor<1x4x32x32xf32>, tensor<1x1x64x32xf32>, tensor<1x4x32x1xf32>) -> tensor<1x1x32x64xf32>" in ir
    scores = (torch.relu(q @ k.transpose(-1, -2)) * w).sum(1, keepdim=True)
    expected = scores.masked_fill(torch.ones(64, 64, dtype=torch.bool).triu(1), -torch.inf)
    torch.testing.assert_close(out, expected, rtol=2e-2, atol=0.5)


def test_axes_of_one_chip_gather_nothing_and_stay_on_unit_dims():
    """A dim split over an axis of one chip ("x") that the reshape merges is gathered over that axis, as shardy
    does: an all_gather of groups of one chip, which changes nothing, so the run equals one chip's; a dim of
    size 1 split over it keeps its split (no reshard) since nothing of it can move."""
    from ttmlir.passes import stablehlo_to_ttir_pipeline

    text = '''sdy.mesh @mesh = <["x"=1, "y"=2]>
    func.func public @main(%a: tensor<8x4x5xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {"x"}, {}]>},
                           %b: tensor<1x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>})
        -> (tensor<2x16x5xf32>, tensor<6xf32>) {
      %0 = stablehlo.reshape %a : (tensor<8x4x5xf32>) -> tensor<2x16x5xf32>
      %1 = stablehlo.reshape %b : (tensor<1x6xf32>) -> tensor<6xf32>
      return %0, %1 : tensor<2x16x5xf32>, tensor<6xf32>
    }'''
    module, _ = parse_text(make_context(), text)
    stablehlo_pipeline(module)
    printed = print_module(module)
    assert printed.count('"stablehlo.all_gather"') == 1
    assert "replica_groups = dense<[[0], [1]]> : tensor<2x1xi64>" in printed  # each chip its own group
    assert "stablehlo.reshape %arg3 : (tensor<1x6xf32>) -> tensor<6xf32>" in printed
    stablehlo_to_ttir_pipeline(module)
    a, b = torch.randn(8, 4, 5), torch.randn(1, 6)
    out, flat = run(print_module(module), (1, 2), [[a[:4], a[4:]], b])
    torch.testing.assert_close(out, a.reshape(2, 16, 5))
    torch.testing.assert_close(flat, b.reshape(6))
