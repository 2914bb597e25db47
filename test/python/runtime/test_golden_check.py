"""The TTIR-level golden check of a whole .mlir file (`check_mlir_file`, `ttmlir-golden`), and the facts it
rests on: constants parsed as MLIR writes them, goldens independent of the simulator's kernels, in-place
cache ops."""

import json

import pytest
import torch
from builder.base.builder_apis import check_mlir_file
from ttmlir.asm import parse_text
from ttmlir.dialects import make_context
from ttmlir.runtime import kernels

ATTENTION_STEP = """
func.func @step(%x: tensor<1x64xf32>, %w: tensor<64x64xf32>, %bias: tensor<1x64xf32>) -> tensor<1x64xf32> {
  %0 = "ttir.matmul"(%x, %w) : (tensor<1x64xf32>, tensor<64x64xf32>) -> tensor<1x64xf32> loc("step.proj")
  %1 = "ttir.multiply"(%0, %bias) : (tensor<1x64xf32>, tensor<1x64xf32>) -> tensor<1x64xf32> loc("step.scale")
  %2 = "ttir.exp"(%1) : (tensor<1x64xf32>) -> tensor<1x64xf32>
  return %2 : tensor<1x64xf32>
}
"""


def test_every_op_is_compared_and_all_agree():
    [program] = check_mlir_file(ATTENTION_STEP)
    assert program.passed and program.first_divergence is None
    assert [(c.op, c.loc) for c in program.ops] == [("ttir.matmul", 'loc("step.proj")'),
                                                    ("ttir.multiply", 'loc("step.scale")'),
                                                    ("ttir.exp", 'loc("<mlir>":5:8)')]
    assert all(c.pcc > 0.999 for c in program.ops)


def test_a_wrong_kernel_is_caught_and_located(monkeypatch):
    """Goldens are the TTIR ops' own formulas: a simulator computing multiply as add must fail the check,
    and the first op that diverges is named by its location."""
    monkeypatch.setitem(kernels.KERNELS, "multiply", kernels.KERNELS["add"])
    [program] = check_mlir_file(ATTENTION_STEP)
    assert not program.passed
    assert program.first_divergence.loc == 'loc("step.scale")'
    assert program.ops[0].pcc > 0.999  # the matmul before it is still right


def test_update_cache_writes_in_place_with_upstream_semantics():
    """cache[offset + user, :, index, :] = input[0, :, user, :]; ops after the update read the new cache."""
    text = """
func.func @f(%cache: tensor<4x2x8x16xf32>, %x: tensor<1x2x3x16xf32>, %index: tensor<1xi32>) -> (tensor<4x2x8x16xf32>, tensor<4x2x8x16xf32>) {
  %before = "ttir.neg"(%cache) : (tensor<4x2x8x16xf32>) -> tensor<4x2x8x16xf32>
  "ttir.update_cache"(%cache, %x, %index) <{batch_offset = 1 : i32}> : (tensor<4x2x8x16xf32>, tensor<1x2x3x16xf32>, tensor<1xi32>) -> ()
  %after = "ttir.neg"(%cache) : (tensor<4x2x8x16xf32>) -> tensor<4x2x8x16xf32>
  return %before, %after : tensor<4x2x8x16xf32>, tensor<4x2x8x16xf32>
}
"""
    cache, update = torch.zeros(4, 2, 8, 16), torch.randn(1, 2, 3, 16)
    [program] = check_mlir_file(text, golden_inputs={"f": [cache, update, torch.tensor([5])]})
    assert program.passed
    from builder.base.builder_apis import load_mlir_file

    _, builder = load_mlir_file(text, golden_inputs={"f": [cache, update, torch.tensor([5])]})
    io = builder.program_goldens()[0][1]
    expected = torch.zeros(4, 2, 8, 16)
    expected[1:4, :, 5, :] = update[0].permute(1, 0, 2)
    assert torch.equal(io["output_0"][0], torch.zeros(4, 2, 8, 16))
    assert torch.equal(io["output_1"][0], -expected)
    assert torch.equal(io["input_0"][0], cache)  # the program's input is the cache before the update


def test_hex_and_splat_constants_parse_to_their_values():
    module, _ = parse_text(make_context(), """
func.func @f() -> (tensor<8x64x112x112xf32>, tensor<3xf64>, tensor<2xbf16>) {
  %0 = "ttir.constant"() <{value = dense<0.0> : tensor<8x64x112x112xf32>}> : () -> tensor<8x64x112x112xf32>
  %1 = "ttir.constant"() <{value = dense<0xFFF0000000000000> : tensor<3xf64>}> : () -> tensor<3xf64>
  %2 = "ttir.constant"() <{value = dense<[0x7FC0, 0x3FC0]> : tensor<2xbf16>}> : () -> tensor<2xbf16>
  return %0, %1, %2 : tensor<8x64x112x112xf32>, tensor<3xf64>, tensor<2xbf16>
}""")
    splat, neg_inf, bf16 = [op.properties["value"] for op in module.walk() if op.name == "ttir.constant"]
    assert len(splat.data.data) == 4  # one element, not 6.4 million
    assert neg_inf.get_values() == (float("-inf"),)
    nan, one_and_half = bf16.get_values()
    assert nan != nan and one_and_half == 1.5


def test_cli_names_the_first_divergence(tmp_path, monkeypatch, capsys):
    import ttmlir_golden

    source = tmp_path / "graph.mlir"
    source.write_text(ATTENTION_STEP)
    report = tmp_path / "report.json"
    monkeypatch.chdir(tmp_path)
    code = ttmlir_golden.main([str(source), "--report", str(report), "--ops"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["graph.mlir", "report.json"]  # no artifacts left behind
    assert "@step: 3 ops, 1 outputs" in out and "PASS" in out
    [record] = json.loads(report.read_text())
    assert record["passed"] and record["first_divergence"] is None and len(record["ops"]) == 3


@pytest.mark.parametrize("bad", ["missing.mlir", "broken"])
def test_cli_reports_bad_input_in_one_line(tmp_path, bad, capsys):
    import ttmlir_golden

    path = tmp_path / bad
    if bad == "broken":
        path.write_text("func.func @f( {")
    assert ttmlir_golden.main([str(path)]) == 1
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    assert f"{path}: FAIL" in out


def test_special_values_agree_only_where_both_have_them():
    from ttmlir.runtime.golden import pcc

    nan, inf = float("nan"), float("inf")
    assert pcc(torch.tensor([1.0, 2.0, nan, 3.0]), torch.tensor([1.0, 2.0, nan, 3.0])) == 1.0
    assert pcc(torch.tensor([1.0, 2.0, nan, 3.0]), torch.tensor([1.0, 2.0, 0.0, 3.0])) == 0.0
    assert pcc(torch.tensor([inf, 1.0, 2.0]), torch.tensor([-inf, 1.0, 2.0])) == 0.0
    assert pcc(torch.tensor([inf, 1.0, 2.0, 3.0]), torch.tensor([nan, 1.0, 2.0, 3.0])) == 1.0  # both overflowed
    assert pcc(torch.tensor([nan, 1.0, 2.0, 4.0]), torch.tensor([nan, 1.0, 2.0, -4.0])) < 0.5


def test_sliced_comparison_matches_whole_tensor_metrics(monkeypatch):
    """Large tensors are compared a slice at a time; the metrics are those of the whole tensors, with NaN
    in a later slice and an offset mean (which one-pass sums without a shift would get wrong)."""
    from ttmlir.runtime import golden

    monkeypatch.setattr(golden, "CHUNK", 7)
    g = torch.randn(10, 5, dtype=torch.float64) + 1e4
    a = g + 0.5 * torch.randn(10, 5, dtype=torch.float64)
    g[9, 4] = a[9, 4] = float("nan")
    finite = ~torch.isnan(g)
    expected = torch.corrcoef(torch.stack([g[finite], a[finite]]))[0, 1]
    assert golden.pcc(g, a) == pytest.approx(float(expected), abs=1e-9)
    g2, a2 = g[finite], a[finite]
    metrics = golden.compare(g2, a2)
    assert metrics["max"] == pytest.approx(float((g2 - a2).abs().max()))
    assert metrics["root_mean_square_error"] == pytest.approx(float((g2 - a2).pow(2).mean().sqrt()))
    assert metrics["cosine_similarity"] == pytest.approx(float(torch.nn.functional.cosine_similarity(g2, a2, dim=0)))
    assert not metrics["allclose"] and golden.compare(g2, g2.clone())["allclose"]


def test_constant_arguments_are_drawn_as_scales_not_normal_noise():
    """A decomposed layer norm takes 1/N and epsilon as `constant` arguments: drawn from [0, 1) the variance
    stays positive, so the graph computes numbers instead of NaN (segformer's outputs were all NaN)."""
    text = """
func.func @norm(%x: tensor<4x32xf32> {ttcore.argument_type = #ttcore.argument_type<input>},
                %inv_n: tensor<4x1xf32> {ttcore.argument_type = #ttcore.argument_type<constant>},
                %eps: tensor<4x1xf32> {ttcore.argument_type = #ttcore.argument_type<constant>}) -> tensor<4x1xf32> {
  %0 = "ttir.multiply"(%x, %x) : (tensor<4x32xf32>, tensor<4x32xf32>) -> tensor<4x32xf32>
  %1 = "ttir.sum"(%0) <{dim_arg = [-1 : i32], keep_dim = true}> : (tensor<4x32xf32>) -> tensor<4x1xf32>
  %2 = "ttir.multiply"(%inv_n, %1) : (tensor<4x1xf32>, tensor<4x1xf32>) -> tensor<4x1xf32>
  %3 = "ttir.add"(%2, %eps) : (tensor<4x1xf32>, tensor<4x1xf32>) -> tensor<4x1xf32>
  %4 = "ttir.rsqrt"(%3) : (tensor<4x1xf32>) -> tensor<4x1xf32>
  return %4 : tensor<4x1xf32>
}
"""
    from builder.base.builder_apis import load_mlir_file

    _, builder = load_mlir_file(text)
    io = builder.program_goldens()[0][1]
    assert torch.isfinite(io["output_0"][0]).all()
    assert ((io["input_1"][0] >= 0) & (io["input_1"][0] < 1)).all()
    [program] = check_mlir_file(text)
    assert program.passed


def test_integer_arguments_index_within_what_they_index():
    text = """
func.func @lookup(%ids: tensor<1x8xi32>, %table: tensor<3x16xf32>) -> tensor<1x8x16xf32> {
  %0 = "ttir.embedding"(%ids, %table) : (tensor<1x8xi32>, tensor<3x16xf32>) -> tensor<1x8x16xf32>
  return %0 : tensor<1x8x16xf32>
}
"""
    [program] = check_mlir_file(text, seed=3)
    assert program.passed


def test_cli_names_host_memory_exhaustion(tmp_path, monkeypatch, capsys):
    """A model whose tensors do not fit this machine fails alone, with a named reason, and the run goes on."""
    import builder.base.builder_apis as apis
    import ttmlir_golden

    def exhausted(*_args, **_kwargs):
        raise RuntimeError("DefaultCPUAllocator: can't allocate memory: you tried to allocate 2147483648 bytes")

    big, small = tmp_path / "big.mlir", tmp_path / "small.mlir"
    big.write_text(ATTENTION_STEP)
    small.write_text(ATTENTION_STEP)
    real = apis.check_mlir_file
    monkeypatch.setattr(apis, "check_mlir_file", lambda text, **kw: exhausted() if "big" in kw["filename"]
                        else real(text, **kw))
    assert ttmlir_golden.run([str(big), str(small)]) == 1
    out = capsys.readouterr().out
    assert f"{big}: FAIL: the host ran out of memory" in out and f"{small} @step" in out and "PASS" in out


def test_a_module_runs_on_the_mesh_it_declares():
    """Tensor-parallel exports declare their mesh in `ttcore.meshes`; each chip keeps its part of a replicated
    weight (mesh_partition) and the chips share the statistics of a row norm (distributed_rms_norm)."""
    text = """module attributes {ttcore.meshes = #ttcore.meshes<[<"mesh" = 1x2>]>} {
func.func @tp(%full: tensor<32x128xf32>, %w: tensor<128xf32>) -> tensor<32x64xf32> {
  %x = "ttir.mesh_shard"(%full) <{shard_dims = array<i64: -1, 1>, shard_direction = #ttcore.shard_direction<full_to_shard>, shard_shape = array<i64: 1, 2>, shard_type = #ttcore.shard_type<devices>}> : (tensor<32x128xf32>) -> tensor<32x64xf32>
  %0 = "ttir.mesh_partition"(%w) <{cluster_axis = 1 : ui32, dim = 0 : si32}> : (tensor<128xf32>) -> tensor<64xf32>
  %1 = "ttir.distributed_rms_norm"(%x, %0) <{cluster_axis = 1 : ui32, epsilon = 1.0e-05 : f32, operandSegmentSizes = array<i32: 1, 1, 0>}> : (tensor<32x64xf32>, tensor<64xf32>) -> tensor<32x64xf32>
  return %1 : tensor<32x64xf32>
}
}"""
    [program] = check_mlir_file(text)
    assert program.passed and [c.op for c in program.ops][1:] == ["ttir.mesh_partition", "ttir.distributed_rms_norm"]
    assert all(c.pcc > 0.999 for c in program.ops)


def test_weights_are_drawn_at_the_scale_torch_initializes_a_layer():
    """A deep stack of 1x1 convolutions with unit-variance weights overflows bf16 in both the golden and the
    device (every op then 'diverges'); weight parameters drawn in ±1/sqrt(fan_in) keep the activations finite."""
    from builder.base.builder_apis import load_mlir_file

    layer = ('%{o} = "ttir.conv2d"(%{i}, %w) <{{dilation = 1 : i32, groups = 1 : i32, padding = 0 : i32, '
             'stride = 1 : i32}} > : (tensor<1x4x4x256xbf16>, tensor<256x256x1x1xbf16>) -> tensor<1x4x4x256xbf16>')
    body = "\n  ".join(layer.format(o=f"v{n + 1}", i=f"v{n}" if n else "x").replace("} >", "}>") for n in range(40))
    text = f"""func.func @deep(%x: tensor<1x4x4x256xbf16> {{ttcore.argument_type = #ttcore.argument_type<input>}},
               %w: tensor<256x256x1x1xbf16> {{ttcore.argument_type = #ttcore.argument_type<parameter>}})
               -> tensor<1x4x4x256xbf16> {{
  {body}
  return %v40 : tensor<1x4x4x256xbf16>
}}"""
    _, builder = load_mlir_file(text)
    (func, io, _), = builder.program_goldens()
    weight = io["input_1"][0]
    assert weight.abs().max() <= 1 / 16 and weight.std() > 1 / 64  # uniform in ±1/sqrt(256)
    assert torch.isfinite(io["output_0"][0].float()).all()


def test_logical_shifts_move_the_bit_pattern():
    """si32 logical shifts, as numpy shifts the uint32 patterns: the golden and the simulator's kernel each."""
    from golden.mapping import BINARY_GOLDENS
    import numpy as np
    a = torch.tensor([-8, 8, -1, 5, -2**31], dtype=torch.int32)
    by = torch.tensor([1, 1, 31, 0, 4], dtype=torch.int32)
    bits, shift = a.numpy().view(np.uint32), by.numpy().astype(np.uint32)
    for name, expected in (("logical_right_shift", bits >> shift), ("logical_left_shift", bits << shift)):
        want = torch.from_numpy(expected.view(np.int32))
        assert torch.equal(BINARY_GOLDENS[name](a, by).to(torch.int32), want), name
        assert torch.equal(kernels.BINARY[name](a, by).to(torch.int32), want), name


def test_selu_takes_its_scale_and_alpha():
    """ttir.selu's scale and alpha (attributes with upstream's defaults): the golden and the simulator's kernel each
    compute scale * x above 0 and scale * alpha * (e^x - 1) below, as numpy does, for the defaults and others."""
    from types import SimpleNamespace
    from golden.mapping import GOLDEN_MAPPINGS
    import numpy as np
    from ttmlir.ir.op_table import TTIR_BY_NAME
    x = torch.linspace(-3, 3, 13)
    defaults = {name: float(default) for name, _, default, _ in TTIR_BY_NAME["selu"].props}
    for scale, alpha in ((defaults["scale"], defaults["alpha"]), (2.0, 0.5)):
        want = torch.from_numpy(np.where(x.numpy() > 0, scale * x.numpy(), scale * alpha * np.expm1(x.numpy())))
        assert torch.allclose(GOLDEN_MAPPINGS["selu"]({"input": x}, {"scale": scale, "alpha": alpha}), want)
        assert torch.allclose(kernels.KERNELS["selu"]({"input": x}, SimpleNamespace(scale=scale, alpha=alpha)), want)
    assert torch.allclose(torch.nn.functional.selu(x), GOLDEN_MAPPINGS["selu"]({"input": x}, defaults))


def test_group_norm_takes_upstreams_default_epsilon():
    """ttir.group_norm's epsilon defaults to upstream's 1e-12 (it was torch's 1e-5): over groups of variance ~1e-8,
    the golden and the simulator running the compiled program each compute (x - mean) / sqrt(var + eps) per group
    as numpy does in float64, for the default and a given epsilon."""
    import numpy as np
    from golden.mapping import GOLDEN_MAPPINGS, attributes
    from ttmlir.compiler import compile_ttir
    from ttmlir.runtime.device import MeshDevice
    from ttmlir.runtime.executor import Binary, run_program
    t = "tensor<1x1x64x32xf32>"
    x = torch.randn(1, 1, 64, 32, generator=torch.Generator().manual_seed(3)) * 1e-4
    groups = x.double().numpy().reshape(1, 64, 4, 8)  # [N, H*W, groups, channels of a group]
    mean = groups.mean((1, 3), keepdims=True)
    variance = ((groups - mean) ** 2).mean((1, 3), keepdims=True)
    for given, eps in (("", 1e-12), ("epsilon = 1.0e-08 : f32, ", 1e-8)):
        want = torch.from_numpy((groups - mean) / np.sqrt(variance + eps)).reshape(x.shape).float()
        text = (f"func.func @f(%x: {t}) -> {t} {{\n  %0 = \"ttir.group_norm\"(%x) <{{num_groups = 4 : i64, {given}"
                f"operandSegmentSizes = array<i32: 1, 0, 0, 0>}}> : ({t}) -> {t}\n  return %0 : {t}\n}}\n")
        module, _ = parse_text(make_context(), text)
        [op] = [op for op in module.walk() if op.name == "ttir.group_norm"]
        assert torch.allclose(GOLDEN_MAPPINGS["group_norm"]({"input": x}, attributes(op)), want, atol=1e-4), eps
        (out,), _ = run_program(Binary(data=compile_ttir(text)), 0, [x], MeshDevice(), exact=True)
        assert torch.allclose(out.data, want, atol=1e-4), eps
