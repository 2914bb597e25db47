"""Backend-pipeline time on TTIR chains of 1,000 and 10,000 ops, beside `xdsl-opt`'s parse+print time.

Targets (issue 3): pipeline at 10,000 ops within 2x the xdsl-opt figure; time(10,000)/time(1,000) <= 12.
Figures only; nothing is asserted.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from opt_bench import BIN, best_of, ttir_chain  # noqa: E402


def main() -> None:
    times = {}
    with tempfile.TemporaryDirectory() as tmp:
        for n in (1_000, 10_000):
            path = Path(tmp, f"chain{n}.mlir")
            path.write_text(ttir_chain(n))
            repeats = 3 if n <= 1_000 else 1
            ours = best_of([str(BIN / "ttmlir-opt"), "--ttir-to-ttnn-backend-pipeline", str(path)], repeats)
            xdsl = best_of([str(BIN / "xdsl-opt"), "--allow-unregistered-dialect", str(path)], repeats)
            times[n] = ours
            print(f"{n:>6} ops: ttmlir-opt --ttir-to-ttnn-backend-pipeline {ours:7.2f} s | xdsl-opt parse+print "
                  f"{xdsl:6.2f} s | ratio {ours / xdsl:.2f} (target <= 2)")
    print(f"time(10,000) / time(1,000) = {times[10_000] / times[1_000]:.1f} (target <= 12, linear)")


if __name__ == "__main__":
    main()
