"""What the hardware's numerics cost each model: PCC of its outputs under hardware numerics against the same run
in exact (f32) numerics, and its modelled device time, for every `.mlir` model in a directory (e.g. upstream
tt-mlir's test/ttmlir/models).

usage: python benchmarks/numerics_bench.py DIR [--timeout SECONDS] [--options PIPELINE_OPTIONS]

Each model is compiled with `--ttir-to-ttnn-backend-pipeline` (upstream's defaults: HiFi4, f32 dst; other
settings through --options, e.g. "compute-cfg-math-fidelity=lofi compute-cfg-fp32-dest-acc-en=false") and run
twice on the same inputs (ttrt's randn, seed 0), in a process of its own. Figures only; nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path


def measure(path: Path, options: str) -> dict:
    import torch

    from ttmlir.compiler import compile_ttir
    from ttmlir.runtime import perf
    from ttmlir.runtime.device import MeshDevice
    from ttmlir.runtime.executor import Binary, release, run_program
    from ttmlir.runtime.golden import pcc
    from ttmlir.runtime.session import make_inputs

    binary = Binary(data=compile_ttir(path.read_text(), str(path), pipeline_options=options))
    inputs = make_inputs(binary, 0, "randn", 0)
    results = {}
    for exact in (True, False):
        outputs, ctx = run_program(binary, 0, inputs, MeshDevice(mesh_shape=binary.mesh_shape()), exact=exact)
        results[exact] = [t.data.float() if t.data.is_floating_point() else t.data for t in outputs]
        perfs = [p for _, p, *_ in ctx.perf]
        release(binary.programs[0], ctx, outputs)
    scores = [float(pcc(want, got)) for want, got in zip(results[True], results[False])
              if want.is_floating_point() and want.numel() > 1 and torch.isfinite(want).all()]
    return {"pcc": min(scores) if scores else None, "outputs": len(results[True]),
            "untraced_us": perf.program_ns(perfs, False) / 1e3, "traced_us": perf.program_ns(perfs, True) / 1e3}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("directory")
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds per model (default: 600)")
    parser.add_argument("--options", default="", help="options of --ttir-to-ttnn-backend-pipeline")
    parser.add_argument("--one", help=argparse.SUPPRESS)  # measure one model in this process
    args = parser.parse_args()
    if args.one:
        print(json.dumps(measure(Path(args.one), args.options)))
        return
    root = Path(args.directory)
    print(f"{'model':64} {'min PCC':>9} {'untraced us':>12} {'traced us':>10}  result", flush=True)
    for path in sorted(root.rglob("*.mlir")):
        try:
            done = subprocess.run([sys.executable, __file__, str(root), "--one", str(path), "--options", args.options],
                                  capture_output=True, text=True, timeout=args.timeout)
        except subprocess.TimeoutExpired:
            print(f"{str(path.relative_to(root)):64} {'':>9} {'':>12} {'':>10}  timed out", flush=True)
            continue
        lines = done.stdout.strip().splitlines()
        if done.returncode or not lines:
            error = (done.stderr.strip().splitlines() or [f"exit {done.returncode}"])[-1]
            print(f"{str(path.relative_to(root)):64} {'':>9} {'':>12} {'':>10}  {error[:90]}", flush=True)
            continue
        r = json.loads(lines[-1])
        score = f"{r['pcc']:.6f}" if r["pcc"] is not None else "-"
        print(f"{str(path.relative_to(root)):64} {score:>9} {r['untraced_us']:12.1f} {r['traced_us']:10.1f}  ok",
              flush=True)


if __name__ == "__main__":
    main()
