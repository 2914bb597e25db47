"""ttrt keeps every result: a bug met on one binary, Ctrl-C, and concurrent runs into one artifacts folder."""

import fcntl
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import torch

from ttmlir.compiler import compile_ttir
from ttmlir.runtime import session
from ttrt.common.api import API

ROOT = Path(__file__).resolve().parents[3]
DOUBLE = """func.func @double(%a: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %0 = "ttir.add"(%a, %a) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}
"""


@pytest.fixture(scope="module")
def double_binary(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("bin") / "double.ttnn"
    path.write_bytes(compile_ttir(DOUBLE))
    return path


def ttrt(*args) -> subprocess.Popen:
    """The `ttrt` command run cold, in a fresh process that takes Ctrl-C as a terminal's foreground process does (a
    suite started in the background inherits SIGINT ignored)."""
    return subprocess.Popen([Path(sys.executable).parent / "ttrt", *map(str, args)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env={**os.environ, "TTMLIR_TOOL_SERVER": ""},
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


def served_ttrt(*args) -> subprocess.Popen:
    """The `ttrt` command, a process of its own forked from the suite's tool server (torch already imported)."""
    return subprocess.Popen([Path(sys.executable).parent / "ttrt", *map(str, args)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def wait_for_line(process: subprocess.Popen, text: str) -> None:
    for line in process.stdout:
        if text in line:
            return
    raise AssertionError(f"ttrt ended without printing {text!r}: {process.stderr.read()}")


def test_a_bug_on_one_binary_is_recorded_and_the_others_still_run(double_binary, tmp_path, monkeypatch):
    folder = tmp_path / "binaries"
    folder.mkdir()
    for name in ("a_first.ttnn", "b_second.ttnn"):
        (folder / name).write_bytes(double_binary.read_bytes())
    execute = session.BinaryRun.execute

    def buggy_on_first(run, *args, **kwargs):
        if run.path.name.startswith("a_"):
            raise AttributeError("a bug")
        return execute(run, *args, **kwargs)

    monkeypatch.setattr(session.BinaryRun, "execute", buggy_on_first)
    API.initialize_apis()
    code, results = API.Run(args={"binary": str(folder), "--result-file": str(tmp_path / "r.json"),
                                  "--artifact-dir": str(tmp_path / "a")})()
    assert code == 1
    assert [r["result"] for r in results] == ["error", "pass"]
    assert results[0]["exception"] == "internal error: AttributeError: a bug"
    assert json.loads((tmp_path / "r.json").read_text()) == results


def test_ctrl_c_writes_the_results_so_far_and_says_so(double_binary, tmp_path):
    folder = tmp_path / "binaries"
    folder.mkdir()
    for i in range(200):
        (folder / f"double_{i:03}.ttnn").write_bytes(double_binary.read_bytes())
    result_file = tmp_path / "r.json"
    process = ttrt("run", folder, "--result-file", result_file, "--artifact-dir", tmp_path / "a")
    wait_for_line(process, "PASS")
    process.send_signal(signal.SIGINT)
    _, stderr = process.communicate(timeout=120)
    assert process.returncode == 130
    assert stderr.splitlines() == [f"ttrt: interrupted; the results so far are in {result_file}"]
    results = json.loads(result_file.read_text())
    assert 1 <= len(results) < 200
    assert all(r["result"] in ("pass", "interrupted") for r in results)


def test_ctrl_c_while_starting_up_is_one_line(double_binary, tmp_path):
    process = ttrt("run", double_binary, "--result-file", tmp_path / "r.json", "--artifact-dir", tmp_path / "a")
    # while it imports torch: the interpreter's own start-up, before the command's code, is past once torch's
    # libraries are mapped (on a loaded machine that can take longer than any fixed wait)
    maps, deadline = Path(f"/proc/{process.pid}/maps"), time.monotonic() + 60
    while "torch" not in maps.read_text():
        assert process.poll() is None and time.monotonic() < deadline, "ttrt never began importing torch"
        time.sleep(0.01)
    process.send_signal(signal.SIGINT)
    _, stderr = process.communicate(timeout=120)
    lines = stderr.splitlines()
    assert process.returncode == 130 and len(lines) == 1 and lines[0].startswith("ttrt: interrupted"), stderr


def test_runs_into_one_artifacts_folder_take_turns(double_binary, tmp_path):
    """While another run holds the binary's folder, a second waits, then writes a consistent set of tensors."""
    artifacts = tmp_path / "artifacts"
    folder = artifacts / double_binary.name
    folder.mkdir(parents=True)
    with open(folder / ".lock", "w") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        process = served_ttrt("run", double_binary, "--save-artifacts", "--artifact-dir", artifacts, "--result-file",
                       tmp_path / "r.json")
        wait_for_line(process, "waiting for another ttrt run")
        assert not (folder / "program_0").exists()
    process.communicate(timeout=120)
    assert process.returncode == 0
    given = torch.load(folder / "program_0" / "input_0.pt")
    assert torch.equal(torch.load(folder / "program_0" / "output_0.pt"), given + given)


def test_concurrent_runs_leave_one_runs_inputs_with_its_outputs(double_binary, tmp_path):
    artifacts = tmp_path / "artifacts"
    runs = [served_ttrt("run", double_binary, "--save-artifacts", "--artifact-dir", artifacts, "--seed", seed,
                 "--result-file", tmp_path / f"r{seed}.json") for seed in range(4)]
    assert [run.wait(timeout=120) for run in runs] == [0] * 4
    saved = artifacts / double_binary.name / "program_0"
    given = torch.load(saved / "input_0.pt")
    assert torch.equal(torch.load(saved / "output_0.pt"), given + given)
