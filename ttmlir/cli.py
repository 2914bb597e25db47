"""What every command-line tool shares: atomic output files and a last-resort error line."""

from __future__ import annotations

import os
import sys
from typing import Callable


def write_atomic(path: str, data: str | bytes) -> None:
    """Write `data` to `path` (stdout for "-"); a failing run never leaves a half-written file."""
    binary = isinstance(data, bytes)
    if path == "-":
        (sys.stdout.buffer if binary else sys.stdout).write(data)
        sys.stdout.flush()
        return
    tmp = f"{path}.tmp{os.getpid()}"
    with open(tmp, "wb" if binary else "w", **({} if binary else {"encoding": "utf-8"})) as f:
        f.write(data)
    os.replace(tmp, path)


def usage_error(tool: str, message: str):
    """A bad command line: the problem, where to get help, exit code 1."""
    print(f"{tool}: {message}", file=sys.stderr)
    print(f"Try '{tool} --help' for more information.", file=sys.stderr)
    raise SystemExit(1)


def guarded(tool: str, body: Callable[[], int]) -> int:
    """Run a tool's body: errors become one `tool: error: ...` line and exit code 1, never a traceback."""
    try:
        return body()
    except ValueError as error:
        print(f"{tool}: error: {error}", file=sys.stderr)
    except RecursionError:
        print(f"{tool}: error: input nests too deeply", file=sys.stderr)
    except (KeyboardInterrupt, BrokenPipeError):
        pass
    except Exception as error:  # an internal bug must still end in one line and exit 1
        if os.environ.get("TTMLIR_TRACEBACK"):
            raise
        print(f"{tool}: error: internal error: {type(error).__name__}: {error} "
              f"(set TTMLIR_TRACEBACK=1 for details)", file=sys.stderr)
    return 1
