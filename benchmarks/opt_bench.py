"""Round-trip time of a 10,000-op TTIR module: `ttmlir-opt` (parse, verify, print) vs `xdsl-opt`.

Also prints the start-up time of `ttmlir-opt` on a 10-line file. Figures only; nothing is asserted.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BIN = Path(sys.executable).parent


def ttir_chain(n: int) -> str:
    ops = ["add", "multiply", "subtract", "maximum"]
    lines = ["module {", "  func.func @main(%arg0: tensor<32x32xf32>, %arg1: tensor<32x32xf32>) -> tensor<32x32xf32> {"]
    prev = "%arg0"
    for i in range(n):
        if i % 2:
            lines.append(f'    %{i} = "ttir.relu"({prev}) : (tensor<32x32xf32>) -> tensor<32x32xf32>')
        else:
            lines.append(f'    %{i} = "ttir.{ops[i // 2 % 4]}"({prev}, %arg1) : (tensor<32x32xf32>, '
                         f'tensor<32x32xf32>) -> tensor<32x32xf32>')
        prev = f"%{i}"
    lines += [f"    return {prev} : tensor<32x32xf32>", "  }", "}"]
    return "\n".join(lines) + "\n"


def best_of(cmd: list[str], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        small, big = Path(tmp, "small.mlir"), Path(tmp, "big.mlir")
        small.write_text(ttir_chain(5))
        big.write_text(ttir_chain(10_000))
        startup = [best_of([str(BIN / "ttmlir-opt"), str(small)], 1) for _ in range(5)]
        print(f"ttmlir-opt on a 10-line file: {statistics.median(startup):.3f} s (median of 5)")
        ours = best_of([str(BIN / "ttmlir-opt"), str(big)], 3)
        xdsl = best_of([str(BIN / "xdsl-opt"), "--allow-unregistered-dialect", str(big)], 3)
        print(f"10,000-op round trip: ttmlir-opt {ours:.2f} s, xdsl-opt --allow-unregistered-dialect {xdsl:.2f} s, "
              f"ratio {ours / xdsl:.2f} (target <= 1.2)")


if __name__ == "__main__":
    main()
