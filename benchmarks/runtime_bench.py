"""Simulated-runtime speed: `ttrt run`'s executor beside torch eager for the same computation.

1. Large matmuls (1024 and 2048, f32): executor time vs `torch.matmul` (target ratio <= 1.3).
2. A 1,000-op chain of small (32x32) eltwise ops: executor overhead per op (target < 100 us).
Figures only; nothing is asserted.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).parent))
from opt_bench import ttir_chain  # noqa: E402

from ttmlir.compiler import compile_ttir  # noqa: E402
from ttmlir.runtime.device import MeshDevice  # noqa: E402
from ttmlir.runtime.executor import Binary, run_program  # noqa: E402


def best(fn, repeats: int = 5) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def matmul_module(n: int) -> str:
    t = f"tensor<{n}x{n}xf32>"
    return (f"func.func @mm(%a: {t}, %b: {t}) -> {t} {{\n  %0 = \"ttir.matmul\"(%a, %b) : ({t}, {t}) -> {t}\n"
            f"  return %0 : {t}\n}}\n")


def main() -> None:
    torch.manual_seed(0)
    for n in (1024, 2048):
        binary = Binary(data=compile_ttir(matmul_module(n)))
        a, b = torch.randn(n, n), torch.randn(n, n)
        ours = best(lambda: run_program(binary, 0, [a, b], MeshDevice()))
        eager = best(lambda: torch.matmul(a, b))
        print(f"matmul {n}x{n}x{n} f32: ttrt run {ours * 1000:8.1f} ms | torch eager {eager * 1000:8.1f} ms | "
              f"ratio {ours / eager:.2f} (target <= 1.3)")
    binary = Binary(data=compile_ttir(ttir_chain(1_000)))
    program = binary.programs[0]
    x, y = torch.randn(32, 32), torch.randn(32, 32)
    ours = best(lambda: run_program(binary, 0, [x, y], MeshDevice()), 3)

    def eager_chain():
        v = x
        for i in range(1_000):
            v = torch.relu(v) if i % 2 else (v + y)

    eager = best(eager_chain, 3)
    ops = len(program.operations)
    print(f"1,000-op chain of 32x32 ops ({ops} TTNN ops incl. layout and deallocate): ttrt run {ours * 1000:.1f} ms "
          f"| torch eager {eager * 1000:.1f} ms | overhead {(ours - eager) / ops * 1e6:.1f} us per op (target < 100)")


if __name__ == "__main__":
    main()
