"""What the hardware's numerics cost each model: PCC of its outputs under hardware numerics against the same run
in exact (f32) numerics, and its modelled device time, for every `.mlir` model in a directory (e.g. upstream
tt-mlir's test/ttmlir/models).

usage: python benchmarks/numerics_bench.py DIR [--timeout SECONDS] [--options PIPELINE_OPTIONS] [--init randn|fan-in]

Each model is compiled with `--ttir-to-ttnn-backend-pipeline` (upstream's defaults: HiFi4, f32 dst; other
settings through --options, e.g. "compute-cfg-math-fidelity=lofi compute-cfg-fp32-dest-acc-en=false") and run
twice on the same inputs, in a process of its own. Figures only; nothing is asserted.

Inputs: `randn` is ttrt's (seed 0). Deep graphs such as ResNet-50 overflow on it (a randn running variance is
negative half the time, and randn weights grow activations by ~sqrt(fan-in) per layer), so there is no finite
output to compare; `fan-in` initialises as a trained network is scaled: arguments the function marks
`parameter` get randn / sqrt(fan-in) when of rank >= 2 (weights), other parameters and `constant` arguments
uniform [0.5, 1.5) (positive, as running variances, norm scales and epsilons are); `input` arguments stay randn.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path


def fan_in_inputs(text: str, filename: str, inputs: list) -> list:
    """`inputs` with the entry function's parameters and constants re-initialised as `fan-in` says."""
    import math

    import torch
    from xdsl.dialects import func

    from ttmlir.diagnostics import load_module
    from ttmlir.dialects import make_context
    from ttmlir.dialects.ttcore import is_constant_argument

    module, _ = load_module(make_context(), text, filename)
    entry = next(op for op in module.walk() if isinstance(op, func.FuncOp) and op.sym_visibility is None)
    generator = torch.Generator().manual_seed(1)
    for i, (arg, attrs) in enumerate(zip(entry.body.block.args, entry.arg_attrs or [])):
        if is_constant_argument(arg) and inputs[i].is_floating_point():
            shape, dtype = inputs[i].shape, inputs[i].dtype
            weight = "parameter" in str(attrs.data.get("ttcore.argument_type")) and len(shape) >= 2
            inputs[i] = None  # the old value freed first, the new one scaled in place: a 151936 x 4096 bf16 table
            # drawn in f32 is 2.5 GB, and three copies of it at once ran a model check out of memory
            fresh = torch.randn(shape, generator=generator).div_(math.sqrt(math.prod(shape[1:]))) \
                if weight else torch.rand(shape, generator=generator).add_(0.5)
            inputs[i] = fresh.to(dtype)
            del fresh
    return inputs


def measure(path: Path, options: str, init: str) -> None:
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
    if init == "fan-in":
        inputs = fan_in_inputs(path.read_text(), str(path), inputs)
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
    parser.add_argument("--init", choices=("randn", "fan-in"), default="randn",
                        help="how inputs are made (default: randn; see above)")
    parser.add_argument("--one", help=argparse.SUPPRESS)  # measure one model in this process
    args = parser.parse_args()
    if args.one:
        measure(Path(args.one), args.options, args.init)
        return
    root = Path(args.directory)
    print(f"{'model':64} {'min PCC':>9} {'untraced us':>12} {'traced us':>10}  result", flush=True)
    for path in sorted(root.rglob("*.mlir")):
        command = [sys.executable, __file__, str(root), "--one", str(path), "--options", args.options, "--init", args.init]
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
