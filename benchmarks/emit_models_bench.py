"""Generated code against the flatbuffer over model graphs (e.g. upstream tt-mlir's test/ttmlir/models): for each
model, `--ttir-to-emitpy-pipeline` + `--mlir-to-python` and `ttrt emitpy --flatbuffer` on the `.ttnn` of
`--ttir-to-ttnn-backend-pipeline` (both with the same pipeline options), and with `--emitc`, the same through
`--ttir-to-emitc-pipeline` + `--mlir-to-cpp` and `ttrt emitc`.

usage: python benchmarks/emit_models_bench.py DIR [--blocks N] [--emitc NAME ...] [--options "enable-const-eval=true"]
                                              [--timeout SECONDS]

Runs every top-level `.mlir` of DIR and the first N (default 10) of DIR/single_blocks_and_layers, and prints one
row per model: compile time, the result of the comparison (pass: every output equal to `ttrt run`'s) and the
first error line otherwise. Figures only; nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BIN = Path(sys.executable).parent


def run(args: list[str], timeout: float) -> tuple[float, str]:
    """(seconds, last error line or "") of one command."""
    start = time.perf_counter()
    try:
        done = subprocess.run(args, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return time.perf_counter() - start, f"timed out after {timeout:.0f} s"
    error = "" if done.returncode == 0 else (done.stderr.strip().splitlines() or ["exit %d" % done.returncode])[-1]
    return time.perf_counter() - start, error


def check(model: Path, work: Path, target: str, options: str, timeout: float) -> tuple[float, str]:
    """(compile seconds, "pass" or the first error) of one model through one code target."""
    pipeline, translate, suffix = {"emitpy": ("ttir-to-emitpy-pipeline", "--mlir-to-python", "py"),
                                   "emitc": ("ttir-to-emitc-pipeline", "--mlir-to-cpp", "cpp")}[target]
    flatbuffer = work / f"{model.stem}.ttnn"
    steps = [[str(BIN / "ttmlir-opt"), f"--{pipeline}={options}" if options else f"--{pipeline}", str(model),
              "-o", str(work / f"{model.stem}.{target}.mlir")],
             [str(BIN / "ttmlir-translate"), translate, str(work / f"{model.stem}.{target}.mlir"), "-o",
              str(work / f"{model.stem}.{suffix}")]]
    if not flatbuffer.exists():
        backend = "--ttir-to-ttnn-backend-pipeline" + (f"={options}" if options else "")
        steps += [[str(BIN / "ttmlir-opt"), backend, str(model), "-o", str(work / f"{model.stem}.ttnn.mlir")],
                  [str(BIN / "ttmlir-translate"), "--ttnn-to-flatbuffer", str(work / f"{model.stem}.ttnn.mlir"), "-o",
                   str(flatbuffer)]]
    seconds = 0.0
    for step in steps:
        spent, error = run(step, timeout)
        seconds += spent
        if error:
            return seconds, error
    result_file = work / f"{model.stem}.{target}.json"
    _, error = run([str(BIN / "ttrt"), target, str(work / f"{model.stem}.{suffix}"), "--flatbuffer", str(flatbuffer),
                    "--result-file", str(result_file), "--artifact-dir", str(work / "artifacts")], timeout)
    if result_file.exists():
        results = json.loads(result_file.read_text())
        failed = [r for r in results if r.get("result") != "pass"]
        return seconds, (failed[0].get("exception") or "failed").splitlines()[0] if failed else "pass"
    return seconds, error or "no result file"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dir", type=Path)
    parser.add_argument("--blocks", type=int, default=10)
    parser.add_argument("--emitc", nargs="*", default=[], help="models (by stem) also checked through EmitC")
    parser.add_argument("--options", default="", help="pipeline options for both sides")
    parser.add_argument("--timeout", type=float, default=600)
    args = parser.parse_args()
    models = sorted(args.dir.glob("*.mlir")) + sorted((args.dir / "single_blocks_and_layers").glob("*.mlir"))[
        :args.blocks]
    print(f"{'model':42} {'target':7} {'compile s':>9}  result")
    passed = total = 0
    with tempfile.TemporaryDirectory() as tmp:
        for model in models:
            for target in ["emitpy"] + (["emitc"] if model.stem in args.emitc else []):
                seconds, result = check(model, Path(tmp), target, args.options, args.timeout)
                total += 1
                passed += result == "pass"
                print(f"{model.stem:42} {target:7} {seconds:9.1f}  {result[:100]}", flush=True)
    print(f"{passed}/{total} equal to ttrt run")


if __name__ == "__main__":
    main()
