"""Metal simulator speed: kernels compiled from C++ and run on the simulated grid (issue figures: a
1024x1024 bf16 eltwise add on the 8x8 grid <= 1 s, a 512x512x512 bf16 matmul <= 2 s).

The "compiled" programs come from TTIR (`--ttir-to-ttmetal-pipeline`, L1-sharded tensors on the 8x8 grid); the
others are the hand-written reference kernels (`ttmlir/runtime/metal/reference/`): one reader, one compute and
one writer kernel per core, DRAM-interleaved tensors. Prints wall time (first run, which
compiles its kernels, and the best of three after, each on a fresh grid), simulated cycles and NoC
traffic; asserts nothing. The concat is a gather (falcon's rotary embedding): its data movement kernels read rows
into zeroed tile pages, the kernel-interpretation load of most model graphs on this path.
"""

from __future__ import annotations

import time

import torch

from ttmlir.runtime.metal.core import ProgramStats
from ttmlir.runtime.metal.grid import Grid
from ttmlir.runtime.metal.reference import eltwise, kernel, matmul


def measure(name: str, run) -> None:
    start = time.perf_counter()
    _, stats = run()
    first = time.perf_counter() - start
    repeats = []
    for _ in range(3):
        start = time.perf_counter()
        run()
        repeats.append(time.perf_counter() - start)
    print(f"{name:54} first {first:6.3f} s  best {min(repeats):6.3f} s  {stats.cycles:>9,} cycles  "
          f"{stats.cores} cores  {stats.noc_bytes / 2**20:7.1f} MiB over the NoC")


def compiled(op: str, a: torch.Tensor, b: torch.Tensor):
    """`op` of a and b (bf16) compiled from TTIR through the TTMetal pipeline and run from its .ttm."""
    from ttmlir.compiler import lower_to_ttmetal
    from ttmlir.runtime.metal.program import run_program
    from ttmlir.target.ttmetal import translate

    ta, tb = (f"tensor<{t.shape[0]}x{t.shape[1]}xbf16>" for t in (a, b))
    tc = f"tensor<{a.shape[0]}x{b.shape[1]}xbf16>"
    source = (f"func.func @f(%a: {ta}, %b: {tb}) -> {tc} {{\n  %0 = \"ttir.{op}\"(%a, %b) : ({ta}, {tb}) -> {tc}\n"
              f"  return %0 : {tc}\n}}\n")
    outputs, stats = run_program(translate(lower_to_ttmetal(source)), [a, b])
    return outputs, stats[0]


def concat(a: torch.Tensor, b: torch.Tensor):
    """a and b (bf16) joined on their last dim, compiled from TTIR and run from its .ttm."""
    from ttmlir.compiler import lower_to_ttmetal
    from ttmlir.runtime.metal.program import run_program
    from ttmlir.target.ttmetal import translate

    ta, tb = (f"tensor<{'x'.join(map(str, t.shape))}xbf16>" for t in (a, b))
    tc = f"tensor<{'x'.join(map(str, (*a.shape[:-1], a.shape[-1] + b.shape[-1])))}xbf16>"
    source = (f"func.func @f(%a: {ta}, %b: {tb}) -> {tc} {{\n"
              f"  %0 = \"ttir.concat\"(%a, %b) <{{dim = {a.dim() - 1} : si32}}> : ({ta}, {tb}) -> {tc}\n"
              f"  return %0 : {tc}\n}}\n")
    outputs, stats = run_program(translate(lower_to_ttmetal(source)), [a, b])
    return outputs, ProgramStats(sum(s.cycles for s in stats), max(s.cores for s in stats),
                                 sum(s.noc_bytes for s in stats), sum(s.tiles_computed for s in stats))


def main() -> None:
    torch.manual_seed(0)
    cores = [(y, x) for y in range(8) for x in range(8)]
    a, b = torch.randn(1024, 1024), torch.randn(1024, 1024)
    measure("add 1024x1024 bf16 compiled from TTIR, 8x8 grid", lambda: compiled("add", a, b))
    measure("add 1024x1024 bf16, 8x8 grid (FPU)",
            lambda: eltwise(Grid("wormhole_b0"), a, b, kernel("compute_add_fpu.cpp"), "bf16", cores))
    x, y = torch.randn(512, 512), torch.randn(512, 512)
    measure("matmul 512x512x512 bf16 compiled from TTIR, 8x8 grid", lambda: compiled("matmul", x, y))
    measure("matmul 512x512x512 bf16, 8x8 grid",
            lambda: matmul(Grid("wormhole_b0"), x, y, "bf16", cores))
    p, q = torch.randn(8, 12, 1, 128), torch.randn(8, 12, 1, 128)
    measure("concat 2 x 8x12x1x128 bf16 on the last dim compiled from TTIR", lambda: concat(p, q))


if __name__ == "__main__":
    main()
