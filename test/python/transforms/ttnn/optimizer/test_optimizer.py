"""The op model and the optimizer (optimization-level=2): legality, spilling, and results equal to level 0's."""

import pytest
import torch

from ttmlir.asm import print_module
from ttmlir.compiler import compile_ttir, lower_to_ttnn
from ttmlir.runtime import op_model
from ttmlir.runtime.device import MeshDevice
from ttmlir.runtime.executor import Binary, run_program
from ttmlir.runtime.golden import pcc
from ttmlir.runtime.op_model import TensorSpec

ARCH = "wormhole_b0"

CHAIN = """
module {
  func.func @forward(%a: tensor<256x512xbf16>, %b: tensor<512x1024xbf16>, %c: tensor<256x1024xbf16>) -> tensor<256x1024xbf16> {
    %0 = "ttir.matmul"(%a, %b) : (tensor<256x512xbf16>, tensor<512x1024xbf16>) -> tensor<256x1024xbf16>
    %1 = "ttir.relu"(%0) : (tensor<256x1024xbf16>) -> tensor<256x1024xbf16>
    %2 = "ttir.add"(%1, %c) : (tensor<256x1024xbf16>, tensor<256x1024xbf16>) -> tensor<256x1024xbf16>
    %3 = "ttir.gelu"(%2) : (tensor<256x1024xbf16>) -> tensor<256x1024xbf16>
    %4 = "ttir.multiply"(%3, %c) : (tensor<256x1024xbf16>, tensor<256x1024xbf16>) -> tensor<256x1024xbf16>
    return %4 : tensor<256x1024xbf16>
  }
}
"""


def test_op_model_legality():
    t = TensorSpec((256, 1024), "bf16")
    height = TensorSpec((256, 1024), "bf16", "l1", "height_sharded", (1, 8))
    assert op_model.check("relu", "unary", [t], height, ARCH).legal
    # 8 tile rows do not split over 64 cores; softmax needs whole rows on a core
    assert not op_model.check("relu", "unary", [t], TensorSpec((256, 1024), "bf16", "l1", "height_sharded", (8, 8)),
                              ARCH).legal
    width = TensorSpec((256, 1024), "bf16", "l1", "width_sharded", (1, 8))
    assert "cannot produce" in op_model.check("softmax", "softmax", [t], width, ARCH).reason
    # sharded operands must match a sharded result; data movement reads shards but writes interleaved results;
    # ops outside the sharded kernels read interleaved operands only
    assert not op_model.check("add", "binary", [width, t], height, ARCH).legal
    assert op_model.check("reshape", "reshape", [height], t, ARCH).legal
    assert not op_model.check("reshape", "reshape", [t], height, ARCH).legal
    assert not op_model.check("embedding", "embedding", [height, t], t, ARCH).legal
    # a 64 MiB tensor interleaved in L1 is 1 MiB per core: legal under the full budget, not under a quarter of it
    big = TensorSpec((4096, 8192), "bf16", "l1", "interleaved")
    assert op_model.check("relu", "unary", [t], big, ARCH).legal
    assert "more than" in op_model.check("relu", "unary", [t], big, ARCH, usage_cap=0.25).reason
    # the legal shardings split tiles evenly, most cores first
    grids = op_model.shardings(t, ("block_sharded",), ARCH)
    assert grids[0].grid == (8, 8) and all(s.physical[0] % s.grid[0] == 0 for s in grids)


def _run(text: str, options: str, inputs):
    binary = Binary(data=compile_ttir(text, pipeline_options=options))
    outputs, ctx = run_program(binary, 0, inputs, MeshDevice())
    assert outputs[0].buffer_type == "dram"  # a program returns its results from DRAM, as its signature says
    return outputs[0].data.float(), ctx


def test_level2_shards_in_l1_and_matches_level0():
    g = torch.Generator().manual_seed(0)
    inputs = [torch.randn(256, 512, generator=g), torch.randn(512, 1024, generator=g), torch.randn(256, 1024, generator=g)]
    base, base_ctx = _run(CHAIN, "optimization-level=0", inputs)
    out, ctx = _run(CHAIN, "optimization-level=2", inputs)
    assert pcc(base, out) > 0.999
    placed = [t for op, *_ in ctx.perf for t in op.outputs if t.on_device]
    assert sum((t.memory_layout or "").endswith("sharded") for t in placed) >= 3
    assert sum(p.kernel_ns for _, p, *_ in ctx.perf) < sum(p.kernel_ns for _, p, *_ in base_ctx.perf)


def test_spill_management_keeps_l1_within_the_cap(tmp_path):
    # at a small cap the chain's L1 tensors do not all fit beside each other: some are spilled to DRAM, and the
    # program still runs and agrees with level 0
    import json
    lower_to_ttnn(CHAIN, "chain", f"optimization-level=2 tensor-l1-usage-cap=0.012 enable-decision-trace=true "
                                  f"decision-trace-dir={tmp_path}")
    spills = json.loads((tmp_path / "l1_spill_management.json").read_text())["decisions"]
    assert spills and all(s["bytes_per_core"] > 0 for s in spills)
    g = torch.Generator().manual_seed(1)
    inputs = [torch.randn(256, 512, generator=g), torch.randn(512, 1024, generator=g), torch.randn(256, 1024, generator=g)]
    out, ctx = _run(CHAIN, "optimization-level=2 tensor-l1-usage-cap=0.012", inputs)
    base, _ = _run(CHAIN, "optimization-level=0", inputs)
    assert pcc(base, out) > 0.999


def test_decision_trace(tmp_path):
    lower_to_ttnn(CHAIN, "chain", f"optimization-level=2 enable-decision-trace=true decision-trace-dir={tmp_path}")
    import json
    decisions = json.loads((tmp_path / "memory_layout_propagation.json").read_text())["decisions"]
    assert [d["op"] for d in decisions][:2] == ["matmul", "relu"]
    assert any("sharded" in d["chosen"] for d in decisions)
    assert (tmp_path / "l1_spill_management.json").exists()


def test_ttrt_perf_reports_the_chosen_layouts(tmp_path):
    import csv

    from ttrt.common.api import API

    path = tmp_path / "chain.ttnn"
    path.write_bytes(compile_ttir(CHAIN, pipeline_options="optimization-level=2"))
    API.initialize_apis()
    code, _ = API.registered_apis["perf"](args={"binary": str(path), "--result-file": str(tmp_path / "r.json"),
                                                "--artifact-dir": str(tmp_path / "a")})()
    assert code == 0
    with open(next((tmp_path / "a").rglob("ops_perf_results.csv")), newline="") as report:
        rows = {row["OP CODE"]: row for row in csv.DictReader(report)}
    assert "_SHARDED" in rows["ttnn.relu"]["OUTPUT_0_MEMORY"]
    assert "'shard_grid': '" in rows["ttnn.relu"]["ATTRIBUTES"]
    assert "'output_memory_config': 'l1:" in rows["ttnn.relu"]["ATTRIBUTES"]
    assert "'output_memory_config': 'dram:interleaved'" in rows["ttnn.multiply"]["ATTRIBUTES"]


CONV = """
module {
  func.func @forward(%x: tensor<1x8x8x16xbf16>, %w: tensor<16x16x3x3xbf16>) -> tensor<1x8x8x16xbf16> {
    %0 = "ttir.conv2d"(%x, %w) <{stride = array<i32: 1, 1>, padding = array<i32: 1, 1>, dilation = 1 : i32, groups = 1 : i32}> : (tensor<1x8x8x16xbf16>, tensor<16x16x3x3xbf16>) -> tensor<1x8x8x16xbf16> loc("conv1")
    return %0 : tensor<1x8x8x16xbf16>
  }
}
"""


def test_conv2d_config_override_activation_is_applied():
    g = torch.Generator().manual_seed(2)
    inputs = [torch.randn(1, 8, 8, 16, generator=g), torch.randn(16, 16, 3, 3, generator=g)]
    plain, _ = _run(CONV, "optimization-level=1", inputs)
    fused, _ = _run(CONV, "optimization-level=1 override-conv2d-config=conv1=activation#relu:deallocate_activation#false",
                    inputs)
    assert plain.min() < 0 and pcc(torch.relu(plain), fused) > 0.999
    assert "deallocate_activation = false" in str(lower_to_ttnn(
        CONV, "c", "optimization-level=1 override-conv2d-config=conv1=deallocate_activation#false"))


CONV_WITH_PARAMETERS = """
func.func @forward(%x: tensor<1x16x16x32xbf16>, %w: tensor<64x32x3x3xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>},
                   %b: tensor<1x1x1x64xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>}) -> tensor<1x16x16x64xbf16> {
  %0 = "ttir.conv2d"(%x, %w, %b) <{stride = 1 : i32, padding = 1 : i32, dilation = 1 : i32, groups = 1 : i32}> : (tensor<1x16x16x32xbf16>, tensor<64x32x3x3xbf16>, tensor<1x1x1x64xbf16>) -> tensor<1x16x16x64xbf16>
  return %0 : tensor<1x16x16x64xbf16>
}
"""


def test_level1_prepares_conv2d_weights_once_and_matches_level0():
    """From level 1 the conv's parameter weight and bias go through prepare_conv2d_weights/bias, in a const-eval
    function: prepared on the first run only, and the conv computes what it computes on the raw weight."""
    from ttmlir.asm import print_module

    text = print_module(lower_to_ttnn(CONV_WITH_PARAMETERS, pipeline_options="optimization-level=1"))
    const_eval, forward = text.split("func.func @forward")
    assert '"ttnn.prepare_conv2d_weights"' in const_eval and '"ttnn.prepare_conv2d_bias"' in const_eval
    assert "prepare_conv2d" not in forward and "ttcore.load_cached" in forward
    g = torch.Generator().manual_seed(0)
    inputs = [torch.randn(1, 16, 16, 32, generator=g), torch.randn(64, 32, 3, 3, generator=g),
              torch.randn(1, 1, 1, 64, generator=g)]
    base, _ = _run(CONV_WITH_PARAMETERS, "optimization-level=0", inputs)
    binary = Binary(data=compile_ttir(CONV_WITH_PARAMETERS, pipeline_options="optimization-level=1"))
    device = MeshDevice()
    runs = [run_program(binary, 0, inputs, device) for _ in range(2)]
    assert [ctx.const_eval_hits for _, ctx in runs] == [0, 2]  # weight and bias: one function each
    assert all(torch.equal(outputs[0].data.float(), base) for outputs, _ in runs)


CONV3D = """
module {
  func.func @forward(%x: tensor<1x4x6x6x128xbf16>, %w: tensor<128x128x3x3x3xbf16>) -> tensor<1x2x4x4x128xbf16> {
    %0 = "ttir.conv3d"(%x, %w) <{stride = array<i32: 1, 1, 1>, padding = array<i32: 0, 0, 0>, groups = 1 : i32, padding_mode = "zeros"}> : (tensor<1x4x6x6x128xbf16>, tensor<128x128x3x3x3xbf16>) -> tensor<1x2x4x4x128xbf16>
    return %0 : tensor<1x2x4x4x128xbf16>
  }
}
"""


def test_tuned_conv3d_blocking_computes_the_same():
    # level 1 blocks this conv3d's input channels by 128 (tt-metal's tuned row), not 32: the prepared weight's rows are
    # laid out per block, so a wrong layout would show here; torch's conv3d is the reference
    g = torch.Generator().manual_seed(2)
    x, w = torch.randn(1, 4, 6, 6, 128, generator=g), torch.randn(128, 128, 3, 3, 3, generator=g) / 30
    assert "c_in_block = 128" in print_module(lower_to_ttnn(CONV3D, "conv3d", "optimization-level=1"))
    want = torch.nn.functional.conv3d(x.bfloat16().float().permute(0, 4, 1, 2, 3), w.bfloat16().float()).permute(0, 2, 3, 4, 1)
    for level in (0, 1):
        out, _ = _run(CONV3D, f"optimization-level={level}", [x, w])
        assert pcc(want, out) > 0.999


def test_conv2d_l1_model_slices_what_does_not_fit():
    # a 512x512x256 conv2d does not fit L1 whole; sliced along its width it does, in fewer slices with smaller
    # activation blocks; a small one fits whole
    big = op_model.Conv2dWork(1, 512, 512, 256, 512 * 512, 256, (3, 3), "bf16")
    assert big.slices_needed(ARCH, "l1_full") is None
    n = big.slices_needed(ARCH, "dram_width", act_block_h=1024)
    assert n is not None and big.l1_per_core(ARCH, n, "width", 1024) <= op_model.l1_budget(ARCH)
    assert big.slices_needed(ARCH, "dram_width", act_block_h=32) <= n
    assert big.slices_needed(ARCH, "dram_height", slices=1) is None
    small = op_model.Conv2dWork(1, 32, 32, 64, 32 * 32, 64, (3, 3), "bf16")
    assert small.slices_needed(ARCH, "l1_full") == 1


CONV2D = """
module {
  func.func @forward(%x: tensor<4x16x16x64xbf16>, %w: tensor<64x64x3x3xbf16>, %b: tensor<1x1x1x64xbf16>) -> tensor<4x16x16x64xbf16> {
    %0 = "ttir.conv2d"(%x, %w, %b) <{stride = 1 : i32, padding = 1 : i32, dilation = 1 : i32, groups = 1 : i32}> : (tensor<4x16x16x64xbf16>, tensor<64x64x3x3xbf16>, tensor<1x1x1x64xbf16>) -> tensor<4x16x16x64xbf16>
    return %0 : tensor<4x16x16x64xbf16>
  }
}
"""


def test_sharded_conv2d_reads_its_activation_resharded_and_matches_level0():
    text = print_module(lower_to_ttnn(CONV2D, "conv", "optimization-level=2"), local_scope=True)
    conv = next(line for line in text.splitlines() if '"ttnn.conv2d"' in line)
    assert conv.count("height_sharded") >= 2 and "ttnn.to_memory_config" in text  # activation and result
    g = torch.Generator().manual_seed(5)
    inputs = [torch.randn(4, 16, 16, 64, generator=g), torch.randn(64, 64, 3, 3, generator=g) / 20,
              torch.randn(1, 1, 1, 64, generator=g)]
    base, _ = _run(CONV2D, "optimization-level=0", inputs)
    out, _ = _run(CONV2D, "optimization-level=2", inputs)
    assert pcc(base, out) > 0.999


ROW_MAJOR_IDS = """
#dram = #ttnn.buffer_type<dram>
#rm_i = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<32x64xsi32, #dram>, <interleaved>>
#tile_i = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<1x2x!ttcore.tile<32x32, si32>, #dram>, <interleaved>>
#tile_f = #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, memref<1x2x!ttcore.tile<32x32, f32>, #dram>, <interleaved>>
module {
  func.func @forward(%ids: tensor<32x64xsi32, #rm_i> {ttcore.argument_type = #ttcore.argument_type<input>}, %x: tensor<32x64xf32, #tile_f> {ttcore.argument_type = #ttcore.argument_type<input>}) -> (tensor<32x64xf32, #tile_f>, tensor<64x32xf32, #tile_f>) {
    %0 = "ttnn.to_tensor_spec"(%ids) : (tensor<32x64xsi32, #rm_i>) -> tensor<32x64xsi32, #tile_i>
    %1 = "ttnn.typecast"(%0) : (tensor<32x64xsi32, #tile_i>) -> tensor<32x64xf32, #tile_f>
    %2 = "ttnn.add"(%1, %x) : (tensor<32x64xf32, #tile_f>, tensor<32x64xf32, #tile_f>) -> tensor<32x64xf32, #tile_f>
    %3 = "ttnn.permute"(%1) <{permutation = array<i64: 1, 0>}> : (tensor<32x64xf32, #tile_f>) -> tensor<64x32xf32, #tile_f>
    return %2, %3 : tensor<32x64xf32, #tile_f>, tensor<64x32xf32, #tile_f>
  }
}
"""


def test_row_major_propagation_moves_tilizing_not_values():
    # the ids stay row-major through the typecast and the permute; the add and the return get them tilized
    from ttmlir.asm import parse_text
    from ttmlir.dialects import make_context
    from ttmlir.passes import make_pass
    from ttmlir.target.ttnn import translate

    ctx = make_context()
    propagated, _ = parse_text(ctx, ROW_MAJOR_IDS)
    for name in ("ttcore-register-device", "ttnn-rm-layout-propagation", "ttnn-decompose-layouts"):
        make_pass(name).apply(ctx, propagated)
    text = print_module(propagated, local_scope=True)
    typecast = next(line for line in text.splitlines() if '"ttnn.typecast"' in line)
    assert "ttcore.tile" not in typecast and text.count('"ttnn.to_layout"') == 2
    ids = torch.randint(-50, 50, (32, 64), generator=torch.Generator().manual_seed(6)).int()
    x = torch.randn(32, 64, generator=torch.Generator().manual_seed(7))
    (a, b), _ = run_program(Binary(data=translate(propagated)), 0, [ids, x], MeshDevice())
    assert torch.equal(a.data.float(), ids.float() + x) and torch.equal(b.data.float(), ids.float().T)
