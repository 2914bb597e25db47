"""ttmlir-opt as a user runs it: exit codes, diagnostics, outputs, help, and the Python pass API."""

import re
import subprocess
import sys
from pathlib import Path

import pytest

from ttmlir.asm import parse_text, print_module
from ttmlir.cli import UserError
from ttmlir.dialects import make_context

ROOT = Path(__file__).resolve().parents[3]
MLP = ROOT / "examples" / "mlp.mlir"


def opt(*args, stdin=None):
    """ttmlir-opt as a user starts it (served warm when the suite has a tool server)."""
    return subprocess.run([str(Path(sys.executable).parent / "ttmlir-opt"), *args], input=stdin,
                          capture_output=True, text=True, cwd=ROOT)


def test_error_is_located_one_line_with_caret_and_no_output_file(tmp_path):
    bad = tmp_path / "bad.mlir"
    bad.write_text('func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {\n'
                   '  %0 = "ttir.relu"(%a, %a) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>\n'
                   '  return %0 : tensor<4xf32>\n}\n')
    out = tmp_path / "out.mlir"
    result = opt(str(bad), "-o", str(out))
    assert result.returncode == 1
    lines = result.stderr.splitlines()
    assert lines[0] == f"{bad}:2:8: error: 'ttir.relu' op requires a single operand"
    assert lines[1].startswith('  %0 = "ttir.relu"')
    assert lines[2] == "       ^"
    assert "Traceback" not in result.stderr
    assert not out.exists()


def test_unknown_pass_and_bad_option_are_clear_errors():
    result = opt("--no-such-pass", str(MLP))
    assert result.returncode == 1 and "Unknown command line argument '--no-such-pass'" in result.stderr
    result = opt("--ttcore-register-device=mesh-size=2", str(MLP))
    assert result.returncode == 1 and "no such option 'mesh-size'" in result.stderr
    assert "Traceback" not in result.stderr


def test_split_input_prints_the_pieces_that_work_when_one_fails(tmp_path):
    """As mlir-opt: the good pieces still print on stdout, the bad one's error on stderr, and the exit is 1; an
    output file is not written."""
    source = tmp_path / "split.mlir"
    source.write_text("func.func @ok(%a: tensor<4xf32>) -> tensor<4xf32> {\n  return %a : tensor<4xf32>\n}\n"
                      "// -----\nfunc.func @bad( {\n")
    result = opt("--split-input-file", str(source))
    assert result.returncode == 1 and "func.func @ok" in result.stdout
    assert "split.mlir:5:17: error: Expected argument or type" in result.stderr
    result = opt("--split-input-file", str(source), "-o", str(tmp_path / "out.mlir"))
    assert result.returncode == 1 and not (tmp_path / "out.mlir").exists()


def test_missing_input_file():
    result = opt("/nonexistent/x.mlir")
    assert result.returncode == 1 and "cannot read '/nonexistent/x.mlir'" in result.stderr


def test_help_lists_every_pass_with_options():
    result = opt("--help")
    assert result.returncode == 0
    for name in ("--ttir-to-ttnn-backend-pipeline", "--ttcore-register-device", "--convert-ttir-to-ttnn",
                 "--ttnn-layout", "--ttnn-deallocate", "system-desc-path=<value>", "mock-system-desc-arch=<value>"):
        assert name in result.stdout


def test_show_dialects_lists_the_registered_dialects():
    result = opt("--show-dialects")
    assert result.returncode == 0
    line = result.stdout.strip()
    assert line.startswith("Available Dialects: ")
    names = line.split(": ", 1)[1].split(", ")
    assert names == sorted(names) and {"stablehlo", "ttir", "ttnn", "ttcore", "func"} <= set(names)


def test_stdin_and_output_file(tmp_path):
    out = tmp_path / "out.mlir"
    result = opt("--ttir-to-ttnn-backend-pipeline", "-o", str(out), stdin=MLP.read_text())
    assert result.returncode == 0, result.stderr
    assert '"ttnn.linear"' in out.read_text() and '"ttnn.softmax"' in out.read_text()


def test_does_not_import_torch():
    code = ("import sys, ttmlir_opt; ttmlir_opt.main(['--ttir-to-ttnn-backend-pipeline', sys.argv[1], '-o', "
            "'/dev/null']); print('torch' in sys.modules)")
    result = subprocess.run([sys.executable, "-c", code, str(MLP)], capture_output=True, text=True,
                            cwd=ROOT / "tools")
    assert result.stdout.strip() == "False", result.stderr


def test_python_pass_api_matches_cli():
    from ttmlir.passes import ttir_to_ttnn_backend_pipeline

    module, _ = parse_text(make_context(), MLP.read_text())
    printed = print_module(ttir_to_ttnn_backend_pipeline(module))
    cli = opt("--ttir-to-ttnn-backend-pipeline", str(MLP))
    assert printed == cli.stdout


def test_python_pass_api_wins_over_the_module_named_like_the_pass():
    """`ttmlir.transforms.ttnn.ttnn_layout` is the pass (as upstream's Python API has it), though ttnn_layout.py defines it."""
    import ttmlir.passes
    from ttmlir.passes import convert_ttir_to_ttnn, ttnn_layout

    module, _ = parse_text(make_context(), MLP.read_text())
    ttnn_layout(convert_ttir_to_ttnn(ttmlir.passes.ttcore_register_device(module)))
    assert "#ttnn.ttnn_layout" in print_module(module) and "ttir." not in print_module(module)


def test_unknown_python_pass_name():
    import ttmlir.passes

    with pytest.raises(AttributeError):
        ttmlir.passes.no_such_pass


def lit_tests(folder: Path) -> list[Path]:
    """The lit test files under `folder`: not lit's outputs, nor the inputs some RUN lines read."""
    return sorted(p for p in folder.rglob("*.mlir") if not {"Output", "Inputs"} & set(p.parts))


def _positive(text: str) -> bool:
    """Not a test of errors: none expected by its own RUN lines, nor read by another test's `not` RUN line (such a
    file's own RUN line is `true`)."""
    return not any(mark in text for mark in ("verify-diagnostics", "RUN: not ", "RUN: true"))


POSITIVE = [p for p in lit_tests(ROOT / "test" / "lit") if _positive(p.read_text())]


@pytest.mark.parametrize("path", POSITIVE[::5], ids=lambda p: p.name)
def test_print_parse_is_a_fixed_point(path):
    for chunk in path.read_text().split("// -----"):  # each piece of a split file is its own module
        first, _ = parse_text(make_context(), chunk)
        once = print_module(first, debuginfo=True)
        second, _ = parse_text(make_context(), once)
        assert print_module(second, debuginfo=True) == once


TTIR_OPS = [p for p in lit_tests(ROOT / "test" / "lit" / "Dialect" / "TTIR") if "negative" not in p.parts]


@pytest.mark.parametrize("path", TTIR_OPS, ids=lambda p: p.stem)
def test_pipeline_output_verifies_and_round_trips(path):
    from ttmlir.compiler import lower_to_ttnn
    from ttmlir.diagnostics import verify_module

    text = path.read_text()
    mesh = re.search(r"mesh-shape=[\d,]+", text)  # the mesh the file's own pipeline RUN line compiles for
    lowered = print_module(lower_to_ttnn(text, str(path), mesh.group() if mesh else ""), debuginfo=True)
    reparsed, positions = parse_text(make_context(), lowered)
    verify_module(reparsed, positions, str(path), lowered)
    assert print_module(reparsed, debuginfo=True) == lowered
    assert '"ttir.' not in lowered


def _limit_file_size():
    import resource

    resource.setrlimit(resource.RLIMIT_FSIZE, (64, 64))


@pytest.mark.parametrize("where, reason", [("missing/out.mlir", "No such file or directory"),
                                           (".", "Is a directory"), ("big.mlir", "File too large")])
def test_a_failed_write_names_the_file_and_leaves_nothing_behind(tmp_path, where, reason):
    """-o into a missing folder, onto a folder, or past a file-size limit: one error line, exit 1, no file."""
    target = tmp_path / where
    result = subprocess.run([sys.executable, "-c", "import sys, ttmlir_opt; sys.exit(ttmlir_opt.main(sys.argv[1:]))",
                             str(MLP), "-o", str(target)], capture_output=True, text=True, cwd=ROOT / "tools",
                            preexec_fn=_limit_file_size if where == "big.mlir" else None)
    assert result.returncode == 1
    assert result.stderr == f"ttmlir-opt: error: cannot open output file '{target}': {reason}\n"
    assert [p.name for p in tmp_path.iterdir()] == []


def test_output_into_a_pipe_writes_into_it_and_leaves_it_a_pipe(tmp_path):
    """-o onto a device or a FIFO (-o /dev/null) writes into it; the atomic write's rename would have put a
    regular file in its place (as root, /dev/null itself)."""
    import os
    import threading

    from ttmlir.cli import write_atomic

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    received = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_text()))
    reader.start()
    write_atomic(str(fifo), "module {\n}\n")
    reader.join(10)
    assert received == ["module {\n}\n"] and fifo.is_fifo()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pipe"]


@pytest.mark.parametrize("raised, printed", [
    (lambda: UserError("cannot open output file 'x': No such file or directory"),
     "tool: error: cannot open output file 'x': No such file or directory"),
    (lambda: ValueError("not enough values to unpack (expected 2, got 1)"),
     "tool: error: internal error: ValueError: not enough values to unpack (expected 2, got 1) "
     "(set TTMLIR_TRACEBACK=1 for details)")])
def test_only_user_errors_print_as_plain_errors(raised, printed, capsys, monkeypatch):
    """A bug's ValueError must not pass for a problem with the user's input."""
    from ttmlir.cli import guarded

    monkeypatch.delenv("TTMLIR_TRACEBACK", raising=False)

    def body():
        raise raised()

    assert guarded("tool", body) == 1
    assert capsys.readouterr().err.splitlines() == [printed]
