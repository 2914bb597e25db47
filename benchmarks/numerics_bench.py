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


def measure(path: Path, options: str) -> None:
    """Prints a JSON line with the modelled times (a run without values), then one with the PCC (two runs with
    values), so a model too slow for the timeout still reports its time."""
    import torch

    from ttmlir.compiler import compile_ttir
    from ttmlir.runtime import perf
    from ttmlir.runtime.device import MeshDevice
    from ttmlir.runtime.executor import Binary, release, run_program
    from ttmlir.runtime.golden import pcc
    from ttmlir.runtime.session import make_inputs

    binary = Binary(data=compile_ttir(path.read_text(), str(path), pipeline_options=options))
    device = lambda: MeshDevice(mesh_shape=binary.mesh_shape())  # noqa: E731
    _, ctx = run_program(binary, 0, make_inputs(binary, 0, "randn", 0, meta=True), device(), compute=False)
    perfs = [p for _, p, *_ in ctx.perf]
    print(json.dumps({"untraced_us": perf.program_ns(perfs, False) / 1e3,
                      "traced_us": perf.program_ns(perfs, True) / 1e3}), flush=True)
    inputs = make_inputs(binary, 0, "randn", 0)
    results = {}
    for exact in (True, False):
        outputs, ctx = run_program(binary, 0, inputs, device(), exact=exact)
        results[exact] = [t.data.float() if t.data.is_floating_point() else t.data for t in outputs]
        release(binary.programs[0], ctx, outputs)
    scores = [float(pcc(want, got)) for want, got in zip(results[True], results[False])
              if want.is_floating_point() and want.numel() > 1 and torch.isfinite(want).all()]
    print(json.dumps({"pcc": min(scores) if scores else None}), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("directory")
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds per model (default: 600)")
    parser.add_argument("--options", default="", help="options of --ttir-to-ttnn-backend-pipeline")
    parser.add_argument("--one", help=argparse.SUPPRESS)  # measure one model in this process
    args = parser.parse_args()
    if args.one:
        measure(Path(args.one), args.options)
        return
    root = Path(args.directory)
    print(f"{'model':64} {'min PCC':>9} {'untraced us':>12} {'traced us':>10}  result", flush=True)
    for path in sorted(root.rglob("*.mlir")):
        command = [sys.executable, __file__, str(root), "--one", str(path), "--options", args.options]
        try:
            done = subprocess.run(command, capture_output=True, text=True, timeout=args.timeout)
            out, error = done.stdout, (done.stderr.strip().splitlines() or [""])[-1] if done.returncode else ""
        except subprocess.TimeoutExpired as expired:
            out = expired.stdout.decode() if isinstance(expired.stdout, bytes) else expired.stdout or ""
            error = f"values timed out after {args.timeout:.0f} s"
        r = {k: v for line in out.strip().splitlines() for k, v in json.loads(line).items()}
        score = "-" if r.get("pcc") is None else f"{r['pcc']:.6f}"
        times = f"{r['untraced_us']:12.1f} {r['traced_us']:10.1f}" if "traced_us" in r else f"{'':>12} {'':>10}"
        print(f"{str(path.relative_to(root)):64} {score:>9} {times}  {error[:90] or 'ok'}", flush=True)


if __name__ == "__main__":
    main()
