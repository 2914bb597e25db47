"""Start-up cost of `ttmlir-opt` and `ttmlir-translate`: the CPU time (user + system) and the modules imported by the
runs a lit RUN line makes, next to the interpreter alone and the xDSL modules every run needs (the floor).

CPU time, not wall time: on a loaded machine wall time counts the waits for a core. Each command runs once to write
its bytecode, then `--repeat` times; the figures are the minimum and the median. The checkout this script sits in is
the code measured (its root and tools/ go first on PYTHONPATH). Last, the same tools as their console scripts run
them when a tool server for the installation is up (the one a first call starts, tools/ttmlir_server): there the
work is done in the server's fork, so the figures are wall time (minimum and median), the caller's and the
server's together. Figures only; nothing is asserted.

    python benchmarks/startup_bench.py [--repeat N]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MODULES_MARK = "startup_bench modules:"
# Run before a command's code: the modules loaded by its end (-X importtime misses the ones importlib loads by name).
MODULES_HOOK = f"import atexit, sys; atexit.register(lambda: print({MODULES_MARK!r}, *sys.modules, file=sys.stderr)); "
XDSL_FLOOR = "import xdsl.context, xdsl.dialects.builtin, xdsl.dialects.func, xdsl.parser, xdsl.printer"


def tool(module: str, name: str, *args: str) -> list[str]:
    """The command its console script runs, through this interpreter, in its own process."""
    return [sys.executable, "-c", f"import sys; sys.argv[0] = {name!r}; from {module} import main; sys.exit(main())",
            *args]


def served_tool(name: str, *args: str) -> list[str]:
    """The command its console script runs: served when a server answers."""
    return [sys.executable, "-c", f"import sys; sys.argv[0] = {name!r}; from ttmlir_server import launcher; "
            f"sys.exit(launcher({name!r})())", *args]


def wall_seconds(cmd: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def environment() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), str(ROOT / "tools"), env.get("PYTHONPATH")) if p)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # measure the start-up users and lit see: bytecode cached
    return env


def cpu_seconds(cmd: list[str], env: dict[str, str]) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(cmd, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def imported(cmd: list[str], env: dict[str, str]) -> list[str]:
    """The modules loaded by the end of the run (`cmd` is `python -c CODE ARGS...`)."""
    python, flag, code, *args = cmd
    run = subprocess.run([python, flag, MODULES_HOOK + code, *args], env=env, check=True, stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, text=True)
    return run.stderr.rpartition(MODULES_MARK)[2].split()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    repeat = parser.parse_args().repeat
    env = environment()
    mlp = str(ROOT / "examples" / "mlp.mlir")
    with tempfile.TemporaryDirectory() as tmp:
        ttnn = str(Path(tmp, "mlp_ttnn.mlir"))
        subprocess.run(tool("ttmlir_opt", "ttmlir-opt", "--ttir-to-ttnn-backend-pipeline", mlp, "-o", ttnn), env=env,
                       check=True)
        cases = {
            "python -c pass": [sys.executable, "-c", "pass"],
            "floor: the xDSL modules every run imports": [sys.executable, "-c", XDSL_FLOOR],
            "ttmlir-opt --help": tool("ttmlir_opt", "ttmlir-opt", "--help"),
            "ttmlir-opt examples/mlp.mlir": tool("ttmlir_opt", "ttmlir-opt", mlp),
            "ttmlir-opt --ttir-to-ttnn-backend-pipeline examples/mlp.mlir":
                tool("ttmlir_opt", "ttmlir-opt", "--ttir-to-ttnn-backend-pipeline", mlp),
            "ttmlir-translate --ttnn-to-flatbuffer mlp_ttnn.mlir":
                tool("ttmlir_translate", "ttmlir-translate", "--ttnn-to-flatbuffer", ttnn, "-o", os.devnull),
        }
        print(f"{'command':62} {'CPU min':>8} {'median':>8} {'modules':>8} {'ttmlir':>7}")
        for label, cmd in cases.items():
            cpu_seconds(cmd, env)  # writes the bytecode
            times = [cpu_seconds(cmd, env) for _ in range(repeat)]
            modules = imported(cmd, env)
            ours = sum(1 for m in modules if m.split(".")[0] in ("ttmlir", "ttmlir_opt", "ttmlir_translate"))
            print(f"{label:62} {min(times):7.3f}s {statistics.median(times):7.3f}s {len(modules):8} {ours:7}")
        from ttmlir_server import ENVIRONMENT, start_server

        os.environ["PYTHONPATH"] = env["PYTHONPATH"]  # the server serves callers with its own import path only
        path, stop = start_server(sys.executable, idle_timeout=300)
        try:
            env_served = {**env, ENVIRONMENT: path}
            print(f"\n{'served (a server for this installation is up)':62} {'wall min':>8} {'median':>8}")
            for label, cmd in {
                "ttmlir-opt --help": served_tool("ttmlir-opt", "--help"),
                "ttmlir-opt examples/mlp.mlir": served_tool("ttmlir-opt", mlp),
                "ttmlir-opt --ttir-to-ttnn-backend-pipeline examples/mlp.mlir":
                    served_tool("ttmlir-opt", "--ttir-to-ttnn-backend-pipeline", mlp),
                "ttmlir-translate --ttnn-to-flatbuffer mlp_ttnn.mlir":
                    served_tool("ttmlir-translate", "--ttnn-to-flatbuffer", ttnn, "-o", os.devnull),
            }.items():
                times = [wall_seconds(cmd, env_served) for _ in range(repeat + 1)][1:]
                print(f"{label:62} {min(times):7.3f}s {statistics.median(times):7.3f}s")
        finally:
            stop()


if __name__ == "__main__":
    main()
