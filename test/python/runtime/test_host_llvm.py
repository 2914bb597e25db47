"""CPU-hoisted const-eval run as compiled LLVM: a parameter's preparation (transpose, reshape, slice, scale) is
hoisted to the CPU module, lowered to LLVM and run by the executor through a CpuOp; the program's result must be
what torch computes from the same inputs."""

import torch

from ttmlir.compiler import compile_ttir
from ttmlir.runtime.device import MeshDevice
from ttmlir.runtime.executor import Binary, run_program

MODEL = """
module {
  func.func @forward(%x: tensor<32x64xf32>, %w: tensor<96x64xf32> {ttcore.argument_type = #ttcore.argument_type<parameter>}, %s: tensor<1x64xf32> {ttcore.argument_type = #ttcore.argument_type<parameter>}) -> tensor<32x64xf32> {
    %0 = "ttir.slice_static"(%w) <{begins = [32 : i32, 0 : i32], ends = [96 : i32, 64 : i32], step = [1 : i32, 1 : i32]}> : (tensor<96x64xf32>) -> tensor<64x64xf32>
    %1 = "ttir.permute"(%0) <{permutation = array<i64: 1, 0>}> : (tensor<64x64xf32>) -> tensor<64x64xf32>
    %2 = "ttir.multiply"(%1, %s) : (tensor<64x64xf32>, tensor<1x64xf32>) -> tensor<64x64xf32>
    %3 = "ttir.matmul"(%x, %2) : (tensor<32x64xf32>, tensor<64x64xf32>) -> tensor<32x64xf32>
    return %3 : tensor<32x64xf32>
  }
}
"""


def test_hoisted_const_eval_runs_as_compiled_llvm():
    binary = Binary(data=compile_ttir(MODEL))
    forward = next(i for i, p in enumerate(binary.programs) if p.name == "forward")
    generator = torch.Generator().manual_seed(0)
    x, w, s = (torch.randn(*shape, generator=generator) for shape in ((32, 64), (96, 64), (1, 64)))
    (out,), ctx = run_program(binary, forward, [x, w, s], MeshDevice())
    ran = [op.name for op, *_ in ctx.perf]
    assert "cpu" in ran  # the weight was prepared on the host, by the compiled function
    want = x @ (w[32:96].T * s)
    assert torch.corrcoef(torch.stack([out.data.float().flatten(), want.flatten()]))[0, 1] > 0.999
