"""The tool server: a served call behaves as the same call run in its own process (streams, exit status, signals,
directory, environment), and a call the server must not run (other code on the import path, no server) runs
locally."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

BIN = Path(sys.executable).parent
ROOT = Path(__file__).resolve().parents[3]
# a stand-in for ttmlir-opt whose output says which process ran it
PROBE = '''import os, signal, sys, time
def main():
    if sys.argv[1:] == ["--die"]:
        os.kill(os.getpid(), signal.SIGTERM)
    if sys.argv[1:] == ["--wait"]:
        try:
            print("waiting", flush=True)
            time.sleep(60)
        except KeyboardInterrupt:
            print("interrupted at work", file=sys.stderr)
            return 130
    print(os.getpid(), os.getcwd(), os.environ.get("PROBE_VALUE"), sys.stdin.read().strip(), sys.argv[0],
          "torch" in sys.modules, sep="|")
    print("to stderr", file=sys.stderr)
    return 3
'''


def start_server(socket_path: Path, pythonpath: str) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": pythonpath}
    server = subprocess.Popen([sys.executable, "-m", "ttmlir_server", "--socket", str(socket_path),
                               "--idle-timeout", "120"], env=env, stdin=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while not socket_path.exists():
        assert server.poll() is None, "the server ended before listening"
        assert time.monotonic() < deadline, "the server did not listen within 120 s"
        time.sleep(0.1)
    return server


@pytest.fixture(scope="module")
def probe_server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("probe")
    (folder / "ttmlir_opt.py").write_text(PROBE)
    pythonpath = os.pathsep.join([str(folder), str(ROOT), str(ROOT / "tools")])
    server = start_server(folder / "tools.sock", pythonpath)
    yield folder, pythonpath
    server.terminate()
    server.wait()


def call(args, env, cwd, stdin="in", tool="ttmlir-opt"):
    process = subprocess.Popen([str(BIN / tool), *args], env=env, cwd=cwd, stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    out, err = process.communicate(stdin)
    return process, out, err


def test_a_served_call_keeps_streams_status_directory_and_environment(probe_server, tmp_path):
    folder, pythonpath = probe_server
    env = {**os.environ, "PYTHONPATH": pythonpath, "TTMLIR_TOOL_SERVER": str(folder / "tools.sock"),
           "PROBE_VALUE": "given"}
    process, out, err = call([], env, tmp_path)
    pid, cwd, value, stdin, argv0, torch_loaded = out.strip().split("|")
    assert int(pid) != process.pid  # a worker forked from the server ran it
    assert (cwd, value, stdin, argv0) == (str(tmp_path), "given", "in", str(BIN / "ttmlir-opt"))
    assert torch_loaded == "False"  # forked from the process without the runtime: a cheap fork
    assert err == "to stderr\n" and process.returncode == 3


def test_a_worker_killed_by_a_signal_kills_the_caller_alike(probe_server, tmp_path):
    folder, pythonpath = probe_server
    env = {**os.environ, "PYTHONPATH": pythonpath, "TTMLIR_TOOL_SERVER": str(folder / "tools.sock")}
    process, _, _ = call(["--die"], env, tmp_path)
    assert process.returncode == -signal.SIGTERM


def test_ctrl_c_reaches_the_worker(probe_server, tmp_path):
    folder, pythonpath = probe_server
    env = {**os.environ, "PYTHONPATH": pythonpath, "TTMLIR_TOOL_SERVER": str(folder / "tools.sock")}
    process = subprocess.Popen([str(BIN / "ttmlir-opt"), "--wait"], env=env, cwd=tmp_path, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    assert process.stdout.readline() == "waiting\n"
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=30)
    assert (process.returncode, err) == (130, "interrupted at work\n")


@pytest.mark.parametrize("why", ["other import path", "no server"])
def test_a_call_the_server_cannot_run_runs_locally(probe_server, tmp_path, why):
    folder, pythonpath = probe_server
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "ttmlir_opt.py").write_text(PROBE)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(elsewhere), str(ROOT), str(ROOT / "tools")]),
           "TTMLIR_TOOL_SERVER": str(folder / "tools.sock" if why == "other import path" else tmp_path / "none")}
    process, out, _ = call([], env, tmp_path)
    assert int(out.split("|")[0]) == process.pid and process.returncode == 3


def test_served_tools_print_what_a_fresh_process_prints(tool_server, tmp_path):
    """Through the suite's server (conftest), or one of the test's own when the suite runs without."""
    stop = None
    if tool_server is None:
        from ttmlir_server import start_server as start_suite_server

        tool_server, stop = start_suite_server(sys.executable)
    good, bad = tmp_path / "good.mlir", tmp_path / "bad.mlir"
    good.write_text('func.func @f(%a: tensor<32x32xf32>) -> tensor<32x32xf32> {\n  %0 = "ttir.relu"(%a) : '
                    '(tensor<32x32xf32>) -> tensor<32x32xf32>\n  return %0 : tensor<32x32xf32>\n}\n')
    bad.write_text('func.func @f() {\n  "ttir.nonsense"() : () -> ()\n  return\n}\n')
    try:
        for tool, args in (("ttmlir-opt", ["--ttir-to-ttnn-backend-pipeline", str(good)]), ("ttmlir-opt", [str(bad)]),
                           ("ttmlir-opt", ["--no-such-flag"]), ("ttrt", ["read", str(bad)])):
            runs = []
            for served in (True, False):
                env = {**os.environ, "TTMLIR_TOOL_SERVER": tool_server if served else ""}
                process, out, err = call(args, env, tmp_path, stdin="", tool=tool)
                runs.append((out, err, process.returncode))
            assert runs[0] == runs[1], (tool, args)
    finally:
        if stop is not None:
            stop()


def _own_server(runtime_dir: Path, within: float = 120) -> int:
    """The pid of the server a tool started for itself under `runtime_dir`, once it listens."""
    deadline = time.monotonic() + within
    while not (sockets := list(runtime_dir.glob("ttmlir-tools-*/*.sock"))):
        assert time.monotonic() < deadline, f"no server listened within {within} s"
        time.sleep(0.1)
    return int(Path(str(sockets[0]) + ".lock").read_text())


def _ended(pid: int, within: float = 30) -> bool:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.1)
    return False


@pytest.fixture
def runtime_dir():
    """A short $XDG_RUNTIME_DIR, as a login session's: pytest's own folders can be too long for a socket's path."""
    folder = Path(tempfile.mkdtemp(prefix="xdg-", dir="/tmp"))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def test_with_no_server_named_a_tool_starts_one_and_it_retires_when_its_code_changes(tmp_path, runtime_dir):
    probe = tmp_path / "probe"
    probe.mkdir()
    (probe / "ttmlir_opt.py").write_text(PROBE)
    env = {k: v for k, v in os.environ.items() if k != "TTMLIR_TOOL_SERVER"}
    env.update(PYTHONPATH=os.pathsep.join([str(probe), str(ROOT), str(ROOT / "tools")]), XDG_RUNTIME_DIR=str(runtime_dir))
    servers = []
    try:
        first, out, _ = call([], env, tmp_path)
        assert int(out.split("|")[0]) == first.pid  # no server yet: the first call ran in its own process
        servers.append(_own_server(runtime_dir))
        second, out, _ = call([], env, tmp_path)
        assert int(out.split("|")[0]) != second.pid and second.returncode == 3  # the next one was served
        (probe / "ttmlir_opt.py").write_text(PROBE.replace("to stderr", "edited"))
        edited, out, err = call([], env, tmp_path)
        # a server with old code does not serve it: the call runs the edited code itself, and the server ends
        assert int(out.split("|")[0]) == edited.pid and err == "edited\n"
        assert _ended(servers[0])
        call([], env, tmp_path)
        servers.append(_own_server(runtime_dir))
        again, out, err = call([], env, tmp_path)
        assert int(out.split("|")[0]) != again.pid and err == "edited\n"  # a fresh server, with the edited code
    finally:
        for pid in servers:
            try:
                os.kill(pid, signal.SIGTERM)
            except ProcessLookupError:
                pass


@pytest.mark.parametrize("value", ["0", ""])
def test_serving_turned_off_starts_no_server(tmp_path, runtime_dir, value):
    env = {**os.environ, "TTMLIR_TOOL_SERVER": value, "XDG_RUNTIME_DIR": str(runtime_dir)}
    process, _, _ = call(["--help"], env, tmp_path, stdin="")
    assert process.returncode == 0 and not list(runtime_dir.iterdir())


def test_a_runtime_folder_too_long_for_a_socket_falls_back_to_tmp(tmp_path, monkeypatch):
    from ttmlir_server import default_socket

    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path / ("long" * 30)))
    path = default_socket()
    assert path.startswith(f"/tmp/ttmlir-tools-{os.getuid()}/") and len(path + ".runtime") <= 107


def test_a_connection_that_sends_no_request_leaves_the_server_serving(probe_server, tmp_path):
    import socket

    folder, pythonpath = probe_server
    with socket.socket(socket.AF_UNIX) as stray:
        stray.connect(str(folder / "tools.sock"))
    time.sleep(2.5)  # the server's loop wakes every second
    env = {**os.environ, "PYTHONPATH": pythonpath, "TTMLIR_TOOL_SERVER": str(folder / "tools.sock")}
    process, out, _ = call([], env, tmp_path)
    assert int(out.split("|")[0]) != process.pid  # still served


def test_served_compiler_calls_import_nothing_the_preload_lacks(tmp_path):
    """A served call runs in a fork of the server as its preload left it: a module a tool imports on its way to work
    that the preload missed is imported again by every call (FileCheck's package once cost each call 26 ms)."""
    check = tmp_path / "check.txt"
    check.write_text("// CHECK: func.func @mlp\n")
    probe = f"""
import gc, sys
import ttmlir_server
ttmlir_server.preload_compiler()
gc.freeze()
before = set(sys.modules)
calls = [("ttmlir_opt", ["ttmlir-opt", "--ttir-to-ttnn-backend-pipeline", {str(ROOT / "examples/mlp.mlir")!r},
                         "-o", {str(tmp_path / "mlp.mlir")!r}]),
         ("ttmlir_translate", ["ttmlir-translate", "--ttnn-to-flatbuffer", {str(tmp_path / "mlp.mlir")!r},
                               "-o", {str(tmp_path / "mlp.ttnn")!r}]),
         ("ttmlir_filecheck", ["FileCheck", {str(check)!r}, "--input-file", {str(tmp_path / "mlp.mlir")!r}])]
for module, argv in calls:
    sys.argv = argv
    try:
        code = sys.modules[module].main()
    except SystemExit as done:
        code = done.code
    assert not code, (argv, code)
print(sorted(m for m in set(sys.modules) - before if not m.startswith("encodings.")))
"""
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          env=dict(os.environ, TTMLIR_TOOL_SERVER="0"))
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]", done.stdout
