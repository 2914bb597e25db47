"""What mpirun starts for each rank: the program as a child process, watched.

A rank that dies of a signal (killed, out of memory, a crash) leaves no error of its own, and mpirun does not
always say which one it was. This wrapper says it, located by the rank's binding, on the stderr tt-run reads,
then exits non-zero so that mpirun ends the job; signals meant for the rank are passed on to the program.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys

from ttmlir.runtime.distributed.topology import report_failure

FORWARDED = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGUSR1, signal.SIGUSR2)


def main(argv: list[str]) -> int:
    program = argv[1:] if argv[:1] == ["--"] else argv
    try:
        child = subprocess.Popen(program)
    except OSError as exc:
        return _report(f"cannot start {program[0]}: {exc.strerror or exc}", 127)
    for sig in FORWARDED:
        signal.signal(sig, lambda number, _frame: child.send_signal(number))
    while True:
        try:
            code = child.wait()
            break
        except InterruptedError:
            continue
    if code < 0:
        name = signal.Signals(-code).name
        return _report(f"{os.path.basename(program[0])} died of signal {-code} ({name})", 128 - code)
    return code


def _report(what: str, code: int) -> int:
    env = os.environ
    where = (f"rank {env.get('OMPI_COMM_WORLD_RANK', '?')} (mesh {env.get('TT_MESH_ID', '?')} host rank "
             f"{env.get('TT_MESH_HOST_RANK', '?')})")
    report_failure(where, what)
    return code


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
