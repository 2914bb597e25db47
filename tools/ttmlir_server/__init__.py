"""The command-line tools served warm: `ttmlir-opt`, `ttmlir-translate`, `FileCheck`, `ttrt` and `ttmlir-golden`
run in a process forked from a server that has already imported the compiler, so a call costs its work, not the
0.5-1 s of imports and op-class building every fresh Python process pays (a lit suite makes ~2,000 such calls).

    python -m ttmlir_server --socket PATH [--idle-timeout S] &
    export TTMLIR_TOOL_SERVER=PATH        # every tool started with this set is served, if the server answers

Each call is a fresh fork of the server as it stood after its imports: no state passes from one call to the next.
The client passes its standard streams (the descriptors themselves), arguments, working directory and environment;
the tool's exit status comes back. A call runs in its own process as before when the variable is unset, the server
does not answer, the caller's interpreter or PYTHONPATH differ from the server's (it would run other code), or the
caller is an MPI rank (`tt-run`). `ttrt` and `ttmlir-golden` are served by a second process the server forks once,
listening on PATH + ".runtime", with torch and the runtime loaded too: a fork copies the page tables of what its
parent has mapped, 2 ms for the compiler alone and 28 ms with torch, and the compiler's tools make nine calls in ten
(the compiler's own code never imports torch). lit's configuration starts a server for the suite
(`lit --param tool_server=0` turns it off).

With the variable unset, a tool serves itself as a build daemon does: a call that finds no server for its
installation runs in its own process and starts one in the background (socket in a private per-user folder under
$XDG_RUNTIME_DIR or /tmp, named after the interpreter, import path and installation; it exits after AUTO_IDLE
seconds without a call), so the calls after it start warm. A server retires as soon as a call finds that a source
file it imported has changed since (an edited checkout, an upgraded package): that call runs in its own process
and the next starts a fresh server. TTMLIR_TOOL_SERVER=0 (or empty) runs every call in its own process."""

from __future__ import annotations

import json
import os
import socket
import struct
import sys
from collections.abc import Callable  # not typing: 4 ms of every served call's start-up

ENVIRONMENT = "TTMLIR_TOOL_SERVER"
# tool name -> the module whose main() it is
TOOLS = {"ttmlir-opt": "ttmlir_opt", "ttmlir-translate": "ttmlir_translate", "FileCheck": "ttmlir_filecheck",
         "ttrt": "ttrt", "ttmlir-golden": "ttmlir_golden"}
RUNTIME_TOOLS = {"ttrt", "ttmlir-golden"}  # served from the process with torch and the runtime loaded
RUNTIME_SOCKET = ".runtime"  # its socket: the server's path with this appended
STATUS = struct.Struct("!i")
RUN_LOCALLY = -1000  # the server would run other code than the caller: the caller runs the tool itself
MAX_REQUEST = 1 << 20
AUTO_IDLE = 600  # seconds an automatically started server waits for its next call
MAX_SOCKET_FOLDER = 70  # bytes: room left for "<16 hex digits>.sock.runtime" within a socket path's 107
OFF = ("", "0")  # values of ENVIRONMENT that turn serving off


def launcher(tool: str):
    """A console-script entry point: the tool, served when a server answers, else run in this process."""
    def main() -> int:
        try:
            named = os.environ.get(ENVIRONMENT)
            path = default_socket() if named is None else None if named in OFF else named
            served = _served(tool, path, start_if_absent=named is None)
            if served is not None:
                return served
            import importlib

            tool_main = importlib.import_module(TOOLS[tool]).main
        except KeyboardInterrupt:  # before the tool's own handling starts: still one line, as the tool says it
            print(f"{tool}: interrupted", file=sys.stderr)
            return 130
        return tool_main()

    main.__name__ = tool.replace("-", "_")
    return main


def _identity() -> dict:
    """What decides which code a call runs: the interpreter (its binary and its environment: a venv's `python` and
    `python3` are one) and the import path it was given."""
    return {"executable": os.path.realpath(sys.executable), "prefix": sys.prefix,
            "pythonpath": os.environ.get("PYTHONPATH", "")}


def default_socket() -> str | None:
    """The socket of this installation's automatically started server, in a folder only this user can enter (None
    when no such folder can be had)."""
    import hashlib
    import stat

    folder = os.path.join(os.environ.get("XDG_RUNTIME_DIR") or os.environ.get("TMPDIR") or "/tmp",
                          f"ttmlir-tools-{os.getuid()}")
    if len(os.fsencode(folder)) > MAX_SOCKET_FOLDER:  # a Unix socket's path has at most 107 bytes
        folder = f"/tmp/ttmlir-tools-{os.getuid()}"
    try:
        os.mkdir(folder, 0o700)
    except FileExistsError:
        pass
    except OSError:
        return None
    info = os.lstat(folder)
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid() or info.st_mode & 0o077:
        return None
    key = json.dumps([_identity(), os.path.dirname(os.path.abspath(__file__))]).encode()
    return os.path.join(folder, hashlib.sha256(key).hexdigest()[:16] + ".sock")


def _start_in_background(path: str) -> None:
    """A server for the calls after this one; it exits at once if another already holds the socket's lock."""
    import subprocess

    subprocess.Popen([sys.executable, "-m", "ttmlir_server", "--socket", path, "--idle-timeout", str(AUTO_IDLE)],
                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd="/",
                     start_new_session=True)


def _served(tool: str, path: str | None, start_if_absent: bool = False) -> int | None:
    """The tool's exit status from the server at `path`, or None when it must run here (after starting a server
    in the background when none listens and `start_if_absent`)."""
    if not path:
        return None
    from ttmlir.runtime.ranks import RANK_VARIABLES

    if any(name in os.environ for name in RANK_VARIABLES):  # an MPI rank: MPI knows it by its own process
        return None
    try:
        conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        conn.connect(path + RUNTIME_SOCKET if tool in RUNTIME_TOOLS else path)
    except OSError:
        if start_if_absent:
            _start_in_background(path)
        return None
    with conn, _Forwarding() as forwarding:
        request = json.dumps({"tool": tool, "argv": sys.argv, "cwd": os.getcwd(), "env": dict(os.environ),
                              **_identity()}).encode()
        sys.stdout.flush()
        sys.stderr.flush()
        try:  # the answer: the worker's pid (or RUN_LOCALLY), then how the worker ended
            socket.send_fds(conn, [STATUS.pack(len(request)) + request], [0, 1, 2])
            answer = _read_exactly(conn, STATUS.size)
            if len(answer) == STATUS.size and (worker := STATUS.unpack(answer)[0]) != RUN_LOCALLY:
                forwarding.to(worker)
                answer = _read_exactly(conn, STATUS.size)
        except OSError:
            answer = b""
    if len(answer) < STATUS.size:  # the server went away mid-call (the tool may have run): not run again
        print(f"{tool}: error: internal error: the tool server ended without answering", file=sys.stderr)
        return 1
    code = STATUS.unpack(answer)[0]
    if code == RUN_LOCALLY:
        forwarding.raise_pending()
        return None
    if code < 0:  # the worker was killed by a signal (a closed pipe, say): so is the caller, as a shell expects
        import signal

        signal.signal(-code, signal.SIG_DFL)
        os.kill(os.getpid(), -code)
    return code


class _Forwarding:
    """While a call is served: Ctrl-C, a timeout's SIGTERM or a hang-up meant for the caller go to the worker doing
    its work (held until its pid is known); the caller's own handlers come back afterwards."""

    def __init__(self):
        import signal

        self.signal, self.worker, self.pending, self.saved = signal, None, [], {}

    def __enter__(self):
        for signum in (self.signal.SIGINT, self.signal.SIGTERM, self.signal.SIGHUP):
            self.saved[signum] = self.signal.signal(signum, self._forward)
        return self

    def __exit__(self, *_exc):
        for signum, handler in self.saved.items():
            self.signal.signal(signum, handler)

    def _forward(self, signum, _frame):
        if self.worker is None:
            self.pending.append(signum)
            return
        try:
            os.kill(self.worker, signum)
        except ProcessLookupError:
            pass

    def to(self, worker: int) -> None:
        self.worker = worker
        for signum in self.pending:
            self._forward(signum, None)

    def raise_pending(self) -> None:
        """Not served after all: what arrived meanwhile is the caller's own (Ctrl-C as KeyboardInterrupt)."""
        for signum in self.pending:
            os.kill(os.getpid(), signum)


def _read_exactly(conn: socket.socket, size: int, start: bytes = b"") -> bytes:
    data = start
    while len(data) < size:
        chunk = conn.recv(size - len(data))
        if not chunk:
            break
        data += chunk
    return data


def start_server(python: str, idle_timeout: float = 600, ready_within: float = 60) -> tuple[str, Callable[[], None]]:
    """Start a server run by `python` (the interpreter the tools' scripts name) on a socket in a fresh temporary
    folder: its path, for ENVIRONMENT, and a function that stops the server and removes the folder. Returns once
    the server listens for both the compiler's tools and the runtime's (or after `ready_within` seconds, or when
    it has ended): each call made before would pay the imports the server is there to save."""
    import shutil
    import subprocess
    import tempfile
    import time

    folder = tempfile.mkdtemp(prefix="ttmlir-tools-")
    path = os.path.join(folder, "tools.sock")
    server = subprocess.Popen([python, "-m", "ttmlir_server", "--socket", path, "--idle-timeout", str(idle_timeout)],
                              stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, start_new_session=True)
    deadline = time.monotonic() + ready_within
    while server.poll() is None and time.monotonic() < deadline and \
            not (os.path.exists(path) and os.path.exists(path + RUNTIME_SOCKET)):
        time.sleep(0.05)

    def stop() -> None:
        server.terminate()
        server.wait()
        shutil.rmtree(folder, ignore_errors=True)
    return path, stop


# the compiler's packages that load torch (or JAX): imported by the runtime's process only
TORCH_PACKAGES = ("ttmlir.runtime.", "ttmlir.frontends.")


def preload_compiler() -> None:
    """Import what the compiler's tools import on their way to work: the tools, and every module of the compiler
    but those of TORCH_PACKAGES (its dialects, passes, pipelines, printers and flatbuffer writers), and build every
    dialect; a served call then imports nothing of its own."""
    import importlib
    import pkgutil

    import ttmlir
    from ttmlir.dialects import make_context
    from ttmlir.passes import registered_passes

    for tool, module in TOOLS.items():
        if tool not in RUNTIME_TOOLS:
            importlib.import_module(module)
    for module in pkgutil.walk_packages(ttmlir.__path__, "ttmlir."):
        if not module.name.startswith(TORCH_PACKAGES):
            importlib.import_module(module.name)
    context = make_context()
    for name in list(context.registered_dialect_names):
        context.get_optional_dialect(name)
    passes = registered_passes()
    for name in passes:  # those registered from outside the package (xDSL's own)
        passes[name]


def preload_runtime() -> None:
    """What `ttrt` and `ttmlir-golden` import on top of the compiler: torch (1-3 s in a fresh process) and the
    runtime."""
    import importlib

    for module in ("torch", "ttmlir.runtime.session", "ttrt.common.api", *(TOOLS[t] for t in RUNTIME_TOOLS)):
        importlib.import_module(module)


def serve(path: str, idle_timeout: float) -> None:
    """Serve the compiler's tools on `path` until `idle_timeout` seconds pass without a call, and the runtime's
    from a child serving `path` + RUNTIME_SOCKET for as long as this process lives. Returns at once when another
    server holds the socket (its lock, `path` + ".lock", names its pid)."""
    import fcntl
    import gc

    lock = open(path + ".lock", "a+")
    try:  # a POSIX lock: held by this process alone (not the children it forks), until it ends
        fcntl.lockf(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return
    lock.truncate(0)
    lock.write(f"{os.getpid()}\n")
    lock.flush()
    preload_compiler()
    gc.freeze()  # what the imports made stays out of every child's collections (and its pages unwritten)
    parent = os.getpid()
    if os.fork() == 0:
        try:
            preload_runtime()
            gc.freeze()
            _serve(path + RUNTIME_SOCKET, _Sources(path), parent=parent)
        finally:
            os._exit(0)
    _serve(path, _Sources(path), idle_timeout=idle_timeout)


class _Sources:
    """The source files of what a server has imported (the standard library's aside), as they stood when it had;
    a server whose sources have changed since retires: it removes its sockets, so calls go elsewhere."""

    def __init__(self, path: str):
        import sysconfig

        stdlib = os.path.join(sysconfig.get_paths()["stdlib"], "")
        files = {getattr(module, "__file__", None) for module in list(sys.modules.values())}
        self.path, self.stamps = path, {f: _stamp(f) for f in files if f and not f.startswith(stdlib)}

    def changed(self) -> bool:
        return any(_stamp(f) != stamp for f, stamp in self.stamps.items())

    def retire(self) -> None:
        for path in (self.path, self.path + RUNTIME_SOCKET):
            try:
                os.unlink(path)
            except OSError:
                pass


def _stamp(path: str) -> tuple[int, int] | None:
    try:
        info = os.stat(path)
    except OSError:
        return None
    return info.st_mtime_ns, info.st_size


def _serve(path: str, sources: _Sources, idle_timeout: float = float("inf"), parent: int | None = None) -> None:
    """Answer calls on a socket at `path`, each in a forked child, until `idle_timeout` seconds pass without one,
    the process `parent` has ended or the socket has been removed (the server retired)."""
    import time

    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    if os.path.exists(path):
        os.unlink(path)
    listener.bind(path)
    bound = _inode(path)
    listener.listen(64)

    def answer_in_child(conn: socket.socket) -> None:
        if os.fork() == 0:
            listener.close()
            try:
                code = _answer(conn, sources)
            except BaseException:  # a request cut short or malformed: this child ends, not back into the loop
                code = 1
            os._exit(code)
        conn.close()

    listener.settimeout(1.0)  # wake to reap finished children (their CPU time then counts as the server's)
    last_call = time.monotonic()
    try:
        while time.monotonic() - last_call < idle_timeout and parent in (None, os.getppid()) and \
                _inode(path) == bound:
            _reap()
            try:
                conn, _ = listener.accept()
            except socket.timeout:
                continue
            last_call = time.monotonic()
            answer_in_child(conn)
        listener.setblocking(False)
        while True:  # the calls already waiting when it stops are answered (told to run locally, if retired)
            try:
                conn, _ = listener.accept()
            except OSError:
                break
            conn.setblocking(True)
            answer_in_child(conn)
    finally:
        listener.close()
        if _inode(path) == bound:
            os.unlink(path)


def _inode(path: str) -> int | None:
    try:
        return os.stat(path).st_ino
    except OSError:
        return None


def _reap() -> None:
    try:
        while os.waitpid(-1, os.WNOHANG)[0]:
            pass
    except ChildProcessError:
        pass


def _answer(conn: socket.socket, sources: _Sources) -> int:
    """In a forked child: take the caller's request and run the tool in a worker of its own, whose end (an exit
    status, or the signal that killed it) is the answer."""
    conn.settimeout(None)
    data, fds, _flags, _address = socket.recv_fds(conn, MAX_REQUEST, 3)
    size = STATUS.unpack(data[:STATUS.size])[0]
    request = json.loads(_read_exactly(conn, size + STATUS.size, data)[STATUS.size:])
    stale = sources.changed()
    if stale:
        sources.retire()
    if stale or len(fds) != 3 or {k: request[k] for k in _identity()} != _identity() or request["tool"] not in TOOLS:
        conn.sendall(STATUS.pack(RUN_LOCALLY))
        return 0
    worker = os.fork()
    if worker == 0:
        import signal

        signal.signal(signal.SIGINT, signal.default_int_handler)  # as in a fresh interpreter
        conn.close()
        for target, fd in enumerate(fds):
            os.dup2(fd, target)
            os.close(fd)
        _reopen_streams()
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        sys.argv = request["argv"]
        os._exit(_run(sys.modules[TOOLS[request["tool"]]].main))
    for fd in fds:
        os.close(fd)
    conn.sendall(STATUS.pack(worker))
    _pid, status = os.waitpid(worker, 0)
    code = -os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status)
    conn.sendall(STATUS.pack(code))
    return 0


def _reopen_streams() -> None:
    """sys.stdin/stdout/stderr anew over descriptors 0-2, as interpreter start-up makes them: the server's were
    made for its own streams (whether they seek, whether they are a terminal)."""
    import io

    def stream(fd: int, mode: str, errors: str, line_buffering: bool):
        binary = open(fd, mode + "b", closefd=False)
        return io.TextIOWrapper(binary, encoding=sys.getfilesystemencoding(), errors=errors,
                                line_buffering=line_buffering)

    sys.stdin = sys.__stdin__ = stream(0, "r", "strict", False)
    sys.stdout = sys.__stdout__ = stream(1, "w", "strict", os.isatty(1))
    sys.stderr = sys.__stderr__ = stream(2, "w", "backslashreplace", True)


def _run(main) -> int:
    try:
        code = main()
    except SystemExit as exit_:
        code = exit_.code
    except BaseException:
        import traceback

        traceback.print_exc()
        code = 1
    if isinstance(code, str):
        print(code, file=sys.stderr)
        code = 1
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    return code or 0


# the console scripts
ttmlir_opt, ttmlir_translate = launcher("ttmlir-opt"), launcher("ttmlir-translate")
filecheck, ttrt, ttmlir_golden = launcher("FileCheck"), launcher("ttrt"), launcher("ttmlir-golden")
