"""What every command-line tool shares: atomic output files and a last-resort error line."""

from __future__ import annotations

import errno
import os
import signal
import sys
import tempfile
from typing import Callable


class UserError(ValueError):
    """A problem with what the user gave (a file, a flag, an option): reported as one line, never as an internal
    error. Other exceptions reaching a tool's top level are bugs and are reported as such."""


def write_atomic(path: str, data: str | bytes) -> None:
    """Write `data` to `path` (stdout for "-"): the whole file appears at once or, on any failure (a missing
    folder, a folder in the way, a full disk or file-size limit), nothing does and no temporary file stays;
    the failure is a ValueError naming the file."""
    binary = isinstance(data, bytes)
    payload = data if binary else data.encode("utf-8")
    if path == "-":
        (sys.stdout.buffer if binary else sys.stdout).write(data)
        sys.stdout.flush()
        return
    tmp = None
    try:
        if os.path.isdir(path):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR))
        if os.path.exists(path) and not os.path.isfile(path):  # a device or a pipe (-o /dev/null): written into,
            with open(path, "wb") as f:  # never replaced by a file of the same name
                f.write(payload)
            return
        fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(path)}.", suffix=".tmp",
                                   dir=os.path.dirname(path) or ".")
        with os.fdopen(fd, "wb") as f:
            f.write(payload)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # as open() would have made it, not mkstemp's owner-only mode
        os.replace(tmp, path)
        tmp = None
    except OSError as error:
        raise UserError(f"cannot open output file '{path}': {error.strerror or error}") from None
    finally:
        if tmp is not None and os.path.exists(tmp):
            os.unlink(tmp)


def usage_error(tool: str, message: str):
    """A bad command line: the problem, where to get help, exit code 1."""
    print(f"{tool}: {message}", file=sys.stderr)
    print(f"Try '{tool} --help' for more information.", file=sys.stderr)
    raise SystemExit(1)


def guarded(tool: str, body: Callable[[], int]) -> int:
    """Run a tool's body: errors become one `tool: error: ...` line and exit code 1, never a traceback."""
    if hasattr(signal, "SIGXFSZ"):  # past a file-size limit a write fails (and is reported), not the process
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    if hasattr(signal, "SIGPIPE"):  # output into a closed pipe (`ttrt read x | head`) ends quietly, as cat does
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    try:
        return body()
    except UserError as error:
        print(f"{tool}: error: {error}", file=sys.stderr)
    except RecursionError:
        print(f"{tool}: error: input nests too deeply", file=sys.stderr)
    except KeyboardInterrupt as interrupt:
        print(f"{tool}: interrupted" + (f"; {interrupt}" if str(interrupt) else ""), file=sys.stderr)
        return 130
    except BrokenPipeError:
        pass
    except Exception as error:  # an internal bug must still end in one line and exit 1
        if os.environ.get("TTMLIR_TRACEBACK"):
            raise
        print(f"{tool}: error: internal error: {type(error).__name__}: {error} "
              f"(set TTMLIR_TRACEBACK=1 for details)", file=sys.stderr)
    return 1
