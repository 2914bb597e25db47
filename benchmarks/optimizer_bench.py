"""The optimizer on every `.mlir` model in a directory (e.g. upstream tt-mlir's test/ttmlir/models): each model
compiled at optimization-level=0 and at a higher level, both run on the simulated n150 with the same inputs.

usage: python benchmarks/optimizer_bench.py DIR [--level 2] [--filter REGEX] [--timing-only]

Per model: modelled device time of a call (the perf model's kernel time summed over the program's ops, const-eval
ops left out: they run once and their results are cached) at level 0 and at the level asked, their ratio, the ops
whose result is L1-sharded and in L1 at all, and the lowest PCC of the outputs against level 0's. Last, the geometric mean of the speedups. Figures only; nothing is asserted. `--timing-only` runs without values (the
simulator's meta mode: the same allocations and modelled times, no PCC) in seconds instead of hours.
"""

from __future__ import annotations

import argparse
import math
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tools")]


def _meta(value):
    """An input without its values (a tensor, or one per chip of a sharded input)."""
    return [_meta(v) for v in value] if isinstance(value, list) else value.to("meta")


def run(text: str, name: str, level: int, values: bool = True):
    """(outputs, modelled ns, sharded ops, L1 ops, compile s) of `text` compiled at `level`."""
    from ttmlir.compiler import compile_ttir
    from ttmlir.runtime.device import MeshDevice
    from ttmlir.runtime.executor import Binary, run_program
    from ttmlir.runtime.session import make_inputs

    start = time.perf_counter()
    binary = Binary(data=compile_ttir(text, name, pipeline_options=f"optimization-level={level}"))
    compile_s = time.perf_counter() - start
    inputs = make_inputs(binary, 0, "randn", 0)
    if not values:
        inputs = [_meta(x) for x in inputs]
    device = MeshDevice(mesh_shape=binary.mesh_shape())
    outputs, ctx = run_program(binary, 0, inputs, device, compute=values)
    # a call's time, as a user sees it once const-eval results are cached: const-eval ops run once, not counted
    forward = [(op, p) for op, p, *_ in ctx.perf if not op.const_eval]
    ns = sum(p.kernel_ns for _, p in forward)
    placed = [t for op, _ in forward for t in op.outputs if t.on_device]
    sharded = sum(1 for t in placed if (t.memory_layout or "").endswith("sharded"))
    in_l1 = sum(1 for t in placed if t.buffer_type == "l1")
    return [o.data.float() for o in outputs] if values else [], ns, sharded, in_l1, compile_s


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("directory")
    parser.add_argument("--level", type=int, default=2)
    parser.add_argument("--filter", default="")
    parser.add_argument("--timing-only", action="store_true", help="modelled times only: no values, no PCC")
    args = parser.parse_args()
    from ttmlir.runtime.golden import pcc

    values = not args.timing_only
    files = [p for p in sorted(Path(args.directory).rglob("*.mlir")) if re.search(args.filter, str(p))]
    print(f"{'model':56} {'L0 us':>9} {f'L{args.level} us':>9} {'speedup':>7} {'sharded':>7} {'in L1':>6} "
          f"{'min PCC':>8}  result")
    speedups, failed = [], 0
    for path in files:
        name = str(path.relative_to(args.directory))
        text = path.read_text()
        try:
            base, base_ns, *_ = run(text, str(path), 0, values)
            outs, ns, sharded, in_l1, _ = run(text, str(path), args.level, values)
        except Exception as error:  # a figure table: one model's failure is reported, the rest still measured
            failed += 1
            print(f"{name[:56]:56} {'':>9} {'':>9} {'':>7} {'':>7} {'':>6} {'':>8}  FAIL {str(error).splitlines()[0][:90]}")
            continue
        speedups.append(base_ns / ns if ns else 1.0)
        if args.timing_only:
            worst_text, status = f"{'-':>8}", "timed"
        else:
            worst = min((pcc(a, b) for a, b in zip(outs, base)), default=1.0)
            worst_text, status = f"{worst:8.4f}", "ok" if worst >= 0.99 else "PCC"
        print(f"{name[:56]:56} {base_ns / 1e3:9.1f} {ns / 1e3:9.1f} {speedups[-1]:7.2f} {sharded:7d} {in_l1:6d} "
              f"{worst_text}  {status}", flush=True)
    geomean = math.exp(sum(map(math.log, speedups)) / len(speedups)) if speedups else 0.0
    print(f"models {len(files)}, ran {len(speedups)}, failed {failed}; geometric-mean speedup "
          f"L0/L{args.level} {geomean:.2f}x")


if __name__ == "__main__":
    main()
