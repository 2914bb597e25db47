"""lit configuration: tests under test/lit, RUN lines written as upstream tt-mlir writes them."""

import atexit
import os
import shutil

import lit.formats

config.name = "ttmlir"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir"]
config.excludes = ["Inputs"]

bin_dir = os.path.dirname(shutil.which("ttmlir-opt") or "")
config.environment["PATH"] = os.pathsep.join(p for p in (bin_dir, os.environ.get("PATH", "")) if p)
# RUN lines call `FileCheck`: ours (the filecheck package with LLVM's CHECK-NOT range, tools/ttmlir_filecheck).
config.substitutions.append(("FileCheck", shutil.which("FileCheck") or "FileCheck"))
config.substitutions.append(("%system_desc_path%", ""))
# A checkout beside the installed one (a git worktree) runs its own code through PYTHONPATH.
if "PYTHONPATH" in os.environ:
    config.environment["PYTHONPATH"] = os.environ["PYTHONPATH"]
config.available_features.add("stablehlo")  # the StableHLO front door (ttmlir.dialects.stablehlo)
# The op model (ttmlir/runtime/op_model.py) judges layouts and times ops, as upstream's built with its op model.
config.available_features.add("opmodel")


def start_tool_server() -> None:
    """The tools served warm for the suite's ~2,000 calls (tools/ttmlir_server): the server lives as long as lit.
    Until it listens, and whenever it cannot serve a call, the tools run in processes of their own."""
    python = os.path.join(bin_dir, "python")
    if not os.path.exists(python):
        return
    from ttmlir_server import ENVIRONMENT, start_server

    socket_path, stop = start_server(python)
    atexit.register(stop)
    config.environment[ENVIRONMENT] = socket_path


if lit_config.params.get("tool_server", "1") != "0":
    start_tool_server()
else:  # every call cold, as asked: not even the server a tool starts for itself when none is named
    config.environment["TTMLIR_TOOL_SERVER"] = "0"
