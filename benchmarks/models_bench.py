"""Compile and run time and peak memory of every `.mlir` model in a directory (e.g. upstream tt-mlir's
test/ttmlir/models): `ttmlir-opt --ttir-to-ttnn-backend-pipeline`, `ttmlir-translate`, `ttrt run`.

usage: python benchmarks/models_bench.py DIR [--timeout SECONDS]

Targets (issue 13): compile (opt + translate) <= 3 s and <= 500 MB per model, `ttrt run` <= 20 s.
Figures only; nothing is asserted. Each stage runs as its own process; peak is its maximum resident size.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BIN = Path(sys.executable).parent


def stage(args: list[str], timeout: float, memory_gb: float) -> tuple[float, float, str]:
    """(seconds, peak MB, last error line or "") of one command, reaped with wait4 for its own peak; its
    address space is capped at `memory_gb` so a model too large for this machine fails alone. The cap is set by
    a shell that then execs the command: a fork of this Python process would count its pages as the child's."""
    start = time.perf_counter()
    capped = ["sh", "-c", f'ulimit -v {int(memory_gb * 2**20)} && exec "$@"', "sh", *args]
    with tempfile.TemporaryFile("w+") as err:
        process = subprocess.Popen(capped, stdout=subprocess.DEVNULL, stderr=err)
        while True:
            pid, status, usage = os.wait4(process.pid, os.WNOHANG)
            if pid:
                break
            if time.perf_counter() - start > timeout:
                process.kill()
                os.wait4(process.pid, 0)
                return time.perf_counter() - start, 0.0, f"timed out after {timeout:.0f} s"
            time.sleep(0.02)
        process.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        lines = err.read().strip().splitlines()
    error = "" if process.returncode == 0 else (lines[-1] if lines else f"exit {process.returncode}")
    return time.perf_counter() - start, usage.ru_maxrss / 1024, error


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("directory")
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds per stage (default: 300)")
    parser.add_argument("--memory-gb", type=float, default=12.0, help="address space per stage (default: 12)")
    args = parser.parse_args()
    files = sorted(Path(args.directory).rglob("*.mlir"))
    print(f"{'model':58} {'compile s':>9} {'peak MB':>8} {'run s':>7} {'peak MB':>8}  result")
    with tempfile.TemporaryDirectory() as tmp:
        for path in files:
            ttnn_ir, binary = Path(tmp, "model.mlir"), Path(tmp, "model.ttnn")
            opt = stage([str(BIN / "ttmlir-opt"), "--ttir-to-ttnn-backend-pipeline", str(path), "-o", str(ttnn_ir)],
                        args.timeout, args.memory_gb)
            translate = stage([str(BIN / "ttmlir-translate"), "--ttnn-to-flatbuffer", str(ttnn_ir), "-o",
                               str(binary)], args.timeout, args.memory_gb) if not opt[2] else (0.0, 0.0, "")
            run = stage([str(BIN / "ttrt"), "run", "--artifact-dir", tmp, str(binary)], args.timeout, args.memory_gb) \
                if not (opt[2] or translate[2]) else (0.0, 0.0, "")
            error = opt[2] or translate[2] or run[2]
            print(f"{str(path.relative_to(args.directory)):58} {opt[0] + translate[0]:9.1f} "
                  f"{max(opt[1], translate[1]):8.0f} {run[0]:7.1f} {run[1]:8.0f}  {error[:80] or 'ok'}", flush=True)


if __name__ == "__main__":
    main()
