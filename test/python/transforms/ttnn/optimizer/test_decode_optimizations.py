"""Issue 53's optimizer features: DRAM-sharded decode weights, the fidelity the optimizer picks, the split of runtime
weight concatenations -- each faster by the perf model and equal in value to level 0."""

import re

import pytest
import torch

from ttmlir.asm import print_module
from ttmlir.compiler import compile_ttir, lower_to_ttnn
from ttmlir.runtime import op_model, perf
from ttmlir.runtime.device import MeshDevice
from ttmlir.runtime.executor import Binary, run_program
from ttmlir.runtime.golden import pcc
from ttmlir.runtime.op_model import TensorSpec

ARCH = "wormhole_b0"


def decode(rows: int, kind: str = "parameter") -> str:
    return f"""
module {{
  func.func @forward(%x: tensor<{rows}x1024xbf16> {{ttcore.argument_type = #ttcore.argument_type<input>}}, %w: tensor<1024x3072xbf16> {{ttcore.argument_type = #ttcore.argument_type<{kind}>}}) -> tensor<{rows}x3072xbf16> {{
    %0 = "ttir.matmul"(%x, %w) : (tensor<{rows}x1024xbf16>, tensor<1024x3072xbf16>) -> tensor<{rows}x3072xbf16>
    %1 = "ttir.relu"(%0) : (tensor<{rows}x3072xbf16>) -> tensor<{rows}x3072xbf16>
    return %1 : tensor<{rows}x3072xbf16>
  }}
}}
"""


def _run(text: str, level: int, inputs):
    binary = Binary(data=compile_ttir(text, pipeline_options=f"optimization-level={level}"))
    outputs, ctx = run_program(binary, 0, inputs, MeshDevice())
    forward = [(op, p) for op, p, *_ in ctx.perf if not op.const_eval]
    return outputs[0].data.float(), forward


def test_dram_shards_are_read_faster_and_placed_one_per_bank():
    x = TensorSpec((32, 4096), "bf16", "l1", "interleaved")
    out = TensorSpec((32, 14336), "bf16", "l1", "interleaved")
    interleaved = TensorSpec((4096, 14336), "bf16")
    sharded = TensorSpec((4096, 14336), "bf16", "dram", "width_sharded", (1, 12))
    assert perf.page_bytes(sharded) == 38 * 2048  # a row of the shard's 38 tiles, read as one request
    slow = perf.estimate("matmul", "matmul", [x, interleaved], [out], ARCH)
    fast = perf.estimate("matmul", "matmul", [x, sharded], [out], ARCH)
    assert slow.bound == fast.bound == "dram" and fast.kernel_ns < 0.75 * slow.kernel_ns
    # the op model takes a DRAM-sharded weight, never a DRAM-sharded activation
    assert op_model.check("matmul", "matmul", [x, sharded], out, ARCH).legal
    assert not op_model.check("matmul", "matmul", [sharded, x], out, ARCH).legal
    # the allocator: one shard per DRAM bank; more shards than banks do not fit
    device = MeshDevice()
    assert device.per_bank_bytes("dram", 12 * 1000, 2048, (1, 12)) == 1000
    with pytest.raises(ValueError, match="DRAM banks"):
        device.per_bank_bytes("dram", 13 * 1000, 2048, (1, 13))


def test_decode_weight_is_dram_sharded_once_and_matches_level0():
    text = decode(32)
    ir = print_module(lower_to_ttnn(text, pipeline_options="optimization-level=2"))
    # the move into DRAM shards is const-eval's: the forward function reads the sharded weight it caches
    const_eval = ir[ir.index("_const_eval_0"):ir.index("func.func @forward(")]
    assert '"ttnn.to_memory_config"' in const_eval
    assert re.search(r"<1x12>, memref<32x8x!ttcore.tile<32x32, bf16>, #dram>, <width_sharded>", ir)
    assert "matmul_multi_core_reuse_multi_cast_dram_sharded_program_config" in ir
    torch.manual_seed(0)
    inputs = [torch.randn(32, 1024).bfloat16(), torch.randn(1024, 3072).bfloat16()]
    base, base_perf = _run(text, 0, inputs)
    out, out_perf = _run(text, 2, inputs)
    assert pcc(out, base) > 0.999
    product = lambda ops: next(p for op, p in ops if p.op == "matmul")  # noqa: E731
    assert product(out_perf).kernel_ns < 0.8 * product(base_perf).kernel_ns


@pytest.mark.parametrize("rows, kind", [(512, "parameter"), (32, "input")])
def test_prefill_products_and_runtime_weights_stay_interleaved(rows, kind):
    # a prefill product is compute-bound; a weight that is a call input would be moved on every call
    ir = print_module(lower_to_ttnn(decode(rows, kind), pipeline_options="optimization-level=2"))
    assert "width_sharded>, core_ranges = <[#ttnn.core_range<(0,0), (11,0)>]>" not in ir
    assert "dram_sharded_program_config" not in ir


def test_fidelity_is_lowered_only_where_it_buys_time():
    # above level 0 the pipeline names no fidelity: the DRAM-bound decode product keeps hifi4, the compute-bound
    # prefill product runs at TTNN's default (hifi2 for bf16), which the perf model finds faster
    for rows, fidelity in ((32, "math_fidelity = hifi4"), (2048, None)):
        ir = print_module(lower_to_ttnn(decode(rows), pipeline_options="optimization-level=2"))
        config = re.search(r'"ttnn.matmul".*?compute_config = (#ttnn.device_compute_kernel_config<[^>]*>)', ir).group(1)
        assert (fidelity in config) if fidelity else ("math_fidelity" not in config)
    level0 = print_module(lower_to_ttnn(decode(2048), pipeline_options="optimization-level=0"))
    assert "math_fidelity = hifi4" in level0


def test_runtime_weight_concat_is_split_and_matches_level0():
    text = """
module {
  func.func @forward(%x: tensor<32x1024xbf16>, %a: tensor<1024x1024xbf16>, %b: tensor<1024x512xbf16>, %c: tensor<1024x512xbf16>) -> (tensor<32x1024xbf16>, tensor<32x512xbf16>, tensor<32x512xbf16>) {
    %0 = "ttir.matmul"(%x, %a) : (tensor<32x1024xbf16>, tensor<1024x1024xbf16>) -> tensor<32x1024xbf16>
    %1 = "ttir.matmul"(%x, %b) : (tensor<32x1024xbf16>, tensor<1024x512xbf16>) -> tensor<32x512xbf16>
    %2 = "ttir.matmul"(%x, %c) : (tensor<32x1024xbf16>, tensor<1024x512xbf16>) -> tensor<32x512xbf16>
    return %0, %1, %2 : tensor<32x1024xbf16>, tensor<32x512xbf16>, tensor<32x512xbf16>
  }
}
"""
    torch.manual_seed(1)
    inputs = [torch.randn(32, 1024).bfloat16(), torch.randn(1024, 1024).bfloat16(),
              torch.randn(1024, 512).bfloat16(), torch.randn(1024, 512).bfloat16()]
    results = {}
    for level in (0, 2):
        binary = Binary(data=compile_ttir(text, pipeline_options=f"optimization-level={level}"))
        outputs, ctx = run_program(binary, 0, inputs, MeshDevice())
        ops = [p.op for _, p, *_ in ctx.perf]
        results[level] = ([o.data.float() for o in outputs], sum(p.kernel_ns for _, p, *_ in ctx.perf), ops)
    assert "concat" in results[0][2] and "concat" not in results[2][2]
    assert results[2][2].count("matmul") == 3
    assert all(pcc(a, b) > 0.999 for a, b in zip(results[2][0], results[0][0]))
    assert results[2][1] < results[0][1]
