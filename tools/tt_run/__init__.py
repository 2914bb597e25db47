"""`tt-run`: launch one program as many MPI ranks over one logical mesh, as tt-metal's tt-run does.

Each rank is bound to a mesh and a host rank of a mesh graph descriptor (`--rank-binding` YAML, or
`-m/--mesh-graph-descriptor` with one rank per host: `--hosts`, or `--mock-cluster-rank-binding` for every
rank on this machine) and gets tt-run's environment (TT_MESH_ID, TT_MESH_HOST_RANK, TT_MESH_GRAPH_DESC_PATH,
TT_RUN_ORIGINAL_CWD, TT_METAL_MOCK_CLUSTER_DESC_PATH, global_env then env_overrides). The ranks are started by
Open MPI's `mpirun`, one application context per rank; `ttrt run`, the builder and the runtime see the
environment and simulate only their own chips (ttmlir.runtime.distributed).

Exit codes: 0 when every rank succeeded; 1 for a bad command line or configuration (one located line, nothing
started); a failing rank's code otherwise (its located error printed once, the other ranks stopped); 124 after
`--timeout`; 130 on Ctrl-C.
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import threading
from pathlib import Path

PREFIX = "tt-run"
TIMEOUT_EXIT, INTERRUPTED_EXIT = 124, 130
# what tt-run sets per rank from the bindings: never taken from the caller's environment
MANAGED = frozenset({"TT_MESH_ID", "TT_MESH_HOST_RANK", "TT_MESH_GRAPH_DESC_PATH", "TT_RUN_ORIGINAL_CWD",
                     "TT_METAL_MOCK_CLUSTER_DESC_PATH", "TT_VISIBLE_DEVICES"})
# the caller's variables every rank inherits (tt-metal's prefixes, and what a Python program needs to start)
PASSED_PREFIXES = ("TT_", "TTRT_", "TTMLIR_", "ARCH_", "WH_", "TTNN_", "MESH_")
PASSED_NAMES = ("HOME", "USER", "PATH", "VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME", "LD_LIBRARY_PATH")


class ConfigError(Exception):
    pass


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tt-run", description="Launch a program as MPI ranks bound to a mesh of simulated devices.",
        epilog="Example: tt-run --rank-binding rank_bindings.yaml ttrt run model.ttnn")
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--rank-binding", metavar="YAML", help="rank bindings: rank_bindings (rank, mesh_id, "
                        "mesh_host_rank, env_overrides), global_env, mesh_graph_desc_path")
    source.add_argument("-m", "--mesh-graph-descriptor", metavar="TEXTPROTO",
                        help="a mesh graph descriptor: one rank per host of its mesh (with --hosts or "
                             "--mock-cluster-rank-binding)")
    parser.add_argument("--hosts", help="comma-separated hosts, one rank on each (with -m)")
    parser.add_argument("--mock-cluster-rank-binding", metavar="YAML",
                        help="rank_to_cluster_mock_cluster_desc: each rank's mock cluster descriptor; all ranks run "
                             "on this machine")
    parser.add_argument("--mpi-args", default="", help="extra arguments for mpirun (one string, shell-quoted)")
    parser.add_argument("--dry-run", action="store_true", help="print the mpirun command and exit")
    parser.add_argument("-v", "--verbose", action="store_true", help="print the mpirun command before running it")
    parser.add_argument("--timeout", type=float, metavar="SECONDS",
                        help="stop every rank after this many seconds (exit code 124)")
    parser.add_argument("program", nargs=argparse.REMAINDER, help="the program and its arguments")
    return parser


def load_config(args):
    from ttmlir.runtime.distributed import topology

    try:
        if args.rank_binding:
            if args.hosts:
                raise ConfigError("--hosts goes with -m/--mesh-graph-descriptor; with --rank-binding, place ranks "
                                  "with --mpi-args \"--host ...\"")
            return topology.load_rank_bindings(args.rank_binding, args.mock_cluster_rank_binding)
        if not args.mesh_graph_descriptor:
            raise ConfigError("give --rank-binding YAML or -m/--mesh-graph-descriptor TEXTPROTO")
        if bool(args.hosts) == bool(args.mock_cluster_rank_binding):
            raise ConfigError("-m needs exactly one of --hosts (a rank per host) or --mock-cluster-rank-binding "
                              "(all ranks on this machine)")
        if args.hosts:
            hosts = [h.strip() for h in args.hosts.split(",")]
            if not all(hosts) or len(set(hosts)) != len(hosts) or any(h.startswith("-") for h in hosts):
                raise ConfigError(f"--hosts {args.hosts!r}: expected distinct host names separated by commas")
            return topology.bindings_from_mesh_graph(args.mesh_graph_descriptor, len(hosts), "--hosts"), hosts
        mock = topology.load_mock_cluster(args.mock_cluster_rank_binding)
        config = topology.bindings_from_mesh_graph(args.mesh_graph_descriptor, len(mock), args.mock_cluster_rank_binding)
        config.mock_cluster = mock
        return config
    except topology.TopologyError as exc:
        raise ConfigError(str(exc)) from None


def rank_environment(config, binding) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k.startswith(PASSED_PREFIXES) and k not in MANAGED}
    env.update({k: os.environ[k] for k in PASSED_NAMES if os.environ.get(k)})
    env.update({"TT_MESH_ID": str(binding.mesh_id), "TT_MESH_HOST_RANK": str(binding.mesh_host_rank),
                "TT_MESH_GRAPH_DESC_PATH": config.mesh_graph_desc_path, "TT_RUN_ORIGINAL_CWD": os.getcwd()})
    if binding.rank in config.mock_cluster:
        env["TT_METAL_MOCK_CLUSTER_DESC_PATH"] = config.mock_cluster[binding.rank]
    env.update({k: os.path.expandvars(v) for k, v in config.global_env.items()})
    env.update({k: os.path.expandvars(v) for k, v in binding.env_overrides.items()})
    return env


def mpirun_command(config, program: list[str], mpi_args: list[str], hosts: list[str] | None,
                   dry_run: bool = False) -> list[str]:
    """mpirun with one application context per rank (`-np 1 -x NAME=value ... program : ...`)."""
    launcher = shutil.which("mpirun") or ("mpirun" if dry_run else None)
    if launcher is None:
        raise ConfigError("mpirun was not found on PATH: install Open MPI (pip install 'ttmlir[mpi]')")
    cmd = [launcher, "--bind-to", "none", "--tag-output"]
    if hosts:
        cmd += ["--host", ",".join(hosts)]
    elif not any(a in ("--host", "-host", "--hostfile", "-hostfile", "-H") or a.startswith(("--host=", "--hostfile="))
                 for a in mpi_args):
        # every rank on this machine, however many cores it has; a rank waiting on the others sleeps 0.1 ms between
        # polls rather than spinning, or ranks waiting in a collective take the cores from the ones still working
        cmd += ["--oversubscribe", "--mca", "threads_pthreads_yield_strategy", "nanosleep",
                "--mca", "threads_pthreads_nanosleep_time", "100000"]
    cmd += mpi_args
    for i, binding in enumerate(config.bindings):
        if i:
            cmd.append(":")
        cmd += ["-np", "1"]
        for name, value in rank_environment(config, binding).items():
            cmd += ["-x", f"{name}={value}"]
        cmd += [sys.executable, "-m", "tt_run.rank", "--", *program]  # says which rank died, if one does
    return cmd


def _relay(stream, out, state: dict) -> None:
    """Forward the ranks' stderr until one reports a failure: that located line is the error the user sees; what
    follows it (other ranks' errors, MPI's abort notices) only repeats it. mpirun's own notices are kept for
    `run` to summarize when no rank explained itself, and so is an abort notice that reaches us tagged as a rank's
    output ahead of that rank's own line (Open MPI sends it on another channel than the rank's stderr)."""
    from ttmlir.runtime.distributed.topology import FAILURE_MARK

    block: list[tuple[str, str, str]] = []  # a ruled block of lines being read: (line, tag, text)

    def forward(line: str, tagged: str, text: str) -> None:
        if state["failure"] is not None:
            return
        if tagged and FAILURE_MARK in text:
            state["failure"] = text.strip()
            out.write(text)
        elif tagged:
            out.write(text)
        else:
            state["notices"].append(line.rstrip())
            if state["verbose"]:
                out.write(line)
        out.flush()

    for raw in iter(stream.readline, b""):
        line = raw.decode("utf-8", "replace").replace("\x00", "")  # Open MPI's forwarding can leave stray NULs
        tagged, _, text = line.partition("<stderr>: ") if line.startswith("[") else ("", "", line)
        if _RULE.match(text.strip()) or block:
            block.append((line, tagged, text))
            if len(block) > 1 and _RULE.match(text.strip()):  # the block's closing rule
                notice = any(_ABORTED.search(t) for _, _, t in block)
                for held, tag, held_text in block:  # a rank's own line amid the notice stays the rank's
                    forward(held, "" if notice and FAILURE_MARK not in held_text else tag, held_text)
                block = []
            continue
        forward(line, tagged, text)
    for held in block:  # a rule with no close: output as it came
        forward(*held)


_RULE = re.compile(r"-{20,}$")  # the lines framing Open MPI's notices
_DIED = re.compile(r"process rank (\d+) with PID \d+ on node (\S+) exited on\s+signal (\d+)(?: \(([^)]*)\))?")
_ABORTED = re.compile(r"MPI_ABORT was invoked on rank (\d+)")
_EXITED = re.compile(r"process rank (\d+) with PID \d+ on node (\S+) exited with non-zero status|"
                     r"(\d+) process(?:es)? returned\s+a non-zero exit code")


def _mpi_notice(lines: list[str], describe) -> str:
    """mpirun's multi-line notice as one line naming the rank (with its mesh and host rank) and what happened."""
    text = " ".join(line.strip(" -") for line in lines if line.strip(" -"))
    if m := _DIED.search(text):
        return f"{describe(int(m.group(1)))} on {m.group(2)} died of signal {m.group(3)}" + \
            (f" ({m.group(4)})" if m.group(4) else "")
    if m := _ABORTED.search(text):
        return f"{describe(int(m.group(1)))} called MPI_Abort"
    if m := _EXITED.search(text):
        return f"{describe(int(m.group(1)))} exited with a non-zero status" if m.group(1) else \
            "a rank exited with a non-zero status"
    return text[:400]


def run(command: list[str], timeout: float | None, describe, verbose: bool = False) -> int:
    proc = subprocess.Popen(command, stderr=subprocess.PIPE, start_new_session=True)
    state = {"failure": None, "notices": [], "verbose": verbose}
    relay = threading.Thread(target=_relay, args=(proc.stderr, sys.stderr, state), daemon=True)
    relay.start()
    try:
        code = proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        _stop(proc)
        relay.join(5)
        print(f"{PREFIX}: error: timed out after {timeout:g} s (--timeout): every rank was stopped", file=sys.stderr)
        return TIMEOUT_EXIT
    except KeyboardInterrupt:
        _stop(proc)
        print(f"{PREFIX}: interrupted: every rank was stopped", file=sys.stderr)
        return INTERRUPTED_EXIT
    relay.join(5)
    if code != 0 and state["failure"] is None:
        notice = _mpi_notice(state["notices"], describe)
        print(f"{PREFIX}: error: " + (notice or f"mpirun failed with exit code {code}"), file=sys.stderr)
    return code if code > 0 else 1 if code else 0


def _stop(proc: subprocess.Popen) -> None:
    """End mpirun and the ranks it started: SIGTERM to its process group (it forwards to the ranks), then
    SIGKILL to what is left."""
    for sig, wait in ((signal.SIGTERM, 10), (signal.SIGKILL, 10)):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            return
        try:
            proc.wait(timeout=wait)
            return
        except subprocess.TimeoutExpired:
            continue


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(sys.argv[1:] if argv is None else argv)
    program = args.program[1:] if args.program[:1] == ["--"] else args.program
    try:
        if not program:
            raise ConfigError("no program given: tt-run [options] PROGRAM [ARGS...]")
        if args.timeout is not None and args.timeout <= 0:
            raise ConfigError(f"--timeout {args.timeout:g}: expected a number of seconds above 0")
        if not (Path(program[0]).exists() or shutil.which(program[0])):
            raise ConfigError(f"program not found: {program[0]}")
        loaded = load_config(args)
        config, hosts = loaded if isinstance(loaded, tuple) else (loaded, None)
        try:
            mpi_args = shlex.split(args.mpi_args)
        except ValueError as exc:
            raise ConfigError(f"--mpi-args {args.mpi_args!r}: {exc}") from None
        command = mpirun_command(config, program, mpi_args, hosts, args.dry_run)
    except ConfigError as exc:
        print(f"{PREFIX}: error: {exc}", file=sys.stderr)
        return 1
    if args.dry_run or args.verbose:
        print(shlex.join(command), flush=True)
    if args.dry_run:
        return 0
    by_rank = {b.rank: b for b in config.bindings}

    def describe(rank: int) -> str:
        b = by_rank.get(rank)
        return f"rank {rank}" + (f" (mesh {b.mesh_id} host rank {b.mesh_host_rank})" if b else "")

    return run(command, args.timeout, describe, args.verbose)


if __name__ == "__main__":
    raise SystemExit(main())
